// Inter-process memory and events, between this test process and a child copy of it.
#include "musa_runtime.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace {

template <class Handle> std::string toHex(const Handle &h) {
  static const char *digits = "0123456789abcdef";
  std::string s;
  for (unsigned char c : h.reserved)
    s += digits[c >> 4], s += digits[c & 15];
  return s;
}

template <class Handle> Handle fromHex(const std::string &s) {
  Handle h{};
  for (size_t i = 0; i < sizeof h.reserved && 2 * i + 1 < s.size(); ++i)
    h.reserved[i] = char(std::stoi(s.substr(2 * i, 2), nullptr, 16));
  return h;
}

/// Runs this binary's IpcChild test with `arg` in the environment; returns its exit status.
int runChild(const std::string &arg) {
  std::string exe = "/proc/self/exe", filter = "--gtest_filter=IpcChild.*";
  std::string env = "MUSA_SIM_TEST_IPC=" + arg;
  std::vector<char *> envp;
  for (char **e = environ; *e; ++e)
    envp.push_back(*e);
  envp.push_back(env.data());
  envp.push_back(nullptr);
  char *argv[] = {exe.data(), filter.data(), nullptr};
  pid_t pid;
  if (posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv, envp.data()) != 0)
    return -1;
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct Gate {
  std::atomic<bool> open{false};
  static void MUSART_CB wait(void *self) {
    while (!static_cast<Gate *>(self)->open)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
};

} // namespace

TEST(IpcApi, MemoryAndEventsCrossProcesses) {
  int *d;
  ASSERT_EQ(musaMalloc(&d, 4096), musaSuccess);
  std::vector<int> pattern(1024);
  for (int i = 0; i < 1024; ++i)
    pattern[size_t(i)] = i * 11;
  ASSERT_EQ(musaMemcpy(d, pattern.data(), 4096, musaMemcpyHostToDevice), musaSuccess);
  musaIpcMemHandle_t mem;
  ASSERT_EQ(musaIpcGetMemHandle(&mem, d), musaSuccess);

  musaEvent_t ev;
  ASSERT_EQ(musaEventCreateWithFlags(&ev, musaEventInterprocess | musaEventDisableTiming),
            musaSuccess);
  musaIpcEventHandle_t evh;
  ASSERT_EQ(musaIpcGetEventHandle(&evh, ev), musaSuccess);
  // Hold a record behind a gate: the child must see it as not ready.
  musaStream_t s;
  ASSERT_EQ(musaStreamCreateWithFlags(&s, musaStreamNonBlocking), musaSuccess);
  Gate gate;
  ASSERT_EQ(musaLaunchHostFunc(s, Gate::wait, &gate), musaSuccess);
  ASSERT_EQ(musaEventRecord(ev, s), musaSuccess);

  EXPECT_EQ(runChild(toHex(mem) + ":" + toHex(evh)), 0);

  // The child doubled every element through its mapping and recorded the event after.
  std::vector<int> back(1024);
  ASSERT_EQ(musaMemcpy(back.data(), d, 4096, musaMemcpyDeviceToHost), musaSuccess);
  for (int i = 0; i < 1024; ++i)
    ASSERT_EQ(back[size_t(i)], i * 22) << i;
  gate.open = true;
  EXPECT_EQ(musaEventSynchronize(ev), musaSuccess);
  EXPECT_EQ(musaEventQuery(ev), musaSuccess);
  musaStreamDestroy(s);
  musaEventDestroy(ev);
  musaFree(d);
}

TEST(IpcApi, BadHandlesAndMemory) {
  musaIpcMemHandle_t mem{};
  void *p;
  EXPECT_EQ(musaIpcOpenMemHandle(&p, mem, 0), musaErrorInvalidValue); // all zero
  int host;
  EXPECT_EQ(musaIpcGetMemHandle(&mem, &host), musaErrorInvalidValue);
  int *d;
  ASSERT_EQ(musaMalloc(&d, 64), musaSuccess);
  ASSERT_EQ(musaIpcGetMemHandle(&mem, d), musaSuccess);
  EXPECT_EQ(musaIpcOpenMemHandle(&p, mem, 0), musaErrorDeviceUninitialized); // own process
  EXPECT_EQ(musaIpcCloseMemHandle(d), musaErrorInvalidValue);
  musaEvent_t plain;
  ASSERT_EQ(musaEventCreate(&plain), musaSuccess);
  musaIpcEventHandle_t evh;
  EXPECT_EQ(musaIpcGetEventHandle(&evh, plain), musaErrorInvalidResourceHandle);
  musaIpcEventHandle_t zero{};
  musaEvent_t opened;
  EXPECT_EQ(musaIpcOpenEventHandle(&opened, zero), musaErrorInvalidValue);
  musaEventDestroy(plain);
  musaFree(d);
  musaGetLastError();
}

TEST(IpcChild, OpensParentHandles) {
  const char *arg = std::getenv("MUSA_SIM_TEST_IPC");
  if (!arg)
    GTEST_SKIP() << "runs only as IpcApi's child process";
  std::string text(arg);
  auto mem = fromHex<musaIpcMemHandle_t>(text.substr(0, text.find(':')));
  auto evh = fromHex<musaIpcEventHandle_t>(text.substr(text.find(':') + 1));
  musaEvent_t ev;
  ASSERT_EQ(musaIpcOpenEventHandle(&ev, evh), musaSuccess);
  EXPECT_EQ(musaEventQuery(ev), musaErrorNotReady); // the parent's record is held
  int *d;
  ASSERT_EQ(musaIpcOpenMemHandle(reinterpret_cast<void **>(&d), mem,
                                 musaIpcMemLazyEnablePeerAccess),
            musaSuccess);
  std::vector<int> data(1024);
  ASSERT_EQ(musaMemcpy(data.data(), d, 4096, musaMemcpyDeviceToHost), musaSuccess);
  for (int i = 0; i < 1024; ++i)
    ASSERT_EQ(data[size_t(i)], i * 11);
  for (int &v : data)
    v *= 2;
  ASSERT_EQ(musaMemcpy(d, data.data(), 4096, musaMemcpyHostToDevice), musaSuccess);
  musaMemoryType type;
  ASSERT_EQ(musaPointerGetMemoryType(&type, d), musaSuccess);
  EXPECT_EQ(type, musaMemoryTypeDevice);
  EXPECT_EQ(musaIpcCloseMemHandle(d), musaSuccess);
  EXPECT_EQ(musaIpcCloseMemHandle(d), musaErrorInvalidValue);
  EXPECT_EQ(musaEventDestroy(ev), musaSuccess);
}

// Where does --default-stream per-thread code wait for a blocking stream that a host function
// holds? (per_thread_stream.mu hung on the H100.) Built with nvcc --default-stream per-thread.
// Each step prints before and after; a watchdog thread opens the gate after 3 s so the probe
// always ends, and says which step was still waiting then.
#include <cuda_runtime.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

static std::atomic<bool> gate{false};
static std::atomic<int> step{0};
static void CUDART_CB hold(void *) {
  while (!gate.load())
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}
__global__ void setTo(int *p, int v) { *p = v; }

int main(int argc, char **argv) {
  setvbuf(stdout, nullptr, _IONBF, 0);
  std::thread watchdog([] {
    std::this_thread::sleep_for(std::chrono::seconds(3));
    if (!gate.load())
      printf("watchdog: step %d still waiting after 3 s; opening the gate\n", step.load());
    gate = true;
  });
  cudaStream_t blocking;
  cudaStreamCreate(&blocking);
  int *d, *pinned;
  cudaMalloc(&d, sizeof(int));
  cudaMallocHost(&pinned, sizeof(int));
  cudaMemset(d, 0, sizeof(int));
  cudaDeviceSynchronize();
  cudaLaunchHostFunc(blocking, hold, nullptr);
  auto at = [](int s, const char *what) { step = s; printf("step %d: %s\n", s, what); };
  at(1, "kernel on stream 0");
  setTo<<<1, 1>>>(d, 42);
  at(2, "event record + query loop");
  cudaEvent_t e;
  cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  cudaEventRecord(e, 0);
  bool done = false;
  for (int i = 0; i < 1000 && !done; ++i) {
    done = cudaEventQuery(e) == cudaSuccess;
    if (!done) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  printf("  event done: %d\n", int(done));
  at(3, "cudaMemcpyAsync to pinned on stream 0 + cudaStreamSynchronize(0)");
  cudaMemcpyAsync(pinned, d, sizeof(int), cudaMemcpyDeviceToHost, 0);
  cudaStreamSynchronize(0);
  printf("  pinned reads %d, gate %d\n", *pinned, int(gate.load()));
  at(4, "cudaMemcpy to pinned");
  cudaMemcpy(pinned, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("  gate %d\n", int(gate.load()));
  at(5, "cudaMemcpy to pageable");
  int v = 0;
  cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost);
  printf("  pageable reads %d, gate %d\n", v, int(gate.load()));
  at(6, "cudaMemcpy pageable to device");
  cudaMemcpy(d, &v, sizeof v, cudaMemcpyHostToDevice);
  printf("  gate %d, blocking stream %s\n", int(gate.load()),
         cudaStreamQuery(blocking) == cudaErrorNotReady ? "held" : "done");
  gate = true;
  watchdog.join();
  cudaStreamSynchronize(blocking);
  printf("end\n");
}

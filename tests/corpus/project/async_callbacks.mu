// asyncAPI + simpleCallback style: event polling while the device works, per-thread streams
// with musaStreamAddCallback, musaLaunchHostFunc, and legacy default stream ordering.
#include <musa_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <thread>
#include <atomic>
#include <chrono>
#include <mutex>

#define CK(x) do { musaError_t e_ = (x); if (e_ != musaSuccess) { printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, musaGetErrorString(e_)); ok = false; } } while (0)
static bool ok = true;

__global__ void increment_kernel(int *g_data, int inc_value, int reps) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int v = g_data[idx];
  for (int r = 0; r < reps; ++r) v += inc_value;
  g_data[idx] = v;
}

__global__ void readFlag(const volatile int *flag, int *out) { out[threadIdx.x] = *flag; }

struct WorkerData {
  int id;
  int n;
  int *h_data;
  int *d_data;
  musaStream_t stream;
  std::atomic<int> *done;
  bool cbOk;
  musaError_t cbStatus;
};

static void MUSART_CB myCallback(musaStream_t s, musaError_t status, void *userData) {
  WorkerData *w = (WorkerData *)userData;
  w->cbStatus = status;
  // the device-to-host copy before the callback must be complete
  bool good = true;
  for (int i = 0; i < w->n; ++i) if (w->h_data[i] != (w->id + 1) * 7 * 3 + i) good = false;
  w->cbOk = good;
  w->done->fetch_add(1);
}

static std::atomic<int> hostFuncOrder{0};
static int hostFuncSeen[4];
static void MUSART_CB hostFn(void *p) {
  int k = (int)(size_t)p;
  hostFuncSeen[k] = hostFuncOrder.fetch_add(1);
}

static int *g_mappedFlag;
static void MUSART_CB slowSetFlag(void *) {
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  *g_mappedFlag = 1234;
}

int main() {
  CK(musaSetDeviceFlags(musaDeviceMapHost));
  // ---- asyncAPI ----
  {
    const int n = 16 * 1024;
    int *a, *d_a;
    CK(musaMallocHost((void **)&a, n * sizeof(int)));
    memset(a, 0, n * sizeof(int));
    CK(musaMalloc((void **)&d_a, n * sizeof(int)));
    CK(musaMemset(d_a, 255, n * sizeof(int)));
    musaEvent_t start, stop;
    CK(musaEventCreate(&start));
    CK(musaEventCreate(&stop));
    CK(musaDeviceSynchronize());
    int value = 26;
    musaEventRecord(start, 0);
    musaMemcpyAsync(d_a, a, n * sizeof(int), musaMemcpyHostToDevice, 0);
    increment_kernel<<<n / 512, 512, 0, 0>>>(d_a, value, 200);
    musaMemcpyAsync(a, d_a, n * sizeof(int), musaMemcpyDeviceToHost, 0);
    musaEventRecord(stop, 0);
    unsigned long counter = 0;
    musaError_t q;
    while ((q = musaEventQuery(stop)) == musaErrorNotReady) counter++;
    if (q != musaSuccess) { printf("event query: %s\n", musaGetErrorString(q)); ok = false; }
    float ms = -1;
    CK(musaEventElapsedTime(&ms, start, stop));
    bool good = true;
    for (int i = 0; i < n; ++i) if (a[i] != value * 200) good = false;
    if (!good || ms < 0) { printf("asyncAPI wrong (a[0]=%d, ms=%f)\n", a[0], ms); ok = false; }
    musaEventDestroy(start); musaEventDestroy(stop);
    musaFreeHost(a); musaFree(d_a);
  }
  // ---- simpleCallback: one host thread per worker, each with its own stream ----
  {
    const int W = 4, n = 1000;
    std::atomic<int> done{0};
    std::vector<WorkerData> ws(W);
    std::vector<std::thread> th;
    for (int w = 0; w < W; ++w) {
      th.emplace_back([&, w]() {
        WorkerData &d = ws[w];
        d.id = w; d.n = n; d.done = &done; d.cbOk = false; d.cbStatus = musaErrorUnknown;
        musaSetDevice(0);
        musaHostAlloc((void **)&d.h_data, n * sizeof(int), musaHostAllocPortable);
        musaMalloc((void **)&d.d_data, n * sizeof(int));
        musaStreamCreateWithFlags(&d.stream, musaStreamNonBlocking);
        for (int i = 0; i < n; ++i) d.h_data[i] = i;
        musaMemcpyAsync(d.d_data, d.h_data, n * sizeof(int), musaMemcpyHostToDevice, d.stream);
        increment_kernel<<<(n + 127) / 128, 128, 0, d.stream>>>(d.d_data, (w + 1) * 7, 3);
        musaMemcpyAsync(d.h_data, d.d_data, n * sizeof(int), musaMemcpyDeviceToHost, d.stream);
        musaStreamAddCallback(d.stream, myCallback, &d, 0);
      });
    }
    for (auto &t : th) t.join();
    auto t0 = std::chrono::steady_clock::now();
    while (done.load() < W && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20))
      std::this_thread::yield();
    if (done.load() != W) { printf("only %d callbacks ran\n", done.load()); ok = false; }
    for (auto &d : ws) {
      if (!d.cbOk || d.cbStatus != musaSuccess) { printf("worker %d callback saw bad data/status %d\n", d.id, (int)d.cbStatus); ok = false; }
      musaStreamSynchronize(d.stream);
      musaStreamDestroy(d.stream); musaFree(d.d_data); musaFreeHost(d.h_data);
    }
  }
  // ---- musaLaunchHostFunc order in one stream ----
  {
    musaStream_t s;
    CK(musaStreamCreate(&s));
    int *d; CK(musaMalloc(&d, 4096 * sizeof(int)));
    for (int k = 0; k < 4; ++k) {
      increment_kernel<<<8, 512, 0, s>>>(d, 1, 100);
      CK(musaLaunchHostFunc(s, hostFn, (void *)(size_t)k));
    }
    CK(musaStreamSynchronize(s));
    for (int k = 0; k < 4; ++k) if (hostFuncSeen[k] != k) { printf("host func %d ran %d-th\n", k, hostFuncSeen[k]); ok = false; }
    musaFree(d); musaStreamDestroy(s);
  }
  // ---- legacy default stream: a blocking stream waits for work in stream 0 ----
  {
    int *h_flag, *d_flag, *d_out;
    CK(musaHostAlloc((void **)&h_flag, sizeof(int), musaHostAllocMapped));
    *h_flag = 0; g_mappedFlag = h_flag;
    CK(musaHostGetDevicePointer((void **)&d_flag, h_flag, 0));
    CK(musaMalloc(&d_out, 32 * sizeof(int)));
    musaStream_t s1;
    CK(musaStreamCreate(&s1));  // blocking w.r.t. the legacy stream
    CK(musaLaunchHostFunc(0, slowSetFlag, nullptr));
    readFlag<<<1, 32, 0, s1>>>(d_flag, d_out);
    CK(musaStreamSynchronize(s1));
    int out[32];
    CK(musaMemcpy(out, d_out, sizeof(out), musaMemcpyDeviceToHost));
    if (out[0] != 1234) { printf("blocking stream ran before legacy stream's host func (saw %d)\n", out[0]); ok = false; }
    // and stream 0 waits for s1
    *h_flag = 0;
    CK(musaLaunchHostFunc(s1, slowSetFlag, nullptr));
    readFlag<<<1, 32>>>(d_flag, d_out);
    CK(musaMemcpy(out, d_out, sizeof(out), musaMemcpyDeviceToHost));
    if (out[0] != 1234) { printf("legacy stream ran before blocking stream's host func (saw %d)\n", out[0]); ok = false; }
    musaStreamDestroy(s1); musaFreeHost(h_flag); musaFree(d_out);
  }
  printf("asyncAPI/simpleCallback: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

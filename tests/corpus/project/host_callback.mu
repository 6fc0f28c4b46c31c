// Host work in stream order: musaLaunchHostFunc between kernels sees the results of the work before it (read from mapped pinned memory), and musaStreamAddCallback reports the stream's status.
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

struct Log {
  int *pinned;
  int n;
  int order[8];
  int seenValues[8];
  int calls;
  musaError_t status;
};

__global__ void addValue(int *a, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] += v;
}

static void MUSART_CB snapshot(void *p) {
  Log *log = (Log *)p;
  log->order[log->calls] = log->calls;
  log->seenValues[log->calls] = log->pinned[log->n - 1];
  ++log->calls;
}

static void MUSART_CB done(musaStream_t, musaError_t status, void *p) {
  Log *log = (Log *)p;
  log->status = status;
  log->order[log->calls++] = 100;
}

int main() {
  const int n = 1 << 12;
  int *pinned, *dev;
  CHECK(musaHostAlloc(&pinned, n * sizeof(int), musaHostAllocMapped));
  CHECK(musaHostGetDevicePointer((void **)&dev, pinned, 0));
  for (int i = 0; i < n; ++i)
    pinned[i] = 0;
  Log log = {pinned, n, {0}, {0}, 0, musaErrorUnknown};
  musaStream_t s;
  CHECK(musaStreamCreate(&s));
  for (int step = 1; step <= 3; ++step) {
    addValue<<<n / 256, 256, 0, s>>>(dev, n, step);
    CHECK(musaLaunchHostFunc(s, snapshot, &log));
  }
  CHECK(musaStreamAddCallback(s, done, &log, 0));
  CHECK(musaStreamSynchronize(s));
  CHECK(musaGetLastError());
  bool ok = log.calls == 4 && log.seenValues[0] == 1 && log.seenValues[1] == 3 &&
            log.seenValues[2] == 6 && log.order[3] == 100 && log.status == musaSuccess;
  for (int i = 0; i < n; ++i)
    ok = ok && pinned[i] == 6;
  CHECK(musaStreamDestroy(s));
  CHECK(musaFreeHost(pinned));
  printf("host_callback: host functions saw %d, %d, %d; %s\n", log.seenValues[0], log.seenValues[1],
         log.seenValues[2], ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

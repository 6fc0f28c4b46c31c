// Events with flags: musaEventDisableTiming (elapsed time refused), musaEventBlockingSync, musaEventRecordWithFlags; musaStreamWaitEvent orders a consumer stream after a producer; musaEventQuery before and after.
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

__global__ void produce(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = 0;
    for (int k = 0; k < 200; ++k)
      v = (v * 31 + i + k) % 10007;
    a[i] = v;
  }
}
__global__ void consume(const int *a, int *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b[i] = a[i] + 1;
}

int main() {
  const int n = 1 << 16;
  int *a, *b;
  CHECK(musaMalloc(&a, n * sizeof(int)));
  CHECK(musaMalloc(&b, n * sizeof(int)));
  musaStream_t producer, consumer;
  CHECK(musaStreamCreateWithFlags(&producer, musaStreamNonBlocking));
  CHECK(musaStreamCreateWithFlags(&consumer, musaStreamNonBlocking));
  musaEvent_t ready, blocking, t0, t1;
  CHECK(musaEventCreateWithFlags(&ready, musaEventDisableTiming));
  CHECK(musaEventCreateWithFlags(&blocking, musaEventBlockingSync));
  CHECK(musaEventCreate(&t0));
  CHECK(musaEventCreate(&t1));
  CHECK(musaEventRecord(t0, producer));
  produce<<<n / 256, 256, 0, producer>>>(a, n);
  CHECK(musaEventRecordWithFlags(ready, producer, musaEventRecordDefault));
  CHECK(musaEventRecord(t1, producer));
  CHECK(musaStreamWaitEvent(consumer, ready, 0));
  consume<<<n / 256, 256, 0, consumer>>>(a, b, n);
  CHECK(musaEventRecord(blocking, consumer));
  CHECK(musaEventSynchronize(blocking));
  bool ok = musaEventQuery(blocking) == musaSuccess && musaEventQuery(ready) == musaSuccess;
  float ms = -1.0f;
  musaError_t e = musaEventElapsedTime(&ms, ready, t1);
  ok = ok && e == musaErrorInvalidResourceHandle;
  musaGetLastError();
  CHECK(musaEventSynchronize(t1)); // recorded after `ready`: the consumer did not wait for it
  CHECK(musaEventElapsedTime(&ms, t0, t1));
  ok = ok && ms > 0.0f;
  int *h = (int *)malloc(n * sizeof(int));
  CHECK(musaMemcpy(h, b, n * sizeof(int), musaMemcpyDeviceToHost));
  for (int i = 0; i < n && ok; ++i) {
    int v = 0;
    for (int k = 0; k < 200; ++k)
      v = (v * 31 + i + k) % 10007;
    ok = h[i] == v + 1;
  }
  CHECK(musaEventDestroy(ready));
  CHECK(musaEventDestroy(blocking));
  CHECK(musaEventDestroy(t0));
  CHECK(musaEventDestroy(t1));
  CHECK(musaStreamDestroy(producer));
  CHECK(musaStreamDestroy(consumer));
  printf("event_flags: producer kernel %.3f ms, consumer ordered after it, %s\n", ms, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

// Work split over 4 non-blocking streams, each copying its chunk in, running a kernel and copying out (the simpleStreams pattern); the events show the streams' work overlapping in device time.
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

#define STREAMS 4

__global__ void scaleAdd(float *a, int n, float s, float b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = a[i] * s + b;
}

int main() {
  const int n = 1 << 20, chunk = n / STREAMS;
  float *h, *d;
  CHECK(musaMallocHost(&h, n * sizeof(float)));
  CHECK(musaMalloc(&d, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    h[i] = (float)(i % 1024);
  musaStream_t s[STREAMS];
  musaEvent_t begin[STREAMS], end[STREAMS];
  for (int k = 0; k < STREAMS; ++k) {
    CHECK(musaStreamCreateWithFlags(&s[k], musaStreamNonBlocking));
    CHECK(musaEventCreate(&begin[k]));
    CHECK(musaEventCreate(&end[k]));
  }
  for (int k = 0; k < STREAMS; ++k) {
    float *hp = h + k * chunk, *dp = d + k * chunk;
    CHECK(musaEventRecord(begin[k], s[k]));
    CHECK(musaMemcpyAsync(dp, hp, chunk * sizeof(float), musaMemcpyHostToDevice, s[k]));
    scaleAdd<<<chunk / 256, 256, 0, s[k]>>>(dp, chunk, 2.0f, (float)k);
    CHECK(musaMemcpyAsync(hp, dp, chunk * sizeof(float), musaMemcpyDeviceToHost, s[k]));
    CHECK(musaEventRecord(end[k], s[k]));
  }
  CHECK(musaGetLastError());
  CHECK(musaDeviceSynchronize());
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float ref = (float)(i % 1024) * 2.0f + (float)(i / chunk);
    if (h[i] != ref && bad++ < 5)
      printf("element %d: %f != %f\n", i, h[i], ref);
  }
  // Overlap: the span from the first begin to the last end is shorter than the streams' sum.
  float sum = 0, span = 0;
  for (int k = 0; k < STREAMS; ++k) {
    float ms;
    CHECK(musaEventElapsedTime(&ms, begin[k], end[k]));
    sum += ms;
    CHECK(musaEventElapsedTime(&ms, begin[0], end[k]));
    span = ms > span ? ms : span;
  }
  printf("multi_stream_overlap: %d streams, sum of stream times %.3f ms, span %.3f ms\n", STREAMS,
         sum, span);
  bool ok = !bad && sum > 0 && span > 0 && span < sum;
  for (int k = 0; k < STREAMS; ++k) {
    CHECK(musaEventDestroy(begin[k]));
    CHECK(musaEventDestroy(end[k]));
    CHECK(musaStreamDestroy(s[k]));
  }
  CHECK(musaFreeHost(h));
  CHECK(musaFree(d));
  printf("multi_stream_overlap: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

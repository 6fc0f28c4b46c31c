// Events around a kernel and a copy: musaEventRecord, musaEventSynchronize, musaEventElapsedTime (positive and ordered), musaEventQuery after completion.
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

__global__ void busy(float *data, int n, int rounds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = data[i];
    for (int r = 0; r < rounds; ++r)
      v = v * 0.999f + 0.001f;
    data[i] = v;
  }
}

int main() {
  const int n = 1 << 18;
  float *d, *h = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = 0.0f;
  CHECK(musaMalloc(&d, n * sizeof(float)));
  musaStream_t stream;
  CHECK(musaStreamCreate(&stream));
  musaEvent_t start, afterCopy, afterKernel;
  CHECK(musaEventCreate(&start));
  CHECK(musaEventCreate(&afterCopy));
  CHECK(musaEventCreate(&afterKernel));
  CHECK(musaEventRecord(start, stream));
  CHECK(musaMemcpyAsync(d, h, n * sizeof(float), musaMemcpyHostToDevice, stream));
  CHECK(musaEventRecord(afterCopy, stream));
  busy<<<n / 256, 256, 0, stream>>>(d, n, 64);
  CHECK(musaGetLastError());
  CHECK(musaEventRecord(afterKernel, stream));
  CHECK(musaEventSynchronize(afterKernel));
  float copyMs = 0, kernelMs = 0, totalMs = 0;
  CHECK(musaEventElapsedTime(&copyMs, start, afterCopy));
  CHECK(musaEventElapsedTime(&kernelMs, afterCopy, afterKernel));
  CHECK(musaEventElapsedTime(&totalMs, start, afterKernel));
  bool ok = copyMs > 0 && kernelMs > 0 && totalMs >= copyMs && totalMs >= kernelMs &&
            fabsf(totalMs - (copyMs + kernelMs)) <= 0.01f * totalMs + 1e-3f;
  ok = ok && musaEventQuery(afterKernel) == musaSuccess;
  CHECK(musaMemcpy(h, d, n * sizeof(float), musaMemcpyDeviceToHost));
  float ref = 0.0f;
  for (int r = 0; r < 64; ++r)
    ref = ref * 0.999f + 0.001f;
  for (int i = 0; i < n; ++i)
    if (fabsf(h[i] - ref) > 1e-6f) {
      ok = false;
      break;
    }
  CHECK(musaEventDestroy(start));
  CHECK(musaEventDestroy(afterCopy));
  CHECK(musaEventDestroy(afterKernel));
  CHECK(musaStreamDestroy(stream));
  printf("stream_event_timing: copy %.3f ms, kernel %.3f ms, total %.3f ms, %s\n", copyMs, kernelMs,
         totalMs, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

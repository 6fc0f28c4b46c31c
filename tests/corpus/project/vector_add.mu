// Vector addition, the first program of every GPU tutorial: c = a + b over 2^20 floats.
#include <musa_runtime.h>
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

__global__ void vectorAdd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

int main() {
  const int n = 1 << 20;
  const size_t bytes = n * sizeof(float);
  float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
  for (int i = 0; i < n; ++i) {
    a[i] = rand() / (float)RAND_MAX;
    b[i] = rand() / (float)RAND_MAX;
  }
  float *da, *db, *dc;
  CHECK(musaMalloc(&da, bytes));
  CHECK(musaMalloc(&db, bytes));
  CHECK(musaMalloc(&dc, bytes));
  CHECK(musaMemcpy(da, a, bytes, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(db, b, bytes, musaMemcpyHostToDevice));
  int threads = 256, blocks = (n + threads - 1) / threads;
  vectorAdd<<<blocks, threads>>>(da, db, dc, n);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(c, dc, bytes, musaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i] && bad++ < 5)
      printf("mismatch at %d: %f != %f\n", i, c[i], a[i] + b[i]);
  CHECK(musaFree(da));
  CHECK(musaFree(db));
  CHECK(musaFree(dc));
  free(a);
  free(b);
  free(c);
  printf("vector_add: %d elements, %s\n", n, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

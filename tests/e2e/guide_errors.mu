// The runtime guide's 错误处理 snippets: error strings and names, the launch check, and the
// MUSA_CHECK macro exiting on the first failure with the guide's message.
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define MUSA_CHECK(call)                                                                     \
  do {                                                                                       \
    musaError_t err = call;                                                                  \
    if (err != musaSuccess) {                                                                \
      fprintf(stderr, "MUSA error at %s:%d: %s\n", __FILE__, __LINE__,                       \
              musaGetErrorString(err));                                                      \
      exit(EXIT_FAILURE);                                                                    \
    }                                                                                        \
  } while (0)

__global__ void vectorAdd(float *a, float *b, float *c, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n)
    c[idx] = a[idx] + b[idx];
}

int main() {
  int n = 256;
  size_t size = n * sizeof(float);
  float *d_data, *d_a, *d_b, *d_c;
  float h_data[256] = {};
  MUSA_CHECK(musaMalloc(&d_data, size));
  MUSA_CHECK(musaMemcpy(d_data, h_data, size, musaMemcpyHostToDevice));
  MUSA_CHECK(musaMalloc(&d_a, size));
  MUSA_CHECK(musaMalloc(&d_b, size));
  // The guide's snippet adds d_a and d_b without writing them; differential mode reports that
  // as an uninitialised read (tests/hardware/passthrough_h200.txt), so they are written here.
  MUSA_CHECK(musaMemcpy(d_a, h_data, size, musaMemcpyHostToDevice));
  MUSA_CHECK(musaMemcpy(d_b, h_data, size, musaMemcpyHostToDevice));
  MUSA_CHECK(musaMalloc(&d_c, size));

  // 获取错误信息
  musaError_t err = musaSetDevice(42);
  printf("Error: %s\n", musaGetErrorString(err));
  const char *errorName;
  musaGetErrorName(&errorName, err);
  printf("Error name: %s\n", errorName);
  err = musaGetLastError(); // resets
  err = musaGetLastError();
  printf("after reset: %s\n", musaGetErrorName(err));

  // 内核启动后的错误检查
  int blockSize = 256, gridSize = (n + blockSize - 1) / blockSize;
  vectorAdd<<<gridSize, blockSize>>>(d_a, d_b, d_c, n);
  MUSA_CHECK(musaGetLastError());
  musaDeviceSynchronize();
  printf("launch ok\n");

  // A failing call: the macro prints the guide's message and exits with EXIT_FAILURE.
  vectorAdd<<<gridSize, 4096>>>(d_a, d_b, d_c, n);
  MUSA_CHECK(musaGetLastError());
  printf("not reached\n");
  return 0;
}

// A naive wmma GEMM (one warp per 16x16 tile, from global memory), N from argv: its SASS shows
// what load_matrix_sync / mma_sync / store_matrix_sync compile to (tests/hardware/hw-session24.sh).
#include <musa_runtime.h>
#include <musa_fp16.h>
#include <mma.h>
#include <stdio.h>
#include <vector>
using namespace nvcuda;
__global__ void g(const __half *A, const __half *B, float *C, int N) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int tm = warp / (N / 16), tn = warp % (N / 16);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < N; k += 16) {
    wmma::load_matrix_sync(a, A + (size_t)tm * 16 * N + k, N);
    wmma::load_matrix_sync(b, B + (size_t)tn * 16 * N + k, N);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(C + (size_t)tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}
int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 512;
  std::vector<__half> h(N * N);
  for (int i = 0; i < N * N; i++) h[i] = __float2half((i % 7) / 8.0f);
  __half *A, *B; float *C;
  musaMalloc(&A, N * N * 2); musaMalloc(&B, N * N * 2); musaMalloc(&C, N * N * 4);
  musaMemcpy(A, h.data(), N * N * 2, musaMemcpyHostToDevice);
  musaMemcpy(B, h.data(), N * N * 2, musaMemcpyHostToDevice);
  musaEvent_t s, e; musaEventCreate(&s); musaEventCreate(&e);
  int warps = (N / 16) * (N / 16);
  g<<<warps / 4, 128>>>(A, B, C, N);
  musaEventRecord(s);
  g<<<warps / 4, 128>>>(A, B, C, N);
  musaEventRecord(e); musaEventSynchronize(e);
  float ms; musaEventElapsedTime(&ms, s, e);
  float c0; musaMemcpy(&c0, C, 4, musaMemcpyDeviceToHost);
  printf("N=%d %.4f ms c0=%g err=%s\n", N, ms, c0, musaGetErrorString(musaGetLastError()));
}

// Tensor-core style GEMM with the wmma API on half and bfloat16 inputs: each warp computes one
// 16x16 tile of C = alpha * A(MxK, row-major) * B(KxN, col-major) + beta * C with float
// accumulators, scaling the accumulator fragment element-wise (frag.x[i], num_elements) as
// cuBLAS-free samples do; a second run accumulates in __half fragments. A and B hold small
// integers / 8 so every product and sum is exact and the host reference matches exactly.
#include <musa_runtime.h>
#include <musa_fp16.h>
#include <musa_bf16.h>
#include <mma.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>
using namespace nvcuda;

#define CHECK(call) do { musaError_t e_ = (call); if (e_ != musaSuccess) { \
  printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(e_)); exit(1); } } while (0)

template <typename T, typename Acc>
__global__ void wmmaGemm(const T *A, const T *B, float *C, int M, int N, int K, float alpha, float beta) {
  int warpId = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int tilesN = N / 16;
  int tm = warpId / tilesN, tn = warpId % tilesN;
  if (tm >= M / 16) return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, Acc> acc;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + (size_t)tm * 16 * K + k, K);
    wmma::load_matrix_sync(b, B + (size_t)tn * 16 * K + k, K);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::load_matrix_sync(c, C + (size_t)tm * 16 * N + tn * 16, N, wmma::mem_row_major);
  for (int i = 0; i < c.num_elements; i++) c.x[i] = alpha * float(acc.x[i]) + beta * c.x[i];
  wmma::store_matrix_sync(C + (size_t)tm * 16 * N + tn * 16, c, N, wmma::mem_row_major);
}

template <typename T, typename Acc> int run(const char *name, T (*conv)(float)) {
  const int M = 64, N = 48, K = 96;
  std::vector<T> A(M * K), B(K * N);
  std::vector<float> a(M * K), b(K * N), C(M * N), out(M * N);
  for (int i = 0; i < M * K; i++) { a[i] = ((i * 7) % 9 - 4) / 8.0f; A[i] = conv(a[i]); }
  for (int i = 0; i < K * N; i++) { b[i] = ((i * 5) % 7 - 3) / 8.0f; B[i] = conv(b[i]); } // B[n*K + k]
  for (int i = 0; i < M * N; i++) C[i] = (i % 11) * 0.5f;
  T *dA, *dB; float *dC;
  CHECK(musaMalloc(&dA, A.size() * sizeof(T))); CHECK(musaMalloc(&dB, B.size() * sizeof(T))); CHECK(musaMalloc(&dC, C.size() * 4));
  CHECK(musaMemcpy(dA, A.data(), A.size() * sizeof(T), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, B.data(), B.size() * sizeof(T), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dC, C.data(), C.size() * 4, musaMemcpyHostToDevice));
  int dev; musaDeviceProp p; CHECK(musaGetDevice(&dev)); CHECK(musaGetDeviceProperties(&p, dev));
  int warps = (M / 16) * (N / 16), wpb = 2;
  wmmaGemm<T, Acc><<<(warps + wpb - 1) / wpb, wpb * p.warpSize>>>(dA, dB, dC, M, N, K, 2.0f, 0.5f);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(out.data(), dC, out.size() * 4, musaMemcpyDeviceToHost));
  int bad = 0;
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      double s = 0;
      for (int k = 0; k < K; k++) s += (double)a[m * K + k] * b[n * K + k];
      double want = 2.0 * s + 0.5 * C[m * N + n];
      if (out[m * N + n] != (float)want && bad++ < 5) printf("%s C[%d][%d] = %g want %g\n", name, m, n, out[m * N + n], want);
    }
  musaFree(dA); musaFree(dB); musaFree(dC);
  return bad;
}
static __half toHalf(float f) { return __float2half(f); }
static __nv_bfloat16 toBf16(float f) { return __float2bfloat16(f); }

int main() {
  int bad = run<__half, float>("half/float", toHalf) + run<__nv_bfloat16, float>("bf16/float", toBf16) + run<__half, __half>("half/half", toHalf);
  printf("wmma_half_gemm: %d mismatches %s\n", bad, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

// libs_probe.cu: what cuRAND and cuBLAS do where random_host.mu and blas.mu met the H200
// (2026-12-07): device generators' normals against host generators', generating while a stream
// is captured, and cuBLAS's answers to gemv with incx 0 and SetMatrix with lda < rows.
#include <cublas_v2.h>
#include <curand.h>
#include <cstdio>
#include <cstring>
#include <cmath>
int main() {
  const curandRngType_t types[] = {CURAND_RNG_PSEUDO_XORWOW, CURAND_RNG_PSEUDO_PHILOX4_32_10,
                                   CURAND_RNG_PSEUDO_MRG32K3A};
  float *d;
  double *dd;
  cudaMalloc(&d, 4096 * 4);
  cudaMalloc(&dd, 4096 * 8);
  for (auto t : types) {
    curandGenerator_t g, hg;
    float dv[8], hv[8];
    double ddv[4], hdv[4];
    curandCreateGenerator(&g, t);
    curandCreateGeneratorHost(&hg, t);
    curandSetPseudoRandomGeneratorSeed(g, 1234);
    curandSetPseudoRandomGeneratorSeed(hg, 1234);
    curandGenerateNormal(g, d, 8, 0.f, 1.f);
    cudaMemcpy(dv, d, sizeof dv, cudaMemcpyDeviceToHost);
    curandGenerateNormal(hg, hv, 8, 0.f, 1.f);
    curandGenerateNormalDouble(g, dd, 4, 0., 1.);
    cudaMemcpy(ddv, dd, sizeof ddv, cudaMemcpyDeviceToHost);
    curandGenerateNormalDouble(hg, hdv, 4, 0., 1.);
    printf("type %d normal (device / host, bits):\n", t);
    for (int i = 0; i < 8; ++i) {
      unsigned a, b;
      memcpy(&a, &dv[i], 4), memcpy(&b, &hv[i], 4);
      printf("  %.9g %08x / %.9g %08x  ulps %d\n", dv[i], a, hv[i], b, int(a) - int(b));
    }
    for (int i = 0; i < 4; ++i) {
      unsigned long long a, b;
      memcpy(&a, &ddv[i], 8), memcpy(&b, &hdv[i], 8);
      printf("  double %.17g / %.17g  ulps %lld\n", ddv[i], hdv[i], (long long)(a - b));
    }
    float lv[4];
    curandGenerateLogNormal(g, d, 4, 0.2f, 0.3f);
    cudaMemcpy(lv, d, sizeof lv, cudaMemcpyDeviceToHost);
    curandGenerateLogNormal(hg, hv, 4, 0.2f, 0.3f);
    for (int i = 0; i < 4; ++i)
      printf("  lognormal %.9g / %.9g\n", lv[i], hv[i]);
    curandDestroyGenerator(g);
    curandDestroyGenerator(hg);
    // Capture: a seeded generator, then one whose offset was just set.
    cudaStream_t s;
    cudaStreamCreate(&s);
    for (int reseed = 0; reseed < 2; ++reseed) {
      curandCreateGenerator(&g, t);
      curandSetStream(g, s);
      curandSetPseudoRandomGeneratorSeed(g, 1234);
      curandGenerateUniform(g, d, 64);
      cudaStreamSynchronize(s);
      if (reseed)
        curandSetGeneratorOffset(g, 0);
      cudaGraph_t graph = nullptr;
      cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
      int st = curandGenerateUniform(g, d, 64);
      cudaError_t e = cudaStreamEndCapture(s, &graph);
      size_t nodes = 0;
      if (graph)
        cudaGraphGetNodes(graph, nullptr, &nodes);
      printf("type %d capture after %s: generate %d, end capture %s, %zu nodes\n", t,
             reseed ? "setOffset" : "a generate", st, cudaGetErrorName(e), nodes);
      cudaGetLastError();
      if (graph) {
        cudaGraphExec_t ex;
        if (cudaGraphInstantiate(&ex, graph, nullptr, nullptr, 0) == cudaSuccess) {
          float a[4], b[4];
          cudaGraphLaunch(ex, s);
          cudaMemcpyAsync(a, d, sizeof a, cudaMemcpyDeviceToHost, s);
          cudaGraphLaunch(ex, s);
          cudaMemcpyAsync(b, d, sizeof b, cudaMemcpyDeviceToHost, s);
          cudaStreamSynchronize(s);
          printf("  replays: %s\n", memcmp(a, b, sizeof a) ? "differ" : "the same values");
          cudaGraphExecDestroy(ex);
        }
        cudaGraphDestroy(graph);
      }
      curandDestroyGenerator(g);
    }
    cudaStreamDestroy(s);
  }
  cublasHandle_t h;
  cublasCreate(&h);
  float one = 1.f, r = -1.f;
  printf("cublas gemv incx 0: %d\n", cublasSgemv(h, CUBLAS_OP_N, 2, 2, &one, d, 2, d, 0, &one, d, 1));
  printf("cublas gemv incy 0: %d\n", cublasSgemv(h, CUBLAS_OP_N, 2, 2, &one, d, 2, d, 1, &one, d, 0));
  printf("cublas gemv lda < m: %d\n", cublasSgemv(h, CUBLAS_OP_N, 4, 2, &one, d, 2, d, 1, &one, d, 1));
  printf("cublas SetMatrix lda < rows: %d\n", cublasSetMatrix(4, 2, 4, &one, 2, d, 4));
  printf("cublas SetMatrix ldb < rows: %d\n", cublasSetMatrix(4, 2, 4, d, 4, d, 2));
  printf("cublas SetVector incx 0: %d, incx -1: %d\n", cublasSetVector(2, 4, &one, 0, d, 1),
         cublasSetVector(2, 4, &one, -1, d, 1));
  printf("cublas dot incx -1: %d\n", cublasSdot(h, 4, d, -1, d, 1, &r));
  printf("cublas nrm2 incx 0: %d r=%g\n", cublasSnrm2(h, 4, d, 0, &r), r);
  printf("cublas geam B null beta 0: %d\n", cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, 2, 2, &one, d, 2, &r, nullptr, 2, d + 64, 2));
  float zero = 0.f;
  printf("cublas geam B null beta 0 (zero): %d\n", cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, 2, 2, &one, d, 2, &zero, nullptr, 2, d + 64, 2));
  int8_t *i8; int *i32; int ione = 1, izero = 0;
  cudaMalloc(&i8, 4096); cudaMalloc(&i32, 4096 * 4);
  printf("cublas GemmEx int8 N,N 20x12x32: %d\n", cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 20, 12, 32, &ione, i8, CUDA_R_8I, 20, i8, CUDA_R_8I, 32, &izero, i32, CUDA_R_32I, 20, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
  printf("cublas GemmEx int8 N,N k=33: %d\n", cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 20, 12, 33, &ione, i8, CUDA_R_8I, 20, i8, CUDA_R_8I, 33, &izero, i32, CUDA_R_32I, 20, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
  printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cublasDestroy(h);
  return 0;
}

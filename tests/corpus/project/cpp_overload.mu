// cppOverload-style: three overloads of one kernel name, each picked through a typed function
// pointer, queried with musaFuncGetAttributes and launched; plus musaFuncSetCacheConfig.
#include <musa_runtime.h>
#include <cstdio>
#include <vector>

#define THREAD_N 256
#define N 1024
static bool ok = true;
#define CK(x) do { musaError_t e_ = (x); if (e_ != musaSuccess) { printf("line %d: %s -> %s\n", __LINE__, #x, musaGetErrorString(e_)); ok = false; } } while (0)

__global__ void simple_kernel(const int *pIn, int *pOut, int a) {
  __shared__ int sData[THREAD_N];
  int tid = threadIdx.x + blockDim.x * blockIdx.x;
  sData[threadIdx.x] = pIn[tid];
  __syncthreads();
  pOut[tid] = sData[threadIdx.x] * a + tid;
}

__global__ void simple_kernel(const int2 *pIn, int *pOut, int a) {
  __shared__ int2 sData[THREAD_N];
  int tid = threadIdx.x + blockDim.x * blockIdx.x;
  sData[threadIdx.x] = pIn[tid];
  __syncthreads();
  pOut[tid] = (sData[threadIdx.x].x + sData[threadIdx.x].y) * a + tid;
}

__global__ void simple_kernel(const int *pIn1, const int *pIn2, int *pOut, int a) {
  __shared__ int sData1[THREAD_N];
  __shared__ int sData2[THREAD_N];
  int tid = threadIdx.x + blockDim.x * blockIdx.x;
  sData1[threadIdx.x] = pIn1[tid];
  sData2[threadIdx.x] = pIn2[tid];
  __syncthreads();
  pOut[tid] = (sData1[threadIdx.x] + sData2[threadIdx.x]) * a + tid;
}

// template overloads too
template <typename T> __global__ void scale(T *p, T f) { p[threadIdx.x] *= f; }
template <> __global__ void scale<int>(int *p, int f) { p[threadIdx.x] = p[threadIdx.x] * f + 1; }

int main() {
  std::vector<int> hIn(N * 2), hOut(N);
  for (int i = 0; i < 2 * N; ++i) hIn[i] = i % 97;
  int *dIn, *dOut;
  CK(musaMalloc(&dIn, 2 * N * sizeof(int)));
  CK(musaMalloc(&dOut, N * sizeof(int)));
  CK(musaMemcpy(dIn, hIn.data(), 2 * N * sizeof(int), musaMemcpyHostToDevice));

  void (*func1)(const int *, int *, int) = simple_kernel;
  void (*func2)(const int2 *, int *, int) = simple_kernel;
  void (*func3)(const int *, const int *, int *, int) = simple_kernel;
  musaFuncAttributes a1, a2, a3;
  CK(musaFuncGetAttributes(&a1, func1));
  CK(musaFuncGetAttributes(&a2, func2));
  CK(musaFuncGetAttributes(&a3, func3));
  printf("shared: %zu %zu %zu, maxThreads %d %d %d\n", a1.sharedSizeBytes, a2.sharedSizeBytes, a3.sharedSizeBytes,
         a1.maxThreadsPerBlock, a2.maxThreadsPerBlock, a3.maxThreadsPerBlock);
  if (a1.sharedSizeBytes != THREAD_N * sizeof(int) || a2.sharedSizeBytes != THREAD_N * sizeof(int2) ||
      a3.sharedSizeBytes != 2 * THREAD_N * sizeof(int)) { printf("wrong static shared sizes\n"); ok = false; }
  CK(musaFuncSetCacheConfig(func1, musaFuncCachePreferShared));
  CK(musaFuncSetCacheConfig(func2, musaFuncCachePreferL1));
  CK(musaFuncSetCacheConfig(func3, musaFuncCachePreferEqual));

  for (int which = 1; which <= 3; ++which) {
    if (which == 1) func1<<<N / THREAD_N, THREAD_N>>>(dIn, dOut, 2);
    if (which == 2) func2<<<N / THREAD_N, THREAD_N>>>((const int2 *)dIn, dOut, 3);
    if (which == 3) func3<<<N / THREAD_N, THREAD_N>>>(dIn, dIn + N, dOut, 4);
    CK(musaGetLastError());
    CK(musaMemcpy(hOut.data(), dOut, N * sizeof(int), musaMemcpyDeviceToHost));
    for (int i = 0; i < N; ++i) {
      int want = which == 1 ? hIn[i] * 2 + i : which == 2 ? (hIn[2 * i] + hIn[2 * i + 1]) * 3 + i : (hIn[i] + hIn[N + i]) * 4 + i;
      if (hOut[i] != want) { printf("overload %d: out[%d]=%d want %d\n", which, i, hOut[i], want); ok = false; break; }
    }
  }
  // via musaLaunchKernel with the function pointer
  {
    int a = 5;
    const int *p1 = dIn; int *p2 = dOut;
    void *args[] = {&p1, &p2, &a};
    CK(musaLaunchKernel((const void *)func1, dim3(N / THREAD_N), dim3(THREAD_N), args, 0, 0));
    CK(musaMemcpy(hOut.data(), dOut, N * sizeof(int), musaMemcpyDeviceToHost));
    for (int i = 0; i < N; ++i) if (hOut[i] != hIn[i] * 5 + i) { printf("musaLaunchKernel overload wrong at %d\n", i); ok = false; break; }
  }
  // template overloads / explicit specialisation
  {
    float hf[32]; int hi[32];
    for (int i = 0; i < 32; ++i) { hf[i] = i * 0.5f; hi[i] = i; }
    float *df; int *di;
    CK(musaMalloc(&df, sizeof(hf))); CK(musaMalloc(&di, sizeof(hi)));
    CK(musaMemcpy(df, hf, sizeof(hf), musaMemcpyHostToDevice));
    CK(musaMemcpy(di, hi, sizeof(hi), musaMemcpyHostToDevice));
    scale<<<1, 32>>>(df, 4.0f);
    scale<<<1, 32>>>(di, 3);
    musaFuncAttributes at;
    CK(musaFuncGetAttributes(&at, scale<float>));
    CK(musaFuncGetAttributes(&at, scale<int>));
    CK(musaMemcpy(hf, df, sizeof(hf), musaMemcpyDeviceToHost));
    CK(musaMemcpy(hi, di, sizeof(hi), musaMemcpyDeviceToHost));
    for (int i = 0; i < 32; ++i)
      if (hf[i] != i * 2.0f || hi[i] != 3 * i + 1) { printf("template overload wrong at %d: %f %d\n", i, hf[i], hi[i]); ok = false; break; }
  }
  printf("cppOverload: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

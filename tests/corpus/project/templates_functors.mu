// Templated kernels with functors: one transform kernel and one block-reduce kernel instantiated for int, float and double with different operators, a lambda-like functor carrying state, and a SharedMemory<T> helper as in the samples.
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

template <class T> struct SharedMemory {
  __device__ T *get() {
    extern __shared__ unsigned char smem[];
    return reinterpret_cast<T *>(smem);
  }
};

template <class T> struct Plus {
  __device__ __host__ T operator()(T a, T b) const { return a + b; }
  static __device__ __host__ T identity() { return T(0); }
};
template <class T> struct Max {
  __device__ __host__ T operator()(T a, T b) const { return a > b ? a : b; }
  static __device__ __host__ T identity() { return T(-1000000); }
};
template <class T> struct Affine {
  T a, b;
  __device__ __host__ T operator()(T x) const { return a * x + b; }
};

template <class T, class F> __global__ void transform(const T *in, T *out, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = f(in[i]);
}

template <class T, class Op> __global__ void blockReduce(const T *in, T *out, int n, Op op) {
  T *s = SharedMemory<T>().get();
  T v = Op::identity();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    v = op(v, in[i]);
  s[threadIdx.x] = v;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k)
      s[threadIdx.x] = op(s[threadIdx.x], s[threadIdx.x + k]);
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

template <class T, class Op> bool check(const char *name, Affine<T> f, Op op) {
  const int n = 50000, blocks = 32, threads = 256;
  T *h = (T *)malloc(n * sizeof(T)), *din, *dt, *dpart;
  for (int i = 0; i < n; ++i)
    h[i] = T(i % 37);
  CHECK(musaMalloc(&din, n * sizeof(T)));
  CHECK(musaMalloc(&dt, n * sizeof(T)));
  CHECK(musaMalloc(&dpart, blocks * sizeof(T)));
  CHECK(musaMemcpy(din, h, n * sizeof(T), musaMemcpyHostToDevice));
  transform<<<(n + 255) / 256, 256>>>(din, dt, n, f);
  blockReduce<<<blocks, threads, threads * sizeof(T)>>>(dt, dpart, n, op);
  blockReduce<<<1, threads, threads * sizeof(T)>>>(dpart, dpart, blocks, op);
  CHECK(musaGetLastError());
  T got, ref = Op::identity();
  CHECK(musaMemcpy(&got, dpart, sizeof(T), musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    ref = op(ref, f(h[i]));
  CHECK(musaFree(din));
  CHECK(musaFree(dt));
  CHECK(musaFree(dpart));
  free(h);
  bool ok = got == ref;
  printf("  %-14s got %.1f expected %.1f\n", name, (double)got, (double)ref);
  return ok;
}

int main() {
  bool ok = true;
  ok &= check<int>("int plus", Affine<int>{3, -1}, Plus<int>());
  ok &= check<int>("int max", Affine<int>{-2, 50}, Max<int>());
  ok &= check<float>("float plus", Affine<float>{0.5f, 0.25f}, Plus<float>());
  ok &= check<double>("double max", Affine<double>{1.5, 2.0}, Max<double>());
  ok &= check<double>("double plus", Affine<double>{0.125, 1.0}, Plus<double>());
  printf("templates_functors: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

// C++ in kernels: templates, functors, lambdas, classes, recursion, device function pointers,
// inline control, launch bounds, static_assert and constexpr tables.
#include "check.h"

constexpr int Squares[8] = {0, 1, 4, 9, 16, 25, 36, 49};
static_assert(Squares[7] == 49, "constexpr tables work");

struct Accumulator {
  int total = 0;
  __device__ void add(int v) { total += v; }
  __device__ int get() const { return total; }
};

struct Scale {
  int factor;
  __device__ int operator()(int v) const { return v * factor; }
};

template <class F> __global__ void mapKernel(int *data, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = f(data[i]);
}

__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ int twice(int v) { return 2 * v; }
__device__ __forceinline__ int thrice(int v) { return 3 * v; }
typedef int (*UnaryOp)(int);
__device__ UnaryOp ops[2] = {twice, thrice};

__global__ void __launch_bounds__(128) misc(int *out, int pick) {
  int t = threadIdx.x;
  Accumulator acc;
  for (int k = 0; k <= t % 8; ++k)
    acc.add(Squares[k]);
  UnaryOp op = ops[pick];
  out[t * 4 + 0] = acc.get();
  out[t * 4 + 1] = fib(t % 12);
  out[t * 4 + 2] = op(t);
  auto lambda = [t](int x) { return x + t; };
  out[t * 4 + 3] = lambda(100);
}

int main() {
  const int n = 64;
  int h[n * 4], *d;
  CHECK_MUSA(musaMalloc(&d, sizeof h));
  misc<<<1, n>>>(d, 1);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  int fibs[12] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89};
  for (int t = 0; t < n; ++t) {
    int sum = 0;
    for (int k = 0; k <= t % 8; ++k)
      sum += Squares[k];
    CHECK(h[t * 4 + 0] == sum, "class method accumulation %d", h[t * 4]);
    CHECK(h[t * 4 + 1] == fibs[t % 12], "recursion %d", h[t * 4 + 1]);
    CHECK(h[t * 4 + 2] == 3 * t, "device function pointer %d", h[t * 4 + 2]);
    CHECK(h[t * 4 + 3] == 100 + t, "lambda %d", h[t * 4 + 3]);
  }
  int v[n];
  for (int i = 0; i < n; ++i)
    v[i] = i;
  CHECK_MUSA(musaMemcpy(d, v, sizeof v, musaMemcpyHostToDevice));
  mapKernel<<<2, 32>>>(d, n, Scale{5});
  mapKernel<<<2, 32>>>(d, n, [] __device__(int x) { return x + 1; });
  CHECK_MUSA(musaMemcpy(v, d, sizeof v, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    CHECK(v[i] == i * 5 + 1, "functor then lambda: %d", v[i]);
  return finish("cxx_kernels");
}

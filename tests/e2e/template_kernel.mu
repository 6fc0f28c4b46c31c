// One template kernel, two instantiations (int and double), plus a by-value struct argument.
#include "check.h"

template <class T> struct Affine {
  T a, b;
};

template <class T> __global__ void apply(Affine<T> f, const T *in, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = f.a * in[i] + f.b;
}

template <class T> void run(Affine<T> f, int n) {
  T *h = (T *)malloc(n * sizeof(T)), *r = (T *)malloc(n * sizeof(T));
  for (int i = 0; i < n; ++i)
    h[i] = T(i % 100);
  T *din, *dout;
  CHECK_MUSA(musaMalloc(&din, n * sizeof(T)));
  CHECK_MUSA(musaMalloc(&dout, n * sizeof(T)));
  CHECK_MUSA(musaMemcpy(din, h, n * sizeof(T), musaMemcpyHostToDevice));
  apply<T><<<(n + 63) / 64, 64>>>(f, din, dout, n);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaMemcpy(r, dout, n * sizeof(T), musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    CHECK(r[i] == f.a * h[i] + f.b, "element %d: %f", i, double(r[i]));
  free(h);
  free(r);
}

int main() {
  run<int>({3, -7}, 777);
  run<double>({0.5, 0.25}, 1234);
  // musaLaunchKernel with an explicit argument array reaches the same kernel.
  int n = 10, *din, *dout, h[10];
  for (int i = 0; i < n; ++i)
    h[i] = i;
  CHECK_MUSA(musaMalloc(&din, sizeof h));
  CHECK_MUSA(musaMalloc(&dout, sizeof h));
  CHECK_MUSA(musaMemcpy(din, h, sizeof h, musaMemcpyHostToDevice));
  Affine<int> f = {2, 1};
  void *args[] = {&f, &din, &dout, &n};
  CHECK_MUSA(musaLaunchKernel(apply<int>, dim3(1), dim3(32), args, 0, 0));
  CHECK_MUSA(musaMemcpy(h, dout, sizeof h, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    CHECK(h[i] == 2 * i + 1, "musaLaunchKernel element %d: %d", i, h[i]);
  return finish("template_kernel");
}

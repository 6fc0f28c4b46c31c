// Merge of two sorted arrays by merge path: each thread binary-searches the diagonal where its output range starts, then merges its share sequentially.
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

#define PER_THREAD 8

__device__ int mergePathSearch(const int *a, int na, const int *b, int nb, int diag) {
  int lo = max(0, diag - nb), hi = min(diag, na);
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (a[mid] <= b[diag - 1 - mid])
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo; // elements taken from a
}

__global__ void mergeKernel(const int *a, int na, const int *b, int nb, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int total = na + nb, diag = t * PER_THREAD;
  if (diag >= total)
    return;
  int i = mergePathSearch(a, na, b, nb, diag), j = diag - i;
  int end = min(diag + PER_THREAD, total);
  for (int k = diag; k < end; ++k) {
    if (j >= nb || (i < na && a[i] <= b[j]))
      out[k] = a[i++];
    else
      out[k] = b[j++];
  }
}

int main() {
  const int na = 40000, nb = 25536, n = na + nb;
  int *a = (int *)malloc(na * sizeof(int)), *b = (int *)malloc(nb * sizeof(int));
  int *res = (int *)malloc(n * sizeof(int)), *ref = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < na; ++i)
    a[i] = i * 3;
  for (int i = 0; i < nb; ++i)
    b[i] = i * 5 + 1;
  int i = 0, j = 0, k = 0;
  while (i < na || j < nb)
    ref[k++] = (j >= nb || (i < na && a[i] <= b[j])) ? a[i++] : b[j++];
  int *da, *db, *dout;
  CHECK(musaMalloc(&da, na * sizeof(int)));
  CHECK(musaMalloc(&db, nb * sizeof(int)));
  CHECK(musaMalloc(&dout, n * sizeof(int)));
  CHECK(musaMemcpy(da, a, na * sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(db, b, nb * sizeof(int), musaMemcpyHostToDevice));
  int threads = (n + PER_THREAD - 1) / PER_THREAD;
  mergeKernel<<<(threads + 255) / 256, 256>>>(da, na, db, nb, dout);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(res, dout, n * sizeof(int), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int q = 0; q < n; ++q)
    if (res[q] != ref[q] && bad++ < 5)
      printf("out[%d] = %d, expected %d\n", q, res[q], ref[q]);
  printf("merge_path: %d + %d elements, %s\n", na, nb, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

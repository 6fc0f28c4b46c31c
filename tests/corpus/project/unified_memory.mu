// Unified memory from musaMallocManaged: the host initialises, a kernel updates in place, the host reads after musaDeviceSynchronize; musaMemPrefetchAsync, musaMemAdvise and a managed struct with a pointer inside.
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

struct Particles {
  int n;
  float *x;
  float *v;
};

__global__ void step(Particles *p, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p->n)
    p->x[i] += p->v[i] * dt;
}

int main() {
  const int n = 1 << 16;
  Particles *p;
  CHECK(musaMallocManaged(&p, sizeof(Particles)));
  CHECK(musaMallocManaged(&p->x, n * sizeof(float)));
  CHECK(musaMallocManaged(&p->v, n * sizeof(float), musaMemAttachGlobal));
  p->n = n;
  for (int i = 0; i < n; ++i) {
    p->x[i] = (float)i;
    p->v[i] = (float)(i % 8);
  }
  int dev = 0;
  CHECK(musaGetDevice(&dev));
  CHECK(musaMemAdvise(p->v, n * sizeof(float), musaMemAdviseSetReadMostly, dev));
  CHECK(musaMemPrefetchAsync(p->x, n * sizeof(float), dev, 0));
  for (int s = 0; s < 4; ++s)
    step<<<(n + 255) / 256, 256>>>(p, 0.25f);
  CHECK(musaGetLastError());
  CHECK(musaDeviceSynchronize());
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (p->x[i] != (float)i + (float)(i % 8) && bad++ < 5)
      printf("x[%d] = %f\n", i, p->x[i]);
  musaPointerAttributes attr;
  CHECK(musaPointerGetAttributes(&attr, p->x));
  bool ok = !bad && attr.type == musaMemoryTypeManaged;
  CHECK(musaFree(p->x));
  CHECK(musaFree(p->v));
  CHECK(musaFree(p));
  printf("unified_memory: %d particles, 4 steps, %s\n", n, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

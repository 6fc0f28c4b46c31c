// Zero-copy: musaHostAlloc(Mapped) + musaHostGetDevicePointer, kernels reading/writing host memory,
// musaHostRegister(Mapped)/Unregister with their error codes, musaHostGetFlags.
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)
#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      printf("mismatch %s:%d: %s\n", __FILE__, __LINE__, #cond);       \
      ok = false;                                                      \
    }                                                                  \
  } while (0)

__global__ void scale(const float *in, float *out, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * s;
}
__global__ void count(int *counter, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(counter, 1);
}

int main() {
  bool ok = true;
  CHECK(musaSetDeviceFlags(musaDeviceMapHost));
  musaDeviceProp prop;
  CHECK(musaGetDeviceProperties(&prop, 0));
  EXPECT(prop.canMapHostMemory == 1);
  unsigned int dflags = 0;
  CHECK(musaGetDeviceFlags(&dflags));
  EXPECT(dflags & musaDeviceMapHost);

  const int n = 1000;
  float *hin, *hout;
  CHECK(musaHostAlloc((void **)&hin, n * sizeof(float), musaHostAllocMapped));
  CHECK(musaHostAlloc((void **)&hout, n * sizeof(float), musaHostAllocMapped | musaHostAllocWriteCombined));
  unsigned int f = 0;
  CHECK(musaHostGetFlags(&f, hout));
  EXPECT((f & musaHostAllocMapped) && (f & musaHostAllocWriteCombined));
  CHECK(musaHostGetFlags(&f, hin + 10)); // interior pointer is fine
  EXPECT(f & musaHostAllocMapped);
  for (int i = 0; i < n; ++i) hin[i] = (float)i;
  float *din, *dout;
  CHECK(musaHostGetDevicePointer((void **)&din, hin, 0));
  CHECK(musaHostGetDevicePointer((void **)&dout, hout, 0));
  float *dmid;
  CHECK(musaHostGetDevicePointer((void **)&dmid, hin + 100, 0));
  EXPECT(dmid == din + 100);
  // flags must be 0
  void *dummy;
  EXPECT(musaHostGetDevicePointer(&dummy, hin, 1) == musaErrorInvalidValue);
  musaGetLastError();
  scale<<<(n + 255) / 256, 256>>>(din, dout, n, 3.0f);
  CHECK(musaGetLastError());
  CHECK(musaDeviceSynchronize());
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += hout[i] != 3.0f * i;
  EXPECT(bad == 0);

  // A plain malloc'd pointer has no device pointer.
  float *plain = (float *)malloc(4096);
  EXPECT(musaHostGetDevicePointer(&dummy, plain, 0) == musaErrorInvalidValue);
  musaGetLastError();
  EXPECT(musaHostGetFlags(&f, plain) == musaErrorInvalidValue);
  musaGetLastError();
  // Unregistering never registered memory.
  EXPECT(musaHostUnregister(plain) == musaErrorHostMemoryNotRegistered);
  musaGetLastError();
  free(plain);

  // musaHostRegister of an aligned buffer, mapped.
  size_t bytes = 1 << 16;
  int *reg = (int *)aligned_alloc(4096, bytes);
  memset(reg, 0, bytes);
  CHECK(musaHostRegister(reg, bytes, musaHostRegisterMapped));
  EXPECT(musaHostRegister(reg, bytes, musaHostRegisterMapped) == musaErrorHostMemoryAlreadyRegistered);
  musaGetLastError();
  int *dreg;
  CHECK(musaHostGetDevicePointer((void **)&dreg, reg, 0));
  count<<<4, 256>>>(dreg + 5, 1000);
  CHECK(musaDeviceSynchronize());
  EXPECT(reg[5] == 1000 && reg[0] == 0);
  // musaMemcpy from registered memory.
  int *d;
  CHECK(musaMalloc(&d, bytes));
  reg[7] = 77;
  CHECK(musaMemcpyAsync(d, reg, bytes, musaMemcpyHostToDevice, 0));
  int back[8];
  CHECK(musaMemcpy(back, d, sizeof back, musaMemcpyDeviceToHost));
  EXPECT(back[5] == 1000 && back[7] == 77);
  CHECK(musaHostUnregister(reg));
  EXPECT(musaHostUnregister(reg) == musaErrorHostMemoryNotRegistered);
  musaGetLastError();
  EXPECT(musaHostGetDevicePointer(&dummy, reg, 0) == musaErrorInvalidValue);
  musaGetLastError();
  // Null and zero-size registrations are invalid values.
  EXPECT(musaHostRegister(nullptr, 4096, 0) == musaErrorInvalidValue);
  musaGetLastError();
  EXPECT(musaHostRegister(reg, 0, 0) == musaErrorInvalidValue);
  musaGetLastError();
  free(reg);

  CHECK(musaFreeHost(hin));
  CHECK(musaFreeHost(hout));
  CHECK(musaFree(d));
  printf("zero_copy_mapped: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

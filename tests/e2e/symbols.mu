// __constant__ and __device__ variables (scalars, arrays, structs) with the symbol API.
#include "check.h"

struct Params {
  float scale;
  int offset;
};

__constant__ float coeffs[16];
__constant__ Params params;
__device__ int counter;
__device__ int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static __device__ float fileStatic = 2.5f;

__global__ void apply(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = coeffs[i % 16] * in[i] * params.scale + params.offset + table[i % 8] + fileStatic;
    atomicAdd(&counter, 1);
  }
}

__global__ void writeThrough(int *p) { p[threadIdx.x] = 100 + threadIdx.x; }

int main() {
  float h[16];
  for (int i = 0; i < 16; ++i)
    h[i] = float(i) * 0.5f;
  CHECK_MUSA(musaMemcpyToSymbol(coeffs, h, sizeof h));
  Params p = {2.0f, 10};
  CHECK_MUSA(musaMemcpyToSymbol(params, &p, sizeof p));
  int zero = 0;
  CHECK_MUSA(musaMemcpyToSymbol(counter, &zero, sizeof zero));

  const int n = 100;
  float in[n], out[n];
  for (int i = 0; i < n; ++i)
    in[i] = float(i);
  float *din, *dout;
  CHECK_MUSA(musaMalloc(&din, sizeof in));
  CHECK_MUSA(musaMalloc(&dout, sizeof out));
  CHECK_MUSA(musaMemcpy(din, in, sizeof in, musaMemcpyHostToDevice));
  apply<<<4, 32>>>(din, dout, n);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaMemcpy(out, dout, sizeof out, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    CHECK(out[i] == h[i % 16] * in[i] * 2.0f + 10 + (i % 8 + 1) + 2.5f, "out[%d] = %f", i, out[i]);
  int count = -1;
  CHECK_MUSA(musaMemcpyFromSymbol(&count, counter, sizeof count));
  CHECK(count == n, "device counter %d", count);

  // Offsets, sizes, addresses usable as device pointers.
  int part[2] = {0, 0};
  CHECK_MUSA(musaMemcpyFromSymbol(part, table, sizeof part, 3 * sizeof(int)));
  CHECK(part[0] == 4 && part[1] == 5, "offset read %d %d", part[0], part[1]);
  size_t size = 0;
  CHECK_MUSA(musaGetSymbolSize(&size, table));
  CHECK(size == sizeof(int) * 8, "symbol size %zu", size);
  int *tablePtr = nullptr;
  CHECK_MUSA(musaGetSymbolAddress(&tablePtr, table));
  writeThrough<<<1, 8>>>(tablePtr);
  int back[8];
  CHECK_MUSA(musaMemcpy(back, tablePtr, sizeof back, musaMemcpyDeviceToHost));
  CHECK(back[7] == 107, "kernel wrote through the symbol address: %d", back[7]);
  musaPointerAttributes attr;
  CHECK_MUSA(musaPointerGetAttributes(&attr, tablePtr));
  CHECK(attr.type == musaMemoryTypeDevice, "symbol address is device memory");
  CHECK_MUSA(musaMemcpyToSymbolAsync(fileStatic, &h[3], sizeof(float), 0,
                                     musaMemcpyHostToDevice, 0));
  float fs = 0;
  CHECK_MUSA(musaMemcpyFromSymbolAsync(&fs, fileStatic, sizeof fs, 0, musaMemcpyDeviceToHost, 0));
  CHECK_MUSA(musaStreamSynchronize(0));
  CHECK(fs == 1.5f, "file-static symbol %f", fs);

  // Refusals.
  int notASymbol = 0;
  CHECK(musaMemcpyToSymbol(notASymbol, h, 4) == musaErrorInvalidSymbol, "unregistered symbol");
  CHECK(musaMemcpyToSymbol(table, h, sizeof(int) * 9) == musaErrorInvalidValue, "past the end");
  CHECK(musaMemcpyToSymbol(table, h, 4, 0, musaMemcpyDeviceToHost) ==
            musaErrorInvalidMemcpyDirection, "wrong direction");
  CHECK(musaGetSymbolSize(&size, notASymbol) == musaErrorInvalidSymbol, "size of non-symbol");
  musaGetLastError();
  return finish("symbols");
}

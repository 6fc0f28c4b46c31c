// 3D grids and blocks: every thread of a dim3(5,3,4) x dim3(8,4,2) launch writes its linear id computed from blockIdx/threadIdx/blockDim/gridDim in x, y and z; each slot must be written once with the right id.
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

__global__ void writeIds(int *out, int *hits) {
  int bx = blockIdx.x, by = blockIdx.y, bz = blockIdx.z;
  int block = (bz * gridDim.y + by) * gridDim.x + bx;
  int thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  int id = block * (blockDim.x * blockDim.y * blockDim.z) + thread;
  out[id] = (bx << 24) | (by << 20) | (bz << 16) | (threadIdx.x << 8) | (threadIdx.y << 4) | threadIdx.z;
  atomicAdd(&hits[id], 1);
}

int main() {
  dim3 grid(5, 3, 4), block(8, 4, 2);
  const int total = 5 * 3 * 4 * 8 * 4 * 2;
  int *dOut, *dHits, *out = (int *)malloc(total * sizeof(int)), *hits = (int *)malloc(total * sizeof(int));
  CHECK(musaMalloc(&dOut, total * sizeof(int)));
  CHECK(musaMalloc(&dHits, total * sizeof(int)));
  CHECK(musaMemset(dHits, 0, total * sizeof(int)));
  writeIds<<<grid, block>>>(dOut, dHits);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(out, dOut, total * sizeof(int), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(hits, dHits, total * sizeof(int), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int bz = 0; bz < 4; ++bz)
    for (int by = 0; by < 3; ++by)
      for (int bx = 0; bx < 5; ++bx)
        for (int tz = 0; tz < 2; ++tz)
          for (int ty = 0; ty < 4; ++ty)
            for (int tx = 0; tx < 8; ++tx) {
              int id = ((bz * 3 + by) * 5 + bx) * 64 + (tz * 4 + ty) * 8 + tx;
              int ref = (bx << 24) | (by << 20) | (bz << 16) | (tx << 8) | (ty << 4) | tz;
              if ((out[id] != ref || hits[id] != 1) && bad++ < 5)
                printf("id %d: %#x hits %d\n", id, out[id], hits[id]);
            }
  printf("grid_3d_index: %d threads in a 3D grid of 3D blocks, %s\n", total, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

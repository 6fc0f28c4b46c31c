// A 3D grid of 3D blocks: every thread writes its coordinates to its global linear slot.
#include "check.h"

struct Coord {
  unsigned tx, ty, tz, bx, by, bz, bdx, bdy, bdz, gdx, gdy, gdz;
};

__global__ void writeCoords(Coord *out) {
  unsigned bid = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  dim3 bd = blockDim;
  uint3 gd = gridDim;
  Coord c = {threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z,
             bd.x, bd.y, bd.z, gd.x, gd.y, gd.z};
  out[bid * (blockDim.x * blockDim.y * blockDim.z) + tid] = c;
}

int main() {
  dim3 grid(3, 2, 4), block(5, 3, 2);
  int total = 3 * 2 * 4 * 5 * 3 * 2;
  Coord *d;
  CHECK_MUSA(musaMalloc(&d, total * sizeof(Coord)));
  writeCoords<<<grid, block>>>(d);
  CHECK_MUSA(musaGetLastError());
  Coord *h = (Coord *)malloc(total * sizeof(Coord));
  CHECK_MUSA(musaMemcpy(h, d, total * sizeof(Coord), musaMemcpyDeviceToHost));
  int i = 0;
  for (unsigned bz = 0; bz < 4; ++bz)
    for (unsigned by = 0; by < 2; ++by)
      for (unsigned bx = 0; bx < 3; ++bx)
        for (unsigned tz = 0; tz < 2; ++tz)
          for (unsigned ty = 0; ty < 3; ++ty)
            for (unsigned tx = 0; tx < 5; ++tx, ++i) {
              Coord c = h[i];
              CHECK(c.tx == tx && c.ty == ty && c.tz == tz && c.bx == bx && c.by == by &&
                        c.bz == bz,
                    "slot %d holds thread (%u,%u,%u) block (%u,%u,%u)", i, c.tx, c.ty, c.tz,
                    c.bx, c.by, c.bz);
              CHECK(c.bdx == 5 && c.bdy == 3 && c.bdz == 2 && c.gdx == 3 && c.gdy == 2 &&
                        c.gdz == 4,
                    "slot %d saw wrong blockDim/gridDim", i);
            }
  free(h);
  return finish("grid3d");
}

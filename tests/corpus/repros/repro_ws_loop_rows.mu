// Minimal repro: one warp loops over rows (CSR-vector SpMV shape, Bell & Garland 2008): each row
// `v[lane] = x; if (lane < 16) v[lane] += v[lane + 16]; ... if (lane == 0) out[row] = v[0];`.
// Lanes that leave the reduction early (16..31 at once) start the next row and overwrite their
// slot before the lower lanes have read it; on hardware the warp reconverges at the loop's end.
#include <musa_runtime.h>
#include <stdio.h>
template <bool SYNC> __global__ void k(const int *in, int *out, int rows) {
  __shared__ volatile int v[32];
  unsigned lane = threadIdx.x;
  for (int row = 0; row < rows; row++) {
    v[lane] = in[row * 32 + lane];
    if (lane < 16) v[lane] += v[lane + 16];
    if (lane < 8) v[lane] += v[lane + 8];
    if (lane < 4) v[lane] += v[lane + 4];
    if (lane < 2) v[lane] += v[lane + 2];
    if (lane < 1) v[lane] += v[lane + 1];
    if (lane == 0) out[row] = v[0];
    if (SYNC) __syncwarp();
  }
}
int main() {
  const int rows = 4;
  int h[rows * 32], r[rows], fails = 0;
  for (int i = 0; i < rows * 32; i++) h[i] = i / 32 + 1; // row r sums to 32 * (r + 1)
  int *d, *o; musaMalloc(&d, sizeof h); musaMalloc(&o, sizeof r);
  musaMemcpy(d, h, sizeof h, musaMemcpyHostToDevice);
  for (int sync = 0; sync < 2; sync++) {
    if (sync) k<true><<<1, 32>>>(d, o, rows); else k<false><<<1, 32>>>(d, o, rows);
    musaMemcpy(r, o, sizeof r, musaMemcpyDeviceToHost);
    int bad = 0;
    printf("%s:", sync ? "with __syncwarp" : "legacy");
    for (int i = 0; i < rows; i++) { printf(" %d(%d)", r[i], 32 * (i + 1)); bad += r[i] != 32 * (i + 1); }
    printf("\n");
    fails += bad != 0;
  }
  printf("repro_ws_loop_rows: %s\n", fails ? "FAILED" : "PASSED");
  return fails != 0;
}

// Minimal repro: segscan_warp (Sengupta et al.) on one warp, heads at lanes 0, 5, 20, all values 1.
// Two guarded Kogge-Stone scans back to back: a max-scan of head indices (`if (lane >= o)`), then
// the value scan (`if (lane >= mindex + o)`). Low lanes leave the max-scan early (lane 1 after
// step 1) and start the value scan while higher lanes are still in the max-scan, so lane 2 reads
// ptr[1] after lane 1 has already added into it (lane 2 gets 4 instead of 3). mindex comes out
// right; the values do not. A __syncwarp() before `mindex = hd[idx]` (ws_segscan with it) passes.
#include <musa_runtime.h>
#include <stdio.h>
__global__ void k(const int *in, const int *flags, int *out, int *mi) {
  __shared__ int sv[32], sf[32];
  unsigned idx = threadIdx.x, lane = idx;
  sv[idx] = in[idx];
  sf[idx] = lane == 0 ? 1 : flags[idx];
  volatile int *hd = sf, *ptr = sv;
  if (hd[idx]) hd[idx] = lane;
  if (lane >= 1) hd[idx] = max(hd[idx - 1], hd[idx]);
  if (lane >= 2) hd[idx] = max(hd[idx - 2], hd[idx]);
  if (lane >= 4) hd[idx] = max(hd[idx - 4], hd[idx]);
  if (lane >= 8) hd[idx] = max(hd[idx - 8], hd[idx]);
  if (lane >= 16) hd[idx] = max(hd[idx - 16], hd[idx]);
  const unsigned mindex = hd[idx];
  mi[idx] = mindex;
  if (lane >= mindex + 1) ptr[idx] = ptr[idx - 1] + ptr[idx];
  if (lane >= mindex + 2) ptr[idx] = ptr[idx - 2] + ptr[idx];
  if (lane >= mindex + 4) ptr[idx] = ptr[idx - 4] + ptr[idx];
  if (lane >= mindex + 8) ptr[idx] = ptr[idx - 8] + ptr[idx];
  if (lane >= mindex + 16) ptr[idx] = ptr[idx - 16] + ptr[idx];
  out[idx] = ptr[idx];
}
int main() {
  int h[32], f[32], r[32], m[32];
  for (int i = 0; i < 32; i++) { h[i] = 1; f[i] = (i == 5 || i == 20); }
  int *d, *df, *o, *dm; musaMalloc(&d, 128); musaMalloc(&df, 128); musaMalloc(&o, 128); musaMalloc(&dm, 128);
  musaMemcpy(d, h, 128, musaMemcpyHostToDevice); musaMemcpy(df, f, 128, musaMemcpyHostToDevice);
  k<<<1, 32>>>(d, df, o, dm);
  musaMemcpy(r, o, 128, musaMemcpyDeviceToHost); musaMemcpy(m, dm, 128, musaMemcpyDeviceToHost);
  int s = 0, mm = 0, bad = 0;
  for (int i = 0; i < 32; i++) { if (i == 0 || f[i]) { s = 0; mm = i; } s += h[i]; printf("%d:%d/%d(m%d/%d) ", i, r[i], s, m[i], mm); bad += r[i] != s || m[i] != mm; }
  printf("\nrepro_ws_segscan_two_guarded_scans: %s\n", bad ? "FAILED" : "PASSED");
}

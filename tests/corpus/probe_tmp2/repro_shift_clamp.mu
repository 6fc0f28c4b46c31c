// Repro: a C shift in device code by a run-time amount >= the width. NVIDIA GPUs compile `a << n` / `a >> n` to
// shl.b32 / shr.u32, which clamp the amount (PTX ISA: "shift amounts greater than the register width N are clamped
// to N"), so (1u << 32) - 1 is 0xffffffff (the usual n-bit mask idiom with n == 32) and 0x80000000u >> 32 is 0; the
// simulator already does this for shl/shr in inline PTX. For C shifts it gives x86's results (amount taken mod 32):
// (1u << 32) - 1 == 0, (1u << 40) - 1 == 0xff, 0x80000000u >> 33 == 0x40000000.
#include <musa_runtime.h>
#include <stdio.h>

__global__ void masks(const unsigned *bits, unsigned *mask, unsigned *top) {
  int t = threadIdx.x;
  mask[t] = (1u << bits[t]) - 1u;
  top[t] = 0x80000000u >> bits[t];
}

int main() {
  unsigned hb[4] = {31, 32, 33, 40}, *b, *m, *tp, rm[4], rt[4];
  unsigned wm[4] = {0x7fffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}, wt[4] = {1u, 0u, 0u, 0u};
  musaMalloc(&b, sizeof(hb));
  musaMalloc(&m, sizeof(hb));
  musaMalloc(&tp, sizeof(hb));
  musaMemcpy(b, hb, sizeof(hb), musaMemcpyHostToDevice);
  masks<<<1, 4>>>(b, m, tp);
  musaMemcpy(rm, m, sizeof(rm), musaMemcpyDeviceToHost);
  musaMemcpy(rt, tp, sizeof(rt), musaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 4; i++) {
    printf("n=%u: (1u<<n)-1 = %08x (GPU %08x), 0x80000000u>>n = %08x (GPU %08x)\n", hb[i], rm[i], wm[i], rt[i], wt[i]);
    bad += rm[i] != wm[i] || rt[i] != wt[i];
  }
  printf("repro_shift_clamp: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

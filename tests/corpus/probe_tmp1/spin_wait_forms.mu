// Ways ported code waits for another warp of its own block (no barrier in between; legal on
// Volta+). Warp 0 waits for a flag warp 1 raises after it, so a scheduler that runs warp 0 to
// completion first must let warp 1 run while warp 0 polls.
//   0: volatile load                       1: inline PTX ld.acquire.gpu (CUTLASS semaphore)
//   2: inline PTX ld.volatile.global        3: a __noinline__ polling helper (volatile inside)
//   4: look-back loop whose polled index moves once a slot is ready
//   5: volatile load with __nanosleep back-off   6: atomicAdd(p, 0) poll with __threadfence
//   7: warp-uniform poll: do { v = flag; } while (!__all_sync(~0u, v));
// Argument: the form to run; without, all (each in its own launch).
#include <cstdio>
#include <cstdlib>

#define CK(x) do { musaError_t e = (x); if (e != musaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, musaGetErrorString(e)); exit(2);} } while (0)

__device__ __noinline__ int poll_helper(const volatile int *p) { return *p; }

__device__ __forceinline__ int ld_acquire(const int *p) {
  int v;
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ int ld_volatile(const int *p) {
  int v;
  asm volatile("ld.volatile.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__global__ void waiter(int form, int *flags, int *data, int *out) {
  int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  int *flag = flags + blockIdx.x * 8;
  if (warp == 1) {
    if (lane == 0) {
      data[blockIdx.x] = 1000 + blockIdx.x;
      __threadfence();
      for (int i = 0; i < 4; ++i) atomicExch(&flag[i], 1);   // slots for the look-back form
    }
    return;
  }
  if (form == 7) {
    int v;
    do { v = ((volatile int *)flag)[0]; } while (!__all_sync(0xffffffffu, v));
    if (lane == 0) out[blockIdx.x] = ((volatile int *)data)[blockIdx.x];
    return;
  }
  if (lane != 0) return;
  switch (form) {
  case 0: while (((volatile int *)flag)[0] == 0) {} break;
  case 1: while (ld_acquire(flag) == 0) {} break;
  case 2: while (ld_volatile(flag) == 0) {} break;
  case 3: while (poll_helper(flag) == 0) {} break;
  case 4: {
    int j = 3;
    while (j >= 0) {
      int s = ((volatile int *)flag)[j];
      if (s == 0) continue;     // not ready: poll the same slot again
      --j;
    }
    break;
  }
  case 5: while (((volatile int *)flag)[0] == 0) __nanosleep(100); break;
  case 6: while (atomicAdd(flag, 0) == 0) __threadfence(); break;
  }
  __threadfence();
  out[blockIdx.x] = ((volatile int *)data)[blockIdx.x];
}

int main(int argc, char **argv) {
  int only = argc > 1 ? atoi(argv[1]) : -1;
  int warp;
  CK(musaDeviceGetAttribute(&warp, musaDevAttrWarpSize, 0));
  const int blocks = 4;
  int *flags, *data, *out;
  CK(musaMalloc(&flags, blocks * 8 * 4)); CK(musaMalloc(&data, blocks * 4)); CK(musaMalloc(&out, blocks * 4));
  bool ok = true;
  for (int f = 0; f <= 7; ++f) {
    if (only >= 0 && f != only) continue;
    CK(musaMemset(flags, 0, blocks * 32)); CK(musaMemset(out, 0, blocks * 4));
    waiter<<<blocks, 2 * warp>>>(f, flags, data, out);
    musaError_t e = musaDeviceSynchronize();
    int h[blocks] = {};
    if (e == musaSuccess) CK(musaMemcpy(h, out, sizeof h, musaMemcpyDeviceToHost));
    bool good = e == musaSuccess;
    for (int b = 0; b < blocks && good; ++b) good = h[b] == 1000 + b;
    printf("form %d: %s\n", f, good ? "ok" : (e ? musaGetErrorString(e) : "wrong"));
    fflush(stdout);
    ok &= good;
    if (e != musaSuccess) break;   // sticky
  }
  printf("spin_wait_forms %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

// Single-pass decoupled look-back inclusive scan (CUB / Merrill-Garland style).
// Block ids are taken from an atomic ticket, so a block only waits on blocks that already started.
#include <musa_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define FLAG_X 0u  // not available
#define FLAG_A 1u  // aggregate available
#define FLAG_P 2u  // inclusive prefix available

__device__ unsigned int g_ticket;

__global__ void scanLookback(const int *in, int *out, int n, volatile unsigned long long *status) {
  extern __shared__ int s[];
  __shared__ int bid;
  __shared__ int exclusive;
  if (threadIdx.x == 0) bid = atomicAdd(&g_ticket, 1u);
  __syncthreads();
  const int tile = blockDim.x;
  int gi = bid * tile + threadIdx.x;
  int v = gi < n ? in[gi] : 0;
  s[threadIdx.x] = v;
  __syncthreads();
  // Hillis-Steele inclusive scan in shared memory
  for (int off = 1; off < tile; off <<= 1) {
    int t = threadIdx.x >= off ? s[threadIdx.x - off] : 0;
    __syncthreads();
    s[threadIdx.x] += t;
    __syncthreads();
  }
  int aggregate = s[tile - 1];
  if (threadIdx.x == 0) {
    if (bid == 0) {
      status[0] = ((unsigned long long)FLAG_P << 32) | (unsigned)aggregate;
      exclusive = 0;
    } else {
      status[bid] = ((unsigned long long)FLAG_A << 32) | (unsigned)aggregate;
      __threadfence();
      int run = 0;
      int look = bid - 1;
      while (true) {
        unsigned long long w;
        do { w = status[look]; } while ((w >> 32) == FLAG_X);
        run += (int)(unsigned)(w & 0xffffffffu);
        if ((w >> 32) == FLAG_P) break;
        --look;
      }
      exclusive = run;
      __threadfence();
      status[bid] = ((unsigned long long)FLAG_P << 32) | (unsigned)(run + aggregate);
    }
  }
  __syncthreads();
  if (gi < n) out[gi] = s[threadIdx.x] + exclusive;
}

int main() {
  bool ok = true;
  const int ns[] = {1 << 16, 50001, 1000};
  const int threadsList[] = {256, 128, 1024};
  for (int n : ns)
    for (int threads : threadsList) {
      int blocks = (n + threads - 1) / threads;
      std::vector<int> h(n), r(n), o(n);
      srand(n + threads);
      for (int i = 0; i < n; ++i) h[i] = rand() % 100 - 30;
      int acc = 0;
      for (int i = 0; i < n; ++i) r[i] = acc += h[i];
      int *d_in, *d_out;
      unsigned long long *d_status;
      musaMalloc(&d_in, n * sizeof(int));
      musaMalloc(&d_out, n * sizeof(int));
      musaMalloc(&d_status, blocks * sizeof(unsigned long long));
      musaMemcpy(d_in, h.data(), n * sizeof(int), musaMemcpyHostToDevice);
      musaMemset(d_status, 0, blocks * sizeof(unsigned long long));
      unsigned zero = 0;
      musaMemcpyToSymbol(g_ticket, &zero, sizeof(zero));
      scanLookback<<<blocks, threads, threads * sizeof(int)>>>(d_in, d_out, n, d_status);
      musaError_t e = musaDeviceSynchronize();
      musaMemcpy(o.data(), d_out, n * sizeof(int), musaMemcpyDeviceToHost);
      int bad = 0;
      for (int i = 0; i < n; ++i) if (o[i] != r[i]) { if (!bad) printf("n=%d t=%d first mismatch at %d: %d vs %d\n", n, threads, i, o[i], r[i]); ++bad; }
      if (bad || e != musaSuccess) { ok = false; printf("  %d mismatches, %s\n", bad, musaGetErrorString(e)); }
      musaFree(d_in); musaFree(d_out); musaFree(d_status);
    }
  printf("decoupled look-back scan: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

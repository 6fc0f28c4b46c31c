// clock(), clock64(), __globaltimer() and __nanosleep(): monotonic, and a kernel that spins
// for N cycles terminates having seen at least N cycles pass.
#include "check.h"

__global__ void spin(long long cycles, long long *elapsed, unsigned long long *ns) {
  long long start = clock64();
  unsigned long long t0 = __globaltimer();
  unsigned spins = 0; // independent work in the loop: the model's chain does not grow with it
  while (clock64() - start < cycles)
    ++spins;
  if (spins == 0)
    elapsed[threadIdx.x] = -1;
  __nanosleep(1000);
  clock_t c = clock();
  (void)c;
  elapsed[threadIdx.x] = clock64() - start;
  ns[threadIdx.x] = __globaltimer() - t0;
}

int main() {
  long long *d, h[4];
  unsigned long long *dn, hn[4];
  CHECK_MUSA(musaMalloc(&d, sizeof h));
  CHECK_MUSA(musaMalloc(&dn, sizeof hn));
  const long long cycles = 2000000; // about a millisecond at the profiles' clocks
  musaEvent_t before, after;
  CHECK_MUSA(musaEventCreate(&before));
  CHECK_MUSA(musaEventCreate(&after));
  CHECK_MUSA(musaEventRecord(before));
  spin<<<1, 4>>>(cycles, d, dn);
  CHECK_MUSA(musaEventRecord(after));
  CHECK_MUSA(musaDeviceSynchronize());
  float ms = 0;
  CHECK_MUSA(musaEventElapsedTime(&ms, before, after));
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(hn, dn, sizeof hn, musaMemcpyDeviceToHost));
  musaDeviceProp prop;
  CHECK_MUSA(musaGetDeviceProperties(&prop, 0));
  for (int t = 0; t < 4; ++t) {
    CHECK(h[t] >= cycles, "thread %d saw %lld cycles", t, h[t]);
    // The launch lasts at least what its threads saw of the clock (the simulator's events
    // are simulated time; on hardware the SM clock cannot outrun its rate either).
    if (!onHardware())
      CHECK(ms * 1e-3 >= double(h[t]) / (prop.clockRate * 1e3),
            "thread %d saw %lld cycles at %d kHz, the events %.4f ms", t, h[t], prop.clockRate, ms);
    // Cycles and nanoseconds agree through the profile's clock rate (kHz).
    double expectNs = double(h[t]) / (prop.clockRate / 1e6);
    CHECK(hn[t] > 0 && hn[t] >= 0.5 * expectNs, "thread %d: %llu ns for %lld cycles", t, hn[t], h[t]);
  }
  return finish("clocks");
}

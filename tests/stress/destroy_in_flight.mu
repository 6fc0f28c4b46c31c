// Stress: streams destroyed with their work in flight. R rounds (argv[1], default 2,000):
// create a stream, queue kernels, a memset, an asynchronous copy and a host function on it,
// destroy it at once. musaStreamDestroy returns without waiting (as CUDA's does) and the work
// still completes: after a device synchronisation every round's kernels have added to the
// counters and every host function has run.
#include "check.h"

#include <atomic>
#include <vector>

__global__ void addTo(unsigned *counters, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&counters[i], 1u);
}

static std::atomic<int> hostFunctionsRun{0};

static void MUSART_CB hostFunction(void *) { ++hostFunctionsRun; }

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 2000;
  const int n = 1024, kernelsPerRound = 3;
  unsigned *counters, *scratch;
  std::vector<unsigned> host(n), peeks(rounds); // one peek per round: streams copy at once
  CHECK_MUSA(musaMalloc(&counters, n * sizeof(unsigned)));
  CHECK_MUSA(musaMalloc(&scratch, rounds * sizeof(unsigned)));
  CHECK_MUSA(musaMemset(counters, 0, n * sizeof(unsigned)));
  for (int r = 0; r < rounds; ++r) {
    musaStream_t s;
    CHECK_MUSA(musaStreamCreateWithFlags(&s, r % 2 ? musaStreamNonBlocking : musaStreamDefault));
    for (int k = 0; k < kernelsPerRound; ++k)
      addTo<<<n / 256, 256, 0, s>>>(counters, n);
    CHECK_MUSA(musaMemsetAsync(scratch + r, 0xff, sizeof(unsigned), s));
    CHECK_MUSA(musaMemcpyAsync(&peeks[r], counters, sizeof(unsigned), musaMemcpyDeviceToHost, s));
    CHECK_MUSA(musaLaunchHostFunc(s, hostFunction, nullptr));
    CHECK_MUSA(musaStreamDestroy(s));
  }
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK_MUSA(musaMemcpy(host.data(), counters, n * sizeof(unsigned), musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (host[i] != unsigned(rounds * kernelsPerRound)) {
      CHECK(false, "counter %d is %u, want %d", i, host[i], rounds * kernelsPerRound);
      break;
    }
  std::vector<unsigned> marks(rounds);
  CHECK_MUSA(musaMemcpy(marks.data(), scratch, rounds * sizeof(unsigned), musaMemcpyDeviceToHost));
  for (int r = 0; r < rounds; ++r)
    if (marks[r] != 0xffffffffu) {
      CHECK(false, "memset of round %d did not run: %x", r, marks[r]);
      break;
    }
  CHECK(hostFunctionsRun == rounds, "%d host functions ran, want %d", hostFunctionsRun.load(),
        rounds);
  CHECK_MUSA(musaFree(counters));
  CHECK_MUSA(musaFree(scratch));
  return finish("stress_destroy_in_flight");
}

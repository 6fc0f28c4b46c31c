// Threads that wait for other threads without a barrier, as Volta-and-later code may: a warp
// polling a flag another warp of its block sets (the consumer is the lower warp, so running
// the block's threads in order could never satisfy it), warps counting arrivals with
// atomicAdd(p, 0), a naive spin lock (while (atomicCAS(lock, 0, 1) != 0);) around a
// non-atomic update, blocks of a cooperative grid chained in reverse order through volatile
// flags, a persistent kernel's grid barrier over as many blocks as the device holds (an
// ordinary launch), and a wait nobody ends, which hardware would hang on: the simulator ends the launch
// with musaErrorLaunchTimeout once the spin limit passes (MUSA_SIM_SPIN_LIMIT, set short by
// the test). Loops that do not wait (a CAS retry loop, linear probing, a work queue) still
// compute the right thing. The poll or the lock may sit in a __noinline__ helper the loop
// calls.
#include <musa_runtime.h>
#include <cooperative_groups.h>

#include "check.h"

namespace cg = cooperative_groups;

__global__ void producerConsumer(int *out) {
  __shared__ volatile int flag;
  __shared__ int data[4];
  if (threadIdx.x == 0)
    flag = 0;
  __syncthreads();
  int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  if (warp == 1 && lane < 4) {
    data[lane] = 100 * blockIdx.x + lane;
    __threadfence_block();
    if (lane == 0)
      flag = 1;
  }
  if (warp == 0 && lane < 4) {
    while (flag == 0) {
    }
    out[blockIdx.x * 4 + lane] = data[lane];
  }
}

__global__ void arrivals(unsigned *arrived, int *out) {
  int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  int warps = blockDim.x / warpSize;
  if (lane != 0)
    return;
  if (warp == 0) {
    while (atomicAdd(&arrived[blockIdx.x], 0u) < unsigned(warps - 1)) {
    }
    out[blockIdx.x] = int(atomicAdd(&arrived[blockIdx.x], 0u));
  } else {
    atomicAdd(&arrived[blockIdx.x], 1u);
  }
}

__device__ __noinline__ int readyFlag(const volatile int *p) { return *p; }
__device__ __noinline__ bool tryLock(int *lock) { return atomicCAS(lock, 0, 1) == 0; }

// Lane 0 of warp 0 waits (through a helper not inlined) for lane 0 of the last warp, which
// takes and releases a lock (through another) around its write first.
__global__ void helperWaits(int *flag, int *lock, int *out) {
  int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  if (lane != 0)
    return;
  if (warp == int(blockDim.x / warpSize) - 1) {
    while (!tryLock(lock)) {
    }
    out[1 + blockIdx.x] = 42 + int(blockIdx.x);
    __threadfence();
    atomicExch(lock, 0);
    atomicExch(&flag[blockIdx.x], 1);
    return;
  }
  if (warp == 0) {
    while (!readyFlag(&flag[blockIdx.x])) {
    }
    atomicAdd(&out[0], ((volatile int *)out)[1 + blockIdx.x]);
  }
}

__global__ void lockedCounter(int *lock, volatile int *counter) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  int v = *counter;
  *counter = v + 1;
  __threadfence();
  atomicExch(lock, 0);
}

__global__ void reverseChain(volatile int *flags, int *out) {
  int b = blockIdx.x, n = gridDim.x;
  if (threadIdx.x == 0) {
    int v = 1;
    if (b + 1 < n) {
      while (flags[b + 1] == 0) {
      }
      v = flags[b + 1] + 1;
    }
    __threadfence();
    flags[b] = v;
  }
  cg::this_grid().sync();
  if (threadIdx.x == 0)
    out[b] = flags[b];
}

__global__ void casAddAndProbe(double *sum, unsigned *table, unsigned mask, unsigned *next,
                               unsigned *claimed, unsigned items) {
  // A CAS retry loop (progresses alone), linear probing (the address moves) and a work
  // queue (atomicAdd(next, 1)): none of them waits for another thread.
  unsigned long long *bits = reinterpret_cast<unsigned long long *>(sum);
  unsigned long long old = *bits, seen;
  do {
    seen = old;
    old = atomicCAS(bits, seen, __double_as_longlong(__longlong_as_double(seen) + 0.5));
  } while (old != seen);
  unsigned key = blockIdx.x * blockDim.x + threadIdx.x + 1, slot = (key * 2654435761u) & mask;
  for (;;) {
    unsigned prev = atomicCAS(&table[slot], 0u, key);
    if (prev == 0u || prev == key)
      break;
    slot = (slot + 1) & mask;
  }
  for (unsigned i; (i = atomicAdd(next, 1u)) < items;)
    atomicAdd(&claimed[i], 1u);
}

// A persistent kernel's own grid barrier, without a cooperative launch: every block counts
// itself in and waits for all the others, twice. It holds on a GPU whose multiprocessors take
// the whole grid at once: one block per multiprocessor, as such programs size it.
__global__ void gridBarrier(unsigned *arrived, int *out) {
  __shared__ unsigned seen;
  for (unsigned round = 1; round <= 2; ++round) {
    if (threadIdx.x == 0) {
      atomicAdd(arrived, 1);
      while (atomicAdd(arrived, 0) < round * gridDim.x) {
      }
      seen = atomicAdd(arrived, 0);
    }
    __syncthreads();
    if (round == 1)
      out[blockIdx.x * blockDim.x + threadIdx.x] = seen >= gridDim.x;
    __syncthreads();
  }
}

__global__ void waitForever(volatile int *flag) {
  if (threadIdx.x == 0)
    while (*flag == 0) {
    }
}

int main() {
  int dev = 0, warp = 0;
  CHECK_MUSA(musaDeviceGetAttribute(&warp, musaDevAttrWarpSize, dev));

  {
    const int blocks = 6;
    int *out = nullptr;
    CHECK_MUSA(musaMalloc(&out, blocks * 4 * sizeof(int)));
    producerConsumer<<<blocks, 2 * warp>>>(out);
    CHECK_MUSA(musaDeviceSynchronize());
    int host[blocks * 4];
    CHECK_MUSA(musaMemcpy(host, out, sizeof host, musaMemcpyDeviceToHost));
    for (int i = 0; i < blocks * 4; ++i)
      CHECK(host[i] == 100 * (i / 4) + i % 4, "producer/consumer %d: %d", i, host[i]);
    CHECK_MUSA(musaFree(out));
  }
  {
    const int blocks = 3, warps = 4;
    unsigned *arrived = nullptr;
    int *out = nullptr;
    CHECK_MUSA(musaMalloc(&arrived, blocks * sizeof(unsigned)));
    CHECK_MUSA(musaMalloc(&out, blocks * sizeof(int)));
    CHECK_MUSA(musaMemset(arrived, 0, blocks * sizeof(unsigned)));
    arrivals<<<blocks, warps * warp>>>(arrived, out);
    CHECK_MUSA(musaDeviceSynchronize());
    int host[blocks];
    CHECK_MUSA(musaMemcpy(host, out, sizeof host, musaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b)
      CHECK(host[b] == warps - 1, "arrivals block %d saw %d", b, host[b]);
    CHECK_MUSA(musaFree(arrived));
    CHECK_MUSA(musaFree(out));
  }
  {
    int *lock = nullptr, *counter = nullptr;
    CHECK_MUSA(musaMalloc(&lock, sizeof(int)));
    CHECK_MUSA(musaMalloc(&counter, sizeof(int)));
    CHECK_MUSA(musaMemset(lock, 0, sizeof(int)));
    CHECK_MUSA(musaMemset(counter, 0, sizeof(int)));
    lockedCounter<<<8, 64>>>(lock, counter);
    CHECK_MUSA(musaDeviceSynchronize());
    int host = 0;
    CHECK_MUSA(musaMemcpy(&host, counter, sizeof host, musaMemcpyDeviceToHost));
    CHECK(host == 8 * 64, "locked counter %d", host);
    CHECK_MUSA(musaFree(lock));
    CHECK_MUSA(musaFree(counter));
  }
  {
    int blocksPerSm = 0, sms = 0;
    CHECK_MUSA(musaDeviceGetAttribute(&sms, musaDevAttrMultiProcessorCount, dev));
    CHECK_MUSA(musaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSm, reverseChain, 64, 0));
    int n = blocksPerSm * sms < 16 ? blocksPerSm * sms : 16;
    int *flags = nullptr, *out = nullptr;
    CHECK_MUSA(musaMalloc(&flags, n * sizeof(int)));
    CHECK_MUSA(musaMalloc(&out, n * sizeof(int)));
    CHECK_MUSA(musaMemset(flags, 0, n * sizeof(int)));
    void *args[] = {&flags, &out};
    CHECK_MUSA(musaLaunchCooperativeKernel((void *)reverseChain, n, 64, args, 0, 0));
    CHECK_MUSA(musaDeviceSynchronize());
    int host[16];
    CHECK_MUSA(musaMemcpy(host, out, n * sizeof(int), musaMemcpyDeviceToHost));
    for (int b = 0; b < n; ++b)
      CHECK(host[b] == n - b, "reverse chain block %d: %d", b, host[b]);
    CHECK_MUSA(musaFree(flags));
    CHECK_MUSA(musaFree(out));
  }
  {
    const int blocks = 3;
    int *flag = nullptr, *lock = nullptr, *out = nullptr;
    CHECK_MUSA(musaMalloc(&flag, blocks * sizeof(int)));
    CHECK_MUSA(musaMalloc(&lock, sizeof(int)));
    CHECK_MUSA(musaMalloc(&out, (1 + blocks) * sizeof(int)));
    CHECK_MUSA(musaMemset(flag, 0, blocks * sizeof(int)));
    CHECK_MUSA(musaMemset(lock, 0, sizeof(int)));
    CHECK_MUSA(musaMemset(out, 0, (1 + blocks) * sizeof(int)));
    helperWaits<<<blocks, 4 * warp>>>(flag, lock, out);
    CHECK_MUSA(musaDeviceSynchronize());
    int sum = 0;
    CHECK_MUSA(musaMemcpy(&sum, out, sizeof sum, musaMemcpyDeviceToHost));
    CHECK(sum == 42 + 43 + 44, "waits through __noinline__ helpers: sum %d", sum);
    CHECK_MUSA(musaFree(flag));
    CHECK_MUSA(musaFree(lock));
    CHECK_MUSA(musaFree(out));
  }
  {
    const unsigned threads = 4 * 64, items = 1000, mask = 1023;
    double *sum = nullptr;
    unsigned *table = nullptr, *next = nullptr, *claimed = nullptr;
    CHECK_MUSA(musaMalloc(&sum, sizeof(double)));
    CHECK_MUSA(musaMalloc(&table, (mask + 1) * sizeof(unsigned)));
    CHECK_MUSA(musaMalloc(&next, sizeof(unsigned)));
    CHECK_MUSA(musaMalloc(&claimed, items * sizeof(unsigned)));
    CHECK_MUSA(musaMemset(sum, 0, sizeof(double)));
    CHECK_MUSA(musaMemset(table, 0, (mask + 1) * sizeof(unsigned)));
    CHECK_MUSA(musaMemset(next, 0, sizeof(unsigned)));
    CHECK_MUSA(musaMemset(claimed, 0, items * sizeof(unsigned)));
    casAddAndProbe<<<4, 64>>>(sum, table, mask, next, claimed, items);
    CHECK_MUSA(musaDeviceSynchronize());
    double s = 0;
    CHECK_MUSA(musaMemcpy(&s, sum, sizeof s, musaMemcpyDeviceToHost));
    CHECK(s == 0.5 * threads, "CAS-loop sum %f", s);
    unsigned host[1024], inTable = 0;
    CHECK_MUSA(musaMemcpy(host, table, sizeof host, musaMemcpyDeviceToHost));
    for (unsigned v : host)
      inTable += v != 0;
    CHECK(inTable == threads, "%u keys in the table", inTable);
    CHECK_MUSA(musaMemcpy(host, claimed, items * sizeof(unsigned), musaMemcpyDeviceToHost));
    for (unsigned i = 0; i < items; ++i)
      CHECK(host[i] == 1, "item %u claimed %u times", i, host[i]);
    CHECK_MUSA(musaFree(sum));
    CHECK_MUSA(musaFree(table));
    CHECK_MUSA(musaFree(next));
    CHECK_MUSA(musaFree(claimed));
  }
  {
    int sms = 0;
    CHECK_MUSA(musaDeviceGetAttribute(&sms, musaDevAttrMultiProcessorCount, dev));
    const int blocks = sms, threads = blocks * 128;
    unsigned *arrived = nullptr;
    int *out = nullptr;
    CHECK_MUSA(musaMalloc(&arrived, sizeof(unsigned)));
    CHECK_MUSA(musaMemset(arrived, 0, sizeof(unsigned)));
    CHECK_MUSA(musaMallocManaged(&out, threads * sizeof(int)));
    gridBarrier<<<blocks, 128>>>(arrived, out);
    CHECK_MUSA(musaDeviceSynchronize());
    int passed = 0;
    for (int i = 0; i < threads; ++i)
      passed += out[i];
    CHECK(passed == threads, "grid barrier of %d blocks: %d of %d threads saw every block",
          blocks, passed, threads);
    CHECK_MUSA(musaFree(arrived));
    CHECK_MUSA(musaFree(out));
  }
  if (!reachesHardware()) {
    // Last: a kernel that never ends on hardware; the launch times out and the error sticks.
    int *flag = nullptr;
    CHECK_MUSA(musaMalloc(&flag, sizeof(int)));
    CHECK_MUSA(musaMemset(flag, 0, sizeof(int)));
    waitForever<<<2, 32>>>(flag);
    musaError_t e = musaDeviceSynchronize();
    CHECK(e == musaErrorLaunchTimeout, "a wait nobody ends: %s", musaGetErrorName(e));
    CHECK(musaGetLastError() == musaErrorLaunchTimeout, "the timeout is sticky");
    CHECK_MUSA(musaDeviceReset());
  }
  return finish("spin_waits");
}

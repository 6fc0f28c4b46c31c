// 200 short-lived host threads each launch a kernel on their per-thread default stream
// (musaStreamPerThread): once they have ended and their work is done, their streams' worker
// threads are gone too (counted in /proc/self/task), and every launch's result landed.
#include "check.h"

#include <chrono>
#include <dirent.h>
#include <thread>

__global__ void mark(int *flags, int i) { flags[i] = i + 1; }

static int threadCount() {
  int n = 0;
  if (DIR *dir = opendir("/proc/self/task")) {
    while (dirent *entry = readdir(dir))
      n += entry->d_name[0] != '.';
    closedir(dir);
  }
  return n;
}

int main() {
  const int threads = 200;
  int *d;
  CHECK_MUSA(musaMalloc(&d, threads * sizeof(int)));
  CHECK_MUSA(musaMemset(d, 0, threads * sizeof(int)));
  // Warm up: the block workers exist from the first launch on.
  mark<<<64, 64>>>(d, 0);
  CHECK_MUSA(musaDeviceSynchronize());
  int before = threadCount();
  for (int i = 0; i < threads; ++i)
    std::thread([d, i] {
      mark<<<1, 1, 0, musaStreamPerThread>>>(d, i);
      CHECK_MUSA(musaGetLastError());
    }).join(); // the thread ends with its launch maybe still queued
  CHECK_MUSA(musaDeviceSynchronize());
  int after = threadCount();
  for (int wait = 0; wait < 500 && after > before + 4; ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10)); // workers exit just after
    after = threadCount();
  }
  CHECK(after <= before + 4, "%d threads before, %d after %d host threads", before, after,
        threads);
  int h[threads];
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  for (int i = 0; i < threads; ++i)
    CHECK(h[i] == i + 1, "launch of thread %d did not land: %d", i, h[i]);
  CHECK_MUSA(musaFree(d));
  return finish("per_thread_streams");
}

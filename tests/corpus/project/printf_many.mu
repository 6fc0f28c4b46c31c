// Device printf from every thread of a 4x128 launch with mixed conversions (%d %u %x %lld %f %.3e %s %c %5.2f %%, a device string argument), the printf FIFO limit raised with musaDeviceSetLimit; the program captures its own stdout (dup2 to a temp file) and checks each line appears exactly once, whole and correctly formatted.
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)
#include <string.h>
#include <unistd.h>

__device__ const char *names[4] = {"alpha", "beta", "gamma", "delta"};

__global__ void talk(int base) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  long long big = 1000000000000LL + t;
  float f = t * 0.5f;
  double e = t * 1234.5;
  printf("T%04d b%d u=%u x=%x L=%lld f=%.1f e=%.3e s=%s c=%c w=[%5.2f] 100%%\n", t, blockIdx.x, (unsigned)(t + base), t * 16,
         big, f, e, names[t % 4], 'A' + t % 26, f / 4);
}

int main() {
  const int blocks = 4, threads = 128, n = blocks * threads;
  size_t fifo = 0;
  CHECK(musaDeviceSetLimit(musaLimitPrintfFifoSize, 4 << 20));
  CHECK(musaDeviceGetLimit(&fifo, musaLimitPrintfFifoSize));
  char path[] = "/tmp/printf_many_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) {
    printf("printf_many: cannot make temp file, FAILED\n");
    return 1;
  }
  fflush(stdout);
  int saved = dup(1);
  dup2(fd, 1);
  talk<<<blocks, threads>>>(7);
  musaError_t e1 = musaGetLastError();
  musaError_t e2 = musaDeviceSynchronize();
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  CHECK(e1);
  CHECK(e2);
  FILE *f = fopen(path, "r");
  char line[512];
  int *seen = (int *)calloc(n, sizeof(int));
  int lines = 0, bad = 0;
  const char *nm[4] = {"alpha", "beta", "gamma", "delta"};
  while (fgets(line, sizeof line, f)) {
    ++lines;
    int t = -1;
    if (sscanf(line, "T%d", &t) != 1 || t < 0 || t >= n) {
      if (bad++ < 3) printf("unparsable: %s", line);
      continue;
    }
    char want[512];
    snprintf(want, sizeof want, "T%04d b%d u=%u x=%x L=%lld f=%.1f e=%.3e s=%s c=%c w=[%5.2f] 100%%\n", t, t / threads, (unsigned)(t + 7),
             t * 16, 1000000000000LL + t, t * 0.5f, t * 1234.5, nm[t % 4], 'A' + t % 26, t * 0.5f / 4);
    if (strcmp(line, want) != 0) {
      if (bad++ < 3) printf("got:  %swant: %s", line, want);
    }
    seen[t]++;
  }
  fclose(f);
  unlink(path);
  int missing = 0;
  for (int t = 0; t < n; ++t)
    missing += seen[t] != 1;
  bool ok = lines == n && bad == 0 && missing == 0 && fifo >= (4u << 20);
  printf("printf_many: %d lines, %d bad, %d missing or repeated, fifo %zu, %s\n", lines, bad, missing, fifo, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

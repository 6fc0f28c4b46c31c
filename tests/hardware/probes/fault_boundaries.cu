// Probe: which device faults the H200 reports, and where the boundaries are.
// Each case runs in a fresh process (a fault is sticky and ends the context): the program
// re-executes itself with the case's number.
// Build: nvcc -O2 -arch=sm_90 -o fault_boundaries fault_boundaries.cu
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <sys/wait.h>
#include <unistd.h>

__global__ void loadAt(const char *base, long offset, int width, int *out) {
  const char *p = base + offset;
  int v = 0;
  if (width == 1) v = *(const volatile char *)p;
  if (width == 2) v = *(const volatile short *)p;
  if (width == 4) v = *(const volatile int *)p;
  if (width == 8) v = int(*(const volatile long long *)p);
  if (width == 16) v = (*(const volatile int4 *)p).x;
  *out = v;
}

__global__ void storeAt(char *base, long offset) { *(volatile int *)(base + offset) = 1; }

__global__ void sharedAt(long index, int *out) {
  __shared__ int s[256];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  volatile int *p = s;
  *out = p[index];
}

__global__ void sharedStore(long index) {
  __shared__ int s[256];
  volatile int *p = s;
  p[index] = 1;
}

static char *dbuf;
static int *dout;
static char *hostPageable;

struct Case {
  char name[64];
  int kind; // 0 global load, 1 global store, 2 host load, 3 host store, 4 shared load, 5 shared store
  long offset;
  int width;
};

static int cases(Case *out) {
  int n = 0;
  auto add = [&](int kind, long offset, int width, const char *fmt) {
    out[n].kind = kind, out[n].offset = offset, out[n].width = width;
    snprintf(out[n].name, sizeof out[n].name, fmt, width, offset);
    ++n;
  };
  for (int width : {2, 4, 8, 16})
    for (long off : {1L, 2L, 4L, 8L})
      if (off % width)
        add(0, off, width, "global load width %d at offset %ld");
  add(1, 2, 4, "global store width %d at offset %ld");
  for (long off : {(1L << 20), (1L << 20) + 4096, (2L << 20), (64L << 20), -4096L})
    add(0, off, 4, "global load width %d past alloc start +%ld");
  add(2, 0, 4, "kernel load width %d pageable host +%ld");
  add(3, 0, 4, "kernel store width %d pageable host +%ld");
  for (long idx : {256L, 257L, 1024L, 4096L, 12288L, 16384L, 57344L, 65536L, 1L << 20, -1L, -64L}) {
    add(4, idx, 4, "shared load width %d index %ld of 256");
    add(5, idx, 4, "shared store width %d index %ld of 256");
  }
  return n;
}

int main(int argc, char **argv) {
  static Case all[128];
  int n = cases(all);
  if (argc == 1) {
    for (int i = -1; i < n; ++i) {
      fflush(stdout);
      pid_t pid = fork();
      if (pid == 0) {
        char arg[16];
        snprintf(arg, sizeof arg, "%d", i);
        execl(argv[0], argv[0], arg, (char *)nullptr);
        _exit(127);
      }
      int status;
      waitpid(pid, &status, 0);
    }
    return 0;
  }
  int i = atoi(argv[1]);
  if (i < 0) {
    int pageable = -1, concurrentManaged = -1, hostRegister = -1;
    cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0);
    cudaDeviceGetAttribute(&concurrentManaged, cudaDevAttrConcurrentManagedAccess, 0);
    cudaDeviceGetAttribute(&hostRegister, cudaDevAttrHostRegisterSupported, 0);
    printf("pageableMemoryAccess=%d concurrentManagedAccess=%d hostRegisterSupported=%d\n",
           pageable, concurrentManaged, hostRegister);
    return 0;
  }
  Case c = all[i];
  hostPageable = (char *)malloc(1 << 20);
  memset(hostPageable, 7, 1 << 20);
  cudaMalloc(&dbuf, 1 << 20);
  cudaMalloc(&dout, 64);
  switch (c.kind) {
  case 0: loadAt<<<1, 1>>>(dbuf, c.offset, c.width, dout); break;
  case 1: storeAt<<<1, 1>>>(dbuf, c.offset); break;
  case 2: loadAt<<<1, 1>>>(hostPageable, c.offset, c.width, dout); break;
  case 3: storeAt<<<1, 1>>>(hostPageable, c.offset); break;
  case 4: sharedAt<<<1, 256>>>(c.offset, dout); break;
  case 5: sharedStore<<<1, 1>>>(c.offset); break;
  }
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  cudaError_t last = cudaGetLastError();
  void *probe = nullptr;
  cudaError_t next = cudaMalloc(&probe, 16);
  printf("%-46s launch=%s sync=%s(%d) last=%s next_malloc=%s\n", c.name, cudaGetErrorName(launch),
         cudaGetErrorName(sync), int(sync), cudaGetErrorName(last), cudaGetErrorName(next));
  return 0;
}

// With MUSA_SIM_MEMCHECK=1, a kernel that reads or writes pageable host memory faults as on
// the H200 (pageableMemoryAccess = 0: tests/hardware/probes/fault_boundaries.h200.txt), while
// every kind of memory a kernel may reach works, also through pointers the compiler cannot
// place (a function that is not inlined sees only a pointer).
#include "check.h"

#include <stdlib.h>

struct Pair {
  int a, b;
};

__device__ int table[64];

__device__ __noinline__ void addOne(int *p) { *p += 1; }
__device__ __noinline__ int readAt(const int *p, int i) { return p[i]; }
__device__ __noinline__ int product(const Pair *p) { return p->a * p->b; }

__global__ void touch(int *p) { addOne(&p[threadIdx.x]); }

__global__ void mixed(int *out, Pair pair) {
  __shared__ int tile[32];
  int local[8];
  for (int i = 0; i < 8; ++i)
    local[i] = i * threadIdx.x;
  tile[threadIdx.x] = int(threadIdx.x);
  table[threadIdx.x] = 2 * int(threadIdx.x);
  __syncthreads();
  addOne(&tile[threadIdx.x]);
  addOne(&table[threadIdx.x]);
  out[threadIdx.x] = readAt(local, 3) + readAt(tile, threadIdx.x) +
                     readAt(table, threadIdx.x) + product(&pair);
}

int main() {
  int reported = -1;
  CHECK_MUSA(musaDeviceGetAttribute(&reported, musaDevAttrPageableMemoryAccess, 0));
  CHECK(reported == 0, "pageableMemoryAccess reads %d", reported);
  const int n = 32;
  int *device, *pinned, *managed, *mapped, *mappedDevice;
  int *registered = static_cast<int *>(malloc(n * sizeof(int)));
  CHECK_MUSA(musaMalloc(&device, n * sizeof(int)));
  CHECK_MUSA(musaMallocHost(&pinned, n * sizeof(int)));
  CHECK_MUSA(musaMallocManaged(&managed, n * sizeof(int)));
  CHECK_MUSA(musaHostAlloc(&mapped, n * sizeof(int), musaHostAllocMapped));
  CHECK_MUSA(musaHostGetDevicePointer(&mappedDevice, mapped, 0));
  CHECK_MUSA(musaHostRegister(registered, n * sizeof(int), musaHostRegisterDefault));
  CHECK_MUSA(musaMemset(device, 0, n * sizeof(int)));
  int *reachable[] = {device, pinned, managed, mappedDevice, registered};
  for (int *p : reachable) {
    if (p != device)
      for (int i = 0; i < n; ++i)
        p[i] = i;
    touch<<<1, n>>>(p);
    CHECK_MUSA(musaDeviceSynchronize());
  }
  int back[n];
  CHECK_MUSA(musaMemcpy(back, device, sizeof back, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    CHECK(back[i] == 1, "device[%d] = %d", i, back[i]);
    CHECK(pinned[i] == i + 1 && managed[i] == i + 1 && mapped[i] == i + 1 &&
              registered[i] == i + 1,
          "host kinds at %d: %d %d %d %d", i, pinned[i], managed[i], mapped[i], registered[i]);
  }

  mixed<<<1, n>>>(device, Pair{3, 5});
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK_MUSA(musaMemcpy(back, device, sizeof back, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    CHECK(back[i] == 3 * i + (i + 1) + (2 * i + 1) + 15, "mixed[%d] = %d", i, back[i]);

  // Pageable memory: an illegal address, sticky as every device fault.
  int *pageable = static_cast<int *>(malloc(n * sizeof(int)));
  touch<<<1, n>>>(pageable);
  musaError_t e = musaDeviceSynchronize();
  CHECK(e == musaErrorIllegalAddress, "a kernel on pageable memory gave %s", musaGetErrorName(e));
  free(pageable);
  return finish("host_memory_access");
}

// Faults inside kernels become sticky errors naming the kernel; the process survives.
#include "check.h"

__global__ void writeThrough(int *p) { p[threadIdx.x] = 7; }

__global__ void trapAtThree(int *p) {
  if (threadIdx.x == 3)
    __trap();
  p[threadIdx.x] = 1;
}

// The offset comes from the host, so the compiler cannot see the misalignment.
__global__ void loadAt(const char *base, long offset, int *out) {
  *out = *reinterpret_cast<const int *>(base + offset);
}

__global__ void loadWide(const char *base, long offset, long long *out) {
  *out = *reinterpret_cast<const long long *>(base + offset);
}

__global__ void sharedAt(int index, int *out) {
  __shared__ int s[256];
  s[threadIdx.x] = int(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = s[index + int(threadIdx.x)];
}

__global__ void sharedStoreAt(int index, int *out) {
  __shared__ int s[256];
  s[threadIdx.x] = int(threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0)
    s[index] = -1;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

__device__ int deep(int n, volatile int *sink) {
  volatile char pad[512];
  pad[n % 512] = char(n);
  sink[0] = pad[n % 512];
  return n == 0 ? 0 : deep(n - 1, sink) + 1;
}

__global__ void recurse(int *out) {
  __syncthreads(); // fibers
  out[threadIdx.x] = deep(1 << 20, out);
}

__global__ void fetchFrom(musaTextureObject_t t, float *out) { *out = tex1Dfetch<float>(t, 0); }

int main(int argc, char **argv) {
  int *d;
  CHECK_MUSA(musaMalloc(&d, 1024));
  if (argc > 1 && argv[1][0] == 't') {
    trapAtThree<<<1, 8>>>(d);
    // A synchronous copy waits for the kernel and returns its fault (sticky from then on).
    int h = 0;
    musaError_t e = musaMemcpy(&h, d, sizeof h, musaMemcpyDeviceToHost);
    CHECK(e == musaErrorLaunchFailure, "musaMemcpy after __trap() gave %s", musaGetErrorName(e));
    e = musaDeviceSynchronize();
    CHECK(e == musaErrorLaunchFailure, "__trap() gave %s", musaGetErrorName(e));
  } else if (argc > 1 && argv[1][0] == 's') {
    recurse<<<1, 4>>>(d);
    musaError_t e = musaDeviceSynchronize();
    CHECK(e == musaErrorLaunchFailure, "stack overflow gave %s", musaGetErrorName(e));
  } else if (argc > 1 && argv[1][0] == 'm') {
    // As the H200 reports (tests/hardware/probes/fault_boundaries.h200.txt): 4-byte loads at
    // offsets 0 and 4 and an 8-byte load at offset 4 are fine, a 4-byte load at offset 2 is not.
    int *out;
    long long *wide;
    CHECK_MUSA(musaMalloc(&out, sizeof(int)));
    CHECK_MUSA(musaMalloc(&wide, sizeof(long long)));
    loadAt<<<1, 1>>>(reinterpret_cast<char *>(d), 4, out);
    loadWide<<<1, 1>>>(reinterpret_cast<char *>(d), 4, wide);
    CHECK_MUSA(musaDeviceSynchronize());
    loadAt<<<1, 1>>>(reinterpret_cast<char *>(d), 2, out);
    musaError_t e = musaDeviceSynchronize();
    CHECK(e == musaErrorMisalignedAddress, "misaligned load gave %s", musaGetErrorName(e));
  } else if (argc > 1 && argv[1][0] == 'h') {
    int *out;
    CHECK_MUSA(musaMalloc(&out, 256 * sizeof(int)));
    sharedAt<<<2, 256>>>(0, out); // in range
    CHECK_MUSA(musaDeviceSynchronize());
    sharedAt<<<2, 256>>>(1, out); // thread 255 reads s[256]: one past the end
    musaError_t e = musaDeviceSynchronize();
    CHECK(e == musaErrorIllegalAddress, "shared access past the end gave %s", musaGetErrorName(e));
  } else if (argc > 1 && argv[1][0] == 'f') {
    // Far past the end: flagged, and the store never reaches whatever lies there (another
    // block's shared memory, another allocation, an unmapped page).
    int *out;
    CHECK_MUSA(musaMalloc(&out, 256 * sizeof(int)));
    sharedStoreAt<<<2, 256>>>(255, out);
    CHECK_MUSA(musaDeviceSynchronize());
    sharedStoreAt<<<2, 256>>>(1 << 26, out); // 256 MiB past the block's 1024 bytes
    musaError_t e = musaDeviceSynchronize();
    CHECK(e == musaErrorIllegalAddress, "shared store far past the end gave %s", musaGetErrorName(e));
  } else if (argc > 1 && argv[1][0] == 'x') {
    // A texture object used after musaDestroyTextureObject: its record is cleared, so the
    // fetch faults instead of reading whatever the memory holds now.
    float *buffer;
    CHECK_MUSA(musaMalloc(&buffer, 256 * sizeof(float)));
    musaResourceDesc rd = {};
    rd.resType = musaResourceTypeLinear;
    rd.res.linear.devPtr = buffer;
    rd.res.linear.desc = musaCreateChannelDesc<float>();
    rd.res.linear.sizeInBytes = 256 * sizeof(float);
    musaTextureDesc td = {};
    musaTextureObject_t t = 0;
    CHECK_MUSA(musaCreateTextureObject(&t, &rd, &td, nullptr));
    fetchFrom<<<1, 1>>>(t, buffer + 1);
    CHECK_MUSA(musaDeviceSynchronize());
    CHECK_MUSA(musaDestroyTextureObject(t));
    fetchFrom<<<1, 1>>>(t, buffer + 1);
    musaError_t e = musaDeviceSynchronize();
    CHECK(e == musaErrorIllegalAddress, "a destroyed texture gave %s", musaGetErrorName(e));
  } else {
    int *freed;
    CHECK_MUSA(musaMalloc(&freed, 1024));
    CHECK_MUSA(musaFree(freed));
    writeThrough<<<1, 32>>>(freed);
    musaError_t e = musaMemset(d, 0, 4);
    CHECK(e == musaErrorIllegalAddress, "musaMemset after the fault gave %s", musaGetErrorName(e));
    e = musaDeviceSynchronize();
    CHECK(e == musaErrorIllegalAddress, "use after free gave %s", musaGetErrorName(e));
  }
  CHECK_MUSA(musaDeviceReset());
  CHECK_MUSA(musaMalloc(&d, 1024));
  writeThrough<<<1, 32>>>(d);
  CHECK_MUSA(musaDeviceSynchronize());
  return finish("device_faults");
}

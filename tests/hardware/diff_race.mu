// Kernels whose result the hardware does not define, for differential mode (musa-sim-diff):
// a data race (every thread increments one counter without an atomic), a read of shared
// memory no thread wrote and a read of a fresh allocation nothing wrote. Each must be reported
// as a mismatch with its kernel and index.
#include <cstdio>

__global__ void racyCount(int *counter) {
  volatile int *c = counter;
  int v = *c;
  *c = v + 1; // lost updates: read-modify-write without an atomic
}

__global__ void fillShared(int *sink) {
  __shared__ int scratch[256];
  scratch[threadIdx.x] = 0x5eed0000 + threadIdx.x * 7 + blockIdx.x;
  __syncthreads();
  if (threadIdx.x == 0)
    sink[blockIdx.x] = scratch[255];
}

// Threads 128 and up read shared slots nobody wrote. (Had no thread written the array at
// all, the compiler would delete the undefined store and nothing would be read.)
__global__ void readUninitialised(int *out) {
  __shared__ int half[256];
  if (threadIdx.x < 128)
    half[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = half[threadIdx.x];
}

__global__ void copyUninitialised(int *out, const int *never) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = never[i]; // nobody wrote `never`
}

int main() {
  int *counter, *sink, *out;
  musaMalloc(&counter, sizeof(int));
  musaMalloc(&sink, 64 * sizeof(int));
  musaMalloc(&out, 64 * 256 * sizeof(int));
  musaMemset(counter, 0, sizeof(int));
  racyCount<<<256, 256>>>(counter);
  int count = 0;
  musaMemcpy(&count, counter, sizeof count, musaMemcpyDeviceToHost);
  std::printf("racyCount: %d of %d increments\n", count, 256 * 256);
  fillShared<<<64, 256>>>(sink);
  readUninitialised<<<64, 256>>>(out);
  int *never;
  musaMalloc(&never, 64 * 256 * sizeof(int));
  copyUninitialised<<<64, 256>>>(out, never);
  musaDeviceSynchronize();
  int first = 0;
  musaMemcpy(&first, out + 200, sizeof first, musaMemcpyDeviceToHost);
  std::printf("out[200] after readUninitialised and copyUninitialised: %#x\n", first);
  musaFree(counter);
  musaFree(sink);
  musaFree(out);
  musaFree(never);
  return 0;
}

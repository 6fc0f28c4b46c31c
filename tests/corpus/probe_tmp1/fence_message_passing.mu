// Message passing with memory fences (the CUDA programming guide's __threadfence() rules):
//   A: two blocks of an ordinary launch ping-pong 64 rounds through global memory: the sender
//      writes a 32-element payload, __threadfence(), then raises a volatile flag; the receiver
//      spins on the flag, __threadfence(), reads the payload and answers.
//   B: a whole block publishes: all threads write, __threadfence(), __syncthreads(), thread 0
//      raises the flag; in the receiving block thread 0 waits, __syncthreads(), all read.
//   C: device to host and back while the kernel runs, through mapped pinned memory: the kernel
//      writes results, __threadfence_system(), sets a flag the host polls; the host answers
//      through another mapped word the kernel polls; 16 rounds.
//   D: __threadfence_block between two warps of a block, data then flag in shared memory.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <chrono>

#define CK(x) do { musaError_t e = (x); if (e != musaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, musaGetErrorString(e)); exit(2);} } while (0)

constexpr int ROUNDS = 64, W = 32;

__global__ void pingpong(int *payload, volatile int *flags, int *result) {
  // block 0 sends r and waits for block 1's answer; block 1 answers with payload * 2 + r
  int me = blockIdx.x;
  if (threadIdx.x != 0) return;
  int acc = 0;
  for (int r = 1; r <= ROUNDS; ++r) {
    if (me == 0) {
      for (int i = 0; i < W; ++i) payload[i] = r * 100 + i;
      __threadfence();
      flags[0] = r;
      while (flags[1] != r) {
      }
      __threadfence();
      for (int i = 0; i < W; ++i) acc += ((volatile int *)payload)[W + i];
    } else {
      while (flags[0] != r) {
      }
      __threadfence();
      for (int i = 0; i < W; ++i) payload[W + i] = ((volatile int *)payload)[i] * 2 + r;
      __threadfence();
      flags[1] = r;
    }
  }
  if (me == 0) *result = acc;
}

__global__ void block_publish(int *data, volatile int *flag, int *out, int n) {
  if (blockIdx.x == 1) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) data[i] = i * i - 7;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) *flag = 1;
  } else {
    if (threadIdx.x == 0) {
      while (*flag == 0) {
      }
      __threadfence();
    }
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = ((volatile int *)data)[i] + 1;
  }
}

__global__ void host_dialog(volatile int *hostData, volatile int *hostFlag, volatile int *hostAck, int *sum) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  int acc = 0;
  for (int r = 1; r <= 16; ++r) {
    hostData[0] = r * r;
    __threadfence_system();
    *hostFlag = r;
    while (*hostAck != r) {
    }
    __threadfence_system();
    acc += hostData[1];
  }
  *sum = acc;
}

__global__ void warp_fence(int *out) {
  __shared__ int data[64];
  __shared__ volatile int flag;
  int w = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  if (w == 1 && lane == 0) {
    for (int i = 0; i < 64; ++i) data[i] = i * 5 + blockIdx.x;
    __threadfence_block();
    flag = 1;
  } else if (w == 0 && lane == 0) {
    while (flag == 0) {
    }
    __threadfence_block();
    int s = 0;
    for (int i = 0; i < 64; ++i) s += ((volatile int *)data)[i];
    out[blockIdx.x] = s;
  }
}

int main(int argc, char **argv) {
  int only = argc > 1 ? atoi(argv[1]) : -1;
  bool ok = true;
  if (only < 0 || only == 0) {
    int *payload, *flags, *result;
    CK(musaMalloc(&payload, 2 * W * 4)); CK(musaMalloc(&flags, 8)); CK(musaMalloc(&result, 4));
    CK(musaMemset(flags, 0, 8));
    pingpong<<<2, 32>>>(payload, flags, result);
    CK(musaGetLastError());
    CK(musaDeviceSynchronize());
    int got; CK(musaMemcpy(&got, result, 4, musaMemcpyDeviceToHost));
    int exp = 0;
    for (int r = 1; r <= ROUNDS; ++r) for (int i = 0; i < W; ++i) exp += (r * 100 + i) * 2 + r;
    if (got != exp) { printf("pingpong: %d expected %d\n", got, exp); ok = false; }
  }
  if (only < 0 || only == 1) {
    const int n = 5000;
    int *data, *flag, *out;
    CK(musaMalloc(&data, n * 4)); CK(musaMalloc(&flag, 4)); CK(musaMalloc(&out, n * 4));
    CK(musaMemset(flag, 0, 4));
    block_publish<<<2, 256>>>(data, flag, out, n);
    CK(musaGetLastError());
    std::vector<int> h(n);
    CK(musaMemcpy(h.data(), out, n * 4, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) if (h[i] != i * i - 6) { printf("block_publish: out[%d] = %d\n", i, h[i]); ok = false; break; }
  }
  if (only < 0 || only == 2) {
    int *hData, *hFlag, *hAck, *dData, *dFlag, *dAck, *sum;
    CK(musaHostAlloc(&hData, 8, musaHostAllocMapped));
    CK(musaHostAlloc(&hFlag, 4, musaHostAllocMapped));
    CK(musaHostAlloc(&hAck, 4, musaHostAllocMapped));
    CK(musaHostGetDevicePointer(&dData, hData, 0));
    CK(musaHostGetDevicePointer(&dFlag, hFlag, 0));
    CK(musaHostGetDevicePointer(&dAck, hAck, 0));
    CK(musaMalloc(&sum, 4));
    *hFlag = 0; *hAck = 0; hData[0] = hData[1] = 0;
    host_dialog<<<1, 32>>>(dData, dFlag, dAck, sum);
    CK(musaGetLastError());
    int exp = 0;
    auto start = std::chrono::steady_clock::now();
    for (int r = 1; r <= 16 && ok; ++r) {
      while (*(volatile int *)hFlag != r) {
        if (std::chrono::steady_clock::now() - start > std::chrono::seconds(10)) { printf("host_dialog: the host never saw round %d\n", r); ok = false; break; }
      }
      if (!ok) break;
      int v = ((volatile int *)hData)[0];
      if (v != r * r) { printf("host_dialog: round %d data %d\n", r, v); ok = false; }
      ((volatile int *)hData)[1] = v + 1;
      exp += v + 1;
      __sync_synchronize();
      *(volatile int *)hAck = r;
    }
    if (ok) {
      CK(musaDeviceSynchronize());
      int got; CK(musaMemcpy(&got, sum, 4, musaMemcpyDeviceToHost));
      if (got != exp) { printf("host_dialog: sum %d expected %d\n", got, exp); ok = false; }
    }
  }
  if (only < 0 || only == 3) {
    int warp; CK(musaDeviceGetAttribute(&warp, musaDevAttrWarpSize, 0));
    int *out; CK(musaMalloc(&out, 8 * 4));
    warp_fence<<<8, 2 * warp>>>(out);
    CK(musaGetLastError());
    int h[8]; CK(musaMemcpy(h, out, 32, musaMemcpyDeviceToHost));
    for (int b = 0; b < 8; ++b) { int e = 0; for (int i = 0; i < 64; ++i) e += i * 5 + b; if (h[b] != e) { printf("warp_fence: block %d %d expected %d\n", b, h[b], e); ok = false; break; } }
  }
  printf("fence_message_passing %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

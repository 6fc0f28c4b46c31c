// Producer/consumer between warps of one block through flags in shared memory, WITHOUT
// __syncthreads between them (warp specialisation as CUTLASS-style kernels and the CUDA
// programming guide's memory-fence examples do it; legal on Volta+ because of independent
// thread scheduling and forward-progress of warps within a block).
//   test 0: warp 0 produces a tile, sets a volatile flag; warp 1 spins, then consumes.
//   test 1: the last warp produces, warp 0 consumes (the consumer has the lower index).
//   test 2: a ping-pong of 8 rounds between warp 0 and warp 1 (volatile flags).
//   test 3: the same ping-pong with atomic flags (atomicAdd / atomicCAS polling).
//   test 4: inside ONE warp, lane i waits for lane i+1 (a serial suffix sum handed down the
//           lanes through volatile shared flags, no __syncwarp): legal only with Volta's
//           independent thread scheduling.
// Run with an argument (0..4) to run one test; without, all.
#include <cstdio>
#include <cstdlib>

#define CK(x) do { musaError_t e = (x); if (e != musaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, musaGetErrorString(e)); exit(2);} } while (0)

constexpr int TILE = 256;
constexpr int ROUNDS = 8;

__global__ void forward(const int *in, int *out) {
  __shared__ int buf[TILE];
  __shared__ volatile int ready;
  int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  if (threadIdx.x == 0) ready = 0;
  __syncthreads();
  if (warp == 0) {
    for (int i = lane; i < TILE; i += warpSize) buf[i] = in[blockIdx.x * TILE + i] * 3;
    __threadfence_block();
    __syncwarp();
    if (lane == 0) ready = 1;
  } else if (warp == 1) {
    while (ready == 0) {
    }
    __threadfence_block();
    for (int i = lane; i < TILE; i += warpSize) out[blockIdx.x * TILE + i] = buf[i] + 1;
  }
}

__global__ void backward(const int *in, int *out) {
  __shared__ int buf[TILE];
  __shared__ volatile int ready;
  int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  int last = blockDim.x / warpSize - 1;
  if (threadIdx.x == 0) ready = 0;
  __syncthreads();
  if (warp == last) {
    for (int i = lane; i < TILE; i += warpSize) buf[i] = in[blockIdx.x * TILE + i] * 3;
    __threadfence_block();
    __syncwarp();
    if (lane == 0) ready = 1;
  } else if (warp == 0) {
    while (ready == 0) {
    }
    __threadfence_block();
    for (int i = lane; i < TILE; i += warpSize) out[blockIdx.x * TILE + i] = buf[i] + 1;
  }
}

// Warp 0 is the "client": sends x, waits for the server's answer f(x) = 2x + 1, accumulates.
__global__ void pingpong_volatile(const int *in, int *out) {
  __shared__ volatile int req, resp, reqFlag, respFlag;
  int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  if (threadIdx.x == 0) reqFlag = respFlag = 0;
  __syncthreads();
  if (lane != 0) return;
  if (warp == 0) {
    int acc = 0;
    for (int r = 0; r < ROUNDS; ++r) {
      req = in[blockIdx.x * ROUNDS + r];
      __threadfence_block();
      reqFlag = r + 1;
      while (respFlag != r + 1) {
      }
      __threadfence_block();
      acc += resp;
    }
    out[blockIdx.x] = acc;
  } else if (warp == 1) {
    for (int r = 0; r < ROUNDS; ++r) {
      while (reqFlag != r + 1) {
      }
      __threadfence_block();
      resp = 2 * req + 1;
      __threadfence_block();
      respFlag = r + 1;
    }
  }
}

__global__ void pingpong_atomic(const int *in, int *out) {
  __shared__ int req, resp, reqFlag, respFlag;
  int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  if (threadIdx.x == 0) reqFlag = respFlag = 0;
  __syncthreads();
  if (lane != 0) return;
  if (warp == 0) {
    int acc = 0;
    for (int r = 0; r < ROUNDS; ++r) {
      atomicExch(&req, in[blockIdx.x * ROUNDS + r]);
      __threadfence_block();
      atomicExch(&reqFlag, r + 1);
      while (atomicAdd(&respFlag, 0) != r + 1) {
      }
      __threadfence_block();
      acc += atomicAdd(&resp, 0);
    }
    out[blockIdx.x] = acc;
  } else if (warp == 1) {
    for (int r = 0; r < ROUNDS; ++r) {
      while (atomicCAS(&reqFlag, r + 1, r + 1) != r + 1) {
      }
      __threadfence_block();
      atomicExch(&resp, 2 * atomicAdd(&req, 0) + 1);
      __threadfence_block();
      atomicExch(&respFlag, r + 1);
    }
  }
}

__global__ void lane_chain(const int *in, int *out) {
  __shared__ volatile int val[1024], ready[1024];
  int lane = threadIdx.x;             // one warp per block
  ready[lane] = 0;
  __syncwarp();
  int x = in[blockIdx.x * blockDim.x + lane];
  if (lane == (int)blockDim.x - 1) {
    val[lane] = x;
  } else {
    while (ready[lane + 1] == 0) {
    }
    __threadfence_block();
    val[lane] = val[lane + 1] + x;
  }
  __threadfence_block();
  ready[lane] = 1;
  out[blockIdx.x * blockDim.x + lane] = val[lane];
}

int main(int argc, char **argv) {
  int only = argc > 1 ? atoi(argv[1]) : -1;
  int warp;
  CK(musaDeviceGetAttribute(&warp, musaDevAttrWarpSize, 0));
  const int blocks = 6;
  int *din, *dout;
  int hin[blocks * TILE], hout[blocks * TILE];
  for (int i = 0; i < blocks * TILE; ++i) hin[i] = (i * 37) % 1001 - 500;
  CK(musaMalloc(&din, sizeof hin));
  CK(musaMalloc(&dout, sizeof hout));
  CK(musaMemcpy(din, hin, sizeof hin, musaMemcpyHostToDevice));
  bool ok = true;
  for (int t = 0; t < 5; ++t) {
    if (only >= 0 && t != only) continue;
    CK(musaMemset(dout, 0, sizeof hout));
    if (t == 0) forward<<<blocks, 2 * warp>>>(din, dout);
    if (t == 1) backward<<<blocks, 4 * warp>>>(din, dout);
    if (t == 2) pingpong_volatile<<<blocks, 2 * warp>>>(din, dout);
    if (t == 3) pingpong_atomic<<<blocks, 2 * warp>>>(din, dout);
    if (t == 4) lane_chain<<<blocks, warp>>>(din, dout);
    CK(musaGetLastError());
    CK(musaDeviceSynchronize());
    CK(musaMemcpy(hout, dout, sizeof hout, musaMemcpyDeviceToHost));
    bool good = true;
    if (t == 4) {
      for (int b = 0; b < blocks && good; ++b) {
        int acc = 0;
        for (int l = warp - 1; l >= 0; --l) {
          acc += hin[b * warp + l];
          if (hout[b * warp + l] != acc) { printf("test 4: block %d lane %d got %d, expected %d\n", b, l, hout[b * warp + l], acc); good = false; break; }
        }
      }
    } else if (t < 2) {
      for (int i = 0; i < blocks * TILE; ++i)
        if (hout[i] != hin[i] * 3 + 1) { printf("test %d: out[%d] = %d, expected %d\n", t, i, hout[i], hin[i] * 3 + 1); good = false; break; }
    } else {
      for (int b = 0; b < blocks; ++b) {
        int acc = 0;
        for (int r = 0; r < ROUNDS; ++r) acc += 2 * hin[b * ROUNDS + r] + 1;
        if (hout[b] != acc) { printf("test %d: block %d got %d, expected %d\n", t, b, hout[b], acc); good = false; break; }
      }
    }
    printf("test %d %s\n", t, good ? "ok" : "wrong");
    ok &= good;
  }
  printf("warp_producer_consumer %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

// Asynchronous copies into shared memory: a double-buffered tiled row-sum / GEMV where cg::memcpy_async (block and tile<32> groups) stages the next tile while the current one is used, cg::wait and cg::wait_prior<1> for the stages, cg::invoke_one to publish a per-block result, and the per-thread __pipeline_memcpy_async / __pipeline_commit / __pipeline_wait_prior primitives for a second kernel.
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
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <musa_pipeline_primitives.h>
namespace cg = cooperative_groups;

constexpr int TILE = 256;

// y[row] = sum_k A[row][k] * x[k]; one block per row, x and A's row staged through shared memory.
__global__ void gemvAsync(const float *A, const float *x, float *y, int cols, int *blocksDone) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float xs[2][TILE];
  __shared__ float as[2][TILE];
  __shared__ float partial[1024];
  const float *row = A + (size_t)blockIdx.x * cols;
  int tiles = cols / TILE;
  cg::memcpy_async(block, xs[0], x, sizeof(float) * TILE);
  cg::memcpy_async(block, as[0], row, sizeof(float) * TILE);
  float acc = 0;
  for (int t = 0; t < tiles; ++t) {
    int cur = t & 1;
    if (t + 1 < tiles) {
      cg::memcpy_async(block, xs[cur ^ 1], x + (t + 1) * TILE, sizeof(float) * TILE);
      cg::memcpy_async(block, as[cur ^ 1], row + (t + 1) * TILE, sizeof(float) * TILE);
      cg::wait_prior<2>(block); // the two copies of stage t are done
    } else {
      cg::wait(block);
    }
    for (int k = threadIdx.x; k < TILE; k += blockDim.x)
      acc += xs[cur][k] * as[cur][k];
    block.sync(); // everyone is done with 'cur' before it is refilled
  }
  partial[threadIdx.x] = acc;
  block.sync();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      partial[threadIdx.x] += partial[threadIdx.x + s];
    block.sync();
  }
  cg::invoke_one(block, [&] {
    y[blockIdx.x] = partial[0];
    atomicAdd(blocksDone, 1);
  });
}

// Per-warp staging with a tile group: each warp copies its 32-int window and sums it.
__global__ void tileCopy(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  extern __shared__ int buf[];
  int *mine = buf + tile.meta_group_rank() * 32;
  const int *src = in + blockIdx.x * blockDim.x + tile.meta_group_rank() * 32;
  cg::memcpy_async(tile, mine, src, sizeof(int) * 32);
  cg::wait(tile);
  int v = mine[(tile.thread_rank() + 1) % 32];
  out[blockIdx.x * blockDim.x + threadIdx.x] = v * 2;
}

// Per-thread pipeline primitives: each thread fetches 4 floats for two stages.
__global__ void pipelinePrims(const float4 *in, float *out, int n) {
  __shared__ float4 stage[2][128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __pipeline_memcpy_async(&stage[0][threadIdx.x], &in[i], sizeof(float4));
  __pipeline_commit();
  __pipeline_memcpy_async(&stage[1][threadIdx.x], &in[i + n], sizeof(float4));
  __pipeline_commit();
  __pipeline_wait_prior(1);
  float4 a = stage[0][threadIdx.x];
  __pipeline_wait_prior(0);
  float4 b = stage[1][threadIdx.x];
  out[i] = a.x + a.y + a.z + a.w - (b.x + b.y + b.z + b.w);
}

int main() {
  bool ok = true;
  const int rows = 24, cols = 2048;
  float *hA = (float *)malloc(rows * cols * 4), *hx = (float *)malloc(cols * 4), hy[rows];
  for (int i = 0; i < rows * cols; ++i)
    hA[i] = (float)((i * 7) % 11) - 5;
  for (int k = 0; k < cols; ++k)
    hx[k] = (float)(k % 5) * 0.5f;
  float *dA, *dx, *dy;
  int *dDone;
  CHECK(musaMalloc(&dA, rows * cols * 4));
  CHECK(musaMalloc(&dx, cols * 4));
  CHECK(musaMalloc(&dy, rows * 4));
  CHECK(musaMalloc(&dDone, 4));
  CHECK(musaMemset(dDone, 0, 4));
  CHECK(musaMemcpy(dA, hA, rows * cols * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dx, hx, cols * 4, musaMemcpyHostToDevice));
  gemvAsync<<<rows, 128>>>(dA, dx, dy, cols, dDone);
  CHECK(musaGetLastError());
  int done;
  CHECK(musaMemcpy(hy, dy, sizeof hy, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(&done, dDone, 4, musaMemcpyDeviceToHost));
  ok = ok && done == rows;
  for (int r = 0; r < rows; ++r) {
    double ref = 0;
    for (int k = 0; k < cols; ++k)
      ref += (double)hA[r * cols + k] * hx[k];
    if (fabs(hy[r] - ref) > 1e-3 * (fabs(ref) + 1)) { // products are multiples of 0.5: sums exact
      printf("row %d: %f want %f\n", r, hy[r], ref);
      ok = false;
    }
  }

  const int n = 4 * 128;
  int hi[n], ho[n];
  for (int i = 0; i < n; ++i)
    hi[i] = i * 3 + 1;
  int *di, *dout;
  CHECK(musaMalloc(&di, n * 4));
  CHECK(musaMalloc(&dout, n * 4));
  CHECK(musaMemcpy(di, hi, n * 4, musaMemcpyHostToDevice));
  tileCopy<<<4, 128, 128 * sizeof(int)>>>(di, dout);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(ho, dout, n * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int w = i / 32 * 32, ref = hi[w + (i % 32 + 1) % 32] * 2;
    if (ho[i] != ref) {
      printf("tileCopy %d: %d want %d\n", i, ho[i], ref);
      ok = false;
      break;
    }
  }

  const int m = 256;
  float4 *hf = (float4 *)malloc(2 * m * sizeof(float4));
  for (int i = 0; i < 2 * m; ++i)
    hf[i] = make_float4(i, 1, 2, 0.5f * i);
  float4 *df;
  float *dr, hr[m];
  CHECK(musaMalloc(&df, 2 * m * sizeof(float4)));
  CHECK(musaMalloc(&dr, m * 4));
  CHECK(musaMemcpy(df, hf, 2 * m * sizeof(float4), musaMemcpyHostToDevice));
  pipelinePrims<<<m / 128, 128>>>(df, dr, m);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(hr, dr, sizeof hr, musaMemcpyDeviceToHost));
  for (int i = 0; i < m; ++i) {
    float a = i + 1 + 2 + 0.5f * i, b = (i + m) + 1 + 2 + 0.5f * (i + m);
    if (hr[i] != a - b) {
      printf("pipeline %d: %f want %f\n", i, hr[i], a - b);
      ok = false;
      break;
    }
  }
  printf("cg_memcpy_async: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

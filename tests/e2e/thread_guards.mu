// Bounds tests on the thread's index in every shape the thread-loop split (SplitThreadGuards)
// handles or must refuse: <, <=, >, >=, signed and unsigned, operands either way round,
// early returns, two-sided ranges, a 2-D block, a reduction over the guarded threads, a
// barrier kernel, and indices that wrap (where no split is allowed). Every result is checked
// against the same arithmetic on the host.
#include "check.h"

#include <climits>
#include <vector>

__global__ void lessThan(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2 * i + 1;
}

__global__ void earlyReturn(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] += 7;
}

__global__ void reversed(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n > i)
    out[i] = -i;
}

__global__ void inclusive(int *out, int last) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= last)
    out[i] = i * 3;
}

__global__ void suffix(int *out, int from, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= from && i < n)
    out[i] = 5;
}

__global__ void unsignedGuard(unsigned *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = i ^ 0x5a5a5a5au;
}

// Per-block count of threads that pass: a reduction carried across the split.
__global__ void countPassing(int *counts, int n) {
  __shared__ int total;
  if (threadIdx.x == 0)
    total = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&total, 1);
  __syncthreads();
  if (threadIdx.x == 0)
    counts[blockIdx.x] = total;
}

__global__ void twoD(float *out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    out[y * width + x] = float(x) + 1000.0f * float(y);
}

// The index wraps past INT_MAX inside a block (in unsigned arithmetic, converted: defined
// behaviour, unlike a signed overflow): the test's value is not a prefix there.
__global__ void wrapping(int *out, int base, int n) {
  int i = int(unsigned(base) + threadIdx.x);
  if (i < n)
    out[threadIdx.x] = 1;
  else
    out[threadIdx.x] = 2;
}

int main() {
  const int n = 1000, block = 128, grid = (n + block - 1) / block, cap = grid * block;
  int *d;
  CHECK_MUSA(musaMalloc(&d, cap * sizeof(int)));
  std::vector<int> h(cap), expect(cap);
  auto fetch = [&] { CHECK_MUSA(musaMemcpy(h.data(), d, cap * sizeof(int), musaMemcpyDeviceToHost)); };
  auto compare = [&](const char *what) {
    fetch();
    for (int i = 0; i < cap; ++i)
      CHECK(h[i] == expect[i], "%s: element %d is %d, expected %d", what, i, h[i], expect[i]);
  };

  CHECK_MUSA(musaMemset(d, 0, cap * sizeof(int)));
  lessThan<<<grid, block>>>(d, n);
  for (int i = 0; i < cap; ++i)
    expect[i] = i < n ? 2 * i + 1 : 0;
  compare("i < n");

  earlyReturn<<<grid, block>>>(d, 900);
  for (int i = 0; i < 900; ++i)
    expect[i] += 7;
  compare("if (i >= n) return");

  reversed<<<grid, block>>>(d, 333);
  for (int i = 0; i < 333; ++i)
    expect[i] = -i;
  compare("n > i");

  inclusive<<<grid, block>>>(d, 700);
  for (int i = 0; i <= 700; ++i)
    expect[i] = i * 3;
  compare("i <= last");

  suffix<<<grid, block>>>(d, 450, 999);
  for (int i = 450; i < 999; ++i)
    expect[i] = 5;
  compare("from <= i < n");

  // Bounds that cut no block, all blocks, and none.
  for (int bound : {0, -5, 128, 1024, 1 << 30}) {
    CHECK_MUSA(musaMemset(d, 0, cap * sizeof(int)));
    lessThan<<<grid, block>>>(d, bound);
    for (int i = 0; i < cap; ++i)
      expect[i] = i < bound ? 2 * i + 1 : 0;
    compare("i < bound");
  }

  unsignedGuard<<<grid, block>>>(reinterpret_cast<unsigned *>(d), 517u);
  fetch();
  for (int i = 0; i < 517; ++i)
    CHECK(unsigned(h[i]) == (unsigned(i) ^ 0x5a5a5a5au), "unsigned guard: element %d", i);

  int *counts;
  CHECK_MUSA(musaMalloc(&counts, grid * sizeof(int)));
  countPassing<<<grid, block>>>(counts, n);
  std::vector<int> hc(grid);
  CHECK_MUSA(musaMemcpy(hc.data(), counts, grid * sizeof(int), musaMemcpyDeviceToHost));
  for (int b = 0; b < grid; ++b) {
    int want = std::min(block, std::max(0, n - b * block));
    CHECK(hc[b] == want, "block %d counted %d passing threads, expected %d", b, hc[b], want);
  }

  const int width = 37, height = 21;
  float *img;
  CHECK_MUSA(musaMalloc(&img, width * height * sizeof(float)));
  dim3 tile(16, 8), tiles((width + 15) / 16, (height + 7) / 8);
  twoD<<<tiles, tile>>>(img, width, height);
  std::vector<float> hi(width * height);
  CHECK_MUSA(musaMemcpy(hi.data(), img, hi.size() * sizeof(float), musaMemcpyDeviceToHost));
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      CHECK(hi[y * width + x] == float(x) + 1000.0f * float(y), "2-D guard: (%d, %d)", x, y);

  // base + threadIdx.x passes INT_MAX at thread 10 (two's complement wrap, as the GPU does):
  // threads 0..9 are below n = INT_MAX, thread 10 is INT_MAX itself, 11.. wrap negative.
  wrapping<<<1, block>>>(d, INT_MAX - 10, INT_MAX);
  fetch();
  for (int t = 0; t < block; ++t) {
    int i = int(unsigned(INT_MAX - 10) + unsigned(t));
    int want = i < INT_MAX ? 1 : 2;
    CHECK(h[t] == want, "wrapping index: thread %d got %d, expected %d", t, h[t], want);
  }

  CHECK_MUSA(musaFree(d));
  CHECK_MUSA(musaFree(counts));
  CHECK_MUSA(musaFree(img));
  return finish("thread_guards");
}

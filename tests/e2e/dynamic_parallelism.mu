// Dynamic parallelism as CUDA 12 programs use it (nvcc -rdc=true): kernels launching kernels
// with <<<>>> (recursion, qualified and template kernels, arguments converted to the
// parameters' types, a launch spread over lines, a launch from a __device__ function), device
// streams, tail launches, the order children run in, device-side launch errors, and a
// quicksort that recurses through child grids as the CUDA sample does.
#include "check.h"

#include <algorithm>
#include <vector>

__device__ int g_order[64];
__device__ int g_next;

__device__ void note(int tag) { g_order[atomicAdd(&g_next, 1)] = tag; }

// Recursion: each grid of 2 blocks x 2 threads launches one grid from its thread 0 of block 0.
__global__ void recurse(int depth, int maxDepth, int *visits) {
  atomicAdd(&visits[depth], 1);
  if (depth + 1 < maxDepth && threadIdx.x == 0 && blockIdx.x == 0)
    recurse<<<2, 2>>>(depth + 1, maxDepth, visits);
}

struct Params {
  int a;
  double b;
  char c;
};

namespace kernels {
template <typename T, int N> __global__ void fill(T *out, T value) {
  for (int i = threadIdx.x; i < N; i += blockDim.x)
    out[i] = value + T(i);
}
} // namespace kernels

__global__ void mixed(Params p, bool flag, char c, float4 v, float converted, long long big,
                      double *out) {
  out[0] = p.a + p.b + p.c;
  out[1] = flag ? 1 : 0;
  out[2] = c;
  out[3] = v.x + v.y + v.z + v.w;
  out[4] = converted;
  out[5] = double(big);
}

__device__ void launchFromDevice(float *out) {
  kernels::fill<float, 16><<<1, 4>>>(out, 0.5f); // explicit template arguments, qualified
}

__global__ void arguments(double *out, float *floats, int *ints) {
  Params p{1, 2.5, 3};
  float4 v = make_float4(1, 2, 3, 4);
  mixed<<<1, 1>>>(p, 7, 'x', v, 3 /* int -> float */,
                  (1ll << 40), // spread over lines
                  out);
  launchFromDevice(floats);
  kernels::fill<int, 8><<<dim3(1), dim3(8), 0, 0>>>(ints, 100);
}

// Order: a child of this block runs after the parent grid, each child's children before the
// next child, and tail launches after all other children.
__global__ void tagged(int tag, int childTag) {
  note(tag);
  if (childTag)
    tagged<<<1, 1>>>(childTag, 0);
}
__global__ void ordered() {
  tagged<<<1, 1, 0, musaStreamTailLaunch>>>(9, 0);
  tagged<<<1, 1>>>(1, 2); // 1, then its child 2
  tagged<<<1, 1>>>(3, 0);
  note(0); // the parent itself runs first
}

// Device-side launch errors reach the launching thread's musaGetLastError().
__global__ void child() {}
__global__ void errors(int *codes, int depth) {
  child<<<1, 4096>>>(); // more threads than a block holds
  codes[0] = musaPeekAtLastError();
  codes[1] = musaGetLastError();
  codes[2] = musaGetLastError(); // cleared
  musaStream_t s;
  codes[3] = musaStreamCreateWithFlags(&s, musaStreamDefault); // accepted, as on the H100
  codes[4] = musaStreamCreateWithFlags(&s, 7);
}
__global__ void deep(int depth, int *reached, int *code) {
  atomicMax(reached, depth);
  deep<<<1, 1>>>(depth + 1, reached, code);
  if (musaError_t e = musaGetLastError())
    *code = e;
}
__global__ void many(int *codes, int n) {
  for (int i = 0; i < n; ++i) {
    child<<<1, 1>>>();
    codes[i] = musaGetLastError();
  }
}

// The device runtime's other calls: heap memory a child fills and a tail launch checks and
// frees, error names, events.
__global__ void fillWith(int *p, int n, int v) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    p[i] = v;
}
__global__ void checkAndFree(int *p, int n, int v, int *codes) {
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += p[i] != v;
  codes[0] = bad;
  codes[1] = musaFree(p);
}
__device__ bool sameText(const char *a, const char *b) {
  while (*a && *a == *b)
    ++a, ++b;
  return *a == *b;
}
__global__ void deviceApi(int *codes) {
  int *p = nullptr;
  codes[2] = musaMalloc(&p, 64 * sizeof(int));
  if (p) {
    fillWith<<<1, 32>>>(p, 64, 5);
    checkAndFree<<<1, 1, 0, musaStreamTailLaunch>>>(p, 64, 5, codes);
  }
  codes[3] = sameText(musaGetErrorName(musaErrorInvalidConfiguration),
                      "musaErrorInvalidConfiguration");
  codes[4] = sameText(musaGetErrorString(musaErrorInvalidValue), "invalid argument");
  musaEvent_t e;
  codes[5] = musaEventCreateWithFlags(&e, musaEventDefault); // device events: no timing
  codes[6] = musaEventCreateWithFlags(&e, musaEventDisableTiming);
  musaStream_t s;
  musaStreamCreateWithFlags(&s, musaStreamNonBlocking);
  codes[7] = musaEventRecord(e, s) | musaStreamWaitEvent(0, e, 0) | musaEventDestroy(e) |
             musaStreamDestroy(s);
}

// Quicksort: partition on one thread, sort each side in a child grid on its own stream; below
// a size or past a depth, selection sort.
__device__ void selectionSort(unsigned *data, int left, int right) {
  for (int i = left; i <= right; ++i) {
    unsigned minValue = data[i];
    int minIndex = i;
    for (int j = i + 1; j <= right; ++j)
      if (data[j] < minValue) {
        minValue = data[j];
        minIndex = j;
      }
    data[minIndex] = data[i];
    data[i] = minValue;
  }
}
__global__ void quicksort(unsigned *data, int left, int right, int depth) {
  if (depth >= 16 || right - left <= 32) {
    selectionSort(data, left, right);
    return;
  }
  unsigned pivot = data[(left + right) / 2];
  int l = left, r = right;
  while (l <= r) {
    while (data[l] < pivot)
      ++l;
    while (data[r] > pivot)
      --r;
    if (l <= r) {
      unsigned t = data[l];
      data[l++] = data[r];
      data[r--] = t;
    }
  }
  if (left < r) {
    musaStream_t s;
    musaStreamCreateWithFlags(&s, musaStreamNonBlocking);
    quicksort<<<1, 1, 0, s>>>(data, left, r, depth + 1);
    musaStreamDestroy(s);
  }
  if (l < right) {
    musaStream_t s;
    musaStreamCreateWithFlags(&s, musaStreamNonBlocking);
    quicksort<<<1, 1, 0, s>>>(data, l, right, depth + 1);
    musaStreamDestroy(s);
  }
}

int main() {
  int *visits;
  CHECK_MUSA(musaMallocManaged(&visits, 8 * sizeof(int)));
  memset(visits, 0, 8 * sizeof(int));
  recurse<<<2, 2>>>(0, 5, visits);
  CHECK_MUSA(musaDeviceSynchronize());
  for (int d = 0; d < 8; ++d)
    CHECK(visits[d] == (d < 5 ? 4 : 0), "depth %d: %d visits", d, visits[d]);

  double *out;
  float *floats;
  int *ints;
  CHECK_MUSA(musaMallocManaged(&out, 6 * sizeof(double)));
  CHECK_MUSA(musaMallocManaged(&floats, 16 * sizeof(float)));
  CHECK_MUSA(musaMallocManaged(&ints, 8 * sizeof(int)));
  arguments<<<1, 1>>>(out, floats, ints);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK(out[0] == 6.5 && out[1] == 1 && out[2] == 'x' && out[3] == 10 && out[4] == 3 &&
            out[5] == double(1ll << 40),
        "arguments %g %g %g %g %g %g", out[0], out[1], out[2], out[3], out[4], out[5]);
  for (int i = 0; i < 16; ++i)
    CHECK(floats[i] == 0.5f + i, "floats[%d] = %g", i, floats[i]);
  for (int i = 0; i < 8; ++i)
    CHECK(ints[i] == 100 + i, "ints[%d] = %d", i, ints[i]);

  // The parent's launch is complete only with its children: an event after it sees them.
  musaEvent_t done;
  CHECK_MUSA(musaEventCreate(&done));
  ordered<<<1, 1>>>();
  CHECK_MUSA(musaEventRecord(done));
  CHECK_MUSA(musaEventSynchronize(done));
  int order[64], next = 0;
  CHECK_MUSA(musaMemcpyFromSymbol(&next, g_next, sizeof next));
  CHECK_MUSA(musaMemcpyFromSymbol(order, g_order, sizeof order));
  // What CUDA promises: 1 (with its child 2) before 3 (same stream), the tail launch 9 after
  // everything; the parent's own 0 may come anywhere before 9 on a GPU, where children start
  // while their parent still runs. The simulator runs the parent first.
  CHECK(next == 5, "%d tags", next);
  int without0[5], m = 0;
  for (int i = 0; i < next && i < 5; ++i)
    if (order[i] != 0)
      without0[m++] = order[i];
  CHECK(m == 4 && without0[0] == 1 && without0[1] == 2 && without0[2] == 3 && order[4] == 9,
        "order %d %d %d %d %d", order[0], order[1], order[2], order[3], order[4]);
  if (!onHardware())
    CHECK(order[0] == 0, "the parent ran after a child: order %d %d %d %d %d", order[0],
          order[1], order[2], order[3], order[4]);

  int *codes;
  CHECK_MUSA(musaMallocManaged(&codes, 64 * sizeof(int)));
  errors<<<1, 1>>>(codes, 0);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK(codes[0] == musaErrorInvalidConfiguration && codes[1] == musaErrorInvalidConfiguration &&
            codes[2] == musaSuccess && codes[3] == musaSuccess,
        "device-side errors %d %d %d %d", codes[0], codes[1], codes[2], codes[3]);
  if (!onHardware()) // not tried on a GPU
    CHECK(codes[4] == musaErrorInvalidValue, "device stream flags 7: %d", codes[4]);
  int *reached;
  CHECK_MUSA(musaMallocManaged(&reached, 2 * sizeof(int)));
  reached[0] = reached[1] = 0;
  deep<<<1, 1>>>(0, reached, reached + 1);
  CHECK_MUSA(musaDeviceSynchronize());
  // As the H100 ran it: no nesting limit of its own; the grid at depth 2048 has 2048 launches
  // pending above it (each completes only with its children), the default limit.
  CHECK(reached[0] == 2048 && reached[1] == musaErrorLaunchPendingCountExceeded,
        "deepest %d, error %d", reached[0], reached[1]);
  // The GPU keeps at least 32 (an H100 read 4 back as 32: limits_rounding.h100.txt; with 4
  // asked for, all of six launches went there).
  CHECK_MUSA(musaDeviceSetLimit(musaLimitDevRuntimePendingLaunchCount, 4));
  size_t pending = 0;
  CHECK_MUSA(musaDeviceGetLimit(&pending, musaLimitDevRuntimePendingLaunchCount));
  CHECK(pending == 32, "pending launch count set to 4 reads %zu", pending);
  many<<<1, 1>>>(codes, 34);
  CHECK_MUSA(musaDeviceSynchronize());
  // The simulator's children wait for their parent, so all 34 are pending at once (a GPU's
  // children may start while the parent runs): the simulator's answer only.
  if (!onHardware())
    for (int i = 0; i < 34; ++i)
      CHECK(codes[i] == (i < 32 ? musaSuccess : musaErrorLaunchPendingCountExceeded),
            "launch %d of 34 with 32 pending allowed: %d", i, codes[i]);
  CHECK_MUSA(musaDeviceSetLimit(musaLimitDevRuntimePendingLaunchCount, 2048));

  memset(codes, 0xff, 8 * sizeof(int));
  deviceApi<<<1, 1>>>(codes);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK(codes[0] == 0 && codes[1] == musaSuccess && codes[2] == musaSuccess && codes[3] == 1 &&
            codes[4] == 1 && codes[5] == musaErrorInvalidValue && codes[6] == musaSuccess &&
            codes[7] == musaSuccess,
        "device API %d %d %d %d %d %d %d %d", codes[0], codes[1], codes[2], codes[3], codes[4],
        codes[5], codes[6], codes[7]);

  const int n = 5000;
  unsigned *data;
  CHECK_MUSA(musaMallocManaged(&data, n * sizeof(unsigned)));
  std::vector<unsigned> host(n);
  unsigned x = 12345;
  for (int i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    host[i] = data[i] = x >> 8;
  }
  quicksort<<<1, 1>>>(data, 0, n - 1, 0);
  CHECK_MUSA(musaDeviceSynchronize());
  std::sort(host.begin(), host.end());
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += data[i] != host[i];
  CHECK(wrong == 0, "quicksort: %d of %d out of place", wrong, n);
  return finish("dynamic_parallelism");
}

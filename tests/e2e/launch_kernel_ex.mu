// musaLaunchKernelEx as CUDA 12 programs use cudaLaunchKernelEx: a config struct with the
// grid, block, dynamic shared memory, stream and attributes; the C++ template converts the
// arguments to the kernel's parameter types. Cooperative and priority attributes take effect,
// hints are accepted, a programmatic event is recorded once the kernel has run, and bad
// attributes get the errors the H200 gives (tests/hardware/probes/launch_ex_probe.h200.txt).
#include "check.h"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

struct Scale {
  float factor;
  int offset;
};

__global__ void scaled(float *out, const float *in, Scale s, int n) {
  extern __shared__ float stage[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  stage[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = stage[threadIdx.x] * s.factor + float(s.offset);
}

__global__ void countCalls(int *counter) { atomicAdd(counter, 1); }

// Needs a cooperative launch: every block's partial sum is read after grid.sync().
__global__ void gridTotal(const int *in, int *partial, int *out) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int sum;
  if (threadIdx.x == 0)
    sum = 0;
  __syncthreads();
  atomicAdd(&sum, in[grid.thread_rank()]);
  __syncthreads();
  if (threadIdx.x == 0)
    partial[blockIdx.x] = sum;
  grid.sync();
  if (grid.thread_rank() == 0) {
    int total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      total += partial[b];
    *out = total;
  }
}

__global__ void plusOne(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + 1.0f;
}

int main() {
  const int n = 1000;
  float *in, *out, *after;
  CHECK_MUSA(musaMallocManaged(&in, n * sizeof(float)));
  CHECK_MUSA(musaMallocManaged(&out, n * sizeof(float)));
  CHECK_MUSA(musaMallocManaged(&after, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    in[i] = float(i);
  musaStream_t stream, other;
  CHECK_MUSA(musaStreamCreate(&stream));
  CHECK_MUSA(musaStreamCreate(&other));

  // No attributes; the arguments converted (a double to float, a long to int).
  musaLaunchConfig_t config = {};
  config.gridDim = dim3((n + 127) / 128); // 8 blocks
  config.blockDim = dim3(128);
  config.dynamicSmemBytes = 128 * sizeof(float);
  config.stream = stream;
  Scale s = {2.0f, 3};
  CHECK_MUSA(musaLaunchKernelEx(&config, scaled, out, in, s, 1000L));
  CHECK_MUSA(musaStreamSynchronize(stream));
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += out[i] != float(i) * 2.0f + 3.0f;
  CHECK(wrong == 0, "%d wrong values without attributes", wrong);

  // Hints and a priority: the launch runs as before.
  musaLaunchAttribute hints[5];
  memset(hints, 0, sizeof hints);
  hints[0].id = musaLaunchAttributePriority;
  hints[0].val.priority = -3;
  hints[1].id = musaLaunchAttributeProgrammaticStreamSerialization;
  hints[1].val.programmaticStreamSerializationAllowed = 1;
  hints[2].id = musaLaunchAttributeAccessPolicyWindow;
  hints[2].val.accessPolicyWindow.base_ptr = in;
  hints[2].val.accessPolicyWindow.num_bytes = n * sizeof(float);
  hints[2].val.accessPolicyWindow.hitRatio = 0.5f;
  hints[2].val.accessPolicyWindow.hitProp = musaAccessPropertyPersisting;
  hints[2].val.accessPolicyWindow.missProp = musaAccessPropertyStreaming;
  hints[3].id = musaLaunchAttributeClusterDimension; // 8 blocks, in clusters of 2
  hints[3].val.clusterDim.x = 2;
  hints[3].val.clusterDim.y = hints[3].val.clusterDim.z = 1;
  hints[4].id = musaLaunchAttributeMemSyncDomain;
  hints[4].val.memSyncDomain = musaLaunchMemSyncDomainDefault;
  config.attrs = hints;
  config.numAttrs = 5;
  s.factor = -1.0f;
  CHECK_MUSA(musaLaunchKernelEx(&config, scaled, out, in, s, n));
  CHECK_MUSA(musaStreamSynchronize(stream));
  wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += out[i] != 3.0f - float(i);
  CHECK(wrong == 0, "%d wrong values with hints", wrong);

  // A kernel without parameters, through the template; three launches, three calls.
  int *counter;
  CHECK_MUSA(musaMallocManaged(&counter, sizeof(int)));
  *counter = 0;
  musaLaunchConfig_t one = {};
  one.gridDim = dim3(1);
  one.blockDim = dim3(1);
  for (int k = 0; k < 3; ++k)
    CHECK_MUSA(musaLaunchKernelEx(&one, countCalls, counter));
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK(*counter == 3, "counter %d", *counter);

  // The cooperative attribute makes grid.sync() legal.
  const int blocks = 4, threads = 64;
  int *values, *partial, *total;
  CHECK_MUSA(musaMallocManaged(&values, blocks * threads * sizeof(int)));
  CHECK_MUSA(musaMallocManaged(&partial, blocks * sizeof(int)));
  CHECK_MUSA(musaMallocManaged(&total, sizeof(int)));
  for (int i = 0; i < blocks * threads; ++i)
    values[i] = i % 7;
  int expected = 0;
  for (int i = 0; i < blocks * threads; ++i)
    expected += i % 7;
  musaLaunchAttribute coop = {};
  coop.id = musaLaunchAttributeCooperative;
  coop.val.cooperative = 1;
  musaLaunchConfig_t grid = {};
  grid.gridDim = dim3(blocks);
  grid.blockDim = dim3(threads);
  grid.attrs = &coop;
  grid.numAttrs = 1;
  *total = -1;
  CHECK_MUSA(musaLaunchKernelEx(&grid, gridTotal, values, partial, total));
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK(*total == expected, "cooperative total %d, expected %d", *total, expected);

  // A programmatic event: another stream waits for it, then reads what the kernel wrote.
  musaEvent_t done;
  CHECK_MUSA(musaEventCreateWithFlags(&done, musaEventDisableTiming));
  musaLaunchAttribute event = {};
  event.id = musaLaunchAttributeProgrammaticEvent;
  event.val.programmaticEvent.event = done;
  config.attrs = &event;
  config.numAttrs = 1;
  s.factor = 4.0f;
  s.offset = 0;
  CHECK_MUSA(musaLaunchKernelEx(&config, scaled, out, in, s, n));
  CHECK_MUSA(musaStreamWaitEvent(other, done, 0));
  CHECK_MUSA(musaLaunchKernelEx(&one, countCalls, counter)); // unrelated, default stream
  musaLaunchConfig_t next = {};
  next.gridDim = dim3((n + 255) / 256);
  next.blockDim = dim3(256);
  next.stream = other;
  CHECK_MUSA(musaLaunchKernelEx(&next, plusOne, (const float *)out, after, n));
  CHECK_MUSA(musaStreamSynchronize(other));
  CHECK_MUSA(musaEventSynchronize(done));
  wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += after[i] != float(i) * 4.0f + 1.0f;
  CHECK(wrong == 0, "%d wrong values after the programmatic event", wrong);

  // Refused as the H200 refuses them: a cluster that does not tile the grid, a zero cluster
  // dimension, a programmatic event that records timing or is null, an unknown attribute, a
  // bad synchronization policy, attributes missing; no config (the H200 crashes there).
  {
    musaLaunchAttribute bad = {};
    config.attrs = &bad;
    config.numAttrs = 1;
    bad.id = musaLaunchAttributeClusterDimension;
    bad.val.clusterDim.x = 3, bad.val.clusterDim.y = 1, bad.val.clusterDim.z = 1;
    CHECK(musaLaunchKernelEx(&config, scaled, out, in, s, n) == musaErrorInvalidClusterSize,
          "cluster of three in a grid of eight");
    CHECK(musaGetLastError() == musaErrorInvalidClusterSize, "last error after the cluster");
    bad.val.clusterDim.x = 0;
    CHECK(musaLaunchKernelEx(&config, scaled, out, in, s, n) == musaErrorInvalidClusterSize,
          "cluster of zero");
    musaEvent_t timed;
    CHECK_MUSA(musaEventCreate(&timed));
    bad.id = musaLaunchAttributeProgrammaticEvent;
    bad.val.programmaticEvent.event = timed;
    if (!onHardware()) // forwarded as a launch plus an event record: the H200 never sees it
      CHECK(musaLaunchKernelEx(&config, scaled, out, in, s, n) == musaErrorNotSupported,
            "programmatic event with timing");
    bad.val.programmaticEvent.event = nullptr;
    CHECK(musaLaunchKernelEx(&config, scaled, out, in, s, n) == musaErrorInvalidResourceHandle,
          "null programmatic event");
    CHECK_MUSA(musaEventDestroy(timed));
    bad.id = (musaLaunchAttributeID)99;
    CHECK(musaLaunchKernelEx(&config, scaled, out, in, s, n) == musaErrorInvalidValue,
          "unknown attribute");
    bad.id = musaLaunchAttributeSynchronizationPolicy;
    bad.val.syncPolicy = (musaSynchronizationPolicy)9;
    CHECK(musaLaunchKernelEx(&config, scaled, out, in, s, n) == musaErrorInvalidValue,
          "bad synchronization policy");
    config.attrs = nullptr;
    CHECK(musaLaunchKernelEx(&config, scaled, out, in, s, n) == musaErrorInvalidValue,
          "attributes missing");
    CHECK(musaLaunchKernelExC(nullptr, (const void *)scaled, nullptr) == musaErrorInvalidValue,
          "no config"); // checked before any backend forwards it (the H200 crashes)
    musaGetLastError();
    // Still usable afterwards.
    config.numAttrs = 0;
    CHECK_MUSA(musaLaunchKernelEx(&config, scaled, out, in, s, n));
    CHECK_MUSA(musaStreamSynchronize(stream));
    CHECK(out[10] == 40.0f, "out[10] = %f after refused launches", out[10]);
  }
  CHECK_MUSA(musaEventDestroy(done));
  CHECK_MUSA(musaStreamDestroy(stream));
  CHECK_MUSA(musaStreamDestroy(other));
  return finish("launch_kernel_ex");
}

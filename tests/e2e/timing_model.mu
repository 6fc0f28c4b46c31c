// The simulated clock (MUSA_SIM_TIMING=model, the default): event times come from the
// device profile's timing model, not from the host.
//   - the runtime guide's event-timing example, on an MTT S4000 and an MTT S80 (devices 0 and
//     1): the bandwidth-bound kernel is faster on the S4000 (768 vs 448 GB/s)
//   - a kernel spinning on clock64() for N cycles takes N cycles of simulated time
//   - operations on different streams overlap where the engines allow (a copy and a kernel),
//     and serialise on one engine (two kernels)
//   - graph nodes follow their dependencies in simulated time
//   - a host function costs no device time; timings repeat exactly
// With MUSA_SIM_TIMING=wall the same program checks that events read host time instead.
#include "check.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

__global__ void kernel(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = data[i] * 2.0f + 1.0f;
}

__global__ void spin(long long cycles, long long *seen) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
  *seen = clock64() - start;
}

static float elapsed(musaEvent_t a, musaEvent_t b) {
  float ms = -1;
  CHECK_MUSA(musaEventSynchronize(b));
  CHECK_MUSA(musaEventElapsedTime(&ms, a, b));
  return ms;
}

/// The guide's event-timing example on the current device: the kernel's time in ms.
static float guideExample(int n) {
  float *d;
  CHECK_MUSA(musaMalloc(&d, n * sizeof(float)));
  CHECK_MUSA(musaMemset(d, 0, n * sizeof(float)));
  musaStream_t stream;
  CHECK_MUSA(musaStreamCreate(&stream));
  musaEvent_t start, stop;
  musaEventCreate(&start);
  musaEventCreate(&stop);
  musaEventRecord(start, stream);
  kernel<<<n / 256, 256, 0, stream>>>(d, n);
  musaEventRecord(stop, stream);
  musaEventSynchronize(stop);
  float elapsedTime = -1;
  CHECK_MUSA(musaEventElapsedTime(&elapsedTime, start, stop));
  printf("Kernel execution time: %f ms\n", elapsedTime);
  musaEventDestroy(start);
  musaEventDestroy(stop);
  CHECK_MUSA(musaStreamDestroy(stream));
  CHECK_MUSA(musaFree(d));
  return elapsedTime;
}

static void sleepHost(void *ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(*static_cast<int *>(ms)));
}

int main() {
  const char *mode = std::getenv("MUSA_SIM_TIMING");
  bool wall = mode && std::strcmp(mode, "wall") == 0;
  const int n = 1 << 22;

  musaEvent_t a, b, c;
  CHECK_MUSA(musaEventCreate(&a));
  CHECK_MUSA(musaEventCreate(&b));
  CHECK_MUSA(musaEventCreate(&c));
  // A host function that sleeps 30 ms: device time under the model is not host time.
  int sleepMs = 30;
  CHECK_MUSA(musaEventRecord(a, 0));
  CHECK_MUSA(musaLaunchHostFunc(0, sleepHost, &sleepMs));
  CHECK_MUSA(musaEventRecord(b, 0));
  float hostGap = elapsed(a, b);
  if (wall) {
    CHECK(hostGap >= 25, "wall timing: a 30 ms host function took %f ms between events", hostGap);
    return finish("timing_model (wall)");
  }
  CHECK(hostGap >= 0 && hostGap < 1, "model timing: a host function took %f ms of device time",
        hostGap);

  // The guide's example on both profiles.
  int devices = 0;
  CHECK_MUSA(musaGetDeviceCount(&devices));
  CHECK(devices == 2, "run with MUSA_SIM_PROFILE=mtt-s4000,mtt-s80 (got %d devices)", devices);
  musaDeviceProp p0, p1;
  CHECK_MUSA(musaGetDeviceProperties(&p0, 0));
  CHECK_MUSA(musaGetDeviceProperties(&p1, 1));
  CHECK_MUSA(musaSetDevice(0));
  float t0 = guideExample(n);
  CHECK_MUSA(musaSetDevice(1));
  float t1 = guideExample(n);
  printf("%s %.4f ms, %s %.4f ms\n", p0.name, t0, p1.name, t1);
  // 4M floats read and written: 32 MB at 768 GB/s (S4000) vs 448 GB/s (S80).
  CHECK(t0 > 0 && t1 > 0 && t0 < t1, "bandwidth-bound kernel: %s %f ms should beat %s %f ms",
        p0.name, t0, p1.name, t1);
  CHECK(t1 / t0 > 1.3 && t1 / t0 < 2.2, "S80/S4000 time ratio %f, bandwidth ratio 1.71",
        t1 / t0);
  CHECK(t0 > 0.032 && t0 < 0.2, "S4000: 32 MB at 768 GB/s should take about 0.05-0.1 ms, got %f",
        t0);
  CHECK(guideExample(n) == t1, "the same kernel on the same device timed differently");
  CHECK_MUSA(musaSetDevice(0));

  // clock64() spin: N cycles of simulated time, at the profile's clock rate.
  long long *seen, cycles = 20000000, h = 0;
  CHECK_MUSA(musaMalloc(&seen, sizeof *seen));
  auto hostStart = std::chrono::steady_clock::now();
  CHECK_MUSA(musaEventRecord(a, 0));
  spin<<<1, 1>>>(cycles, seen);
  CHECK_MUSA(musaEventRecord(b, 0));
  float spinMs = elapsed(a, b);
  double hostMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                            hostStart).count();
  CHECK_MUSA(musaMemcpy(&h, seen, sizeof h, musaMemcpyDeviceToHost));
  double expectMs = double(cycles) / p0.clockRate; // clockRate is in kHz
  printf("spin of %lld cycles: %f ms simulated (expect %f), %f ms on the host\n", cycles,
              spinMs, expectMs, hostMs);
  CHECK(h >= cycles && h < cycles + 1000, "the kernel saw %lld cycles", h);
  CHECK(spinMs >= expectMs && spinMs < expectMs * 1.5 + 0.02,
        "spin kernel took %f ms of simulated time", spinMs);

  // Two streams: a pinned host-to-device copy and a kernel overlap (copy engine and compute);
  // two kernels on the compute engine do not.
  float *d, *e, *host;
  CHECK_MUSA(musaMalloc(&d, n * sizeof(float)));
  CHECK_MUSA(musaMalloc(&e, n * sizeof(float)));
  CHECK_MUSA(musaMallocHost(&host, n * sizeof(float)));
  std::memset(host, 0, n * sizeof(float));
  musaStream_t s1, s2;
  CHECK_MUSA(musaStreamCreateWithFlags(&s1, musaStreamNonBlocking));
  CHECK_MUSA(musaStreamCreateWithFlags(&s2, musaStreamNonBlocking));
  auto timeOne = [&](auto op) {
    CHECK_MUSA(musaStreamSynchronize(s1));
    CHECK_MUSA(musaEventRecord(a, s1));
    op(s1);
    CHECK_MUSA(musaEventRecord(b, s1));
    return elapsed(a, b);
  };
  auto copy = [&](musaStream_t s) {
    CHECK_MUSA(musaMemcpyAsync(e, host, n * sizeof(float), musaMemcpyHostToDevice, s));
  };
  auto compute = [&](musaStream_t s) { kernel<<<n / 256, 256, 0, s>>>(d, n); };
  // The kernel timed after a first run of it: repeated launches find their data in L2, as
  // the kernels of the two-stream cases below do.
  float tCopy = timeOne(copy), tKernel = (timeOne(compute), timeOne(compute));
  auto timeTwo = [&](auto first, auto second) {
    CHECK_MUSA(musaDeviceSynchronize());
    CHECK_MUSA(musaEventRecord(a, s1));
    CHECK_MUSA(musaStreamWaitEvent(s2, a, 0));
    first(s1);
    second(s2);
    CHECK_MUSA(musaEventRecord(b, s1));
    CHECK_MUSA(musaEventRecord(c, s2));
    return std::max(elapsed(a, b), elapsed(a, c));
  };
  float overlapped = timeTwo(copy, compute);
  float serial = timeTwo(compute, compute);
  printf("copy %f ms, kernel %f ms, both on two streams %f ms, two kernels %f ms\n", tCopy,
              tKernel, overlapped, serial);
  CHECK(overlapped < 0.99f * (tCopy + tKernel) && overlapped >= std::max(tCopy, tKernel) * 0.99f,
        "copy and kernel on two streams should overlap: %f ms", overlapped);
  // Two kernels on one engine take twice one, less the second launch call's host time, which
  // passes while the first kernel runs (host_launch_us, 2.6 of the 4 us launch overhead here).
  // (More when the copy of the case before left the kernels' data out of L2: the order in
  // which operations of concurrent streams update the L2 model is the host's.)
  CHECK(serial >= 1.9f * tKernel, "two kernels share the compute engine: %f ms", serial);

  // A graph: the copy and the kernel as independent roots overlap; chained they add up.
  auto graphTime = [&](bool chained) {
    musaGraph_t g;
    CHECK_MUSA(musaGraphCreate(&g, 0));
    musaGraphNode_t copyNode, kernelNode;
    CHECK_MUSA(musaGraphAddMemcpyNode1D(&copyNode, g, nullptr, 0, e, host, n * sizeof(float),
                                        musaMemcpyHostToDevice));
    musaKernelNodeParams kp = {};
    int count = n;
    void *args[] = {&d, &count};
    kp.func = (void *)kernel;
    kp.gridDim = dim3(n / 256);
    kp.blockDim = dim3(256);
    kp.kernelParams = args;
    CHECK_MUSA(musaGraphAddKernelNode(&kernelNode, g, chained ? &copyNode : nullptr,
                                      chained ? 1 : 0, &kp));
    musaGraphExec_t exec;
    CHECK_MUSA(musaGraphInstantiate(&exec, g, 0));
    CHECK_MUSA(musaEventRecord(a, s1));
    CHECK_MUSA(musaGraphLaunch(exec, s1));
    CHECK_MUSA(musaEventRecord(b, s1));
    float ms = elapsed(a, b);
    CHECK_MUSA(musaGraphExecDestroy(exec));
    CHECK_MUSA(musaGraphDestroy(g));
    return ms;
  };
  float parallel = graphTime(false), chained = graphTime(true);
  printf("graph: independent nodes %f ms, chained %f ms\n", parallel, chained);
  CHECK(chained >= 0.99f * (tCopy + tKernel), "chained graph nodes: %f ms", chained);
  CHECK(parallel < 0.99f * chained, "independent graph nodes should overlap: %f ms", parallel);

  // Pitched copies go row by row: 16384 rows of 64 bytes cost more than the same bytes in one
  // linear copy, and a 3D copy of 64 slices of 256 such rows is one operation costing the same
  // as the 2D copy of all its rows (not 64 copies' start-ups).
  {
    const size_t width = 64, pitch = 512, rows = 16384, slices = 64;
    char *p2, *q2;
    CHECK_MUSA(musaMalloc(&p2, pitch * rows));
    CHECK_MUSA(musaMalloc(&q2, pitch * rows));
    auto timed = [&](auto op) {
      CHECK_MUSA(musaEventRecord(a));
      op();
      CHECK_MUSA(musaEventRecord(b));
      CHECK_MUSA(musaEventSynchronize(b));
      return elapsed(a, b);
    };
    float linear = timed([&] { CHECK_MUSA(musaMemcpy(q2, p2, width * rows, musaMemcpyDeviceToDevice)); });
    float pitched = timed([&] {
      CHECK_MUSA(musaMemcpy2D(q2, pitch, p2, pitch, width, rows, musaMemcpyDeviceToDevice));
    });
    musaMemcpy3DParms parms = {};
    parms.srcPtr = make_musaPitchedPtr(p2, pitch, width, rows / slices);
    parms.dstPtr = make_musaPitchedPtr(q2, pitch, width, rows / slices);
    parms.extent = make_musaExtent(width, rows / slices, slices);
    parms.kind = musaMemcpyDeviceToDevice;
    float cube = timed([&] { CHECK_MUSA(musaMemcpy3D(&parms)); });
    CHECK(pitched > 1.2f * linear, "a pitched copy (%f ms) should cost more than a linear one (%f ms)",
          pitched, linear);
    CHECK(cube > 0.9f * pitched && cube < 1.1f * pitched,
          "a 3D copy of the same rows (%f ms) should cost what the 2D copy does (%f ms)", cube,
          pitched);
    CHECK_MUSA(musaFree(p2));
    CHECK_MUSA(musaFree(q2));
  }

  CHECK_MUSA(musaStreamDestroy(s1));
  CHECK_MUSA(musaStreamDestroy(s2));
  CHECK_MUSA(musaFreeHost(host));
  CHECK_MUSA(musaFree(d));
  CHECK_MUSA(musaFree(e));
  CHECK_MUSA(musaFree(seen));
  return finish("timing_model");
}

// musaProfilerStart/musaProfilerStop bracket the part of a run to profile, as samples do
// around their timed loop. The program checks the calls; the tests next to it check which
// operations the simulator's profile report then holds (MUSA_SIM_REPORT).
#include "check.h"
#include <musa_profiler_api.h>

__global__ void beforeRange(float *v) { v[threadIdx.x] += 1.0f; }
__global__ void insideRange(float *v) { v[threadIdx.x] *= 2.0f; }
__global__ void afterRange(float *v) { v[threadIdx.x] -= 3.0f; }

int main() {
  const int n = 64;
  float h[n], *d;
  for (int i = 0; i < n; ++i)
    h[i] = (float)i;
  CHECK_MUSA(musaMalloc(&d, sizeof h));
  CHECK_MUSA(musaMemcpy(d, h, sizeof h, musaMemcpyHostToDevice)); // before: HtoD
  beforeRange<<<1, n>>>(d);

  CHECK_MUSA(musaProfilerStart());
  CHECK_MUSA(musaProfilerStart()); // already on: still success, as CUDA's
  insideRange<<<1, n>>>(d);
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost)); // inside: DtoH
  CHECK_MUSA(musaProfilerStop());

  afterRange<<<1, n>>>(d);
  CHECK_MUSA(musaDeviceSynchronize());
  for (int i = 0; i < n; ++i)
    CHECK(h[i] == (i + 1) * 2.0f, "h[%d] = %f", i, h[i]);

  // Not during a stream capture (it would wait for work that never runs): nothing changes.
  // (The simulator's answer; CUDA's profiler start invalidates the capture instead.)
  if (!onHardware()) {
    musaStream_t s;
    CHECK_MUSA(musaStreamCreate(&s));
    CHECK_MUSA(musaStreamBeginCapture(s, musaStreamCaptureModeGlobal));
    CHECK(musaProfilerStart() == musaErrorStreamCaptureUnsupported,
          "profiler start accepted during a capture");
    musaGraph_t g;
    CHECK_MUSA(musaStreamEndCapture(s, &g));
    CHECK_MUSA(musaGraphDestroy(g));
    CHECK_MUSA(musaStreamDestroy(s));
  }
  musaGetLastError();
  musaFree(d);
  return finish("profiler_range");
}

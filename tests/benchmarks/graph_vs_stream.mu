// Benchmark: host time to run 1000 short kernels launched one by one on a stream versus the
// same work captured once into a graph and replayed, as a ratio (the guide's promise: graph
// replay is cheaper). Exits non-zero if the results differ.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void tick(int *counter) {
  if (threadIdx.x == 0)
    *counter += 1;
}

static double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

int main() {
  const char *scale = std::getenv("MUSA_SIM_BENCH_SCALE");
  const int kernels = scale && std::strcmp(scale, "small") == 0 ? 200 : 1000;
  int *d;
  musaMalloc(&d, sizeof(int));
  musaMemset(d, 0, sizeof(int));
  musaStream_t stream;
  musaStreamCreate(&stream);
  tick<<<1, 32, 0, stream>>>(d); // warm-up: JIT
  musaStreamSynchronize(stream);

  double t0 = nowMs();
  for (int i = 0; i < kernels; ++i)
    tick<<<1, 32, 0, stream>>>(d);
  musaStreamSynchronize(stream);
  double streamMs = nowMs() - t0;

  musaGraph_t graph;
  musaStreamBeginCapture(stream, musaStreamCaptureModeGlobal);
  for (int i = 0; i < kernels; ++i)
    tick<<<1, 32, 0, stream>>>(d);
  musaStreamEndCapture(stream, &graph);
  musaGraphExec_t exec;
  musaGraphInstantiate(&exec, graph, 0);
  musaGraphLaunch(exec, stream); // warm-up
  musaStreamSynchronize(stream);
  t0 = nowMs();
  musaGraphLaunch(exec, stream);
  musaStreamSynchronize(stream);
  double graphMs = nowMs() - t0;

  int h = 0;
  musaMemcpy(&h, d, sizeof h, musaMemcpyDeviceToHost);
  int expect = 1 + kernels + 2 * kernels;
  std::printf("%d short kernels: stream %.3f ms, graph replay %.3f ms, stream/graph %.2f%s\n",
              kernels, streamMs, graphMs, streamMs / graphMs,
              h == expect ? "" : "  WRONG RESULTS");
  musaGraphExecDestroy(exec);
  musaGraphDestroy(graph);
  musaStreamDestroy(stream);
  musaFree(d);
  return h == expect ? 0 : 1;
}

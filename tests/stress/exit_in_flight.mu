// Stress: returning from main with work in flight, and runtime calls from a static
// destructor after main has returned. Kernels that take a while run on several streams, a
// graph and asynchronous copies are queued, and main returns without synchronising; a static
// object's destructor then destroys streams and events and frees memory. The process must
// exit with status 0 and print nothing of its own on stderr (exit-in-flight.sh runs it many
// times and checks both).
#include "check.h"

#include <vector>

__global__ void spin(float *p, int n, int iterations) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = p[i];
  for (int k = 0; k < iterations; ++k)
    x = x * 0.999f + 0.5f;
  p[i] = x;
}

struct Leftovers {
  std::vector<musaStream_t> streams;
  std::vector<musaEvent_t> events;
  std::vector<void *> buffers;
  ~Leftovers() {
    // After main returned: these calls must be safe (CUDA allows them while the runtime is
    // still up; they may also report that it is shutting down, never crash).
    for (musaStream_t s : streams)
      musaStreamDestroy(s);
    for (musaEvent_t e : events)
      musaEventDestroy(e);
    for (void *p : buffers)
      musaFree(p);
  }
};
static Leftovers leftovers;

int main(int argc, char **argv) {
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 20000;
  const int n = 1 << 16;
  static float host[4][1 << 16]; // one per stream: their copies run at once
  for (int s = 0; s < 4; ++s) {
    musaStream_t stream;
    musaEvent_t event;
    float *d;
    CHECK_MUSA(musaStreamCreate(&stream));
    CHECK_MUSA(musaEventCreate(&event));
    CHECK_MUSA(musaMalloc(&d, n * sizeof(float)));
    leftovers.streams.push_back(stream);
    leftovers.events.push_back(event);
    leftovers.buffers.push_back(d);
    CHECK_MUSA(musaMemcpyAsync(d, host[s], n * sizeof(float), musaMemcpyHostToDevice, stream));
    for (int k = 0; k < 3; ++k)
      spin<<<n / 256, 256, 0, stream>>>(d, n, iterations);
    CHECK_MUSA(musaEventRecord(event, stream));
    if (s == 0) { // a graph captured from the stream, launched twice
      musaGraph_t graph;
      musaGraphExec_t exec;
      CHECK_MUSA(musaStreamBeginCapture(stream, musaStreamCaptureModeGlobal));
      spin<<<n / 256, 256, 0, stream>>>(d, n, iterations);
      CHECK_MUSA(musaStreamEndCapture(stream, &graph));
      CHECK_MUSA(musaGraphInstantiate(&exec, graph, 0));
      CHECK_MUSA(musaGraphLaunch(exec, stream));
      CHECK_MUSA(musaGraphLaunch(exec, stream));
    }
    CHECK_MUSA(musaMemcpyAsync(host[s] + n - 16, d, 16 * sizeof(float), musaMemcpyDeviceToHost,
                               stream));
  }
  // The legacy stream too, and nothing synchronised.
  spin<<<n / 256, 256>>>(static_cast<float *>(leftovers.buffers[0]), n, iterations);
  CHECK_MUSA(musaGetLastError());
  std::printf("main done\n");
  return 0;
}

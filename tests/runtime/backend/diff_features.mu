// Differential mode against the fake vendor library (fake_vendor.cpp): streams and events with
// hardware twins, a captured graph and an explicit graph replayed on the hardware, kernels that
// read memory nothing wrote (global and shared), and the timing comparison (the fake's events
// report FAKE_VENDOR_ELAPSED_MS). The checks here are the program's own view (the simulator's
// results); the CTest regular expressions check what differential mode reported.
#include <cstdio>

__global__ void addOne(int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += 1;
}

__global__ void copyOut(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

// The first 32 threads write their slot; the others read slots nobody wrote. (A read of a
// shared array no thread writes at all is undefined, and the compiler deletes the store.)
__global__ void readShared(int *out) {
  __shared__ int half[64];
  if (threadIdx.x < 32)
    half[threadIdx.x] = 7;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = half[threadIdx.x];
}

static int failures = 0;
#define CHECK(x)                                                                               \
  do {                                                                                         \
    if (!(x)) {                                                                                \
      std::printf("FAIL line %d: %s\n", __LINE__, #x);                                         \
      ++failures;                                                                              \
    }                                                                                          \
  } while (0)

int main() {
  const int n = 256;
  int host[n];
  for (int i = 0; i < n; ++i)
    host[i] = i;

  // A stream and events of the program's own: launches and copies go to their twins.
  musaStream_t stream;
  musaEvent_t done;
  CHECK(musaStreamCreateWithFlags(&stream, musaStreamNonBlocking) == musaSuccess);
  CHECK(musaEventCreate(&done) == musaSuccess);
  int *data;
  CHECK(musaMalloc(&data, n * sizeof(int)) == musaSuccess);
  CHECK(musaMemcpyAsync(data, host, sizeof host, musaMemcpyHostToDevice, stream) == musaSuccess);
  addOne<<<n / 64, 64, 0, stream>>>(data, n);
  CHECK(musaEventRecord(done, stream) == musaSuccess);
  CHECK(musaStreamWaitEvent(0, done, 0) == musaSuccess);
  CHECK(musaEventSynchronize(done) == musaSuccess);

  // A captured graph: copy, kernel, memset of the tail; launched twice.
  int *graphData;
  CHECK(musaMalloc(&graphData, n * sizeof(int)) == musaSuccess);
  musaGraph_t captured;
  CHECK(musaStreamBeginCapture(stream, musaStreamCaptureModeGlobal) == musaSuccess);
  musaMemcpyAsync(graphData, host, sizeof host, musaMemcpyHostToDevice, stream);
  addOne<<<n / 64, 64, 0, stream>>>(graphData, n);
  musaMemsetAsync(graphData + n - 16, 0, 16 * sizeof(int), stream);
  CHECK(musaStreamEndCapture(stream, &captured) == musaSuccess);
  musaGraphExec_t exec;
  CHECK(musaGraphInstantiate(&exec, captured, 0) == musaSuccess);
  CHECK(musaGraphLaunch(exec, stream) == musaSuccess);
  CHECK(musaGraphLaunch(exec, stream) == musaSuccess);
  CHECK(musaStreamSynchronize(stream) == musaSuccess);
  int back[n];
  CHECK(musaMemcpy(back, graphData, sizeof back, musaMemcpyDeviceToHost) == musaSuccess);
  CHECK(back[3] == 4 && back[n - 1] == 0);

  // An explicit graph: a 4-byte memset node, then a kernel node.
  musaGraph_t explicitGraph;
  CHECK(musaGraphCreate(&explicitGraph, 0) == musaSuccess);
  musaMemsetParams set = {};
  set.dst = graphData;
  set.value = 41;
  set.elementSize = 4;
  set.width = n;
  set.height = 1;
  musaGraphNode_t setNode, kernelNode;
  CHECK(musaGraphAddMemsetNode(&setNode, explicitGraph, nullptr, 0, &set) == musaSuccess);
  int count = n;
  void *args[] = {&graphData, &count};
  musaKernelNodeParams k = {};
  k.func = (void *)addOne;
  k.gridDim = dim3(n / 64);
  k.blockDim = dim3(64);
  k.kernelParams = args;
  CHECK(musaGraphAddKernelNode(&kernelNode, explicitGraph, &setNode, 1, &k) == musaSuccess);
  musaGraphExec_t explicitExec;
  CHECK(musaGraphInstantiate(&explicitExec, explicitGraph, 0) == musaSuccess);
  CHECK(musaGraphLaunch(explicitExec, stream) == musaSuccess);
  CHECK(musaStreamSynchronize(stream) == musaSuccess);
  CHECK(musaMemcpy(back, graphData, sizeof back, musaMemcpyDeviceToHost) == musaSuccess);
  CHECK(back[0] == 42 && back[n - 1] == 42);

  // Reads of memory nothing wrote: a fresh allocation, and shared memory.
  int *never, *out;
  CHECK(musaMalloc(&never, n * sizeof(int)) == musaSuccess);
  CHECK(musaMalloc(&out, n * sizeof(int)) == musaSuccess);
  CHECK(musaMemset(out, 0, n * sizeof(int)) == musaSuccess);
  copyOut<<<n / 64, 64>>>(out, never, n);
  readShared<<<n / 64, 64>>>(out);
  // Unwritten memory copied into unwritten memory: still the first side's pattern against the
  // other's (each hardware allocation has a pattern of its own).
  int *out2;
  CHECK(musaMalloc(&out2, n * sizeof(int)) == musaSuccess);
  copyOut<<<n / 64, 64>>>(out2, never, n);
  CHECK(musaDeviceSynchronize() == musaSuccess);

  CHECK(musaGraphExecDestroy(exec) == musaSuccess);
  CHECK(musaGraphExecDestroy(explicitExec) == musaSuccess);
  CHECK(musaGraphDestroy(captured) == musaSuccess);
  CHECK(musaGraphDestroy(explicitGraph) == musaSuccess);
  CHECK(musaEventDestroy(done) == musaSuccess);
  CHECK(musaStreamDestroy(stream) == musaSuccess);
  musaFree(data);
  musaFree(graphData);
  musaFree(never);
  musaFree(out);
  musaFree(out2);
  if (failures)
    return 1;
  std::printf("diff_features: all checks passed\n");
  return 0;
}

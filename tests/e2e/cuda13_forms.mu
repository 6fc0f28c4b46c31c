// Spellings programs bring from newer CUDA: the location forms of prefetch and advice, edge data
// in musaGraphAddNode, musaStreamGetCaptureInfo and musaStreamUpdateCaptureDependencies (CUDA
// 13's signatures), the old musaDeviceBlockingSync flag, and memcpy/memset inside kernels.
#include "check.h"

struct Record {
  int id;
  float weight;
  char tag[8];
};

// Device-side memcpy and memset: whole structs and byte ranges, as samples write them.
__global__ void copyRecords(const Record *in, Record *out, unsigned char *bytes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Record r;
  memcpy(&r, &in[i], sizeof r);
  r.weight *= 2.0f;
  memset(r.tag, 'a' + i % 26, sizeof r.tag - 1);
  r.tag[sizeof r.tag - 1] = 0;
  memcpy(&out[i], &r, sizeof r);
  memset(bytes + 4 * i, i & 0xff, 4);
}

__global__ void increment(int *p) { atomicAdd(p, 1); }

static void checkDeviceMemcpy() {
  const int n = 100;
  Record h[n], back[n];
  for (int i = 0; i < n; ++i) {
    h[i].id = i;
    h[i].weight = float(i) + 0.5f;
    memset(h[i].tag, 0, sizeof h[i].tag);
  }
  Record *din, *dout;
  unsigned char *dbytes, bytes[4 * n];
  CHECK_MUSA(musaMalloc(&din, sizeof h));
  CHECK_MUSA(musaMalloc(&dout, sizeof h));
  CHECK_MUSA(musaMalloc(&dbytes, sizeof bytes));
  CHECK_MUSA(musaMemcpy(din, h, sizeof h, musaMemcpyHostToDevice));
  copyRecords<<<(n + 31) / 32, 32>>>(din, dout, dbytes, n);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaMemcpy(back, dout, sizeof back, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(bytes, dbytes, sizeof bytes, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    char tag[8];
    memset(tag, 'a' + i % 26, 7);
    tag[7] = 0;
    CHECK(back[i].id == i && back[i].weight == 2 * h[i].weight && strcmp(back[i].tag, tag) == 0,
          "record %d: id %d weight %g tag %.8s", i, back[i].id, back[i].weight, back[i].tag);
    CHECK(bytes[4 * i] == (i & 0xff) && bytes[4 * i + 3] == (i & 0xff), "memset bytes of %d", i);
  }
  CHECK_MUSA(musaFree(din));
  CHECK_MUSA(musaFree(dout));
  CHECK_MUSA(musaFree(dbytes));
}

static void checkDeviceFlags() {
  CHECK_MUSA(musaSetDeviceFlags(musaDeviceBlockingSync));
  unsigned flags = 0;
  CHECK_MUSA(musaGetDeviceFlags(&flags));
  CHECK((flags & musaDeviceScheduleBlockingSync) != 0, "flags %#x", flags);
  CHECK(musaDeviceBlockingSync == musaDeviceScheduleBlockingSync, "two names, one flag");
  CHECK_MUSA(musaSetDeviceFlags(musaDeviceScheduleAuto));
}

static void checkLocations() {
  const size_t n = 1 << 12;
  float *data;
  CHECK_MUSA(musaMallocManaged(&data, n * sizeof(float)));
  musaStream_t stream;
  CHECK_MUSA(musaStreamCreate(&stream));
  musaMemLocation device = {musaMemLocationTypeDevice, 0};
  musaMemLocation host = {musaMemLocationTypeHost, 0};
  CHECK_MUSA(musaMemAdvise(data, n * sizeof(float), musaMemAdviseSetPreferredLocation, device));
  CHECK_MUSA(musaMemAdvise(data, n * sizeof(float), musaMemAdviseSetAccessedBy, host));
  CHECK_MUSA(musaMemPrefetchAsync(data, n * sizeof(float), device, 0, stream));
  CHECK_MUSA(musaMemPrefetchAsync(data, n * sizeof(float), host, 0, stream));
  CHECK_MUSA(musaStreamSynchronize(stream));
  musaMemLocation invalid = {musaMemLocationTypeInvalid, 0};
  CHECK(musaMemPrefetchAsync(data, n * sizeof(float), invalid, 0, stream) ==
            musaErrorInvalidValue, "prefetch to an invalid location accepted");
  musaMemLocation noDevice = {musaMemLocationTypeDevice, 99};
  // As the H200 answers (CUDA 13): an invalid value for advice, an invalid device for prefetch.
  CHECK(musaMemAdvise(data, n * sizeof(float), musaMemAdviseSetPreferredLocation, noDevice) ==
            musaErrorInvalidValue, "advice naming device 99 accepted");
  CHECK(musaMemPrefetchAsync(data, n * sizeof(float), noDevice, 0, stream) ==
            musaErrorInvalidDevice, "prefetch to device 99 accepted");
  musaGetLastError();
  CHECK_MUSA(musaStreamDestroy(stream));
  CHECK_MUSA(musaFree(data));
}

static void checkEdgeData() {
  int *counter;
  CHECK_MUSA(musaMalloc(&counter, sizeof(int)));
  CHECK_MUSA(musaMemset(counter, 0, sizeof(int)));
  musaGraph_t graph;
  CHECK_MUSA(musaGraphCreate(&graph, 0));
  void *args[] = {&counter};
  musaGraphNodeParams p = {};
  p.type = musaGraphNodeTypeKernel;
  p.kernel.func = (void *)increment;
  p.kernel.gridDim = dim3(1);
  p.kernel.blockDim = dim3(64);
  p.kernel.kernelParams = args;
  musaGraphNode_t first, second, third;
  CHECK_MUSA(musaGraphAddNode(&first, graph, nullptr, nullptr, 0, &p));
  musaGraphEdgeData edge = {};
  CHECK_MUSA(musaGraphAddNode(&second, graph, &first, &edge, 1, &p));
  musaGraphEdgeData special = {};
  special.type = 1; // a programmatic edge: not supported here
  musaError_t e = musaGraphAddNode(&third, graph, &second, &special, 1, &p);
  CHECK(e != musaSuccess, "non-default edge data accepted");
  musaGetLastError();

  // Capture with CUDA 13's capture-info and dependency-update forms.
  musaStream_t stream;
  CHECK_MUSA(musaStreamCreate(&stream));
  CHECK_MUSA(musaStreamBeginCapture(stream, musaStreamCaptureModeGlobal));
  increment<<<1, 32, 0, stream>>>(counter);
  musaStreamCaptureStatus status;
  unsigned long long id = 0;
  musaGraph_t capturing = nullptr;
  const musaGraphNode_t *deps = nullptr;
  const musaGraphEdgeData *edges = nullptr;
  size_t numDeps = 0;
  CHECK_MUSA(musaStreamGetCaptureInfo(stream, &status, &id, &capturing, &deps, &edges, &numDeps));
  CHECK(status == musaStreamCaptureStatusActive && capturing && numDeps == 1 && deps,
        "capture info: status %d deps %zu", int(status), numDeps);
  if (edges && numDeps == 1)
    CHECK(edges[0].type == 0 && edges[0].from_port == 0 && edges[0].to_port == 0,
          "captured edge data not default");
  // Replace the dependencies with none: the next kernel starts a new root.
  CHECK_MUSA(musaStreamUpdateCaptureDependencies(stream, nullptr, nullptr, 0,
                                                 musaStreamSetCaptureDependencies));
  CHECK_MUSA(musaStreamGetCaptureInfo(stream, &status, &id, &capturing, &deps, &edges, &numDeps));
  CHECK(numDeps == 0, "%zu dependencies after setting none", numDeps);
  increment<<<1, 32, 0, stream>>>(counter);
  musaGraph_t captured;
  CHECK_MUSA(musaStreamEndCapture(stream, &captured));
  size_t roots = 0;
  CHECK_MUSA(musaGraphGetRootNodes(captured, nullptr, &roots));
  CHECK(roots == 2, "captured graph has %zu roots, expected 2", roots);

  musaGraphExec_t exec, exec2;
  CHECK_MUSA(musaGraphInstantiate(&exec, graph, 0));
  CHECK_MUSA(musaGraphInstantiate(&exec2, captured, 0));
  CHECK_MUSA(musaGraphLaunch(exec, stream));
  CHECK_MUSA(musaGraphLaunch(exec2, stream));
  CHECK_MUSA(musaStreamSynchronize(stream));
  int h = 0;
  CHECK_MUSA(musaMemcpy(&h, counter, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h == 2 * 64 + 2 * 32, "counter %d after both graphs", h);
  CHECK_MUSA(musaGraphExecDestroy(exec));
  CHECK_MUSA(musaGraphExecDestroy(exec2));
  CHECK_MUSA(musaGraphDestroy(graph));
  CHECK_MUSA(musaGraphDestroy(captured));
  CHECK_MUSA(musaStreamDestroy(stream));
  CHECK_MUSA(musaFree(counter));
}

int main() {
  checkDeviceMemcpy();
  checkDeviceFlags();
  checkLocations();
  checkEdgeData();
  return finish("cuda13_forms");
}

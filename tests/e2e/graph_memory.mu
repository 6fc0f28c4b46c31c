// Graph memory: allocation and free nodes (explicit and captured from musaMallocAsync /
// musaFreeAsync), their fixed addresses, the four graph memory attributes, and
// stream-ordered allocation outside graphs.
#include "check.h"

__global__ void iota(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = i;
}
__global__ void sum(const int *p, int n, int *out) {
  if (threadIdx.x == 0) {
    int s = 0;
    for (int i = 0; i < n; ++i)
      s += p[i];
    *out = s;
  }
}

static unsigned long long attr(musaGraphMemAttributeType a) {
  unsigned long long v = ~0ull;
  musaDeviceGetGraphMemAttribute(0, a, &v);
  return v;
}

int main() {
  const int n = 256;
  int *result;
  CHECK_MUSA(musaMalloc(&result, sizeof(int)));

  // Explicit: alloc -> kernel -> kernel -> free.
  musaGraph_t g;
  CHECK_MUSA(musaGraphCreate(&g, 0));
  musaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = musaMemAllocationTypePinned;
  ap.poolProps.location.type = musaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = n * sizeof(int);
  musaGraphNode_t alloc, k1, k2, freeNode;
  CHECK_MUSA(musaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap));
  CHECK(ap.dptr != nullptr, "allocation address returned at creation");
  CHECK(attr(musaGraphMemAttrReservedMemCurrent) >= ap.bytesize, "reserved");
  CHECK(attr(musaGraphMemAttrUsedMemCurrent) == 0, "used before any launch");
  int *buf = (int *)ap.dptr;
  int count = n;
  void *a1[] = {&buf, &count};
  musaKernelNodeParams p1 = {0};
  p1.func = (void *)iota;
  p1.gridDim = dim3(1);
  p1.blockDim = dim3(n);
  p1.kernelParams = a1;
  CHECK_MUSA(musaGraphAddKernelNode(&k1, g, &alloc, 1, &p1));
  void *a2[] = {&buf, &count, &result};
  musaKernelNodeParams p2 = p1;
  p2.func = (void *)sum;
  p2.kernelParams = a2;
  CHECK_MUSA(musaGraphAddKernelNode(&k2, g, &k1, 1, &p2));
  CHECK_MUSA(musaGraphAddMemFreeNode(&freeNode, g, &k2, 1, buf));
  musaMemAllocNodeParams got = {};
  CHECK_MUSA(musaGraphMemAllocNodeGetParams(alloc, &got));
  CHECK(got.dptr == ap.dptr && got.bytesize == ap.bytesize && got.poolProps.location.id == 0,
        "alloc node params");
  void *freed = nullptr;
  CHECK_MUSA(musaGraphMemFreeNodeGetParams(freeNode, &freed));
  CHECK(freed == buf, "free node params");
  int hostBuf[4];
  CHECK(musaGraphAddMemFreeNode(&freeNode, g, &k2, 1, hostBuf) == musaErrorInvalidValue,
        "free node for non-graph memory");
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphInstantiate(&exec, g, musaGraphInstantiateFlagAutoFreeOnLaunch));
  CHECK_MUSA(musaGraphLaunch(exec, 0));
  CHECK_MUSA(musaDeviceSynchronize());
  int s = 0;
  CHECK_MUSA(musaMemcpy(&s, result, sizeof s, musaMemcpyDeviceToHost));
  CHECK(s == n * (n - 1) / 2, "sum over graph-allocated memory %d", s);
  CHECK(attr(musaGraphMemAttrUsedMemCurrent) == 0, "freed by the free node");
  CHECK(attr(musaGraphMemAttrUsedMemHigh) >= ap.bytesize, "high watermark");
  unsigned long long zero = 0, one = 1;
  CHECK_MUSA(musaDeviceSetGraphMemAttribute(0, musaGraphMemAttrUsedMemHigh, &zero));
  CHECK(attr(musaGraphMemAttrUsedMemHigh) == 0, "high watermark reset");
  CHECK(musaDeviceSetGraphMemAttribute(0, musaGraphMemAttrUsedMemCurrent, &zero) ==
            musaErrorInvalidValue, "current is read-only");
  CHECK(musaDeviceSetGraphMemAttribute(0, musaGraphMemAttrReservedMemHigh, &one) ==
            musaErrorInvalidValue, "only zero may be set");
  CHECK_MUSA(musaDeviceGraphMemTrim(0));

  // Without a free node the allocation outlives the launch: relaunching is refused unless the
  // graph frees it automatically (AutoFreeOnLaunch).
  musaGraph_t leaky;
  CHECK_MUSA(musaGraphCreate(&leaky, 0));
  musaGraphNode_t leakyAlloc;
  musaMemAllocNodeParams lp = ap;
  lp.dptr = nullptr;
  CHECK_MUSA(musaGraphAddMemAllocNode(&leakyAlloc, leaky, nullptr, 0, &lp));
  musaGraphExec_t strict, autoFree;
  CHECK_MUSA(musaGraphInstantiate(&strict, leaky, 0));
  CHECK_MUSA(musaGraphLaunch(strict, 0));
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK(attr(musaGraphMemAttrUsedMemCurrent) == lp.bytesize, "allocation live after launch");
  CHECK(musaGraphLaunch(strict, 0) == musaErrorInvalidValue, "relaunch with live allocation");
  CHECK_MUSA(musaGraphInstantiate(&autoFree, leaky, musaGraphInstantiateFlagAutoFreeOnLaunch));
  CHECK_MUSA(musaGraphLaunch(autoFree, 0));
  CHECK_MUSA(musaGraphLaunch(autoFree, 0));
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK_MUSA(musaFree(lp.dptr)); // freeing graph memory outside the graph is allowed
  CHECK(attr(musaGraphMemAttrUsedMemCurrent) == 0, "musaFree returned it");
  CHECK_MUSA(musaGraphExecDestroy(strict));
  CHECK_MUSA(musaGraphExecDestroy(autoFree));
  CHECK_MUSA(musaGraphDestroy(leaky));
  musaGetLastError();

  // Captured: musaMallocAsync / musaFreeAsync become allocation and free nodes.
  musaStream_t stream;
  CHECK_MUSA(musaStreamCreate(&stream));
  CHECK_MUSA(musaStreamBeginCapture(stream, musaStreamCaptureModeGlobal));
  int *tmp = nullptr;
  CHECK_MUSA(musaMallocAsync(&tmp, n * sizeof(int), stream));
  iota<<<1, n, 0, stream>>>(tmp, n);
  sum<<<1, 1, 0, stream>>>(tmp, n, result);
  CHECK_MUSA(musaFreeAsync(tmp, stream));
  musaGraph_t captured;
  CHECK_MUSA(musaStreamEndCapture(stream, &captured));
  musaGraphNode_t nodes[8];
  size_t numNodes = 8;
  CHECK_MUSA(musaGraphGetNodes(captured, nodes, &numNodes));
  CHECK(numNodes == 4, "captured %zu nodes", numNodes);
  musaGraphNodeType first, last;
  musaGraphNodeGetType(nodes[0], &first);
  musaGraphNodeGetType(nodes[3], &last);
  CHECK(first == musaGraphNodeTypeMemAlloc && last == musaGraphNodeTypeMemFree, "node types");
  CHECK_MUSA(musaMemset(result, 0, sizeof(int)));
  musaGraphExec_t cexec;
  CHECK_MUSA(musaGraphInstantiate(&cexec, captured, 0));
  CHECK_MUSA(musaGraphLaunch(cexec, stream));
  CHECK_MUSA(musaStreamSynchronize(stream));
  CHECK_MUSA(musaMemcpy(&s, result, sizeof s, musaMemcpyDeviceToHost));
  CHECK(s == n * (n - 1) / 2, "captured graph sum %d", s);

  // Outside graphs: stream-ordered allocation works like musaMalloc/musaFree in order.
  int *async = nullptr;
  CHECK_MUSA(musaMallocAsync(&async, 64, stream));
  CHECK_MUSA(musaMemsetAsync(async, 0, 64, stream));
  CHECK_MUSA(musaFreeAsync(async, stream));
  CHECK_MUSA(musaStreamSynchronize(stream));
  CHECK(musaFreeAsync(hostBuf, stream) == musaErrorInvalidValue, "freeing host memory");

  // Destroying the graphs returns their reserved memory.
  CHECK_MUSA(musaGraphExecDestroy(exec));
  CHECK_MUSA(musaGraphExecDestroy(cexec));
  CHECK_MUSA(musaGraphDestroy(g));
  CHECK_MUSA(musaGraphDestroy(captured));
  CHECK(attr(musaGraphMemAttrReservedMemCurrent) == 0, "reservation released: %llu",
        attr(musaGraphMemAttrReservedMemCurrent));
  musaGetLastError();
  musaStreamDestroy(stream);
  musaFree(result);
  return finish("graph_memory");
}

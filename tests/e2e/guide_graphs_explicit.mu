// The graphs guide's explicit-API snippets, in the guide's order: the node type table (节点类型),
// the four workflow phases (图的工作流程, 阶段 1-4) and 方法 1 步骤 1-8 (declarations, the
// vectorAdd kernel node, the host-to-device copy node, memset, empty, event and dependency
// nodes). Each snippet is a function, kept close to the guide's text; where the guide gives a
// fragment (undefined variables, no data) it is completed minimally, as the comments say.
// See GRAPHS_GUIDE_COVERAGE.md for where the other snippets are tested.
#include "check.h"

// The guide's declarations (步骤 1-8): each signature exists as written (compile-time check;
// the assignment picks the overload with exactly this type, or fails to compile).
template <class T> using GuideSignature = T;
#define GUIDE_SIGNATURE(fn, ...) [[maybe_unused]] static GuideSignature<__VA_ARGS__> const sig_##fn = fn
GUIDE_SIGNATURE(musaGraphCreate, musaError_t (*)(musaGraph_t *, unsigned int));
GUIDE_SIGNATURE(musaGraphAddKernelNode,
                musaError_t (*)(musaGraphNode_t *, musaGraph_t, const musaGraphNode_t *, size_t,
                                const struct musaKernelNodeParams *));
GUIDE_SIGNATURE(musaGraphAddMemcpyNode,
                musaError_t (*)(musaGraphNode_t *, musaGraph_t, const musaGraphNode_t *, size_t,
                                const struct musaMemcpy3DParms *));
GUIDE_SIGNATURE(musaGraphAddMemsetNode,
                musaError_t (*)(musaGraphNode_t *, musaGraph_t, const musaGraphNode_t *, size_t,
                                const struct musaMemsetParams *));
GUIDE_SIGNATURE(musaGraphAddEmptyNode,
                musaError_t (*)(musaGraphNode_t *, musaGraph_t, const musaGraphNode_t *, size_t));
GUIDE_SIGNATURE(musaGraphAddEventRecordNode,
                musaError_t (*)(musaGraphNode_t *, musaGraph_t, const musaGraphNode_t *, size_t,
                                musaEvent_t));
GUIDE_SIGNATURE(musaGraphAddEventWaitNode,
                musaError_t (*)(musaGraphNode_t *, musaGraph_t, const musaGraphNode_t *, size_t,
                                musaEvent_t));
GUIDE_SIGNATURE(musaGraphAddExternalSemaphoresSignalNode,
                musaError_t (*)(musaGraphNode_t *, musaGraph_t, const musaGraphNode_t *, size_t,
                                const struct musaExternalSemaphoreSignalNodeParams *));
GUIDE_SIGNATURE(musaGraphAddExternalSemaphoresWaitNode,
                musaError_t (*)(musaGraphNode_t *, musaGraph_t, const musaGraphNode_t *, size_t,
                                const struct musaExternalSemaphoreWaitNodeParams *));
GUIDE_SIGNATURE(musaGraphAddDependencies,
                musaError_t (*)(musaGraph_t, const musaGraphNode_t *, const musaGraphNode_t *,
                                size_t));

// The guide's structures (内核节点参数结构, 内存拷贝参数结构, 内存填充参数结构): the fields it
// names exist with these types (the memset element size is CUDA's unsigned int; the guide
// writes size_t, and any value 1, 2, 4 fits both).
static_assert(sizeof(musaKernelNodeParams{}.func) == sizeof(void *), "func");
static_assert(sizeof(musaKernelNodeParams{}.gridDim) == sizeof(dim3), "gridDim");
static_assert(sizeof(musaKernelNodeParams{}.extra) == sizeof(void **), "extra");
static_assert(sizeof(musaMemcpy3DParms{}.srcPos) == sizeof(musaPos), "srcPos");
static_assert(sizeof(musaMemcpy3DParms{}.dstPtr) == sizeof(musaPitchedPtr), "dstPtr");
static_assert(sizeof(musaMemcpy3DParms{}.extent) == sizeof(musaExtent), "extent");
static_assert(sizeof(musaMemsetParams{}.pitch) == sizeof(size_t), "pitch");
static_assert(sizeof(musaMemsetParams{}.height) == sizeof(size_t), "height");

// The guide's quick-start kernel, used by the phase snippets (which name myKernel).
__global__ void myKernel(float *data, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) {
    data[idx] = data[idx] * 2.0f;
  }
}

__global__ void vectorAdd(float *a, float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void fillValue(float *p, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v;
}

__global__ void bumpInt(int *p) {
  if (threadIdx.x == 0) *p += 1;
}

static void MUSART_CB noop(void *) {}

// 节点类型 (the table and the API list under it): one node of each type, made with the API the
// list names, reports the guide's constant. The graph is only built, not launched.
static void nodeTypeTable() {
  musaGraph_t graph;
  CHECK_MUSA(musaGraphCreate(&graph, 0));
  int *d;
  CHECK_MUSA(musaMalloc(&d, sizeof(int)));
  musaEvent_t event;
  CHECK_MUSA(musaEventCreate(&event));

  musaGraphNode_t kernel, memcpyNode, memsetNode, host, empty, record, wait, sigNode, waitSem,
      child, alloc, freeNode, conditional;
  void *args[] = {&d};
  musaKernelNodeParams kp = {0};
  kp.func = (void *)bumpInt;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  CHECK_MUSA(musaGraphAddKernelNode(&kernel, graph, NULL, 0, &kp));
  int h = 0;
  musaMemcpy3DParms cp = {0};
  cp.srcPtr = make_musaPitchedPtr(&h, sizeof h, 1, 1);
  cp.dstPtr = make_musaPitchedPtr(d, sizeof h, 1, 1);
  cp.extent = make_musaExtent(sizeof h, 1, 1);
  cp.kind = musaMemcpyHostToDevice;
  CHECK_MUSA(musaGraphAddMemcpyNode(&memcpyNode, graph, NULL, 0, &cp));
  musaMemsetParams mp = {0};
  mp.dst = d;
  mp.elementSize = 4;
  mp.width = 1;
  mp.height = 1;
  CHECK_MUSA(musaGraphAddMemsetNode(&memsetNode, graph, NULL, 0, &mp));
  musaHostNodeParams hp = {noop, NULL};
  CHECK_MUSA(musaGraphAddHostNode(&host, graph, NULL, 0, &hp));
  CHECK_MUSA(musaGraphAddEmptyNode(&empty, graph, NULL, 0));
  CHECK_MUSA(musaGraphAddEventRecordNode(&record, graph, NULL, 0, event));
  CHECK_MUSA(musaGraphAddEventWaitNode(&wait, graph, NULL, 0, event));
  // External semaphores: the simulator's own semaphore (musaSimCreateSemaphoreFd, a musa-sim
  // extension) has no hardware counterpart, so on the hardware these two nodes are left out.
  musaExternalSemaphore_t sem = NULL;
  sigNode = waitSem = NULL;
  if (!onHardware()) {
    int fd = -1;
    CHECK_MUSA(musaSimCreateSemaphoreFd(&fd, 0));
    musaExternalSemaphoreHandleDesc desc = {};
    desc.type = musaExternalSemaphoreHandleTypeOpaqueFd;
    desc.handle.fd = fd;
    CHECK_MUSA(musaImportExternalSemaphore(&sem, &desc));
    musaExternalSemaphoreSignalParams sigParams = {};
    musaExternalSemaphoreSignalNodeParams snp = {&sem, &sigParams, 1};
    CHECK_MUSA(musaGraphAddExternalSemaphoresSignalNode(&sigNode, graph, NULL, 0, &snp));
    musaExternalSemaphoreWaitParams waitParams = {};
    musaExternalSemaphoreWaitNodeParams wnp = {&sem, &waitParams, 1};
    CHECK_MUSA(musaGraphAddExternalSemaphoresWaitNode(&waitSem, graph, NULL, 0, &wnp));
  }
  musaGraph_t childGraph;
  CHECK_MUSA(musaGraphCreate(&childGraph, 0));
  CHECK_MUSA(musaGraphAddChildGraphNode(&child, graph, NULL, 0, childGraph));
  musaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = musaMemAllocationTypePinned;
  ap.poolProps.location.type = musaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = 256;
  CHECK_MUSA(musaGraphAddMemAllocNode(&alloc, graph, NULL, 0, &ap));
  CHECK_MUSA(musaGraphAddMemFreeNode(&freeNode, graph, &alloc, 1, ap.dptr));
  musaGraphConditionalHandle handle;
  CHECK_MUSA(musaGraphConditionalHandleCreate(&handle, graph, 0, 0));
  musaGraphNodeParams gp = {};
  gp.type = musaGraphNodeTypeConditional;
  gp.conditional.handle = handle;
  gp.conditional.type = musaGraphCondTypeIf;
  gp.conditional.size = 1;
  musaGraph_t body = NULL;
  gp.conditional.phGraph_out = &body;
  CHECK_MUSA(musaGraphAddNode(&conditional, graph, NULL, 0, &gp));

  struct {
    musaGraphNode_t node;
    musaGraphNodeType type;
    const char *name;
  } table[] = {
      {kernel, musaGraphNodeTypeKernel, "Kernel"},
      {memcpyNode, musaGraphNodeTypeMemcpy, "Memcpy"},
      {memsetNode, musaGraphNodeTypeMemset, "Memset"},
      {host, musaGraphNodeTypeHost, "Host"},
      {empty, musaGraphNodeTypeEmpty, "Empty"},
      {record, musaGraphNodeTypeEventRecord, "Event Record"},
      {wait, musaGraphNodeTypeEventWait, "Event Wait"},
      {sigNode, musaGraphNodeTypeExternalSemaphoreSignal, "External Semaphore Signal"},
      {waitSem, musaGraphNodeTypeExternalSemaphoreWait, "External Semaphore Wait"},
      {child, musaGraphNodeTypeChildGraph, "Child Graph"},
      {alloc, musaGraphNodeTypeMemAlloc, "MemAlloc"},
      {freeNode, musaGraphNodeTypeMemFree, "MemFree"},
      {conditional, musaGraphNodeTypeConditional, "Conditional"},
  };
  for (auto &row : table) {
    if (!row.node && onHardware())
      continue;
    musaGraphNodeType type = musaGraphNodeTypeCount;
    CHECK_MUSA(musaGraphNodeGetType(row.node, &type));
    CHECK(type == row.type, "%s node has type %d, expected %d", row.name, (int)type,
          (int)row.type);
  }
  // The guide's and CUDA's names of the same types are aliases (DECISIONS.md 5).
  CHECK(musaGraphNodeTypeChildGraph == musaGraphNodeTypeGraph &&
            musaGraphNodeTypeEventWait == musaGraphNodeTypeWaitEvent &&
            musaGraphNodeTypeExternalSemaphoreSignal == musaGraphNodeTypeExtSemasSignal &&
            musaGraphNodeTypeExternalSemaphoreWait == musaGraphNodeTypeExtSemasWait,
        "node type aliases");
  size_t count = 0;
  CHECK_MUSA(musaGraphGetNodes(graph, NULL, &count));
  const size_t semaphoreNodes = onHardware() ? 0 : 2; // left out on the hardware (above)
  CHECK(count == 11 + semaphoreNodes, "one node of each of the 13 types: %zu", count);
  // 依赖关系: root nodes have no dependencies (all but the free node here).
  CHECK_MUSA(musaGraphGetRootNodes(graph, NULL, &count));
  CHECK(count == 10 + semaphoreNodes, "root nodes %zu", count);

  CHECK_MUSA(musaGraphDestroy(graph));
  CHECK_MUSA(musaGraphDestroy(childGraph));
  if (sem)
    CHECK_MUSA(musaDestroyExternalSemaphore(sem));
  CHECK_MUSA(musaEventDestroy(event));
  CHECK_MUSA(musaFree(d));
}

// 图的工作流程, 阶段 1-4. Fragment: `args` and the data are not defined in the guide; here they
// are a device array of 256 * 256 floats (the guide's grid and block) and its length.
static void workflowPhases() {
  const int count = 256 * 256;
  float *d_data;
  CHECK_MUSA(musaMalloc(&d_data, count * sizeof(float)));
  float *h = (float *)malloc(count * sizeof(float));
  for (int i = 0; i < count; i++) h[i] = (float)(i % 1000);
  CHECK_MUSA(musaMemcpy(d_data, h, count * sizeof(float), musaMemcpyHostToDevice));
  int n = count;
  void *args[] = {&d_data, &n};

  // 阶段 1：创建
  musaGraph_t graph;
  CHECK_MUSA(musaGraphCreate(&graph, 0));

  // 添加节点和依赖
  musaGraphNode_t kernelNode;
  musaKernelNodeParams kernelParams = {0};
  kernelParams.func = (void*)myKernel;
  kernelParams.gridDim = dim3(256, 1, 1);
  kernelParams.blockDim = dim3(256, 1, 1);
  kernelParams.sharedMemBytes = 0;
  kernelParams.kernelParams = args;

  CHECK_MUSA(musaGraphAddKernelNode(&kernelNode, graph, NULL, 0, &kernelParams));

  // 阶段 2：实例化
  musaGraphExec_t graphExec;
  CHECK_MUSA(musaGraphInstantiate(&graphExec, graph, 0));

  // 阶段 3：执行
  musaStream_t stream;
  CHECK_MUSA(musaStreamCreate(&stream));
  CHECK_MUSA(musaGraphLaunch(graphExec, stream));
  CHECK_MUSA(musaStreamSynchronize(stream));

  float *out = (float *)malloc(count * sizeof(float));
  CHECK_MUSA(musaMemcpy(out, d_data, count * sizeof(float), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < count; i++)
    if (out[i] != h[i] * 2.0f) ++bad;
  CHECK(bad == 0, "%d of %d elements not doubled by the one-node graph", bad, count);

  // 阶段 4：销毁
  CHECK_MUSA(musaGraphExecDestroy(graphExec));
  CHECK_MUSA(musaGraphDestroy(graph));
  CHECK_MUSA(musaStreamDestroy(stream));

  // 步骤 1's documented errors: musaErrorInvalidValue for a null output and for non-zero
  // (reserved) flags, as CUDA.
  CHECK(musaGraphCreate(NULL, 0) == musaErrorInvalidValue, "null graph pointer");
  musaGraph_t g2;
  CHECK(musaGraphCreate(&g2, 1) == musaErrorInvalidValue, "non-zero flags");
  musaGetLastError();
  free(h);
  free(out);
  CHECK_MUSA(musaFree(d_data));
}

// 步骤 2's vectorAdd example with 步骤 3's host-to-device copy example (twice, for a and b) and
// 步骤 8's musaGraphAddDependencies. Fragment completion: the guide leaves d_a/d_b/d_c
// unallocated and has no data; here they are allocated, h_src/d_dst/width of the copy snippet
// are the inputs, and the copies are ordered before the kernel with musaGraphAddDependencies
// (the kernel node itself is added with no dependencies, as in the guide), then a copy back.
static void vectorAddNode() {
  // 创建图
  musaGraph_t graph;
  CHECK_MUSA(musaGraphCreate(&graph, 0));

  // 准备内核参数
  float *d_a, *d_b, *d_c;
  int n = 1024;
  void *args[] = {&d_a, &d_b, &d_c, &n};
  CHECK_MUSA(musaMalloc(&d_a, n * sizeof(float)));
  CHECK_MUSA(musaMalloc(&d_b, n * sizeof(float)));
  CHECK_MUSA(musaMalloc(&d_c, n * sizeof(float)));

  musaKernelNodeParams kernelParams = {0};
  kernelParams.func = (void*)vectorAdd;
  kernelParams.gridDim = dim3((n + 255) / 256, 1, 1);
  kernelParams.blockDim = dim3(256, 1, 1);
  kernelParams.sharedMemBytes = 0;
  kernelParams.kernelParams = args;

  // 添加内核节点
  musaGraphNode_t kernelNode;
  CHECK_MUSA(musaGraphAddKernelNode(&kernelNode, graph, NULL, 0, &kernelParams));

  // 步骤 3 示例, once per input.
  size_t width = n;
  float *h_inputs[2] = {(float *)malloc(width * sizeof(float)),
                        (float *)malloc(width * sizeof(float))};
  float *d_inputs[2] = {d_a, d_b};
  musaGraphNode_t copyNodes[2];
  for (int k = 0; k < 2; k++) {
    float *h_src = h_inputs[k], *d_dst = d_inputs[k];
    for (size_t i = 0; i < width; i++) h_src[i] = (float)(k == 0 ? i : 1000 * i);
    // Host 到 Device 拷贝
    musaMemcpy3DParms copyParams = {0};
    copyParams.srcPtr = make_musaPitchedPtr(h_src, width * sizeof(float), width, 1);
    copyParams.dstPtr = make_musaPitchedPtr(d_dst, width * sizeof(float), width, 1);
    copyParams.extent = make_musaExtent(width * sizeof(float), 1, 1);
    copyParams.kind = musaMemcpyHostToDevice;

    musaGraphNode_t memcpyNode;
    CHECK_MUSA(musaGraphAddMemcpyNode(&memcpyNode, graph, NULL, 0, &copyParams));
    copyNodes[k] = memcpyNode;
  }

  // 步骤 8：both copies before the kernel (two edges in one call).
  musaGraphNode_t from[] = {copyNodes[0], copyNodes[1]};
  musaGraphNode_t to[] = {kernelNode, kernelNode};
  CHECK_MUSA(musaGraphAddDependencies(graph, from, to, 2));
  CHECK(musaGraphAddDependencies(graph, from, to, 1) == musaErrorInvalidValue,
        "the same edge added twice");
  musaGetLastError();

  float *h_c = (float *)malloc(n * sizeof(float));
  musaGraphNode_t back;
  CHECK_MUSA(musaGraphAddMemcpyNode1D(&back, graph, &kernelNode, 1, h_c, d_c, n * sizeof(float),
                                      musaMemcpyDeviceToHost));

  size_t numEdges = 0;
  CHECK_MUSA(musaGraphGetEdges(graph, NULL, NULL, &numEdges));
  CHECK(numEdges == 3, "edges %zu", numEdges);
  size_t numDeps = 0;
  CHECK_MUSA(musaGraphNodeGetDependencies(kernelNode, NULL, &numDeps));
  CHECK(numDeps == 2, "kernel node depends on %zu nodes", numDeps);
  musaMemcpy3DParms got;
  CHECK_MUSA(musaGraphMemcpyNodeGetParams(copyNodes[1], &got));
  CHECK(got.srcPtr.ptr == h_inputs[1] && got.dstPtr.ptr == d_b &&
            got.extent.width == width * sizeof(float) && got.kind == musaMemcpyHostToDevice,
        "copy node params");

  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphInstantiate(&exec, graph, 0));
  CHECK_MUSA(musaGraphLaunch(exec, 0));
  CHECK_MUSA(musaStreamSynchronize(0));
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (h_c[i] != (float)i + 1000.0f * i) ++bad;
  CHECK(bad == 0, "%d wrong sums, c[7] = %f", bad, h_c[7]);

  CHECK_MUSA(musaGraphExecDestroy(exec));
  CHECK_MUSA(musaGraphDestroy(graph));
  free(h_inputs[0]);
  free(h_inputs[1]);
  free(h_c);
  musaFree(d_a);
  musaFree(d_b);
  musaFree(d_c);
}

// 步骤 4 (musaMemsetParams): element sizes 1 (1D, pitch 0) and a 2D fill with a pitch; the
// padding between rows is left alone.
static void memsetNodes() {
  const size_t pitch = 64, widthBytes = 16, height = 4;
  unsigned char *d;
  CHECK_MUSA(musaMalloc(&d, pitch * height));
  CHECK_MUSA(musaMemset(d, 0, pitch * height));
  musaGraph_t graph;
  CHECK_MUSA(musaGraphCreate(&graph, 0));

  musaMemsetParams oneD = {0};
  oneD.dst = d + pitch * height - 8; // the last 8 bytes (padding of the last row)
  oneD.value = 0x5A;
  oneD.pitch = 0;                    // 0: 1D
  oneD.elementSize = 1;
  oneD.width = 8;
  oneD.height = 1;
  musaGraphNode_t n1, n2;
  CHECK_MUSA(musaGraphAddMemsetNode(&n1, graph, NULL, 0, &oneD));

  musaMemsetParams twoD = {0};
  twoD.dst = d;
  twoD.value = 0x1234;
  twoD.pitch = pitch;
  twoD.elementSize = 2;
  twoD.width = widthBytes / 2;
  twoD.height = height;
  CHECK_MUSA(musaGraphAddMemsetNode(&n2, graph, &n1, 1, &twoD));

  musaMemsetParams back;
  CHECK_MUSA(musaGraphMemsetNodeGetParams(n2, &back));
  CHECK(back.dst == d && back.pitch == pitch && back.elementSize == 2 && back.width == 8 &&
            back.height == height && back.value == 0x1234,
        "memset node params");

  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphInstantiate(&exec, graph, 0));
  CHECK_MUSA(musaGraphLaunch(exec, 0));
  unsigned char h[pitch * height];
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  int bad = 0;
  for (size_t r = 0; r < height; r++)
    for (size_t c = 0; c < pitch; c++) {
      unsigned char expect = 0;
      if (c < widthBytes) expect = (c % 2 == 0) ? 0x34 : 0x12;
      else if (r == height - 1 && c >= pitch - 8) expect = 0x5A;
      if (h[r * pitch + c] != expect) ++bad;
    }
  CHECK(bad == 0, "%d wrong bytes after the 1D and 2D memset nodes (row 0: %02x %02x, pad %02x)",
        bad, h[0], h[1], h[widthBytes]);
  CHECK_MUSA(musaGraphExecDestroy(exec));
  CHECK_MUSA(musaGraphDestroy(graph));
  CHECK_MUSA(musaFree(d));
}

// 步骤 5：an empty node as the join point of two independent kernels, before a third.
static void emptyNodeJoin() {
  const int n = 512;
  float *a, *b, *c;
  CHECK_MUSA(musaMalloc(&a, n * sizeof(float)));
  CHECK_MUSA(musaMalloc(&b, n * sizeof(float)));
  CHECK_MUSA(musaMalloc(&c, n * sizeof(float)));
  musaGraph_t graph;
  CHECK_MUSA(musaGraphCreate(&graph, 0));
  float va = 1.5f, vb = 2.25f;
  int count = n;
  void *argsA[] = {&a, &va, &count};
  void *argsB[] = {&b, &vb, &count};
  void *argsC[] = {&a, &b, &c, &count};
  musaKernelNodeParams p = {0};
  p.func = (void *)fillValue;
  p.gridDim = dim3((n + 255) / 256);
  p.blockDim = dim3(256);
  musaGraphNode_t fills[2], join, add;
  p.kernelParams = argsA;
  CHECK_MUSA(musaGraphAddKernelNode(&fills[0], graph, NULL, 0, &p));
  p.kernelParams = argsB;
  CHECK_MUSA(musaGraphAddKernelNode(&fills[1], graph, NULL, 0, &p));
  CHECK_MUSA(musaGraphAddEmptyNode(&join, graph, fills, 2));
  p.func = (void *)vectorAdd;
  p.kernelParams = argsC;
  CHECK_MUSA(musaGraphAddKernelNode(&add, graph, &join, 1, &p));

  size_t num = 4;
  musaGraphNode_t deps[4];
  CHECK_MUSA(musaGraphNodeGetDependencies(join, deps, &num));
  CHECK(num == 2 && deps[0] == fills[0] && deps[1] == fills[1], "empty node joins both fills");
  num = 4;
  CHECK_MUSA(musaGraphNodeGetDependentNodes(join, deps, &num));
  CHECK(num == 1 && deps[0] == add, "empty node precedes the add");
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphInstantiate(&exec, graph, 0));
  CHECK_MUSA(musaGraphLaunch(exec, 0));
  float h[n];
  CHECK_MUSA(musaMemcpy(h, c, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h[0] == 3.75f && h[n - 1] == 3.75f, "sum after the join %f %f", h[0], h[n - 1]);
  CHECK_MUSA(musaGraphExecDestroy(exec));
  CHECK_MUSA(musaGraphDestroy(graph));
  musaFree(a);
  musaFree(b);
  musaFree(c);
}

// 步骤 6：an event record node in one graph, an event wait node in another graph launched into a
// second stream: the waiting graph's kernel runs after the recording graph's kernel.
static void eventNodes() {
  int *d;
  CHECK_MUSA(musaMalloc(&d, sizeof(int)));
  CHECK_MUSA(musaMemset(d, 0, sizeof(int)));
  musaEvent_t event;
  CHECK_MUSA(musaEventCreate(&event));
  void *args[] = {&d};
  musaKernelNodeParams kp = {0};
  kp.func = (void *)bumpInt;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;

  musaGraph_t producer, consumer;
  CHECK_MUSA(musaGraphCreate(&producer, 0));
  CHECK_MUSA(musaGraphCreate(&consumer, 0));
  musaGraphNode_t k1, k2, recordNode, waitNode;
  CHECK_MUSA(musaGraphAddKernelNode(&k1, producer, NULL, 0, &kp));
  CHECK_MUSA(musaGraphAddEventRecordNode(&recordNode, producer, &k1, 1, event));
  CHECK_MUSA(musaGraphAddEventWaitNode(&waitNode, consumer, NULL, 0, event));
  CHECK_MUSA(musaGraphAddKernelNode(&k2, consumer, &waitNode, 1, &kp));
  musaEvent_t got = NULL;
  CHECK_MUSA(musaGraphEventWaitNodeGetEvent(waitNode, &got));
  CHECK(got == event, "wait node event");
  musaGraphNodeType type;
  CHECK_MUSA(musaGraphNodeGetType(waitNode, &type));
  CHECK(type == musaGraphNodeTypeEventWait, "wait node type %d", (int)type);

  musaGraphExec_t pe, ce;
  CHECK_MUSA(musaGraphInstantiate(&pe, producer, 0));
  CHECK_MUSA(musaGraphInstantiate(&ce, consumer, 0));
  musaStream_t s1, s2;
  CHECK_MUSA(musaStreamCreate(&s1));
  CHECK_MUSA(musaStreamCreate(&s2));
  for (int i = 0; i < 3; i++) {
    CHECK_MUSA(musaGraphLaunch(pe, s1));
    CHECK_MUSA(musaGraphLaunch(ce, s2));
  }
  CHECK_MUSA(musaStreamSynchronize(s2));
  CHECK_MUSA(musaEventSynchronize(event));
  int h = 0;
  CHECK_MUSA(musaMemcpy(&h, d, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h == 6, "both graphs ran three times: %d", h);
  CHECK(musaEventQuery(event) == musaSuccess, "event recorded by the graph completed");

  CHECK_MUSA(musaGraphExecDestroy(pe));
  CHECK_MUSA(musaGraphExecDestroy(ce));
  CHECK_MUSA(musaGraphDestroy(producer));
  CHECK_MUSA(musaGraphDestroy(consumer));
  musaStreamDestroy(s1);
  musaStreamDestroy(s2);
  musaEventDestroy(event);
  musaFree(d);
}

int main() {
  nodeTypeTable();
  workflowPhases();
  vectorAddNode();
  memsetNodes();
  emptyNodeJoin();
  eventNodes();
  return finish("guide_graphs_explicit");
}

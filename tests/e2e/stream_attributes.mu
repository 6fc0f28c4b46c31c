// Stream and kernel-node attributes, after the CUDA programming guide's "L2 access management"
// example: set aside persisting L2, give a stream an access policy window, run kernels under it,
// read every attribute back, reject what CUDA rejects, and reset the persisting lines.
#include "check.h"

__global__ void scale(float *data, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= factor;
}

static void checkDeviceLimits(const musaDeviceProp &prop) {
  int attrWindow = 0, attrPersisting = 0;
  CHECK_MUSA(musaDeviceGetAttribute(&attrWindow, musaDevAttrMaxAccessPolicyWindowSize, 0));
  CHECK_MUSA(musaDeviceGetAttribute(&attrPersisting, musaDevAttrMaxPersistingL2CacheSize, 0));
  CHECK(attrWindow == prop.accessPolicyMaxWindowSize && attrWindow > 0,
        "accessPolicyMaxWindowSize %d, attribute %d", prop.accessPolicyMaxWindowSize, attrWindow);
  CHECK(attrPersisting == prop.persistingL2CacheMaxSize && attrPersisting > 0 &&
            attrPersisting <= prop.l2CacheSize,
        "persistingL2CacheMaxSize %d (attribute %d, L2 %d)", prop.persistingL2CacheMaxSize,
        attrPersisting, prop.l2CacheSize);
  // The guide's idiom: set aside as much as allowed, up to 3/4 of the L2.
  size_t setAside = size_t(prop.l2CacheSize * 0.75) < size_t(prop.persistingL2CacheMaxSize)
                        ? size_t(prop.l2CacheSize * 0.75)
                        : size_t(prop.persistingL2CacheMaxSize);
  CHECK_MUSA(musaDeviceSetLimit(musaLimitPersistingL2CacheSize, setAside));
  size_t got = 0;
  CHECK_MUSA(musaDeviceGetLimit(&got, musaLimitPersistingL2CacheSize));
  CHECK(got == setAside, "persisting L2 limit %zu, set %zu", got, setAside);
  if (!onHardware()) { // CUDA may round what it accepts: exact rejections are ours
    CHECK(musaDeviceSetLimit(musaLimitPersistingL2CacheSize,
                             size_t(prop.persistingL2CacheMaxSize) + 1) == musaErrorInvalidValue,
          "a set-aside above persistingL2CacheMaxSize was accepted");
    musaGetLastError();
  }
}

static void checkStreamWindow(const musaDeviceProp &prop) {
  const int n = 1 << 16;
  float *data, host[n];
  CHECK_MUSA(musaMalloc(&data, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    host[i] = float(i % 100);
  CHECK_MUSA(musaMemcpy(data, host, sizeof host, musaMemcpyHostToDevice));
  musaStream_t stream;
  CHECK_MUSA(musaStreamCreate(&stream));

  musaStreamAttrValue attr;
  memset(&attr, 0, sizeof attr);
  attr.accessPolicyWindow.base_ptr = data;
  attr.accessPolicyWindow.num_bytes = n * sizeof(float);
  attr.accessPolicyWindow.hitRatio = 0.6f;
  attr.accessPolicyWindow.hitProp = musaAccessPropertyPersisting;
  attr.accessPolicyWindow.missProp = musaAccessPropertyStreaming;
  CHECK_MUSA(musaStreamSetAttribute(stream, musaStreamAttributeAccessPolicyWindow, &attr));

  musaStreamAttrValue back;
  memset(&back, 0x5a, sizeof back);
  CHECK_MUSA(musaStreamGetAttribute(stream, musaStreamAttributeAccessPolicyWindow, &back));
  CHECK(back.accessPolicyWindow.base_ptr == data &&
            back.accessPolicyWindow.num_bytes == n * sizeof(float) &&
            back.accessPolicyWindow.hitRatio == 0.6f &&
            back.accessPolicyWindow.hitProp == musaAccessPropertyPersisting &&
            back.accessPolicyWindow.missProp == musaAccessPropertyStreaming,
        "access policy window read back as %p %zu %g %d %d", back.accessPolicyWindow.base_ptr,
        back.accessPolicyWindow.num_bytes, back.accessPolicyWindow.hitRatio,
        back.accessPolicyWindow.hitProp, back.accessPolicyWindow.missProp);

  // Kernels in the stream run as before (the window is a caching hint).
  scale<<<n / 256, 256, 0, stream>>>(data, n, 2.0f);
  scale<<<n / 256, 256, 0, stream>>>(data, n, 1.5f);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaStreamSynchronize(stream));
  CHECK_MUSA(musaMemcpy(host, data, sizeof host, musaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += host[i] != float(i % 100) * 3.0f;
  CHECK(bad == 0, "%d wrong values after kernels under an access policy window", bad);

  // A second stream copies the attributes; the synchronisation policy round-trips too.
  musaStream_t other;
  CHECK_MUSA(musaStreamCreateWithFlags(&other, musaStreamNonBlocking));
  musaStreamAttrValue policy;
  memset(&policy, 0, sizeof policy);
  policy.syncPolicy = musaSyncPolicyBlockingSync;
  CHECK_MUSA(musaStreamSetAttribute(stream, musaStreamAttributeSynchronizationPolicy, &policy));
  CHECK_MUSA(musaStreamCopyAttributes(other, stream));
  memset(&back, 0, sizeof back);
  CHECK_MUSA(musaStreamGetAttribute(other, musaStreamAttributeAccessPolicyWindow, &back));
  CHECK(back.accessPolicyWindow.base_ptr == data && back.accessPolicyWindow.hitRatio == 0.6f,
        "copied window %p %g", back.accessPolicyWindow.base_ptr, back.accessPolicyWindow.hitRatio);
  CHECK_MUSA(musaStreamGetAttribute(other, musaStreamAttributeSynchronizationPolicy, &back));
  CHECK(back.syncPolicy == musaSyncPolicyBlockingSync, "copied sync policy %d", back.syncPolicy);

  // Priority as a stream attribute: the same value musaStreamGetPriority reports.
  int least = 0, greatest = 0, priority = 1;
  CHECK_MUSA(musaDeviceGetStreamPriorityRange(&least, &greatest));
  musaStreamAttrValue prio;
  memset(&prio, 0, sizeof prio);
  prio.priority = greatest;
  CHECK_MUSA(musaStreamSetAttribute(other, musaStreamAttributePriority, &prio));
  CHECK_MUSA(musaStreamGetPriority(other, &priority));
  CHECK(priority == greatest, "priority %d after setting %d", priority, greatest);
  memset(&prio, 0, sizeof prio);
  CHECK_MUSA(musaStreamGetAttribute(other, musaStreamAttributePriority, &prio));
  CHECK(prio.priority == greatest, "priority attribute %d", prio.priority);

  // What CUDA rejects, leaving the stored window as it was.
  musaStreamAttrValue wrong = attr;
  wrong.accessPolicyWindow.num_bytes = size_t(prop.accessPolicyMaxWindowSize) + 1;
  CHECK(musaStreamSetAttribute(stream, musaStreamAttributeAccessPolicyWindow, &wrong) ==
            musaErrorInvalidValue, "a window above accessPolicyMaxWindowSize was accepted");
  wrong = attr;
  wrong.accessPolicyWindow.hitRatio = 1.5f;
  CHECK(musaStreamSetAttribute(stream, musaStreamAttributeAccessPolicyWindow, &wrong) ==
            musaErrorInvalidValue, "hitRatio 1.5 was accepted");
  wrong.accessPolicyWindow.hitRatio = -0.1f;
  CHECK(musaStreamSetAttribute(stream, musaStreamAttributeAccessPolicyWindow, &wrong) ==
            musaErrorInvalidValue, "hitRatio -0.1 was accepted");
  CHECK(musaStreamSetAttribute(stream, musaStreamAttributeAccessPolicyWindow, nullptr) ==
            musaErrorInvalidValue, "a null value was accepted");
  musaGetLastError();
  memset(&back, 0, sizeof back);
  CHECK_MUSA(musaStreamGetAttribute(stream, musaStreamAttributeAccessPolicyWindow, &back));
  CHECK(back.accessPolicyWindow.hitRatio == 0.6f && back.accessPolicyWindow.num_bytes == n * 4,
        "a rejected window changed the stored one");

  // The guide's reset: a window of zero bytes, and the persisting lines made normal again.
  attr.accessPolicyWindow.num_bytes = 0;
  CHECK_MUSA(musaStreamSetAttribute(stream, musaStreamAttributeAccessPolicyWindow, &attr));
  CHECK_MUSA(musaCtxResetPersistingL2Cache());
  CHECK_MUSA(musaStreamGetAttribute(stream, musaStreamAttributeAccessPolicyWindow, &back));
  CHECK(back.accessPolicyWindow.num_bytes == 0, "window not cleared");

  CHECK_MUSA(musaStreamDestroy(other));
  CHECK_MUSA(musaStreamDestroy(stream));
  if (!onHardware()) { // a destroyed stream is a stale handle here; on hardware, undefined
    CHECK(musaStreamGetAttribute(stream, musaStreamAttributeAccessPolicyWindow, &back) ==
              musaErrorInvalidResourceHandle, "a destroyed stream's attributes were read");
    musaGetLastError();
  }
  CHECK_MUSA(musaFree(data));
}

static void checkKernelNode() {
  const int n = 1024;
  float *data;
  CHECK_MUSA(musaMalloc(&data, n * sizeof(float)));
  CHECK_MUSA(musaMemset(data, 0, n * sizeof(float)));
  musaGraph_t graph;
  CHECK_MUSA(musaGraphCreate(&graph, 0));
  int count = n;
  float factor = 2.0f;
  void *args[] = {&data, &count, &factor};
  musaKernelNodeParams params;
  memset(&params, 0, sizeof params);
  params.func = (void *)scale;
  params.gridDim = dim3(n / 128);
  params.blockDim = dim3(128);
  params.kernelParams = args;
  musaGraphNode_t node;
  CHECK_MUSA(musaGraphAddKernelNode(&node, graph, nullptr, 0, &params));
  musaKernelNodeAttrValue value;
  memset(&value, 0, sizeof value);
  value.accessPolicyWindow.base_ptr = data;
  value.accessPolicyWindow.num_bytes = n * sizeof(float);
  value.accessPolicyWindow.hitRatio = 1.0f;
  value.accessPolicyWindow.hitProp = musaAccessPropertyPersisting;
  value.accessPolicyWindow.missProp = musaAccessPropertyNormal;
  CHECK_MUSA(musaGraphKernelNodeSetAttribute(node, musaKernelNodeAttributeAccessPolicyWindow,
                                             &value));
  musaKernelNodeAttrValue back;
  memset(&back, 0, sizeof back);
  CHECK_MUSA(musaGraphKernelNodeGetAttribute(node, musaKernelNodeAttributeAccessPolicyWindow,
                                             &back));
  CHECK(back.accessPolicyWindow.base_ptr == data && back.accessPolicyWindow.hitRatio == 1.0f &&
            back.accessPolicyWindow.hitProp == musaAccessPropertyPersisting,
        "kernel node window read back as %p %g %d", back.accessPolicyWindow.base_ptr,
        back.accessPolicyWindow.hitRatio, back.accessPolicyWindow.hitProp);
  value.accessPolicyWindow.missProp = musaAccessPropertyPersisting; // a miss cannot persist
  CHECK(musaGraphKernelNodeSetAttribute(node, musaKernelNodeAttributeAccessPolicyWindow, &value) ==
            musaErrorInvalidValue, "missProp persisting was accepted");
  musaGetLastError();
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphInstantiate(&exec, graph, 0));
  CHECK_MUSA(musaGraphLaunch(exec, 0));
  CHECK_MUSA(musaStreamSynchronize(0));
  CHECK_MUSA(musaGraphExecDestroy(exec));
  CHECK_MUSA(musaGraphDestroy(graph));
  CHECK_MUSA(musaFree(data));
}

int main() {
  musaDeviceProp prop;
  CHECK_MUSA(musaGetDeviceProperties(&prop, 0));
  checkDeviceLimits(prop);
  checkStreamWindow(prop);
  checkKernelNode();
  return finish("stream_attributes");
}

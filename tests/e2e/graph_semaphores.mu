// External semaphores: counting (eventfd) and timeline semaphores, signalled and waited on
// streams and as graph nodes.
#include "check.h"

#include <atomic>
#include <chrono>
#include <thread>

__global__ void bump(int *p) {
  if (threadIdx.x == 0)
    *p += 1;
}

int main() {
  int *d;
  CHECK_MUSA(musaMalloc(&d, sizeof(int)));
  CHECK_MUSA(musaMemset(d, 0, sizeof(int)));
  musaStream_t waiter;
  CHECK_MUSA(musaStreamCreateWithFlags(&waiter, musaStreamNonBlocking));

  // Timeline: the stream waits for value 2; signalling 1 is not enough.
  int fd = -1;
  CHECK_MUSA(musaSimCreateSemaphoreFd(&fd, 1));
  musaExternalSemaphoreHandleDesc desc = {};
  desc.type = musaExternalSemaphoreHandleTypeTimelineSemaphoreFd;
  desc.handle.fd = fd;
  musaExternalSemaphore_t timeline;
  CHECK_MUSA(musaImportExternalSemaphore(&timeline, &desc));
  musaExternalSemaphoreWaitParams wait = {};
  wait.params.fence.value = 2;
  CHECK_MUSA(musaWaitExternalSemaphoresAsync(&timeline, &wait, 1, waiter));
  bump<<<1, 1, 0, waiter>>>(d);
  musaExternalSemaphoreSignalParams sig = {};
  sig.params.fence.value = 1;
  CHECK_MUSA(musaSignalExternalSemaphoresAsync(&timeline, &sig, 1, 0));
  CHECK_MUSA(musaStreamSynchronize(0));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(musaStreamQuery(waiter) == musaErrorNotReady, "waited past value 1");
  sig.params.fence.value = 2;
  CHECK_MUSA(musaSignalExternalSemaphoresAsync(&timeline, &sig, 1, 0));
  CHECK_MUSA(musaStreamSynchronize(waiter));
  int h = 0;
  CHECK_MUSA(musaMemcpy(&h, d, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h == 1, "kernel after the wait ran: %d", h);

  // Counting semaphore as graph nodes: a signal node then a wait node in one graph.
  int efd = -1;
  CHECK_MUSA(musaSimCreateSemaphoreFd(&efd, 0));
  musaExternalSemaphoreHandleDesc edesc = {};
  edesc.type = musaExternalSemaphoreHandleTypeOpaqueFd;
  edesc.handle.fd = efd;
  musaExternalSemaphore_t counting;
  CHECK_MUSA(musaImportExternalSemaphore(&counting, &edesc));
  musaGraph_t g;
  CHECK_MUSA(musaGraphCreate(&g, 0));
  musaExternalSemaphoreSignalParams one = {};
  musaExternalSemaphoreSignalNodeParams sp = {&counting, &one, 1};
  musaGraphNode_t signalNode, waitNode, kernelNode;
  CHECK_MUSA(musaGraphAddExternalSemaphoresSignalNode(&signalNode, g, nullptr, 0, &sp));
  musaExternalSemaphoreWaitParams take = {};
  musaExternalSemaphoreWaitNodeParams wp = {&counting, &take, 1};
  CHECK_MUSA(musaGraphAddExternalSemaphoresWaitNode(&waitNode, g, &signalNode, 1, &wp));
  void *args[] = {&d};
  musaKernelNodeParams kp = {0};
  kp.func = (void *)bump;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  CHECK_MUSA(musaGraphAddKernelNode(&kernelNode, g, &waitNode, 1, &kp));
  musaExternalSemaphoreSignalNodeParams gotSignal;
  CHECK_MUSA(musaGraphExternalSemaphoresSignalNodeGetParams(signalNode, &gotSignal));
  CHECK(gotSignal.numExtSems == 1 && gotSignal.extSemArray[0] == counting, "signal params");
  musaExternalSemaphoreWaitNodeParams gotWait;
  CHECK_MUSA(musaGraphExternalSemaphoresWaitNodeGetParams(waitNode, &gotWait));
  CHECK(gotWait.numExtSems == 1, "wait params");
  CHECK(musaGraphExternalSemaphoresWaitNodeGetParams(signalNode, &gotWait) == musaErrorInvalidValue,
        "wait getter on a signal node");
  CHECK_MUSA(musaGraphExternalSemaphoresSignalNodeSetParams(signalNode, &sp));
  musaGraphNodeType type;
  CHECK_MUSA(musaGraphNodeGetType(signalNode, &type));
  CHECK(type == musaGraphNodeTypeExternalSemaphoreSignal, "type %d", (int)type);
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphInstantiate(&exec, g, 0));
  CHECK_MUSA(musaGraphExecExternalSemaphoresWaitNodeSetParams(exec, waitNode, &wp));
  CHECK_MUSA(musaGraphLaunch(exec, waiter));
  CHECK_MUSA(musaGraphLaunch(exec, waiter));
  CHECK_MUSA(musaStreamSynchronize(waiter));
  CHECK_MUSA(musaMemcpy(&h, d, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h == 3, "graph with semaphore nodes ran twice: %d", h);

  // Bad input.
  musaExternalSemaphoreHandleDesc bad = {};
  bad.type = (musaExternalSemaphoreHandleType)4; // D3D12 fence
  bad.handle.fd = 0;
  musaExternalSemaphore_t none;
  CHECK(musaImportExternalSemaphore(&none, &bad) == musaErrorNotSupported, "D3D12 imported");
  CHECK_MUSA(musaDestroyExternalSemaphore(counting));
  CHECK(musaDestroyExternalSemaphore(counting) == musaErrorInvalidResourceHandle, "double destroy");
  CHECK(musaSignalExternalSemaphoresAsync(&counting, &one, 1, 0) == musaErrorInvalidResourceHandle,
        "signal destroyed semaphore");
  musaGetLastError();
  CHECK_MUSA(musaDestroyExternalSemaphore(timeline));
  CHECK_MUSA(musaGraphExecDestroy(exec));
  CHECK_MUSA(musaGraphDestroy(g));
  musaStreamDestroy(waiter);
  musaFree(d);
  return finish("graph_semaphores");
}

// The runtime guide's 流 and 事件 snippets, with the event-timing example around a kernel.
#include "check.h"

static int callbacks = 0;
void MUSART_CB myCallback(musaStream_t stream, musaError_t status, void *userData) {
  printf("Stream completed, status: %d\n", status);
  ++*(int *)userData;
}

__global__ void kernel(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = data[i] * 2.0f + 1.0f;
}

int main() {
  musaStream_t stream;
  // 流创建和销毁
  CHECK_MUSA(musaStreamCreate(&stream));
  CHECK_MUSA(musaStreamDestroy(stream));
  int minPriority, maxPriority;
  CHECK_MUSA(musaDeviceGetStreamPriorityRange(&minPriority, &maxPriority));
  CHECK_MUSA(musaStreamCreateWithPriority(&stream, musaStreamDefault, minPriority));
  CHECK_MUSA(musaStreamDestroy(stream));
  CHECK_MUSA(musaStreamCreateWithPriority(&stream, musaStreamNonBlocking, 0));

  // 流同步 and 流回调
  const int n = 1 << 16;
  float *d;
  CHECK_MUSA(musaMalloc(&d, n * sizeof(float)));
  CHECK_MUSA(musaMemsetAsync(d, 0, n * sizeof(float), stream));
  int *userData = &callbacks;
  CHECK_MUSA(musaStreamAddCallback(stream, myCallback, userData, 0));
  CHECK_MUSA(musaStreamSynchronize(stream));
  musaError_t err = musaStreamQuery(stream);
  CHECK(err == musaSuccess, "query after synchronize: %s", musaGetErrorName(err));
  CHECK(callbacks == 1, "callback ran %d times", callbacks);

  // 传统流
  musaStream_t legacyStream = 0;
  musaStream_t perThreadStream = (musaStream_t)-1;
  kernel<<<n / 256, 256, 0, legacyStream>>>(d, n);
  kernel<<<n / 256, 256, 0, perThreadStream>>>(d, n);
  CHECK_MUSA(musaStreamSynchronize(perThreadStream));
  float h[4];
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h[3] == 3.0f, "legacy then per-thread stream, in order: %f", h[3]);

  // 事件创建和销毁
  musaEvent_t event;
  CHECK_MUSA(musaEventCreate(&event));
  CHECK_MUSA(musaEventDestroy(event));
  CHECK_MUSA(musaEventCreateWithFlags(&event, musaEventDisableTiming));
  CHECK_MUSA(musaEventDestroy(event));
  CHECK_MUSA(musaEventCreateWithFlags(&event, musaEventBlockingSync));
  CHECK_MUSA(musaEventDestroy(event));
  CHECK_MUSA(musaEventCreateWithFlags(&event, musaEventInterprocess | musaEventDisableTiming));
  CHECK_MUSA(musaEventDestroy(event));

  // 事件记录 and 事件同步
  CHECK_MUSA(musaEventCreate(&event));
  CHECK_MUSA(musaEventRecord(event, stream));
  // CUDA refuses an external record outside a capture (musa-sim accepts it as a plain one).
  CHECK_MUSA(musaEventRecordWithFlags(event, stream,
                                      onHardware() ? musaEventRecordDefault
                                                   : musaEventRecordExternal));
  CHECK_MUSA(musaEventSynchronize(event));
  err = musaEventQuery(event);
  CHECK(err == musaSuccess, "event query: %s", musaGetErrorName(err));
  CHECK_MUSA(musaStreamWaitEvent(stream, event, 0));

  // 事件计时
  musaEvent_t start, stop;
  musaEventCreate(&start);
  musaEventCreate(&stop);
  musaEventRecord(start, stream);
  kernel<<<n / 256, 256, 0, stream>>>(d, n);
  musaEventRecord(stop, stream);
  musaEventSynchronize(stop);
  float elapsedTime = -1;
  CHECK_MUSA(musaEventElapsedTime(&elapsedTime, start, stop));
  printf("Kernel execution time: %.3f ms\n", elapsedTime);
  CHECK(elapsedTime >= 0.0f, "elapsed time %f", elapsedTime);
  musaEventDestroy(start);
  musaEventDestroy(stop);
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h[3] == 7.0f, "kernel between the events ran: %f", h[3]);

  CHECK_MUSA(musaEventDestroy(event));
  CHECK_MUSA(musaStreamDestroy(stream));
  CHECK_MUSA(musaFree(d));
  return finish("guide_streams_events");
}

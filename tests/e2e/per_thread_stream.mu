// nvcc's --default-stream per-thread (built with that flag): stream 0 is each host thread's own
// stream, not the legacy stream, so it neither waits for nor holds up other blocking streams.
// A host function holds a blocking stream back; an event recorded on stream 0 afterwards still
// completes (on the legacy stream it would wait for the held stream), a kernel launched with
// <<<..., 0>>> and a synchronous copy run meanwhile, and two host threads' stream 0 are
// different streams. tests/hardware/hw-session20.sh builds it with nvcc the same way.
#include "check.h"

#include <atomic>
#include <chrono>
#include <thread>

#ifndef CUDA_API_PER_THREAD_DEFAULT_STREAM
#error "--default-stream per-thread defines CUDA_API_PER_THREAD_DEFAULT_STREAM"
#endif

static std::atomic<bool> gate{false};
static void MUSART_CB holdUntilOpen(void *) {
  while (!gate.load())
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

__global__ void setTo(int *p, int v) { *p = v; }

static unsigned long long idOf(musaStream_t s) {
  unsigned long long id = 0;
  CHECK_MUSA(musaStreamGetId(s, &id));
  return id;
}

int main() {
  setvbuf(stdout, nullptr, _IONBF, 0);
  musaStream_t blocking;
  CHECK_MUSA(musaStreamCreate(&blocking)); // a blocking stream: the legacy stream waits for it
  int *d;
  CHECK_MUSA(musaMalloc(&d, sizeof(int)));
  CHECK_MUSA(musaMemset(d, 0, sizeof(int)));
  // The kernel runs once first: CUDA loads a kernel at its first launch (lazy loading), which
  // may wait for the whole context, held stream included: the H100 hung here without this.
  setTo<<<1, 1>>>(d, 0);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK_MUSA(musaLaunchHostFunc(blocking, holdUntilOpen, nullptr));

  musaEvent_t e;
  CHECK_MUSA(musaEventCreateWithFlags(&e, musaEventDisableTiming));
  setTo<<<1, 1>>>(d, 42); // stream 0
  CHECK_MUSA(musaEventRecord(e, 0));
  bool done = false;
  for (int i = 0; i < 5000 && !done; ++i) {
    done = musaEventQuery(e) == musaSuccess;
    if (!done)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(done, "stream 0 waited for a blocking stream (the legacy stream's behaviour)");
  int v = 0;
  CHECK_MUSA(musaMemcpy(&v, d, sizeof v, musaMemcpyDeviceToHost)); // runs in stream 0 too
  CHECK(v == 42, "read %d", v);
  CHECK(musaStreamQuery(blocking) == musaErrorNotReady, "the held stream finished early");
  gate = true;
  CHECK_MUSA(musaStreamSynchronize(blocking));
  printf("stream 0 ran beside a held blocking stream: %d\n", v);

  unsigned long long main0 = idOf(0), mainPer = idOf(musaStreamPerThread),
                     legacy = idOf(musaStreamLegacy), other0 = 0;
  std::thread t([&] { other0 = idOf(0); });
  t.join();
  CHECK(main0 == mainPer && main0 != legacy && other0 != main0,
        "stream ids: 0 %llu, per-thread %llu, legacy %llu, another thread's 0 %llu", main0,
        mainPer, legacy, other0);
  CHECK_MUSA(musaEventDestroy(e));
  CHECK_MUSA(musaStreamDestroy(blocking));
  CHECK_MUSA(musaFree(d));
  return finish("per_thread_stream");
}

// Tiled 2D pipeline over three non-blocking streams: musaMemcpy2DAsync copies column tiles of a pinned host matrix in and out (strided both sides, plus a device-to-device 2D copy), a musaEventDisableTiming event chain forces tile k's kernel to run after tile k-1's across streams (checked through a device-side order log), musaLaunchHostFunc and musaStreamAddCallback report completion in stream order.
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)
#include <atomic>

__global__ void scaleTile(float *tile, size_t pitch, int w, int h, float s, int *order, int *cursor, int tileId) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    float *row = (float *)((char *)tile + y * pitch);
    row[x] = row[x] * s + tileId;
  }
  if (x == 0 && y == 0)
    order[atomicAdd(cursor, 1)] = tileId;
}

struct HostLog {
  std::atomic<int> next{0};
  int seen[64];
};
struct HostArg {
  HostLog *log;
  int tile;
};
static void hostDone(void *p) {
  HostArg *a = (HostArg *)p;
  a->log->seen[a->log->next++] = a->tile;
}
static std::atomic<int> callbacksOk{0};
static void MUSART_CB streamCb(musaStream_t, musaError_t status, void *user) {
  if (status == musaSuccess && user != nullptr)
    callbacksOk++;
}

int main() {
  const int W = 200, H = 64, tiles = 8, tw = W / tiles; // 25 columns per tile
  const int S = 3;
  float *hin, *hout;
  CHECK(musaMallocHost(&hin, W * H * sizeof(float)));
  CHECK(musaMallocHost(&hout, W * H * sizeof(float)));
  for (int i = 0; i < W * H; ++i) {
    hin[i] = (float)(i % 1000) * 0.25f;
    hout[i] = -1;
  }
  musaStream_t st[S];
  for (int s = 0; s < S; ++s)
    CHECK(musaStreamCreateWithFlags(&st[s], musaStreamNonBlocking));
  float *dt[tiles], *dcopy[tiles];
  size_t pitch[tiles], pitch2[tiles];
  musaEvent_t done[tiles];
  for (int t = 0; t < tiles; ++t) {
    CHECK(musaMallocPitch(&dt[t], &pitch[t], tw * sizeof(float), H));
    CHECK(musaMallocPitch(&dcopy[t], &pitch2[t], tw * sizeof(float) + 4, H));
    CHECK(musaEventCreateWithFlags(&done[t], musaEventDisableTiming));
  }
  int *dorder, *dcur;
  CHECK(musaMalloc(&dorder, tiles * sizeof(int)));
  CHECK(musaMalloc(&dcur, sizeof(int)));
  CHECK(musaMemset(dcur, 0, sizeof(int)));
  CHECK(musaDeviceSynchronize());
  HostLog log;
  HostArg args[tiles];
  // Issue in reverse so that, without the event chain, later tiles could easily run first.
  for (int t = tiles - 1; t >= 0; --t) {
    musaStream_t s = st[t % S];
    CHECK(musaMemcpy2DAsync(dt[t], pitch[t], hin + t * tw, W * sizeof(float), tw * sizeof(float), H, musaMemcpyHostToDevice, s));
  }
  for (int t = 0; t < tiles; ++t) {
    musaStream_t s = st[t % S];
    if (t > 0)
      CHECK(musaStreamWaitEvent(s, done[t - 1], 0));
    scaleTile<<<dim3((tw + 15) / 16, (H + 15) / 16), dim3(16, 16), 0, s>>>(dt[t], pitch[t], tw, H, 2.0f, dorder, dcur, t);
    CHECK(musaGetLastError());
    CHECK(musaEventRecord(done[t], s));
    CHECK(musaMemcpy2DAsync(dcopy[t], pitch2[t], dt[t], pitch[t], tw * sizeof(float), H, musaMemcpyDeviceToDevice, s));
    CHECK(musaMemcpy2DAsync(hout + t * tw, W * sizeof(float), dcopy[t], pitch2[t], tw * sizeof(float), H, musaMemcpyDeviceToHost, s));
    args[t] = {&log, t};
    CHECK(musaLaunchHostFunc(s, hostDone, &args[t]));
    CHECK(musaStreamAddCallback(s, streamCb, &args[t], 0));
  }
  for (int s = 0; s < S; ++s)
    CHECK(musaStreamSynchronize(st[s]));
  float ms;
  musaError_t noTiming = musaEventElapsedTime(&ms, done[0], done[1]);
  int order[tiles];
  CHECK(musaMemcpy(order, dorder, sizeof order, musaMemcpyDeviceToHost));
  bool ok = noTiming == musaErrorInvalidResourceHandle && log.next == tiles && callbacksOk == tiles;
  for (int t = 0; t < tiles; ++t)
    if (order[t] != t) {
      printf("order[%d] = %d\n", t, order[t]);
      ok = false;
    }
  // host functions of one stream run in issue order
  int lastSeen[S] = {-1, -1, -1};
  for (int k = 0; k < tiles; ++k) {
    int t = log.seen[k];
    if (t <= lastSeen[t % S])
      ok = false;
    lastSeen[t % S] = t;
  }
  int bad = 0;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      float ref = hin[y * W + x] * 2.0f + x / tw;
      if (hout[y * W + x] != ref && bad++ < 3)
        printf("(%d,%d): %f want %f\n", x, y, hout[y * W + x], ref);
    }
  ok = ok && bad == 0;
  printf("stream_chain_2d: elapsed on untimed events: %s, host funcs %d, callbacks %d, %s\n", musaGetErrorName(noTiming), (int)log.next, (int)callbacksOk, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

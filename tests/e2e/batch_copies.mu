// Batches of copies, prefetches and discards (CUDA 12.8 / 13): musaMemcpyBatchAsync with
// attributes applying to runs of copies (a source on the stack read during the call, so it may
// change at once), musaMemcpy3DBatchAsync between pitched memory and arrays, prefetches of
// managed memory to locations, discards, and the errors for misuse (the legacy stream, bad
// attribute indices, an invalid source order). tests/hardware/hw-session20.sh builds it as CUDA.
#include "check.h"

#include <vector>

__global__ void addOne(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += 1;
}

int main() {
  setvbuf(stdout, nullptr, _IONBF, 0);
  musaStream_t s;
  CHECK_MUSA(musaStreamCreateWithFlags(&s, musaStreamNonBlocking));
  const int n = 4096;
  std::vector<int> a(n), b(n), back(n, 0), back2(n, 0);
  for (int i = 0; i < n; ++i)
    a[i] = i, b[i] = -i;
  int *d0, *d1, *d2;
  CHECK_MUSA(musaMalloc(&d0, n * sizeof(int)));
  CHECK_MUSA(musaMalloc(&d1, n * sizeof(int)));
  CHECK_MUSA(musaMalloc(&d2, n * sizeof(int)));

  // Copies 0-1 in stream order, 2 from the stack read during the call, 3-4 in any order.
  int stack[4] = {11, 22, 33, 44};
  void *dsts[5] = {d0, d1, d2, back.data(), back2.data()};
  const void *srcs[5] = {a.data(), b.data(), stack, d0, d1};
  size_t sizes[5] = {n * sizeof(int), n * sizeof(int), sizeof stack, n * sizeof(int),
                     n * sizeof(int)};
  musaMemcpyAttributes attrs[3] = {};
  attrs[0].srcAccessOrder = musaMemcpySrcAccessOrderStream;
  attrs[1].srcAccessOrder = musaMemcpySrcAccessOrderDuringApiCall;
  attrs[2].srcAccessOrder = musaMemcpySrcAccessOrderAny;
  attrs[2].flags = musaMemcpyFlagPreferOverlapWithCompute;
  size_t idxs[3] = {0, 2, 3};
  // The first three, then the kernel, then the copies back.
  CHECK_MUSA(musaMemcpyBatchAsync(dsts, srcs, sizes, 3, attrs, idxs, 2, s));
  stack[0] = -1; // read during the call: the copy has its old value
  addOne<<<n / 256, 256, 0, s>>>(d0, n);
  CHECK_MUSA(musaMemcpyBatchAsync(dsts + 3, srcs + 3, sizes + 3, 2, attrs + 2, idxs, 1, s));
  CHECK_MUSA(musaStreamSynchronize(s));
  int firstFour[4];
  CHECK_MUSA(musaMemcpy(firstFour, d2, sizeof firstFour, musaMemcpyDeviceToHost));
  CHECK(firstFour[0] == 11 && firstFour[3] == 44, "staged stack source gave %d %d", firstFour[0],
        firstFour[3]);
  CHECK(back[0] == 1 && back[n - 1] == n && back2[5] == -5, "batch copies read back %d %d %d",
        back[0], back[n - 1], back2[5]);
  printf("batch: 5 copies in two calls, stack source staged (%d)\n", firstFour[0]);

  // Misuse.
  size_t badIdxs[2] = {1, 2};
  CHECK(musaMemcpyBatchAsync(dsts, srcs, sizes, 3, attrs, idxs, 2, 0) == musaErrorInvalidValue,
        "the legacy stream was accepted");
  CHECK(musaMemcpyBatchAsync(dsts, srcs, sizes, 3, attrs, badIdxs, 2, s) == musaErrorInvalidValue,
        "attribute indices not starting at 0 were accepted");
  CHECK(musaMemcpyBatchAsync(dsts, srcs, sizes, 1, attrs, idxs, 2, s) == musaErrorInvalidValue,
        "more attributes than copies were accepted");
  musaMemcpyAttributes invalid = {};
  CHECK(musaMemcpyBatchAsync(dsts, srcs, sizes, 1, &invalid, idxs, 1, s) == musaErrorInvalidValue,
        "an invalid source order was accepted");
  musaGetLastError();

  // 3D batch: a 40x30 window of pitched device memory into an array and back to the host.
  const int W = 64, H = 48, w = 40, h = 30;
  musaPitchedPtr pitched;
  CHECK_MUSA(musaMalloc3D(&pitched, make_musaExtent(W * sizeof(float), H, 1)));
  std::vector<float> img(W * H), out(w * h, 0.f);
  for (int i = 0; i < W * H; ++i)
    img[i] = float(i);
  CHECK_MUSA(musaMemcpy2D(pitched.ptr, pitched.pitch, img.data(), W * sizeof(float),
                          W * sizeof(float), H, musaMemcpyHostToDevice));
  musaChannelFormatDesc fd = musaCreateChannelDesc<float>();
  musaArray_t arr;
  CHECK_MUSA(musaMallocArray(&arr, &fd, w, h));
  musaMemcpy3DBatchOp ops[2] = {};
  ops[0].src.type = musaMemcpyOperandTypePointer;
  ops[0].src.op.ptr.ptr = (char *)pitched.ptr + 2 * pitched.pitch + 3 * sizeof(float);
  ops[0].src.op.ptr.rowLength = pitched.pitch / sizeof(float);
  ops[0].dst.type = musaMemcpyOperandTypeArray;
  ops[0].dst.op.array.array = arr;
  ops[0].extent = make_musaExtent(w, h, 1);
  ops[0].srcAccessOrder = musaMemcpySrcAccessOrderStream;
  ops[1].src.type = musaMemcpyOperandTypeArray;
  ops[1].src.op.array.array = arr;
  ops[1].dst.type = musaMemcpyOperandTypePointer;
  ops[1].dst.op.ptr.ptr = out.data();
  ops[1].extent = make_musaExtent(w, h, 1);
  ops[1].srcAccessOrder = musaMemcpySrcAccessOrderStream;
  CHECK_MUSA(musaMemcpy3DBatchAsync(1, ops, 0, s));
  CHECK_MUSA(musaMemcpy3DBatchAsync(1, ops + 1, 0, s));
  CHECK_MUSA(musaStreamSynchronize(s));
  int wrong = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      wrong += out[y * w + x] != float((y + 2) * W + x + 3);
  CHECK(wrong == 0, "%d wrong after the 3D batch", wrong);
  printf("3D batch: pitched window -> array -> host, %d wrong\n", wrong);
  ops[0].extent.depth = 0;
  CHECK(musaMemcpy3DBatchAsync(1, ops, 0, s) == musaErrorInvalidValue, "depth 0 accepted");
  CHECK(musaMemcpy3DBatchAsync(1, ops + 1, 1, s) == musaErrorInvalidValue, "flags 1 accepted");
  musaGetLastError();

  // Prefetch managed memory to the device, then discard it.
  int *m0, *m1;
  const size_t mBytes = 1 << 16;
  CHECK_MUSA(musaMallocManaged(&m0, mBytes));
  CHECK_MUSA(musaMallocManaged(&m1, mBytes));
  for (size_t i = 0; i < mBytes / 4; ++i)
    m0[i] = 5, m1[i] = 6;
  void *ptrs[2] = {m0, m1};
  size_t lens[2] = {mBytes, mBytes};
  musaMemLocation loc = {musaMemLocationTypeDevice, 0};
  size_t locIdx[1] = {0};
  CHECK_MUSA(musaMemPrefetchBatchAsync(ptrs, lens, 2, &loc, locIdx, 1, 0, s));
  addOne<<<int(mBytes / 4 / 256), 256, 0, s>>>(m0, int(mBytes / 4));
  CHECK_MUSA(musaStreamSynchronize(s));
  CHECK(m0[100] == 6, "prefetched managed memory reads %d", m0[100]);
  CHECK_MUSA(musaMemDiscardBatchAsync(ptrs, lens, 1, 0, s));
  CHECK_MUSA(musaMemDiscardAndPrefetchBatchAsync(ptrs + 1, lens + 1, 1, &loc, locIdx, 1, 0, s));
  CHECK_MUSA(musaStreamSynchronize(s));
  if (!reachesHardware()) // indeterminate on a GPU; here whole pages read as zeros
    CHECK(m0[100] == 0 && m1[5] == 0, "discarded memory reads %d %d", m0[100], m1[5]);
  void *plain[1] = {d0};
  CHECK(musaMemDiscardBatchAsync(plain, lens, 1, 0, s) == musaErrorInvalidValue,
        "a discard of memory that is not managed was accepted");
  CHECK(musaMemPrefetchBatchAsync(ptrs, lens, 2, &loc, locIdx, 1, 0, 0) == musaErrorInvalidValue,
        "a prefetch batch on the legacy stream was accepted");
  musaGetLastError();
  printf("prefetch and discard batches: managed memory read %d after the kernel\n", 6);

  CHECK_MUSA(musaFree(m0));
  CHECK_MUSA(musaFree(m1));
  CHECK_MUSA(musaFreeArray(arr));
  CHECK_MUSA(musaFree(pitched.ptr));
  CHECK_MUSA(musaFree(d0));
  CHECK_MUSA(musaFree(d1));
  CHECK_MUSA(musaFree(d2));
  CHECK_MUSA(musaStreamDestroy(s));
  return finish("batch_copies");
}

// The driver API calls programs mix with runtime launches (as CUDA's driver-API samples do):
// pitched allocations and two-dimensional copies (to and from arrays too), mapped and
// registered host memory, managed and stream-ordered memory, memsets in streams, stream
// callbacks and host functions in order, kernel attributes and occupancy of a kernel handle,
// a cooperative launch by handle, pointer attributes, stream priorities and flags, events
// between streams, device identity. Built with -lmusa; tests/hardware/hw-session20.sh builds
// it as CUDA (mu* -> cu*) and the same checks pass on the GPU.
#include "check.h"

#include <musa.h>
#include <string.h>
#include <vector>

#define CHECK_MU(call)                                                                      \
  do {                                                                                      \
    MUresult r_ = (call);                                                                   \
    const char *n_ = nullptr;                                                               \
    muGetErrorName(r_, &n_);                                                                \
    CHECK(r_ == MUSA_SUCCESS, "%s returned %s", #call, n_ ? n_ : "?");                     \
  } while (0)

__global__ void scale2D(float *p, size_t pitch, int w, int h, float s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h)
    ((float *)((char *)p + y * pitch))[x] *= s;
}

__global__ void __launch_bounds__(256) fill(int *p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v + i;
}

__global__ void spin(volatile int *flag, int *out) {
  // Long enough that a stream not waiting for it would read the old value.
  for (int i = 0; i < 2000; ++i)
    __threadfence();
  *out = 42;
  *flag = 1;
}

__global__ void readAfter(const int *in, int *out) { *out = *in + 1; }

static std::vector<int> order;
static void callback(MUstream, MUresult status, void *data) {
  order.push_back(status == MUSA_SUCCESS ? *(int *)data : -1);
}
static void hostFn(void *data) { order.push_back(*(int *)data); }

int main() {
  setvbuf(stdout, nullptr, _IONBF, 0);
  CHECK_MU(muInit(0));
  MUdevice dev;
  MUcontext ctx;
  CHECK_MU(muDeviceGet(&dev, 0));
  CHECK_MU(muDevicePrimaryCtxRetain(&ctx, dev));
  CHECK_MU(muCtxSetCurrent(ctx));

  // Pitched memory and 2D copies: host -> pitched device, a kernel, device -> host.
  const int W = 100, H = 37;
  MUdeviceptr d2 = 0;
  size_t pitch = 0;
  CHECK_MU(muMemAllocPitch(&d2, &pitch, W * sizeof(float), H, 4));
  CHECK(pitch >= W * sizeof(float) && pitch % 128 == 0, "pitch %zu", pitch);
  MUdeviceptr refused = 1;
  size_t refusedPitch = 1;
  CHECK(muMemAllocPitch(&refused, &refusedPitch, 16, 2, 3) == MUSA_ERROR_INVALID_VALUE,
        "element size 3 accepted");
  CHECK(refused == 0 && refusedPitch == 0, "a refused muMemAllocPitch left %llu, %zu",
        (unsigned long long)refused, refusedPitch); // the H100 clears both
  std::vector<float> host(W * H), back(W * H);
  for (int i = 0; i < W * H; ++i)
    host[i] = float(i);
  MUSA_MEMCPY2D c = {};
  c.srcMemoryType = MU_MEMORYTYPE_HOST;
  c.srcHost = host.data();
  c.srcPitch = W * sizeof(float);
  c.dstMemoryType = MU_MEMORYTYPE_DEVICE;
  c.dstDevice = d2;
  c.dstPitch = pitch;
  c.WidthInBytes = W * sizeof(float);
  c.Height = H;
  CHECK_MU(muMemcpy2D(&c));
  scale2D<<<dim3(1, H), 128>>>((float *)d2, pitch, W, H, 3.f);
  CHECK_MUSA(musaGetLastError());
  // Back through an array: device -> array (async) -> host, with an offset window.
  musaChannelFormatDesc fd = musaCreateChannelDesc<float>();
  musaArray_t arr;
  CHECK_MUSA(musaMallocArray(&arr, &fd, W, H));
  MUSA_MEMCPY2D toArr = {};
  toArr.srcMemoryType = MU_MEMORYTYPE_DEVICE;
  toArr.srcDevice = d2;
  toArr.srcPitch = pitch;
  toArr.dstMemoryType = MU_MEMORYTYPE_ARRAY;
  toArr.dstArray = (MUarray)arr;
  toArr.WidthInBytes = W * sizeof(float);
  toArr.Height = H;
  CHECK_MU(muMemcpy2DAsync(&toArr, 0));
  MUSA_MEMCPY2D fromArr = {};
  fromArr.srcMemoryType = MU_MEMORYTYPE_ARRAY;
  fromArr.srcArray = (MUarray)arr;
  fromArr.srcXInBytes = 10 * sizeof(float);
  fromArr.srcY = 5;
  fromArr.dstMemoryType = MU_MEMORYTYPE_HOST;
  fromArr.dstHost = back.data();
  fromArr.dstPitch = W * sizeof(float);
  fromArr.WidthInBytes = (W - 10) * sizeof(float);
  fromArr.Height = H - 5;
  CHECK_MU(muMemcpy2D(&fromArr));
  int wrong = 0;
  for (int y = 0; y < H - 5; ++y)
    for (int x = 0; x < W - 10; ++x)
      wrong += back[y * W + x] != 3.f * float((y + 5) * W + x + 10);
  CHECK(wrong == 0, "%d wrong values after the 2D copies", wrong);
  printf("2D copies: pitch %zu, %d wrong\n", pitch, wrong);
  CHECK_MUSA(musaFreeArray(arr));
  CHECK_MU(muMemFree(d2));

  // Mapped pinned memory written by a kernel; registered memory; flags.
  int *mapped = nullptr;
  CHECK_MU(muMemHostAlloc((void **)&mapped, 256 * sizeof(int), MU_MEMHOSTALLOC_DEVICEMAP));
  MUdeviceptr mappedDev = 0;
  CHECK_MU(muMemHostGetDevicePointer(&mappedDev, mapped, 0));
  unsigned hostFlags = 0;
  CHECK_MU(muMemHostGetFlags(&hostFlags, mapped));
  CHECK(hostFlags & MU_MEMHOSTALLOC_DEVICEMAP, "flags %u", hostFlags);
  fill<<<1, 256>>>((int *)mappedDev, 256, 5);
  CHECK_MU(muCtxSynchronize());
  CHECK(mapped[255] == 260, "mapped memory reads %d", mapped[255]);
  CHECK_MU(muMemFreeHost(mapped));
  std::vector<int> reg(1024);
  CHECK_MU(muMemHostRegister(reg.data(), reg.size() * sizeof(int), 0));
  unsigned memType = 0;
  CHECK_MU(muPointerGetAttribute(&memType, MU_POINTER_ATTRIBUTE_MEMORY_TYPE, (MUdeviceptr)reg.data()));
  CHECK(memType == MU_MEMORYTYPE_HOST, "registered memory has type %u", memType);
  CHECK_MU(muMemHostUnregister(reg.data()));

  // Managed memory; pointer attributes of device memory.
  MUdeviceptr managed = 0;
  CHECK_MU(muMemAllocManaged(&managed, 1024 * sizeof(int), MU_MEM_ATTACH_GLOBAL));
  fill<<<4, 256>>>((int *)managed, 1024, 0);
  CHECK_MU(muCtxSynchronize());
  CHECK(((int *)managed)[1023] == 1023, "managed reads %d", ((int *)managed)[1023]);
  unsigned isManaged = 0;
  CHECK_MU(muPointerGetAttribute(&isManaged, MU_POINTER_ATTRIBUTE_IS_MANAGED, managed));
  CHECK(isManaged == 1, "IS_MANAGED %u", isManaged);
  CHECK_MU(muMemFree(managed));
  MUdeviceptr dbuf = 0;
  CHECK_MU(muMemAlloc(&dbuf, 4096 * sizeof(int)));
  CHECK_MU(muPointerGetAttribute(&memType, MU_POINTER_ATTRIBUTE_MEMORY_TYPE, dbuf + 16));
  int ordinal = -1;
  CHECK_MU(muPointerGetAttribute(&ordinal, MU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, dbuf + 16));
  MUdeviceptr start = 0;
  CHECK_MU(muPointerGetAttribute(&start, MU_POINTER_ATTRIBUTE_RANGE_START_ADDR, dbuf + 16));
  CHECK(memType == MU_MEMORYTYPE_DEVICE && ordinal == 0 && start == dbuf,
        "device pointer: type %u ordinal %d start matches %d", memType, ordinal, int(start == dbuf));

  // Memsets in a stream, with callbacks and host functions in stream order.
  MUstream s;
  CHECK_MU(muStreamCreate(&s, MU_STREAM_NON_BLOCKING));
  unsigned sflags = 0;
  CHECK_MU(muStreamGetFlags(s, &sflags));
  CHECK(sflags == MU_STREAM_NON_BLOCKING, "stream flags %u", sflags);
  int tags[3] = {1, 2, 3};
  CHECK_MU(muMemsetD32Async(dbuf, 0x01020304u, 4096, s));
  CHECK_MU(muStreamAddCallback(s, callback, &tags[0], 0));
  CHECK_MU(muMemsetD16Async(dbuf + 8, 0xbeef, 4, s));
  CHECK_MU(muLaunchHostFunc(s, hostFn, &tags[1]));
  CHECK_MU(muMemsetD8Async(dbuf + 100, 0x7f, 3, s));
  CHECK_MU(muStreamAddCallback(s, callback, &tags[2], 0));
  CHECK_MU(muStreamSynchronize(s));
  unsigned words[27];
  CHECK_MU(muMemcpyDtoH(words, dbuf, sizeof words));
  CHECK(words[0] == 0x01020304u && words[2] == 0xbeefbeefu && words[3] == 0xbeefbeefu &&
            words[4] == 0x01020304u && words[25] == 0x017f7f7fu,
        "memsets: %08x %08x %08x %08x %08x", words[0], words[2], words[3], words[4], words[25]);
  CHECK(order.size() == 3 && order[0] == 1 && order[1] == 2 && order[2] == 3,
        "callbacks ran %zu times, first %d", order.size(), order.empty() ? 0 : order[0]);
  printf("stream: memsets and %zu callbacks in order\n", order.size());
  MUdeviceptr copy = 0;
  CHECK_MU(muMemAllocAsync(&copy, 4096 * sizeof(int), s));
  CHECK_MU(muMemcpyDtoDAsync(copy, dbuf, 4096 * sizeof(int), s));
  CHECK_MU(muMemcpyAsync(copy + 4, dbuf + 8, 4, s));
  CHECK_MU(muMemcpyDtoHAsync(words, copy, 8, s));
  CHECK_MU(muMemFreeAsync(copy, s));
  CHECK_MU(muStreamSynchronize(s));
  CHECK(words[0] == 0x01020304u && words[1] == 0xbeefbeefu, "async copies %08x %08x", words[0],
        words[1]);

  // An event orders two streams: the second reads what the first's kernel wrote.
  MUstream hi, lo;
  int least = 0, greatest = 0;
  CHECK_MU(muCtxGetStreamPriorityRange(&least, &greatest));
  CHECK_MU(muStreamCreateWithPriority(&hi, MU_STREAM_NON_BLOCKING, greatest));
  CHECK_MU(muStreamCreateWithPriority(&lo, MU_STREAM_NON_BLOCKING, least));
  int prio = 99;
  CHECK_MU(muStreamGetPriority(hi, &prio));
  CHECK(prio == greatest, "priority %d, expected %d", prio, greatest);
  MUevent ev;
  CHECK_MU(muEventCreate(&ev, MU_EVENT_DISABLE_TIMING));
  CHECK_MU(muMemsetD32(dbuf, 0, 4));
  spin<<<1, 1, 0, lo>>>((volatile int *)dbuf, (int *)dbuf + 1);
  CHECK_MU(muEventRecord(ev, lo));
  CHECK_MU(muStreamWaitEvent(hi, ev, 0));
  readAfter<<<1, 1, 0, hi>>>((const int *)dbuf + 1, (int *)dbuf + 2);
  CHECK_MU(muStreamSynchronize(hi));
  CHECK_MU(muMemcpyDtoH(words, dbuf, 12));
  CHECK(words[2] == 43, "the waiting stream read %u", words[2]);

  // A kernel handle: attributes, occupancy, a cooperative launch.
  MUfunction f;
  CHECK_MUSA(musaGetFuncBySymbol(&f, (const void *)fill));
  int maxThreads = 0, regs = -1;
  CHECK_MU(muFuncGetAttribute(&maxThreads, MU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
  CHECK_MU(muFuncGetAttribute(&regs, MU_FUNC_ATTRIBUTE_NUM_REGS, f));
  CHECK(maxThreads == 256, "max threads %d (launch bounds 256)", maxThreads);
  CHECK_MU(muFuncSetAttribute(f, MU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 << 10));
  int dyn = 0;
  CHECK_MU(muFuncGetAttribute(&dyn, MU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f));
  CHECK(dyn == 64 << 10, "max dynamic shared %d", dyn);
  CHECK_MU(muFuncSetCacheConfig(f, MU_FUNC_CACHE_PREFER_SHARED));
  int blocks = 0, rtBlocks = 0;
  CHECK_MU(muOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 128, 0));
  CHECK_MUSA(musaOccupancyMaxActiveBlocksPerMultiprocessor(&rtBlocks, fill, 128, 0));
  CHECK(blocks == rtBlocks && blocks > 0, "occupancy %d against the runtime's %d", blocks, rtBlocks);
  int minGrid = 0, block = 0, rtMinGrid = 0, rtBlock = 0;
  CHECK_MU(muOccupancyMaxPotentialBlockSize(&minGrid, &block, f, nullptr, 0, 0));
  CHECK_MUSA(musaOccupancyMaxPotentialBlockSize(&rtMinGrid, &rtBlock, fill, 0, 0));
  CHECK(block == rtBlock && minGrid == rtMinGrid && block <= 256,
        "potential block size %d/%d against %d/%d", block, minGrid, rtBlock, rtMinGrid);
  printf("kernel handle: max threads %d, occupancy %d blocks of 128, best block %d\n",
         maxThreads, blocks, block);
  int n = 512, base = 1000;
  int *dp = (int *)dbuf;
  void *params[] = {&dp, &n, &base};
  CHECK_MU(muLaunchCooperativeKernel(f, 2, 1, 1, 256, 1, 1, 0, s, params));
  CHECK_MU(muStreamSynchronize(s));
  CHECK_MU(muMemcpyDtoH(words, dbuf + 511 * 4, 4));
  CHECK(words[0] == 1511, "cooperative launch wrote %u", words[0]);

  // Context and device queries.
  unsigned api = 0;
  CHECK_MU(muCtxGetApiVersion(ctx, &api));
  CHECK(api == 3020, "API version %u", api);
  size_t heap = 0;
  CHECK_MU(muCtxSetLimit(MU_LIMIT_MALLOC_HEAP_SIZE, 16 << 20));
  CHECK_MU(muCtxGetLimit(&heap, MU_LIMIT_MALLOC_HEAP_SIZE));
  CHECK(heap >= (16u << 20), "heap limit %zu", heap);
  MUuuid uuid;
  musaDeviceProp prop;
  CHECK_MU(muDeviceGetUuid(&uuid, dev));
  CHECK_MUSA(musaGetDeviceProperties(&prop, 0));
  CHECK(memcmp(&uuid, &prop.uuid, sizeof uuid) == 0, "uuid differs from the runtime's");
  char bus[32] = {};
  CHECK_MU(muDeviceGetPCIBusId(bus, sizeof bus, dev));
  MUdevice again = -1;
  CHECK_MU(muDeviceGetByPCIBusId(&again, bus));
  CHECK(again == dev, "bus id %s names device %d", bus, again);
  int peer = -1;
  CHECK_MU(muDeviceCanAccessPeer(&peer, dev, dev));
  CHECK(peer == 0, "a device reports peer access to itself: %d", peer);
  printf("device: bus %s\n", bus);

  CHECK_MU(muMemFree(dbuf));
  CHECK_MU(muStreamDestroy(s));
  CHECK_MU(muStreamDestroy(hi));
  CHECK_MU(muStreamDestroy(lo));
  CHECK_MU(muEventDestroy(ev));
  return finish("driver_calls");
}

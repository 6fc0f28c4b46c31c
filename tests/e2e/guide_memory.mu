// The runtime guide's 内存管理 snippets: every allocation, copy, memset and pointer query form,
// with the data checked after each step.
#include "check.h"

__global__ void addOne(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += 1;
}

int main() {
  const size_t size = 1024 * sizeof(int);
  const size_t width = 64, height = 8, depth = 4, widthInBytes = width * sizeof(float);
  int deviceId = 0;
  musaStream_t stream;
  CHECK_MUSA(musaStreamCreate(&stream));

  // 设备内存分配
  void *d_data;
  CHECK_MUSA(musaMalloc(&d_data, size));
  void *d_array;
  size_t pitch;
  CHECK_MUSA(musaMallocPitch(&d_array, &pitch, widthInBytes, height));
  musaPitchedPtr pitchedPtr;
  musaExtent extent = make_musaExtent(widthInBytes, height, depth);
  CHECK_MUSA(musaMalloc3D(&pitchedPtr, extent));
  musaArray_t array;
  musaChannelFormatDesc desc = musaCreateChannelDesc(32, 0, 0, 0, musaChannelFormatKindFloat);
  CHECK_MUSA(musaMallocArray(&array, &desc, width, height, 0));

  // 主机内存分配
  void *h_data = malloc(size);
  void *h_pinned;
  CHECK_MUSA(musaMallocHost(&h_pinned, size));
  void *h_wc;
  CHECK_MUSA(musaHostAlloc(&h_wc, size, musaHostAllocWriteCombined));
  void *h_existing = malloc(size);
  CHECK_MUSA(musaHostRegister(h_existing, size, musaHostRegisterMapped));

  // 统一内存
  void *managed;
  CHECK_MUSA(musaMallocManaged(&managed, size, musaMemAttachGlobal));
  void *managedSingle = NULL;
  if (!onHardware()) // CUDA takes only Global or Host here; the guide also shows Single
    CHECK_MUSA(musaMallocManaged(&managedSingle, size, musaMemAttachSingle));
  CHECK_MUSA(musaMemPrefetchAsync(managed, size, deviceId, stream));
  CHECK_MUSA(musaMemAdvise(managed, size, musaMemAdviseSetPreferredLocation, deviceId));
  for (int i = 0; i < 1024; ++i)
    ((int *)managed)[i] = i;
  addOne<<<8, 128, 0, stream>>>((int *)managed, 1024);
  CHECK_MUSA(musaStreamSynchronize(stream));
  CHECK(((int *)managed)[1000] == 1001, "managed memory after kernel: %d", ((int *)managed)[1000]);

  // 内存拷贝: all four kinds
  int *h_src = (int *)h_data, *h_dst = (int *)h_pinned;
  for (int i = 0; i < 1024; ++i)
    h_src[i] = 3 * i;
  void *d_dst = d_data, *d_src;
  CHECK_MUSA(musaMalloc(&d_src, size));
  CHECK_MUSA(musaMemcpy(d_src, h_src, size, musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(d_dst, d_src, size, musaMemcpyDeviceToDevice));
  CHECK_MUSA(musaMemcpy(h_dst, d_dst, size, musaMemcpyDeviceToHost));
  CHECK(h_dst[777] == 3 * 777, "1D round trip");
  CHECK_MUSA(musaMemcpy(h_wc, h_dst, size, musaMemcpyHostToHost));
  CHECK(((int *)h_wc)[5] == 15, "host to host");

  // 2D 内存拷贝
  float *h2 = (float *)malloc(widthInBytes * height), *back2 = (float *)malloc(widthInBytes * height);
  for (size_t i = 0; i < width * height; ++i)
    h2[i] = float(i) * 0.5f;
  size_t srcPitch = widthInBytes, dstPitch = pitch;
  CHECK_MUSA(musaMemcpy2D(d_array, dstPitch, h2, srcPitch, widthInBytes, height,
                          musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy2D(back2, widthInBytes, d_array, pitch, widthInBytes, height,
                          musaMemcpyDeviceToHost));
  CHECK(memcmp(h2, back2, widthInBytes * height) == 0, "2D round trip");

  // 3D 内存拷贝
  size_t bytes3 = widthInBytes * height * depth;
  char *h3 = (char *)malloc(bytes3), *back3 = (char *)malloc(bytes3);
  for (size_t i = 0; i < bytes3; ++i)
    h3[i] = char(i * 7);
  musaMemcpy3DParms copyParams = {};
  copyParams.srcPtr = make_musaPitchedPtr(h3, widthInBytes, widthInBytes, height);
  copyParams.dstPtr = pitchedPtr;
  copyParams.extent = make_musaExtent(widthInBytes, height, depth);
  copyParams.kind = musaMemcpyHostToDevice;
  CHECK_MUSA(musaMemcpy3D(&copyParams));
  musaMemcpy3DParms backParams = {};
  backParams.srcPtr = pitchedPtr;
  backParams.dstPtr = make_musaPitchedPtr(back3, widthInBytes, widthInBytes, height);
  backParams.extent = copyParams.extent;
  backParams.kind = musaMemcpyDeviceToHost;
  CHECK_MUSA(musaMemcpy3D(&backParams));
  CHECK(memcmp(h3, back3, bytes3) == 0, "3D round trip");

  // 异步内存拷贝 and P2P copies (device 1 exists: MUSA_SIM_DEVICE_COUNT=2)
  CHECK_MUSA(musaMemcpyAsync(d_dst, h_src, size, musaMemcpyHostToDevice, stream));
  int devices = 0;
  musaGetDeviceCount(&devices);
  // One GPU on the hardware: the peer is device 0 itself.
  const int peer = devices > 1 ? 1 : 0;
  void *d_peer;
  CHECK_MUSA(musaSetDevice(peer));
  CHECK_MUSA(musaMalloc(&d_peer, size));
  CHECK_MUSA(musaSetDevice(0));
  CHECK_MUSA(musaStreamSynchronize(stream));
  CHECK_MUSA(musaMemcpyPeer(d_peer, peer, d_src, 0, size));
  CHECK_MUSA(musaMemcpyPeerAsync(d_dst, 0, d_peer, peer, size, stream));
  CHECK_MUSA(musaStreamSynchronize(stream));
  CHECK_MUSA(musaMemcpy(h_dst, d_dst, size, musaMemcpyDeviceToHost));
  CHECK(h_dst[1023] == 3 * 1023, "peer round trip");

  // 内存设置
  CHECK_MUSA(musaMemset(d_data, 0x7f, size));
  CHECK_MUSA(musaMemset2D(d_array, pitch, 0, widthInBytes, height));
  CHECK_MUSA(musaMemset(d_data, 0, size));
  CHECK_MUSA(musaMemcpy(h_dst, d_data, size, musaMemcpyDeviceToHost));
  CHECK(h_dst[100] == 0, "memset to zero");

  // 指针查询
  void *ptr = d_data;
  musaPointer_attribute attr = MUSA_POINTER_ATTRIBUTE_DEVICE_POINTER;
  void *value;
  CHECK_MUSA(musaPointerGetAttribute(&value, attr, ptr));
  musaMemoryType memType;
  CHECK_MUSA(musaPointerGetMemoryType(&memType, ptr));
  int device;
  CHECK_MUSA(musaPointerGetDevice(&device, ptr));
  CHECK(value == ptr && memType == musaMemoryTypeDevice && device == 0, "pointer queries");

  // 内存释放
  CHECK_MUSA(musaFree(d_data));
  CHECK_MUSA(musaFreeHost(h_pinned));
  CHECK_MUSA(musaMemHostUnregister(h_existing));
  CHECK_MUSA(musaFreeHost(h_wc));
  CHECK_MUSA(musaFreeArray(array));
  CHECK_MUSA(musaFree(pitchedPtr.ptr));
  CHECK_MUSA(musaFree(d_array));
  CHECK_MUSA(musaFree(managed));
  CHECK_MUSA(musaFree(managedSingle));
  CHECK_MUSA(musaFree(d_src));
  CHECK_MUSA(musaStreamDestroy(stream));
  free(h_data);
  free(h_existing);
  free(h2);
  free(back2);
  free(h3);
  free(back3);
  return finish("guide_memory");
}

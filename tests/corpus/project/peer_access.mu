// Peer access between two devices (simpleP2P's shape): musaDeviceCanAccessPeer, enabling twice
// (musaErrorPeerAccessAlreadyEnabled), disabling twice (musaErrorPeerAccessNotEnabled), bad flags,
// musaMemcpyPeer/PeerAsync and musaMemcpyDefault between devices, and kernels on one device
// reading and writing the other's memory. Needs two devices (MUSA_SIM_PROFILE=h200,h200); with one
// device it checks the single-device answers only.
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)
#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      printf("mismatch %s:%d: %s\n", __FILE__, __LINE__, #cond);       \
      ok = false;                                                      \
    }                                                                  \
  } while (0)

__global__ void addFrom(const float *peerSrc, float *dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = peerSrc[i] * 2.0f + 1.0f;
}
__global__ void writePeer(float *peerDst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) peerDst[i] = -(float)i;
}

int main() {
  bool ok = true;
  int ndev = 0;
  CHECK(musaGetDeviceCount(&ndev));
  int can = -1;
  CHECK(musaDeviceCanAccessPeer(&can, 0, 0));
  printf("devices %d, canAccessPeer(0,0) = %d\n", ndev, can);
  EXPECT(musaDeviceCanAccessPeer(&can, 0, ndev) == musaErrorInvalidDevice);
  EXPECT(musaDeviceCanAccessPeer(nullptr, 0, 0) == musaErrorInvalidValue);
  musaGetLastError();
  EXPECT(musaDeviceDisablePeerAccess(0) != musaSuccess); // self was never enabled
  musaGetLastError();
  if (ndev < 2) {
    printf("peer_access: %s (one device)\n", ok ? "PASSED" : "FAILED");
    return ok ? 0 : 1;
  }
  int can01 = 0, can10 = 0;
  CHECK(musaDeviceCanAccessPeer(&can01, 0, 1));
  CHECK(musaDeviceCanAccessPeer(&can10, 1, 0));
  EXPECT(can01 == 1 && can10 == 1);

  const int n = 4096;
  const size_t bytes = n * sizeof(float);
  float *h = (float *)malloc(bytes), *back = (float *)malloc(bytes);
  for (int i = 0; i < n; ++i) h[i] = (float)i * 0.5f;
  float *d0, *d1;
  CHECK(musaSetDevice(0));
  CHECK(musaMalloc(&d0, bytes));
  CHECK(musaMemcpy(d0, h, bytes, musaMemcpyHostToDevice));
  CHECK(musaSetDevice(1));
  CHECK(musaMalloc(&d1, bytes));

  // Copies between devices do not need peer access.
  CHECK(musaMemcpyPeer(d1, 1, d0, 0, bytes));
  CHECK(musaMemcpy(back, d1, bytes, musaMemcpyDeviceToHost));
  EXPECT(memcmp(back, h, bytes) == 0);
  EXPECT(musaMemcpyPeer(d1, 1, d0, 7, bytes) == musaErrorInvalidDevice);
  musaGetLastError();

  // Enable 1 -> 0 (device 1 may access device 0's memory).
  CHECK(musaDeviceEnablePeerAccess(0, 0));
  EXPECT(musaDeviceEnablePeerAccess(0, 0) == musaErrorPeerAccessAlreadyEnabled);
  EXPECT(musaGetLastError() == musaErrorPeerAccessAlreadyEnabled);
  EXPECT(musaGetLastError() == musaSuccess);
  EXPECT(musaDeviceEnablePeerAccess(0, 1) == musaErrorInvalidValue); // flags must be 0
  musaGetLastError();
  EXPECT(musaDeviceEnablePeerAccess(5, 0) == musaErrorInvalidDevice);
  musaGetLastError();

  // Kernel on device 1 reads device 0's memory.
  addFrom<<<(n + 255) / 256, 256>>>(d0, d1, n);
  CHECK(musaGetLastError());
  CHECK(musaDeviceSynchronize());
  CHECK(musaMemcpy(back, d1, bytes, musaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += back[i] != h[i] * 2.0f + 1.0f;
  EXPECT(bad == 0);
  // ... and writes it.
  writePeer<<<(n + 255) / 256, 256>>>(d0, n);
  CHECK(musaDeviceSynchronize());
  CHECK(musaSetDevice(0));
  CHECK(musaMemcpy(back, d0, bytes, musaMemcpyDeviceToHost));
  bad = 0;
  for (int i = 0; i < n; ++i) bad += back[i] != -(float)i;
  EXPECT(bad == 0);

  // Async peer copy on a stream of device 0, and a default-kind copy device 1 -> device 0.
  musaStream_t s0;
  CHECK(musaStreamCreate(&s0));
  CHECK(musaMemcpyPeerAsync(d0, 0, d1, 1, bytes / 2, s0));
  CHECK(musaStreamSynchronize(s0));
  CHECK(musaMemcpy(back, d0, bytes, musaMemcpyDeviceToHost));
  EXPECT(back[10] == h[10] * 2.0f + 1.0f && back[n - 1] == -(float)(n - 1));
  CHECK(musaMemcpy(d0, d1, bytes, musaMemcpyDefault));
  CHECK(musaMemcpy(back, d0, bytes, musaMemcpyDeviceToHost));
  EXPECT(back[n - 1] == h[n - 1] * 2.0f + 1.0f);
  // A copy to/from another device with an explicit DeviceToDevice kind also works under UVA.
  CHECK(musaMemcpy(d1, d0, 16, musaMemcpyDeviceToDevice));

  // Disable from device 1, twice.
  CHECK(musaSetDevice(1));
  CHECK(musaDeviceDisablePeerAccess(0));
  EXPECT(musaDeviceDisablePeerAccess(0) == musaErrorPeerAccessNotEnabled);
  musaGetLastError();
  // Device 0 never enabled access to device 1.
  CHECK(musaSetDevice(0));
  EXPECT(musaDeviceDisablePeerAccess(1) == musaErrorPeerAccessNotEnabled);
  musaGetLastError();
  // Re-enable works after a disable.
  CHECK(musaDeviceEnablePeerAccess(1, 0));
  CHECK(musaDeviceDisablePeerAccess(1));

  CHECK(musaStreamDestroy(s0));
  CHECK(musaFree(d0));
  CHECK(musaSetDevice(1));
  CHECK(musaFree(d1));
  free(h);
  free(back);
  printf("peer_access: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

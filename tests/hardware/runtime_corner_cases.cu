// Probe of CUDA runtime corner cases on real hardware (run with nvcc on the device machine);
// the simulator's error codes follow what this prints. Output: one "case: result" per line.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "probe.h"

__global__ void noop() {}

int main() {
  void *p = nullptr, *d = nullptr;
  size_t pitch = 0;
  cudaMalloc(&d, 256);
  SHOW("mallocPitch width 0", cudaMallocPitch(&p, &pitch, 0, 10));
  std::printf("mallocPitch width 0 ptr null: %d pitch %zu\n", p == nullptr, pitch);
  SHOW("mallocPitch height 0", cudaMallocPitch(&p, &pitch, 10, 0));
  SHOW("mallocPitch 100x7", cudaMallocPitch(&p, &pitch, 100, 7));
  std::printf("mallocPitch 100 pitch: %zu\n", pitch);
  SHOW("free interior pointer", cudaFree((char *)d + 1));
  int host[64];
  SHOW("free host pointer", cudaFree(host));
  void *e = nullptr;
  cudaMalloc(&e, 64);
  cudaFree(e);
  SHOW("double free", cudaFree(e));
  SHOW("memcpy H2D into host memory", cudaMemcpy(host, host + 32, 16, cudaMemcpyHostToDevice));
  SHOW("memcpy kind 17", cudaMemcpy(d, host, 16, (cudaMemcpyKind)17));
  SHOW("memcpy null dst", cudaMemcpy(nullptr, host, 16, cudaMemcpyHostToDevice));
  SHOW("memset host pointer", cudaMemset(host, 0, 16));
  SHOW("malloc managed size 0", cudaMallocManaged(&p, 0));
  SHOW("malloc managed AttachSingle", cudaMallocManaged(&p, 64, cudaMemAttachSingle));
  SHOW("malloc managed flags 0x10", cudaMallocManaged(&p, 64, 0x10));
  cudaEvent_t a, b, dt;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  float ms;
  SHOW("elapsed unrecorded", cudaEventElapsedTime(&ms, a, b));
  cudaEventCreateWithFlags(&dt, cudaEventDisableTiming);
  cudaEventRecord(a);
  cudaEventRecord(dt);
  cudaDeviceSynchronize();
  SHOW("elapsed disable timing", cudaEventElapsedTime(&ms, a, dt));
  SHOW("query unrecorded", cudaEventQuery(b));
  SHOW("stream wait event flags 4", cudaStreamWaitEvent(0, a, 4));
  SHOW("event interprocess without disable timing",
       cudaEventCreateWithFlags(&b, cudaEventInterprocess));
  cudaPointerAttributes attr;
  SHOW("attributes of host stack", cudaPointerGetAttributes(&attr, host));
  std::printf("host stack type %d device %d devptr %p hostptr-is-ptr %d\n", (int)attr.type,
              attr.device, attr.devicePointer, attr.hostPointer == host);
  SHOW("attributes of freed", cudaPointerGetAttributes(&attr, e));
  std::printf("freed type %d\n", (int)attr.type);
  SHOW("attributes of null", cudaPointerGetAttributes(&attr, nullptr));
  SHOW("host get device pointer unregistered", cudaHostGetDevicePointer(&p, host, 0));
  SHOW("host register", cudaHostRegister(host, sizeof host, 0));
  SHOW("host register twice", cudaHostRegister(host, sizeof host, 0));
  SHOW("host unregister", cudaHostUnregister(host));
  SHOW("host unregister again", cudaHostUnregister(host));
  cudaIpcMemHandle_t h;
  SHOW("ipc get mem handle", cudaIpcGetMemHandle(&h, d));
  SHOW("ipc open own handle", cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess));
  noop<<<1, 1025>>>();
  std::printf("launch 1025 threads: %s\n", cudaGetErrorName(cudaGetLastError()));
  noop<<<dim3(1, 0, 1), 32>>>();
  std::printf("launch zero grid: %s\n", cudaGetErrorName(cudaGetLastError()));
  noop<<<1, 32, 1 << 30>>>();
  std::printf("launch huge shared: %s\n", cudaGetErrorName(cudaGetLastError()));
  int least = 7, greatest = 7;
  cudaDeviceGetStreamPriorityRange(&least, &greatest);
  std::printf("priority range: %d %d\n", least, greatest);
  SHOW("set device flags spin|yield", cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield));
  SHOW("memcpy2D width > pitch", cudaMemcpy2D(d, 16, host, 32, 32, 2, cudaMemcpyHostToDevice));
  int v;
  SHOW("get attribute 9999", cudaDeviceGetAttribute(&v, (cudaDeviceAttr)9999, 0));
  cudaPitchedPtr pp;
  SHOW("malloc3D zero extent", cudaMalloc3D(&pp, make_cudaExtent(0, 0, 0)));
  SHOW("memcpy peer same device", cudaMemcpyPeer(d, 0, d, 0, 16));
  SHOW("stream destroy 0", cudaStreamDestroy(0));
  SHOW("event destroy null", cudaEventDestroy(nullptr));
  SHOW("malloc huge", cudaMalloc(&p, (size_t)1 << 50));
  SHOW("set device 99", cudaSetDevice(99));
  SHOW("malloc host flags 0x80", cudaHostAlloc(&p, 64, 0x80));
  unsigned flags = 0;
  cudaGetDeviceFlags(&flags);
  std::printf("default device flags: %#x\n", flags);
  return 0;
}

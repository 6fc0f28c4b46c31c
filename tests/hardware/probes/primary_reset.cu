// Driver-API primary-context corner cases (CUDA; run on the device machine):
//   nvcc tests/hardware/probes/primary_reset.cu -lcuda -o /tmp/pr && /tmp/pr
// What cuDevicePrimaryCtxGetState reports after retain, set flags and reset, and what
// cuCtxGetFlags gives for a context created with flags 0.
#include <cstdio>
#include <cuda.h>

int main() {
  cuInit(0);
  CUdevice dev;
  cuDeviceGet(&dev, 0);
  unsigned flags = 0;
  int active = -1;
  cuDevicePrimaryCtxGetState(dev, &flags, &active);
  std::printf("initial: flags=%u active=%d\n", flags, active);
  CUcontext ctx;
  std::printf("create: %d\n", int(cuCtxCreate(&ctx, nullptr, 0, dev)));
  unsigned cflags = 99;
  std::printf("ctxGetFlags: %d flags=%u\n", int(cuCtxGetFlags(&cflags)), cflags);
  cuCtxDestroy(ctx);
  std::printf("setFlags: %d\n", int(cuDevicePrimaryCtxSetFlags(dev, CU_CTX_SCHED_BLOCKING_SYNC)));
  cuDevicePrimaryCtxGetState(dev, &flags, &active);
  std::printf("after setFlags: flags=%u active=%d\n", flags, active);
  CUcontext primary;
  cuDevicePrimaryCtxRetain(&primary, dev);
  cuDevicePrimaryCtxGetState(dev, &flags, &active);
  std::printf("after retain: flags=%u active=%d\n", flags, active);
  cuCtxPushCurrent(primary);
  CUdeviceptr p;
  std::printf("alloc: %d\n", int(cuMemAlloc(&p, 64)));
  CUcontext popped;
  cuCtxPopCurrent(&popped);
  std::printf("reset: %d\n", int(cuDevicePrimaryCtxReset(dev)));
  cuDevicePrimaryCtxGetState(dev, &flags, &active);
  std::printf("after reset: flags=%u active=%d\n", flags, active);
  std::printf("release after reset: %d\n", int(cuDevicePrimaryCtxRelease(dev)));
  cuDevicePrimaryCtxGetState(dev, &flags, &active);
  std::printf("after release: flags=%u active=%d\n", flags, active);
  return 0;
}

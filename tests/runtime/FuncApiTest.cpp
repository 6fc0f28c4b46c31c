// musaGetFuncBySymbol: the driver-API handle (musaFunction_t, musa.h's MUfunction) of a kernel
// given its host-side symbol. This suite compiles no device code, so its "kernels" are host
// functions registered as the host code clang and mcc emit registers __global__ functions,
// against an image that holds no device code: looking one up by its symbol works, and a
// launch reaches the kernel and fails to compile it (musaErrorInvalidKernel), where an address
// that is no kernel is refused as such.
#include "musa.h"
#include "musa_runtime.h"

#include <gtest/gtest.h>

extern "C" {
// The registration entry points of libmusart (FatBinaryRegistry.cpp).
void **__musaRegisterFatBinary(const void *wrapper);
int __musaRegisterFunction(void **handle, const void *hostStub, char *deviceFun,
                           const char *deviceName, int limit, void *a, void *b, void *c,
                           void *d, int *e);
}

namespace {

void kernelA() {}
void kernelB() {}
void notAKernel() {}

const void *symbol(void (*f)()) { return reinterpret_cast<const void *>(f); }
void *raw(musaFunction_t f) { return static_cast<void *>(f); }

/// Registers kernelA and kernelB once, with the fat-binary wrapper clang emits: {magic,
/// version, data, unused}, its data here no device image.
void registerKernels() {
  static const bool done = [] {
    struct Wrapper {
      int magic;
      int version;
      const void *data;
      const void *unused;
    };
    alignas(8) static const char notDeviceCode[64] = {};
    static const Wrapper wrapper = {0x466243b1, 1, notDeviceCode, nullptr};
    void **handle = __musaRegisterFatBinary(&wrapper);
    static char nameA[] = "kernelA", nameB[] = "kernelB";
    __musaRegisterFunction(handle, symbol(kernelA), nameA, nameA, -1, nullptr, nullptr, nullptr,
                           nullptr, nullptr);
    __musaRegisterFunction(handle, symbol(kernelB), nameB, nameB, -1, nullptr, nullptr, nullptr,
                           nullptr, nullptr);
    return true;
  }();
  (void)done;
}

} // namespace

TEST(FuncApi, GetFuncBySymbolGivesOneStableHandlePerKernel) {
  registerKernels();
  musaFunction_t a = nullptr, again = nullptr, b = nullptr;
  ASSERT_EQ(musaGetFuncBySymbol(&a, symbol(kernelA)), musaSuccess);
  ASSERT_EQ(musaGetFuncBySymbol(&again, symbol(kernelA)), musaSuccess);
  ASSERT_EQ(musaGetFuncBySymbol(&b, symbol(kernelB)), musaSuccess);
  EXPECT_NE(raw(a), nullptr);
  EXPECT_NE(raw(b), nullptr);
  EXPECT_EQ(raw(a), raw(again));
  EXPECT_NE(raw(a), raw(b));
  // The C++ form taking the kernel itself gives the same handle.
  musaFunction_t viaKernel = nullptr;
  ASSERT_EQ(musaGetFuncBySymbol(&viaKernel, kernelB), musaSuccess);
  EXPECT_EQ(raw(viaKernel), raw(b));
  // musa.h's MUfunction is the same type.
  MUfunction driverHandle = a;
  EXPECT_EQ(static_cast<void *>(driverHandle), raw(a));
  EXPECT_EQ(musaGetLastError(), musaSuccess);
}

TEST(FuncApi, GetFuncBySymbolRefusesWhatIsNoKernel) {
  registerKernels();
  musaFunction_t f = nullptr;
  EXPECT_EQ(musaGetFuncBySymbol(nullptr, symbol(kernelA)), musaErrorInvalidValue);
  EXPECT_EQ(musaGetFuncBySymbol(&f, symbol(notAKernel)), musaErrorInvalidDeviceFunction);
  EXPECT_EQ(raw(f), nullptr); // not written
  EXPECT_EQ(musaGetFuncBySymbol(&f, nullptr), musaErrorInvalidDeviceFunction);
  static char hostData[16];
  EXPECT_EQ(musaGetFuncBySymbol(&f, static_cast<const void *>(hostData)),
            musaErrorInvalidDeviceFunction);
  EXPECT_EQ(raw(f), nullptr);
  EXPECT_EQ(musaGetLastError(), musaErrorInvalidDeviceFunction);
  EXPECT_EQ(musaGetLastError(), musaSuccess);
}

TEST(FuncApi, HandleNamesItsKernelToTheRuntimesKernelCalls) {
  registerKernels();
  musaFunction_t a = nullptr;
  ASSERT_EQ(musaGetFuncBySymbol(&a, symbol(kernelA)), musaSuccess);
  const void *handle = static_cast<const void *>(a);
  // The kernel is found (and its image fails to compile), as for the symbol itself...
  EXPECT_EQ(musaLaunchKernel(handle, dim3(1), dim3(32), nullptr, 0, nullptr),
            musaErrorInvalidKernel);
  EXPECT_EQ(musaLaunchKernel(symbol(kernelA), dim3(1), dim3(32), nullptr, 0, nullptr),
            musaErrorInvalidKernel);
  musaFuncAttributes attr;
  EXPECT_EQ(musaFuncGetAttributes(&attr, handle), musaErrorInvalidKernel);
  // ...where an address that is no kernel is refused as no kernel.
  EXPECT_EQ(musaLaunchKernel(symbol(notAKernel), dim3(1), dim3(32), nullptr, 0, nullptr),
            musaErrorInvalidDeviceFunction);
  musaGetLastError();
}

TEST(FuncApi, DriverLaunchTakesTheHandle) {
  registerKernels();
  musaFunction_t a = nullptr;
  ASSERT_EQ(musaGetFuncBySymbol(&a, symbol(kernelA)), musaSuccess);
  ASSERT_EQ(muInit(0), MUSA_SUCCESS);
  MUcontext primary = nullptr, popped = nullptr;
  ASSERT_EQ(muDevicePrimaryCtxRetain(&primary, 0), MUSA_SUCCESS);
  ASSERT_EQ(muCtxPushCurrent(primary), MUSA_SUCCESS);
  // muLaunchKernel reaches the kernel: its image is no device code (the driver's invalid
  // image), through kernelParams and through `extra` alike...
  EXPECT_EQ(muLaunchKernel(a, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr),
            MUSA_ERROR_INVALID_IMAGE);
  size_t size = 0;
  void *extra[] = {MU_LAUNCH_PARAM_BUFFER_POINTER, nullptr, MU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   MU_LAUNCH_PARAM_END};
  EXPECT_EQ(muLaunchKernel(a, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, extra),
            MUSA_ERROR_INVALID_IMAGE);
  // ...and a handle that names no kernel is an invalid handle.
  MUfunction bogus = reinterpret_cast<MUfunction>(const_cast<void *>(symbol(notAKernel)));
  EXPECT_EQ(muLaunchKernel(bogus, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr),
            MUSA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(muCtxPopCurrent(&popped), MUSA_SUCCESS);
  EXPECT_EQ(popped, primary);
  EXPECT_EQ(muDevicePrimaryCtxRelease(0), MUSA_SUCCESS);
  musaGetLastError();
}

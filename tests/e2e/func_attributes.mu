// Kernel function attributes and the launch limits they set, as the H200 answers them
// (listing: func_attributes.h200.txt; the simulator's, with MUSA_SIM_PROFILE=h200, must equal
// it but for the lines that name figures the simulator does not have: registers, PTX version,
// constant and local sizes, clusters):
//   nvcc -O2 -arch=sm_90 -x cu -include tests/hardware/probes/musa_to_cuda.h \
//        tests/e2e/func_attributes.mu -o func && ./func
#include <cstdio>
#include <cstring>

__global__ void plain(int *out) { out[threadIdx.x] = threadIdx.x; }
__global__ void withStatic(int *out) {
  __shared__ int tile[1024]; // 4 KiB
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}
__global__ void __launch_bounds__(128) bounded(int *out) { out[threadIdx.x] = 1; }
__global__ void dynamic(int *out) {
  extern __shared__ int buffer[];
  buffer[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = buffer[threadIdx.x];
}

#define SHOW(name, expr)                                                                     \
  do {                                                                                       \
    musaError_t e_ = (expr);                                                                 \
    std::printf("%s: %s\n", name, musaGetErrorName(e_));                                     \
    musaGetLastError();                                                                      \
  } while (0)

template <class K> void attributes(const char *name, K kernel) {
  musaFuncAttributes a;
  std::memset(&a, 0, sizeof a);
  SHOW(name, musaFuncGetAttributes(&a, kernel));
  std::printf("%s: shared %zu maxThreads %d maxDynamicShared %d carveout %d cacheModeCA %d\n",
              name, a.sharedSizeBytes, a.maxThreadsPerBlock, a.maxDynamicSharedSizeBytes,
              a.preferredShmemCarveout, a.cacheModeCA);
  std::printf("figures %s: regs %d ptx %d binary %d const %zu local %zu\n", name, a.numRegs,
              a.ptxVersion, a.binaryVersion, a.constSizeBytes, a.localSizeBytes);
}

musaError_t launch(void (*kernel)(int *), int threads, size_t shared, int *out) {
  kernel<<<1, threads, shared>>>(out);
  musaError_t e = musaGetLastError();
  musaError_t s = musaDeviceSynchronize();
  return e ? e : s;
}

int main() {
  int *out = nullptr;
  musaMalloc(&out, 1 << 20);
  musaDeviceProp prop;
  musaGetDeviceProperties(&prop, 0);
  std::printf("device: sharedMemPerBlock %zu optin %zu\n", prop.sharedMemPerBlock,
              prop.sharedMemPerBlockOptin);
  const int optin = int(prop.sharedMemPerBlockOptin);

  attributes("plain", plain);
  attributes("withStatic", withStatic);
  attributes("bounded", bounded);
  attributes("dynamic", dynamic);

  SHOW("launch dynamic 48K", launch(dynamic, 256, 48 * 1024, out));
  SHOW("launch dynamic 48K+4", launch(dynamic, 256, 48 * 1024 + 4, out));
  SHOW("set dynamic 64K", musaFuncSetAttribute(dynamic, musaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
  SHOW("launch dynamic 64K", launch(dynamic, 256, 64 * 1024, out));
  SHOW("launch dynamic 64K+4", launch(dynamic, 256, 64 * 1024 + 4, out));
  SHOW("set dynamic optin", musaFuncSetAttribute(dynamic, musaFuncAttributeMaxDynamicSharedMemorySize, optin));
  SHOW("launch dynamic optin", launch(dynamic, 256, optin, out));
  SHOW("set dynamic optin+1", musaFuncSetAttribute(dynamic, musaFuncAttributeMaxDynamicSharedMemorySize, optin + 1));
  SHOW("set dynamic -1", musaFuncSetAttribute(dynamic, musaFuncAttributeMaxDynamicSharedMemorySize, -1));
  SHOW("set dynamic 16K", musaFuncSetAttribute(dynamic, musaFuncAttributeMaxDynamicSharedMemorySize, 16 * 1024));
  SHOW("launch dynamic 32K after 16K", launch(dynamic, 256, 32 * 1024, out));
  attributes("dynamic after", dynamic);
  SHOW("static set optin-4K", musaFuncSetAttribute(withStatic, musaFuncAttributeMaxDynamicSharedMemorySize, optin - 4096));
  SHOW("static set optin-4K+4", musaFuncSetAttribute(withStatic, musaFuncAttributeMaxDynamicSharedMemorySize, optin - 4096 + 4));
  SHOW("static launch 44K dynamic", launch(withStatic, 256, 44 * 1024, out));
  SHOW("bounded 128", launch(bounded, 128, 0, out));
  SHOW("bounded 129", launch(bounded, 129, 0, out));
  SHOW("bounded 256", launch(bounded, 256, 0, out));
  SHOW("carveout 50", musaFuncSetAttribute(plain, musaFuncAttributePreferredSharedMemoryCarveout, 50));
  SHOW("carveout 101", musaFuncSetAttribute(plain, musaFuncAttributePreferredSharedMemoryCarveout, 101));
  SHOW("carveout -2", musaFuncSetAttribute(plain, musaFuncAttributePreferredSharedMemoryCarveout, -2));
  attributes("plain after", plain);
  SHOW("attribute 3", musaFuncSetAttribute(plain, musaFuncAttribute(3), 1));
  SHOW("attribute 99", musaFuncSetAttribute(plain, musaFuncAttribute(99), 1));
  SHOW("cache PreferShared", musaFuncSetCacheConfig(plain, musaFuncCachePreferShared));
  SHOW("cache 7", musaFuncSetCacheConfig(plain, musaFuncCache(7)));
  SHOW("bank EightByte", musaFuncSetSharedMemConfig(plain, musaSharedMemBankSizeEightByte));
  SHOW("bank 5", musaFuncSetSharedMemConfig(plain, musaSharedMemConfig(5)));
  SHOW("attributes null", musaFuncGetAttributes(nullptr, plain));
  musaFuncAttributes a;
  SHOW("attributes of a host function", musaFuncGetAttributes(&a, reinterpret_cast<const void *>(&launch)));
  SHOW("set of a host function", musaFuncSetAttribute(reinterpret_cast<const void *>(&launch), musaFuncAttributeMaxDynamicSharedMemorySize, 1024));
  const char *name = nullptr;
  SHOW("name", musaFuncGetName(&name, plain));
  std::printf("name of plain: %s\n", name ? name : "(null)");
  musaFuncCache cache;
  SHOW("device cache get", musaDeviceGetCacheConfig(&cache));
  std::printf("device cache: %d\n", int(cache));
  SHOW("device cache set L1", musaDeviceSetCacheConfig(musaFuncCachePreferL1));
  SHOW("device cache get again", musaDeviceGetCacheConfig(&cache));
  std::printf("device cache: %d\n", int(cache));
  SHOW("device cache 9", musaDeviceSetCacheConfig(musaFuncCache(9)));
  musaSharedMemConfig bank;
  SHOW("device bank get", musaDeviceGetSharedMemConfig(&bank));
  std::printf("device bank: %d\n", int(bank));
  std::printf("func_attributes: done\n");
  return 0;
}

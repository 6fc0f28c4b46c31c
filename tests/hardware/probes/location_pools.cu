// CUDA 13's location-based pool calls (cudaMemGetDefaultMemPool, cudaMemGetMemPool,
// cudaMemSetMemPool) against the device-based ones, on a GPU (hw-session19.sh's third run).
#include <cstdio>

static const char *same(cudaMemPool_t a, cudaMemPool_t b) { return a == b ? "same" : "different"; }

int main() {
  setvbuf(stdout, nullptr, _IONBF, 0);
  cudaSetDevice(0);
  cudaMemPool_t def = nullptr, cur = nullptr, p = nullptr;
  cudaDeviceGetDefaultMemPool(&def, 0);
  cudaDeviceGetMemPool(&cur, 0);
  cudaMemLocation dev = {cudaMemLocationTypeDevice, 0};
  cudaError_t e = cudaMemGetDefaultMemPool(&p, &dev, cudaMemAllocationTypePinned);
  printf("GetDefault(device 0, pinned): %s, %s as DeviceGetDefaultMemPool\n", cudaGetErrorName(e),
         same(p, def));
  e = cudaMemGetMemPool(&p, &dev, cudaMemAllocationTypePinned);
  printf("Get(device 0, pinned): %s, %s as DeviceGetMemPool\n", cudaGetErrorName(e), same(p, cur));
  cudaMemLocation bad = {cudaMemLocationTypeDevice, 7};
  printf("GetDefault(device 7): %s\n",
         cudaGetErrorName(cudaMemGetDefaultMemPool(&p, &bad, cudaMemAllocationTypePinned)));
  cudaGetLastError();
  printf("GetDefault(null pool): %s\n",
         cudaGetErrorName(cudaMemGetDefaultMemPool(nullptr, &dev, cudaMemAllocationTypePinned)));
  cudaGetLastError();
  printf("GetDefault(null location): %s\n",
         cudaGetErrorName(cudaMemGetDefaultMemPool(&p, nullptr, cudaMemAllocationTypePinned)));
  cudaGetLastError();
  printf("GetDefault(device 0, type invalid): %s\n",
         cudaGetErrorName(cudaMemGetDefaultMemPool(&p, &dev, cudaMemAllocationTypeInvalid)));
  cudaGetLastError();
  cudaMemPool_t managed = nullptr;
  e = cudaMemGetDefaultMemPool(&managed, &dev, cudaMemAllocationTypeManaged);
  printf("GetDefault(device 0, managed): %s %s\n", cudaGetErrorName(e), managed ? "pool" : "null");
  cudaGetLastError();
  cudaMemLocation host = {cudaMemLocationTypeHost, 0};
  cudaMemPool_t hostPool = nullptr;
  e = cudaMemGetDefaultMemPool(&hostPool, &host, cudaMemAllocationTypePinned);
  printf("GetDefault(host, pinned): %s %s\n", cudaGetErrorName(e), hostPool ? "pool" : "null");
  cudaGetLastError();
  e = cudaMemGetMemPool(&p, &host, cudaMemAllocationTypePinned);
  printf("Get(host, pinned): %s, %s as the host default\n", cudaGetErrorName(e), same(p, hostPool));
  cudaGetLastError();
  cudaMemLocation numa = {cudaMemLocationTypeHostNuma, 0};
  e = cudaMemGetDefaultMemPool(&p, &numa, cudaMemAllocationTypePinned);
  printf("GetDefault(host numa 0, pinned): %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  // A pool of our own as device 0's current pool, through the location call.
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location = dev;
  cudaMemPool_t mine = nullptr;
  cudaMemPoolCreate(&mine, &props);
  e = cudaMemSetMemPool(&dev, cudaMemAllocationTypePinned, mine);
  cudaDeviceGetMemPool(&cur, 0);
  printf("Set(device 0, pinned, mine): %s; DeviceGetMemPool %s as mine\n", cudaGetErrorName(e),
         same(cur, mine));
  e = cudaMemSetMemPool(&bad, cudaMemAllocationTypePinned, mine);
  printf("Set(device 7): %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaMemSetMemPool(&dev, cudaMemAllocationTypePinned, nullptr);
  printf("Set(device 0, null pool): %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  if (hostPool) {
    e = cudaMemSetMemPool(&dev, cudaMemAllocationTypePinned, hostPool);
    printf("Set(device 0, the host pool): %s\n", cudaGetErrorName(e));
    cudaGetLastError();
  }
  cudaDeviceSetMemPool(0, def);
  cudaMemPoolDestroy(mine);
  return 0;
}

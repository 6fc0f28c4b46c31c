#include <cstdio>
#include <cuda_runtime.h>
int main() {
  float *data; size_t n = 1 << 20;
  cudaMallocManaged(&data, n * sizeof(float));
  cudaMemLocation noDevice = {cudaMemLocationTypeDevice, 99};
  cudaError_t e = cudaMemAdvise(data, n * sizeof(float), cudaMemAdviseSetPreferredLocation, noDevice);
  printf("advise preferred device 99: %d %s\n", (int)e, cudaGetErrorName(e)); cudaGetLastError();
  e = cudaMemAdvise(data, n * sizeof(float), cudaMemAdviseSetAccessedBy, noDevice);
  printf("advise accessedBy device 99: %d %s\n", (int)e, cudaGetErrorName(e)); cudaGetLastError();
  cudaMemLocation invalid = {cudaMemLocationTypeInvalid, 0};
  e = cudaMemAdvise(data, n * sizeof(float), cudaMemAdviseSetPreferredLocation, invalid);
  printf("advise preferred invalid: %d %s\n", (int)e, cudaGetErrorName(e)); cudaGetLastError();
  e = cudaMemPrefetchAsync(data, n * sizeof(float), noDevice, 0, 0);
  printf("prefetch device 99: %d %s\n", (int)e, cudaGetErrorName(e)); cudaGetLastError();
  cudaStream_t s; cudaStreamCreate(&s);
  cudaStreamAttrValue v = {};
  e = cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v);
  printf("get window: %d num_bytes %zu\n", (int)e, v.accessPolicyWindow.num_bytes);
  int maxWin = 0; cudaDeviceGetAttribute(&maxWin, cudaDevAttrMaxAccessPolicyWindowSize, 0);
  int persist = 0; cudaDeviceGetAttribute(&persist, cudaDevAttrMaxPersistingL2CacheSize, 0);
  printf("maxWindow %d persistingMax %d sizeof(attr)=%zu\n", maxWin, persist, sizeof(cudaStreamAttrValue));
  return 0;
}

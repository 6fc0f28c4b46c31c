#include <cstdio>
#include <vector>

#include "scale.h"

int main() {
  const int n = APP_ELEMENTS; // a target_compile_definitions() definition
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i)
    host[i] = float(i);
  float *device = nullptr;
  if (musaMalloc(&device, n * sizeof(float)) != musaSuccess)
    return 1;
  musaMemcpy(device, host.data(), n * sizeof(float), musaMemcpyHostToDevice);
  scaleOnDevice(device, n);
  offsetOnDevice(device, n, 0.5f);
  musaMemcpy(host.data(), device, n * sizeof(float), musaMemcpyDeviceToHost);
  musaFree(device);
  for (int i = 0; i < n; ++i)
    if (host[i] != 3.0f * float(i) + 0.5f) {
      std::printf("FAIL element %d: %f\n", i, host[i]);
      return 1;
    }
  std::printf("find_musa demo: %d elements correct\n", n);
  return 0;
}

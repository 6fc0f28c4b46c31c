#include <musa.h>

#include <cstdio>
#include <cstring>

int main() {
  int runtime = 0;
  if (musaRuntimeGetVersion(&runtime) != musaSuccess || runtime / 10000 != TOOLKIT_MAJOR) {
    std::printf("FAIL runtime version %d, toolkit %s\n", runtime, TOOLKIT_VERSION);
    return 1;
  }
  int driver = 0;
  if (muInit(0) != MUSA_SUCCESS || muDriverGetVersion(&driver) != MUSA_SUCCESS ||
      driver != MUSA_VERSION) {
    std::printf("FAIL driver API\n");
    return 1;
  }
  unsigned char *device = nullptr;
  unsigned char host[256];
  if (musaMalloc(&device, sizeof host) != musaSuccess ||
      musaMemset(device, 7, sizeof host) != musaSuccess ||
      musaMemcpy(host, device, sizeof host, musaMemcpyDeviceToHost) != musaSuccess) {
    std::printf("FAIL runtime call\n");
    return 1;
  }
  for (unsigned char b : host)
    if (b != 7) {
      std::printf("FAIL memset\n");
      return 1;
    }
  musaFree(device);
  std::printf("find_musa_toolkit demo: MUSAToolkit %s works\n", TOOLKIT_VERSION);
  return 0;
}

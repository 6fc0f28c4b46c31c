#include <musa.h>
#include <mublas.h>
#include <murand.h>

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
  // The random-number library (MUSA::murand): XORWOW's first value for seed 1234 is cuRAND's.
  murandGenerator_t gen = nullptr;
  unsigned first = 0;
  if (murandCreateGenerator(&gen, MURAND_RNG_PSEUDO_DEFAULT) != MURAND_STATUS_SUCCESS ||
      murandSetPseudoRandomGeneratorSeed(gen, 1234) != MURAND_STATUS_SUCCESS ||
      murandGenerate(gen, reinterpret_cast<unsigned *>(device), 64) != MURAND_STATUS_SUCCESS ||
      musaMemcpy(&first, device, sizeof first, musaMemcpyDeviceToHost) != musaSuccess ||
      murandDestroyGenerator(gen) != MURAND_STATUS_SUCCESS || first != 624778773u) {
    std::printf("FAIL murand: first value %u\n", first);
    return 1;
  }
  // The BLAS subset (MUSA::mublas): a dot product of 8 floats in device memory.
  mublasHandle_t blas = nullptr;
  float dot = -1.f, values[8];
  for (int i = 0; i < 8; ++i)
    values[i] = 0.5f * float(i);
  if (musaMemcpy(device, values, sizeof values, musaMemcpyHostToDevice) != musaSuccess ||
      mublasCreate(&blas) != MUBLAS_STATUS_SUCCESS ||
      mublasSdot(blas, 8, reinterpret_cast<float *>(device), 1,
                 reinterpret_cast<float *>(device), 1, &dot) != MUBLAS_STATUS_SUCCESS ||
      mublasDestroy(blas) != MUBLAS_STATUS_SUCCESS ||
      dot != 35.f) { // 0.25 * (0 + 1 + 4 + ... + 49)
    std::printf("FAIL mublas: dot %g, want 35\n", dot);
    return 1;
  }
  musaFree(device);
  std::printf("find_musa_toolkit demo: MUSAToolkit %s works\n", TOOLKIT_VERSION);
  return 0;
}

// The runtime's libraries (musaLibrary*, CUDA 12's context-independent loading) as a program
// uses them: the device image our driver wrote (kernels.mu) loaded from a file and from
// memory, its kernels counted, enumerated and looked up by name and launched with
// musaLaunchKernel, its __device__, __constant__ and __managed__ variables, kernel attributes
// by handle, musaGetKernel for the program's own kernel, and the errors for bad images,
// unknown names and unloaded libraries. Usage: library_api_test KERNELS.fatbin
#include <musa_runtime.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

static int failures = 0;
#define EXPECT(cond)                                                                         \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                            \
      ++failures;                                                                            \
    }                                                                                        \
  } while (0)
#define OK(call) EXPECT((call) == musaSuccess)

__global__ void own(int *out) { *out = 7; }

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  musaLibrary_t lib = nullptr;
  OK(musaLibraryLoadFromFile(&lib, argv[1], nullptr, nullptr, 0, nullptr, nullptr, 0));
  unsigned count = 0;
  OK(musaLibraryGetKernelCount(&count, lib));
  EXPECT(count == 3);
  std::vector<musaKernel_t> kernels(count);
  OK(musaLibraryEnumerateKernels(kernels.data(), count, lib));
  musaKernel_t saxpy = nullptr, bump = nullptr;
  OK(musaLibraryGetKernel(&saxpy, lib, "saxpy"));
  OK(musaLibraryGetKernel(&bump, lib, "bump"));
  EXPECT(kernels[0] == saxpy && kernels[2] == bump); // the image's order
  std::printf("library: %u kernels\n", count);

  // saxpy with the library's __constant__ bias set through its address.
  void *bias = nullptr;
  size_t biasBytes = 0;
  OK(musaLibraryGetGlobal(&bias, &biasBytes, lib, "bias"));
  EXPECT(biasBytes == 4 * sizeof(float));
  float b[4] = {0.5f, 1.5f, 2.5f, 3.5f};
  OK(musaMemcpy(bias, b, sizeof b, musaMemcpyHostToDevice));
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i)
    x[i] = float(i), y[i] = 1.0f;
  float *dx = nullptr, *dy = nullptr;
  OK(musaMalloc(&dx, n * sizeof(float)));
  OK(musaMalloc(&dy, n * sizeof(float)));
  OK(musaMemcpy(dx, x.data(), n * sizeof(float), musaMemcpyHostToDevice));
  OK(musaMemcpy(dy, y.data(), n * sizeof(float), musaMemcpyHostToDevice));
  float a = 2.0f;
  int nn = n;
  void *args[] = {&a, &dx, &dy, &nn};
  OK(musaLaunchKernel((const void *)saxpy, dim3((n + 127) / 128), dim3(128), args, 0, 0));
  OK(musaMemcpy(y.data(), dy, n * sizeof(float), musaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += y[i] != 2.0f * float(i) + 1.0f + b[i % 4];
  EXPECT(wrong == 0);
  std::printf("saxpy through a library kernel: %d wrong\n", wrong);

  // The __managed__ variable: the host reads what kernels add.
  int *tally = nullptr;
  size_t tallyBytes = 0;
  OK(musaLibraryGetManaged((void **)&tally, &tallyBytes, lib, "tally"));
  EXPECT(tallyBytes == sizeof(int));
  int by = 3;
  void *bumpArgs[] = {&by};
  OK(musaLaunchKernel((const void *)bump, dim3(4), dim3(64), bumpArgs, 0, 0));
  OK(musaDeviceSynchronize());
  EXPECT(tally && *tally == 4 * 64 * 3);
  std::printf("managed tally: %d\n", tally ? *tally : -1);
  void *notManaged = nullptr;
  EXPECT(musaLibraryGetManaged(&notManaged, nullptr, lib, "counter") == musaErrorInvalidValue);
  musaGetLastError();

  // Kernel attributes by handle, for a device.
  OK(musaKernelSetAttributeForDevice(saxpy, musaFuncAttributeMaxDynamicSharedMemorySize, 48 << 10, 0));
  musaFuncAttributes attr;
  OK(musaFuncGetAttributes(&attr, (const void *)saxpy));
  EXPECT(attr.maxDynamicSharedSizeBytes == 48 << 10);
  EXPECT(musaKernelSetAttributeForDevice(saxpy, musaFuncAttributeMaxDynamicSharedMemorySize, 0, 99) ==
         musaErrorInvalidDevice);
  musaGetLastError();

  // The program's own kernel as a kernel handle.
  musaKernel_t mine = nullptr;
  OK(musaGetKernel(&mine, (const void *)own));
  int *out = nullptr;
  OK(musaMalloc(&out, sizeof(int)));
  void *ownArgs[] = {&out};
  OK(musaLaunchKernel((const void *)mine, dim3(1), dim3(1), ownArgs, 0, 0));
  int seven = 0;
  OK(musaMemcpy(&seven, out, sizeof seven, musaMemcpyDeviceToHost));
  EXPECT(seven == 7);
  int notAKernel = 0;
  EXPECT(musaGetKernel(&mine, &notAKernel) != musaSuccess);
  musaGetLastError();

  // Errors.
  musaKernel_t none = nullptr;
  EXPECT(musaLibraryGetKernel(&none, lib, "nonesuch") == musaErrorSymbolNotFound);
  EXPECT(musaLibraryGetGlobal(&bias, &biasBytes, lib, "nonesuch") == musaErrorSymbolNotFound);
  void *fn = nullptr;
  EXPECT(musaLibraryGetUnifiedFunction(&fn, lib, "saxpy") == musaErrorSymbolNotFound);
  musaLibrary_t bad = nullptr;
  const char garbage[64] = "not a device image";
  EXPECT(musaLibraryLoadData(&bad, garbage, nullptr, nullptr, 0, nullptr, nullptr, 0) ==
         musaErrorInvalidKernelImage);
  EXPECT(musaLibraryLoadFromFile(&bad, "/nonexistent/kernels.fatbin", nullptr, nullptr, 0, nullptr,
                                 nullptr, 0) == musaErrorFileNotFound);
  EXPECT(musaLibraryLoadFromFile(&bad, argv[1], nullptr, nullptr, 2, nullptr, nullptr, 0) ==
         musaErrorInvalidValue); // two options, no arrays
  musaGetLastError();

  // From memory too; each load is a library of its own.
  std::ifstream file(argv[1], std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  musaLibrary_t again = nullptr;
  OK(musaLibraryLoadData(&again, bytes.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  musaKernel_t saxpy2 = nullptr;
  OK(musaLibraryGetKernel(&saxpy2, again, "saxpy"));
  EXPECT(saxpy2 != saxpy);
  OK(musaLibraryUnload(again));
  OK(musaLibraryUnload(lib));
  EXPECT(musaLibraryUnload(lib) == musaErrorInvalidResourceHandle);
  EXPECT(musaLibraryGetKernel(&none, lib, "saxpy") == musaErrorInvalidResourceHandle);
  musaGetLastError();
  OK(musaFree(dx));
  OK(musaFree(dy));
  OK(musaFree(out));
  if (failures) {
    std::printf("library_api: %d check(s) failed\n", failures);
    return 1;
  }
  std::printf("library_api: all checks passed\n");
  return 0;
}

// The hw backend against a fake vendor library (fake_vendor.cpp): memory, copies, a symbol, a
// launch through <<<>>>, device properties, an error code CUDA numbers differently, and a call
// that does not forward. `passthrough nodevice` checks the first call's error when there is no
// library at all.
#include <cstdio>
#include <cstdlib>
#include <cstring>

__constant__ int bias;

__global__ void addOne(int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += 1 + bias;
}

static int failures = 0;
static void expect(bool ok, const char *what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}

int main(int argc, char **argv) {
  if (argc > 1 && !std::strcmp(argv[1], "nodevice")) {
    int *p = nullptr;
    musaError_t e = musaMalloc(&p, 16);
    std::printf("first call: %s\n", musaGetErrorName(e));
    return e == musaErrorNoDevice ? 0 : 1;
  }
  const int n = 1000;
  int host[n];
  for (int i = 0; i < n; ++i)
    host[i] = i;
  int *device = nullptr;
  expect(musaMalloc(&device, sizeof host) == musaSuccess, "musaMalloc");
  expect(musaMemcpy(device, host, sizeof host, musaMemcpyHostToDevice) == musaSuccess, "H2D");
  int two = 2;
  expect(musaMemcpyToSymbol(bias, &two, sizeof two) == musaSuccess, "musaMemcpyToSymbol");
  addOne<<<(n + 255) / 256, 256>>>(device, n);
  expect(musaGetLastError() == musaSuccess, "launch");
  expect(musaDeviceSynchronize() == musaSuccess, "synchronize");
  expect(musaMemcpy(host, device, sizeof host, musaMemcpyDeviceToHost) == musaSuccess, "D2H");
  for (int i = 0; i < n; ++i)
    if (host[i] != i + 3) {
      std::printf("FAIL: host[%d] = %d, expected %d\n", i, host[i], i + 3);
      return 1;
    }
  musaDeviceProp prop;
  expect(musaGetDeviceProperties(&prop, 0) == musaSuccess, "musaGetDeviceProperties");
  std::printf("device: %s, %d SMs, cc %d, warp %d\n", prop.name, prop.multiProcessorCount,
              prop.major, prop.warpSize);
  // CUDA's cudaErrorInvalidMemcpyDirection is 21, ours too, but cudaErrorInvalidDevice (101)
  // is our 100: translated by name.
  musaError_t e = musaSetDevice(7);
  std::printf("musaSetDevice(7): %s (%d)\n", musaGetErrorName(e), int(e));
  expect(e == musaErrorInvalidDevice, "invalid device translated by name");
  e = musaMemcpy(host, device, 4, musaMemcpyKind(9));
  expect(e == musaErrorInvalidMemcpyDirection, "invalid direction translated");
  const char *backend = std::getenv("MUSA_SIM_BACKEND");
  if (backend && !std::strcmp(backend, "hw")) { // in diff mode it runs on the simulator
    int fd = -1;
    e = musaSimCreateSemaphoreFd(&fd, 0);
    std::printf("musaSimCreateSemaphoreFd: %s\n", musaGetErrorName(e));
    expect(e == musaErrorNotSupported, "unsupported call");
  }
  expect(musaFree(device) == musaSuccess, "musaFree");
  if (failures)
    return 1;
  std::printf("passthrough: all checks passed\n");
  return 0;
}

// __managed__ variables as CUDA's unified-memory guide writes them: one variable that host
// code reads and writes directly and kernels use, with its initial value before main; the
// symbol API finds the same storage.
#include "check.h"

struct Params {
  int n;
  float scale;
  short tag[3];
};

__managed__ int counter = 5;
__device__ __managed__ float vec[4] = {1, 2, 3, 4};
__managed__ Params params = {8, 0.5f, {7, 8, 9}};
__managed__ double zeroed[2];

__global__ void bump() {
  atomicAdd(&counter, 1);
  vec[threadIdx.x % 4] *= 2;
  if (threadIdx.x == 0) {
    params.scale *= params.n;
    zeroed[1] = params.tag[2] + 0.25;
  }
}

int main() {
  CHECK(counter == 5, "initial counter %d", counter);
  CHECK(vec[3] == 4.0f && params.tag[1] == 8 && params.scale == 0.5f, "initial values");
  CHECK(zeroed[0] == 0.0 && zeroed[1] == 0.0, "zero-initialised");
  counter += 10; // the host writes before the launch; the kernel sees it
  bump<<<1, 4>>>();
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK(counter == 19, "counter %d after the kernel", counter);
  CHECK(vec[0] == 2.0f && vec[3] == 8.0f, "vec %g %g", vec[0], vec[3]);
  CHECK(params.scale == 4.0f && zeroed[1] == 9.25, "struct %g, double %g", params.scale,
        zeroed[1]);
  void *address = nullptr;
  CHECK_MUSA(musaGetSymbolAddress(&address, counter));
  CHECK(address == &counter, "symbol address %p, variable %p", address, (void *)&counter);
  int copy = 0;
  CHECK_MUSA(musaMemcpyFromSymbol(&copy, counter, sizeof copy));
  CHECK(copy == 19, "musaMemcpyFromSymbol gave %d", copy);
  int fresh = 100;
  CHECK_MUSA(musaMemcpyToSymbol(counter, &fresh, sizeof fresh));
  CHECK(counter == 100, "musaMemcpyToSymbol reached the host's view: %d", counter);
  bump<<<2, 4>>>();
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK(counter == 108, "counter %d after the second kernel", counter);
  return finish("managed_variables");
}

// musaFuncGetParamInfo: each kernel parameter's offset and size in the parameter buffer, laid
// out as CUDA lays it out (each parameter at its alignment after the one before, as the
// members of a struct), and the packed buffer the driver API launches with (MU_LAUNCH_PARAM_*)
// read at those offsets. The same checks pass on a GPU (tests/hardware/session19).
#include "check.h"

#include <stddef.h>
#if !defined(__NVCC__) // the driver API part runs in the simulator (nvcc would need cuda.h)
#include <musa.h>
#endif

struct __align__(16) Wide {
  double x, y;
};
struct Odd {
  char c[3];
};

__global__ void many(char a, float3 c, double b, Wide d, int *e, Odd f, short g, long long *out) {
  out[0] = a;
  out[1] = (long long)b;
  out[2] = (long long)(c.x + c.y + c.z);
  out[3] = (long long)(d.x + d.y);
  out[4] = *e;
  out[5] = f.c[0] + f.c[1] + f.c[2];
  out[6] = g;
}

__global__ void none() {}

struct Layout { // the parameter buffer as a struct: what the offsets must be
  char a;
  float3 c; // at 4: a 12-byte parameter aligned as its members are, not to 8
  double b;
  Wide d;
  int *e;
  Odd f;
  short g;
  long long *out;
};

int main() {
  size_t expectOffset[8] = {offsetof(Layout, a), offsetof(Layout, c), offsetof(Layout, b),
                            offsetof(Layout, d), offsetof(Layout, e), offsetof(Layout, f),
                            offsetof(Layout, g), offsetof(Layout, out)};
  size_t expectSize[8] = {1, 12, 8, 16, 8, 3, 2, 8};
  for (size_t i = 0; i < 8; ++i) {
    size_t offset = 99, size = 99;
    CHECK_MUSA(musaFuncGetParamInfo((const void *)many, i, &offset, &size));
    printf("param %zu: offset %zu size %zu\n", i, offset, size);
    CHECK(offset == expectOffset[i] && size == expectSize[i],
          "param %zu: offset %zu size %zu, expected %zu and %zu", i, offset, size,
          expectOffset[i], expectSize[i]);
  }
  size_t offset, size;
  CHECK(musaFuncGetParamInfo((const void *)many, 8, &offset, &size) == musaErrorInvalidValue,
        "an index past the last parameter");
  CHECK(musaFuncGetParamInfo((const void *)none, 0, &offset, &size) == musaErrorInvalidValue,
        "a kernel without parameters");
  musaGetLastError();

#if !defined(__NVCC__)
  // The driver API's packed buffer, laid out by those offsets.
  int *e;
  long long *out;
  CHECK_MUSA(musaMalloc(&e, sizeof(int)));
  CHECK_MUSA(musaMalloc(&out, 8 * sizeof(long long)));
  int seven = 7;
  CHECK_MUSA(musaMemcpy(e, &seven, sizeof seven, musaMemcpyHostToDevice));
  Layout params = {};
  params.a = 3;
  params.b = 40.0;
  params.c = make_float3(1, 2, 3);
  params.d = Wide{100, 200};
  params.e = e;
  params.f = Odd{{1, 2, 4}};
  params.g = -5;
  params.out = out;
  size_t bytes = sizeof params;
  void *extra[] = {MU_LAUNCH_PARAM_BUFFER_POINTER, &params, MU_LAUNCH_PARAM_BUFFER_SIZE, &bytes,
                   MU_LAUNCH_PARAM_END};
  MUfunction f;
  CHECK_MUSA(musaGetFuncBySymbol((musaFunction_t *)&f, (const void *)many));
  MUcontext primary = nullptr;
  CHECK(muInit(0) == MUSA_SUCCESS, "muInit");
  CHECK(muDevicePrimaryCtxRetain(&primary, 0) == MUSA_SUCCESS, "primary context");
  CHECK(muCtxPushCurrent(primary) == MUSA_SUCCESS, "push");
  MUresult r = muLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, nullptr, extra);
  CHECK(r == MUSA_SUCCESS, "muLaunchKernel with a packed buffer: %d", int(r));
  CHECK_MUSA(musaDeviceSynchronize());
  long long got[7];
  CHECK_MUSA(musaMemcpy(got, out, sizeof got, musaMemcpyDeviceToHost));
  long long expect[7] = {3, 40, 6, 300, 7, 7, -5};
  for (int i = 0; i < 7; ++i)
    CHECK(got[i] == expect[i], "out[%d] = %lld, expected %lld", i, got[i], expect[i]);
#endif
  return finish("param_info");
}

// Polymorphism in device code: objects with virtual functions built by placement new inside a
// kernel (vtables are device-side), device new/delete of derived objects through a base
// pointer with a virtual destructor, a __device__ table of function pointers read back with
// musaMemcpyFromSymbol and called in a later kernel, __noinline__ and __forceinline__ helpers.
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <new>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

struct Shape {
  __device__ virtual ~Shape() {}
  __device__ virtual float area() const = 0;
  __device__ virtual int kind() const { return 0; }
};
struct Rect : Shape {
  float w, h;
  __device__ Rect(float w_, float h_) : w(w_), h(h_) {}
  __device__ float area() const override { return w * h; }
  __device__ int kind() const override { return 1; }
};
struct Square : Rect {
  __device__ explicit Square(float s) : Rect(s, s) {}
  __device__ int kind() const override { return 2; }
};
struct Tri : Shape {
  float b, h;
  __device__ Tri(float b_, float h_) : b(b_), h(h_) {}
  __device__ float area() const override { return 0.5f * b * h; }
  __device__ ~Tri() override { atomicAdd(&dtorCount, 1); }
  static __device__ int dtorCount;
};
__device__ int Tri::dtorCount = 0;

// One storage slot per thread, big enough for any shape.
union Slot {
  char raw[sizeof(Rect) > sizeof(Tri) ? sizeof(Rect) : sizeof(Tri)];
  void *align;
};

__global__ void buildAndUse(Slot *slots, float *area, int *kind, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Shape *s;
  switch (i % 3) {
  case 0: s = new (&slots[i]) Rect(i, 2.0f); break;
  case 1: s = new (&slots[i]) Square(i * 0.5f); break;
  default: s = new (&slots[i]) Tri(i, 4.0f); break;
  }
  area[i] = s->area();
  kind[i] = s->kind();
}
// A second kernel uses the objects the first built: the vtable pointers stay valid.
__global__ void reuse(Slot *slots, float *area2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Shape *s = reinterpret_cast<Shape *>(&slots[i]);
  area2[i] = s->area() + s->kind();
  s->~Shape();
}

__global__ void heapShapes(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Shape *s = (i & 1) ? static_cast<Shape *>(new Tri(2.0f, i)) : new Square(i);
  if (!s) { out[i] = -1.0f; return; }
  out[i] = s->area();
  delete s;
}

typedef int (*BinOp)(int, int);
__device__ __noinline__ int opAdd(int a, int b) { return a + b; }
__device__ __noinline__ int opSub(int a, int b) { return a - b; }
__device__ __forceinline__ int opMul(int a, int b) { return a * b; }
__device__ int opMax(int a, int b) { return a > b ? a : b; }
__device__ BinOp opTable[4] = {opAdd, opSub, opMul, opMax};
__device__ BinOp chosen;

__global__ void applyTable(const int *a, const int *b, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = opTable[i % 4](a[i], b[i]);
}
__global__ void applyPtr(BinOp f, const int *a, const int *b, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(a[i], b[i]);
}
__global__ void pick(int which) { chosen = opTable[which]; }
__global__ void applyChosen(const int *a, const int *b, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = chosen(a[i], b[i]);
}

int main() {
  const int n = 300;
  int failures = 0;
  Slot *slots;
  float *area, *area2, *harea = (float *)malloc(n * 4), *harea2 = (float *)malloc(n * 4);
  int *kind, *hkind = (int *)malloc(n * 4);
  CHECK(musaMalloc(&slots, n * sizeof(Slot)));
  CHECK(musaMalloc(&area, n * 4));
  CHECK(musaMalloc(&area2, n * 4));
  CHECK(musaMalloc(&kind, n * 4));
  buildAndUse<<<(n + 63) / 64, 64>>>(slots, area, kind, n);
  CHECK(musaGetLastError());
  reuse<<<(n + 127) / 128, 128>>>(slots, area2, n);
  CHECK(musaDeviceSynchronize());
  CHECK(musaMemcpy(harea, area, n * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(harea2, area2, n * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(hkind, kind, n * 4, musaMemcpyDeviceToHost));
  int tri = 0;
  for (int i = 0; i < n; ++i) {
    float e; int k;
    if (i % 3 == 0) { e = i * 2.0f; k = 1; }
    else if (i % 3 == 1) { e = (i * 0.5f) * (i * 0.5f); k = 2; }
    else { e = 0.5f * i * 4.0f; k = 0; ++tri; }
    if (harea[i] != e || hkind[i] != k || harea2[i] != e + k) {
      if (failures++ < 5) printf("shape %d: area %g kind %d area2 %g, expected %g %d\n", i, harea[i], hkind[i], harea2[i], e, k);
    }
  }
  int dtors = 0;
  CHECK(musaMemcpyFromSymbol(&dtors, Tri::dtorCount, sizeof(int)));
  if (dtors != tri) { printf("virtual destructor ran %d times, expected %d\n", dtors, tri); ++failures; }

  heapShapes<<<(n + 63) / 64, 64>>>(area, n);
  CHECK(musaDeviceSynchronize());
  CHECK(musaMemcpy(harea, area, n * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpyFromSymbol(&dtors, Tri::dtorCount, sizeof(int)));
  for (int i = 0; i < n; ++i) {
    float e = (i & 1) ? 0.5f * 2.0f * i : (float)i * (float)i;
    if (harea[i] != e && failures++ < 5) printf("heap shape %d: %g expected %g\n", i, harea[i], e);
  }
  if (dtors != tri + n / 2) { printf("heap delete ran %d dtors, expected %d\n", dtors, tri + n / 2); ++failures; }

  int *da, *db, *dout, ha[n], hb[n], hout[n];
  for (int i = 0; i < n; ++i) { ha[i] = i * 7 - 300; hb[i] = (i * 13) % 50 - 20; }
  CHECK(musaMalloc(&da, n * 4)); CHECK(musaMalloc(&db, n * 4)); CHECK(musaMalloc(&dout, n * 4));
  CHECK(musaMemcpy(da, ha, n * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(db, hb, n * 4, musaMemcpyHostToDevice));
  auto ref = [](int op, int a, int b) { return op == 0 ? a + b : op == 1 ? a - b : op == 2 ? a * b : (a > b ? a : b); };
  applyTable<<<(n + 63) / 64, 64>>>(da, db, dout, n);
  CHECK(musaMemcpy(hout, dout, n * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (hout[i] != ref(i % 4, ha[i], hb[i]) && failures++ < 5) printf("table %d: %d\n", i, hout[i]);
  BinOp hostCopy[4];
  CHECK(musaMemcpyFromSymbol(hostCopy, opTable, sizeof(hostCopy)));
  for (int op = 0; op < 4; ++op) {
    applyPtr<<<(n + 63) / 64, 64>>>(hostCopy[op], da, db, dout, n);
    CHECK(musaMemcpy(hout, dout, n * 4, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
      if (hout[i] != ref(op, ha[i], hb[i]) && failures++ < 5) printf("ptr op %d elem %d: %d\n", op, i, hout[i]);
    pick<<<1, 1>>>(3 - op);
    applyChosen<<<(n + 63) / 64, 64>>>(da, db, dout, n);
    CHECK(musaMemcpy(hout, dout, n * 4, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
      if (hout[i] != ref(3 - op, ha[i], hb[i]) && failures++ < 5) printf("chosen op %d elem %d: %d\n", 3 - op, i, hout[i]);
  }
  CHECK(musaDeviceSynchronize());
  printf("virtual_dispatch: %s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}

// c++11_cuda + newdelete style: a grid-stride range class for range-based for in kernels, a
// device lambda with captures, auto/decltype/constexpr/static_assert, std::initializer_list on
// the host; a container created with new in one kernel, used in a second and deleted in a third;
// placement new of a polymorphic object in shared memory.
#include <musa_runtime.h>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>
#include <initializer_list>
#include <type_traits>

static bool ok = true;
#define CK(x) do { musaError_t e_ = (x); if (e_ != musaSuccess) { printf("line %d: %s -> %s\n", __LINE__, #x, musaGetErrorString(e_)); ok = false; } } while (0)

// ---- range-based for over a grid-stride range ----
template <typename T> struct step_range {
  struct iterator {
    T v, s;
    __device__ T operator*() const { return v; }
    __device__ iterator &operator++() { v += s; return *this; }
    __device__ bool operator!=(const iterator &o) const { return v < o.v; }
  };
  T b, e, s;
  __device__ step_range(T b_, T e_, T s_) : b(b_), e(e_), s(s_) {}
  __device__ iterator begin() const { return {b, s}; }
  __device__ iterator end() const { return {e, s}; }
};
template <typename T> __device__ step_range<T> grid_stride_range(T begin, T end) {
  begin += blockDim.x * blockIdx.x + threadIdx.x;
  return step_range<T>(begin, end, gridDim.x * blockDim.x);
}

template <typename T, typename Predicate> __device__ void count_if(int *count, T *data, int n, Predicate p) {
  for (auto i : grid_stride_range(0, n))
    if (p(data[i])) atomicAdd(count, 1);
}

constexpr int kLetters = 5;
static_assert(kLetters == 5, "five letters");

__global__ void xyzw_frequency(int *count, char *text, int n) {
  const char letters[]{'x', 'y', 'z', 'w', 'q'};
  count_if(count, text, n, [&](char c) {
    for (const auto x : letters)
      if (c == x) return true;
    return false;
  });
}

// ---- newdelete: a container built in one kernel and used in later ones ----
class Container {
 public:
  __device__ Container() {}
  __device__ virtual ~Container() {}
  __device__ virtual void push(int v) = 0;
  __device__ virtual int pop() = 0;
};
class Vector : public Container {
 public:
  __device__ Vector(int max) : _top(-1), _max(max) { _data = new int[max]; }
  __device__ ~Vector() override { delete[] _data; }
  __device__ void push(int v) override { if (_top < _max - 1) _data[++_top] = v; }
  __device__ int pop() override { return _top >= 0 ? _data[_top--] : -1; }
 private:
  int _top, _max;
  int *_data;
};

__global__ void vectorCreate(Container **g_container, int max_size) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *g_container = new Vector(max_size);
}
__global__ void containerFill(Container **g_container, int n) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    for (int i = 0; i < n; ++i) (*g_container)->push(i * i);
}
__global__ void containerDrain(Container **g_container, int *out, int n) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    for (int i = 0; i < n; ++i) out[i] = (*g_container)->pop();
    delete *g_container;
    *g_container = nullptr;
  }
}

// placement new in shared memory: every thread pushes into one block-wide Vector-like object
class BlockStack {
 public:
  __device__ BlockStack(int *storage) : top(0), data(storage) {}
  __device__ virtual void push(int v) { data[atomicAdd(&top, 1)] = v; }
  __device__ virtual int size() const { return top; }
  int top;
  int *data;
};
class SquareStack : public BlockStack {
 public:
  __device__ SquareStack(int *s) : BlockStack(s) {}
  __device__ void push(int v) override { BlockStack::push(v * v); }
};

__global__ void placementNew(int *out) {
  __shared__ __align__(16) unsigned char buf[sizeof(SquareStack)];
  __shared__ int storage[1024];
  BlockStack *st = reinterpret_cast<BlockStack *>(buf);
  if (threadIdx.x == 0) new (buf) SquareStack(storage);
  __syncthreads();
  st->push(threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) {
    int sum = 0;
    for (int i = 0; i < st->size(); ++i) sum += st->data[i];
    out[blockIdx.x] = sum;
    st->~BlockStack();
  }
}

int main() {
  // c++11 counting
  const char *base = "The quick brown fox jumps over the lazy dog, xyzzy wq w q x";
  std::vector<char> text;
  for (int r = 0; r < 200; ++r) text.insert(text.end(), base, base + strlen(base));
  int n = (int)text.size();
  int href = 0;
  for (char c : text)
    for (auto l : {'x', 'y', 'z', 'w', 'q'}) if (c == l) ++href;
  char *d_text; int *d_count;
  CK(musaMalloc(&d_text, n)); CK(musaMalloc(&d_count, sizeof(int)));
  CK(musaMemcpy(d_text, text.data(), n, musaMemcpyHostToDevice));
  CK(musaMemset(d_count, 0, sizeof(int)));
  xyzw_frequency<<<8, 256>>>(d_count, d_text, n);
  int count = -1;
  CK(musaMemcpy(&count, d_count, sizeof(int), musaMemcpyDeviceToHost));
  if (count != href) { printf("c++11 count %d want %d\n", count, href); ok = false; }

  // newdelete
  const int N = 100;
  Container **d_container; int *d_out;
  CK(musaMalloc(&d_container, sizeof(Container *)));
  CK(musaMalloc(&d_out, N * sizeof(int)));
  vectorCreate<<<1, 1>>>(d_container, N);
  containerFill<<<1, 1>>>(d_container, N);
  containerDrain<<<1, 1>>>(d_container, d_out, N);
  std::vector<int> h(N);
  CK(musaMemcpy(h.data(), d_out, N * sizeof(int), musaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i) if (h[i] != (N - 1 - i) * (N - 1 - i)) { printf("newdelete out[%d]=%d\n", i, h[i]); ok = false; break; }
  void *leftover = (void *)1;
  CK(musaMemcpy(&leftover, d_container, sizeof(void *), musaMemcpyDeviceToHost));
  if (leftover != nullptr) { printf("container pointer not cleared\n"); ok = false; }

  // placement new in shared memory
  const int blocks = 4, threads = 200;
  int *d_sums; CK(musaMalloc(&d_sums, blocks * sizeof(int)));
  placementNew<<<blocks, threads>>>(d_sums);
  int hs[blocks];
  CK(musaMemcpy(hs, d_sums, sizeof(hs), musaMemcpyDeviceToHost));
  int want = 0; for (int t = 0; t < threads; ++t) want += t * t;
  for (int b = 0; b < blocks; ++b) if (hs[b] != want) { printf("placement new block %d: %d want %d\n", b, hs[b], want); ok = false; }
  CK(musaDeviceSynchronize());
  printf("c++11/newdelete: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

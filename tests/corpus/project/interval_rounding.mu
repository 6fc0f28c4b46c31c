// interval-sample style: a templated interval_gpu<T> whose arithmetic uses the directed-rounding
// intrinsics (__fadd_rd/__fadd_ru ... __dsqrt_ru) through rounded_arith<T> specialisations, an
// interval Newton root search with a per-thread explicit stack; the add, sub, mul, div, sqrt,
// fma, reciprocal and rz operations are also checked bit for bit against the host under
// fesetround.
#include <musa_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cfenv>
#include <vector>

static bool ok = true;

template <class T> struct rounded_arith;
template <> struct rounded_arith<float> {
  __device__ static float add_down(float a, float b) { return __fadd_rd(a, b); }
  __device__ static float add_up(float a, float b) { return __fadd_ru(a, b); }
  __device__ static float sub_down(float a, float b) { return __fsub_rd(a, b); }
  __device__ static float sub_up(float a, float b) { return __fsub_ru(a, b); }
  __device__ static float mul_down(float a, float b) { return __fmul_rd(a, b); }
  __device__ static float mul_up(float a, float b) { return __fmul_ru(a, b); }
  __device__ static float div_down(float a, float b) { return __fdiv_rd(a, b); }
  __device__ static float div_up(float a, float b) { return __fdiv_ru(a, b); }
  __device__ static float rz_add(float a, float b) { return __fadd_rz(a, b); }
  __device__ static float rz_mul(float a, float b) { return __fmul_rz(a, b); }
  __device__ static float sqrt_down(float a) { return __fsqrt_rd(a); }
  __device__ static float sqrt_up(float a) { return __fsqrt_ru(a); }
  __device__ static float fma_down(float a, float b, float c) { return __fmaf_rd(a, b, c); }
  __device__ static float fma_up(float a, float b, float c) { return __fmaf_ru(a, b, c); }
  __device__ static float rcp_down(float a) { return __frcp_rd(a); }
  __device__ static float rcp_up(float a) { return __frcp_ru(a); }
};
template <> struct rounded_arith<double> {
  __device__ static double add_down(double a, double b) { return __dadd_rd(a, b); }
  __device__ static double add_up(double a, double b) { return __dadd_ru(a, b); }
  __device__ static double sub_down(double a, double b) { return __dsub_rd(a, b); }
  __device__ static double sub_up(double a, double b) { return __dsub_ru(a, b); }
  __device__ static double mul_down(double a, double b) { return __dmul_rd(a, b); }
  __device__ static double mul_up(double a, double b) { return __dmul_ru(a, b); }
  __device__ static double div_down(double a, double b) { return __ddiv_rd(a, b); }
  __device__ static double div_up(double a, double b) { return __ddiv_ru(a, b); }
  __device__ static double rz_add(double a, double b) { return __dadd_rz(a, b); }
  __device__ static double rz_mul(double a, double b) { return __dmul_rz(a, b); }
  __device__ static double sqrt_down(double a) { return __dsqrt_rd(a); }
  __device__ static double sqrt_up(double a) { return __dsqrt_ru(a); }
  __device__ static double fma_down(double a, double b, double c) { return __fma_rd(a, b, c); }
  __device__ static double fma_up(double a, double b, double c) { return __fma_ru(a, b, c); }
  __device__ static double rcp_down(double a) { return __drcp_rd(a); }
  __device__ static double rcp_up(double a) { return __drcp_ru(a); }
};

// ---- bitwise checks of every directed op ----
template <class T> __global__ void directedOps(const T *a, const T *b, const T *c, T *out, int n) {
  typedef rounded_arith<T> R;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T x = a[i], y = b[i], z = c[i];
  T *o = out + 16 * i;
  o[0] = R::add_down(x, y); o[1] = R::add_up(x, y);
  o[2] = R::sub_down(x, y); o[3] = R::sub_up(x, y);
  o[4] = R::mul_down(x, y); o[5] = R::mul_up(x, y);
  o[6] = R::div_down(x, y); o[7] = R::div_up(x, y);
  T ax = x < 0 ? -x : x;
  o[8] = R::sqrt_down(ax); o[9] = R::sqrt_up(ax);
  o[10] = R::fma_down(x, y, z); o[11] = R::fma_up(x, y, z);
  o[12] = R::rcp_down(y); o[13] = R::rcp_up(y);
  o[14] = R::rz_add(x, z); o[15] = R::rz_mul(x, z);
}

template <class T> static T hostOp(int k, T x, T y, T z) {
  volatile T vx = x, vy = y, vz = z, r = 0;
  int mode = (k == 14 || k == 15) ? FE_TOWARDZERO : (k % 2 == 0 ? FE_DOWNWARD : FE_UPWARD);
  fesetround(mode);
  switch (k) {
    case 0: case 1: r = vx + vy; break;
    case 2: case 3: r = vx - vy; break;
    case 4: case 5: r = vx * vy; break;
    case 6: case 7: r = vx / vy; break;
    case 8: case 9: r = std::sqrt((T)std::fabs((T)vx)); break;
    case 10: case 11: r = std::fma((T)vx, (T)vy, (T)vz); break;
    case 12: case 13: r = (T)1 / vy; break;
    case 14: r = vx + vz; break;
    case 15: r = vx * vz; break;
  }
  T res = r;
  fesetround(FE_TONEAREST);
  return res;
}

template <class T> static T rnd(int kind) {
  double m = (double)rand() / RAND_MAX * 2 - 1;
  int e = rand() % 40 - 20;
  if (kind == 1) e = rand() % 4;
  T v = (T)std::ldexp(m, e);
  if (v == 0) v = (T)1.5;
  return v;
}

template <class T> void checkDirected(const char *name) {
  const int n = 4000;
  std::vector<T> a(n), b(n), c(n), o(16 * n);
  for (int i = 0; i < n; ++i) { a[i] = rnd<T>(i & 1); b[i] = rnd<T>(i & 1); c[i] = rnd<T>(i & 1); }
  // exact-tie and exact cases
  a[0] = 1; b[0] = 3; c[0] = -1.0 / 3;
  a[1] = 2; b[1] = 4; c[1] = 0;
  T *da, *db, *dc, *dout;
  musaMalloc(&da, n * sizeof(T)); musaMalloc(&db, n * sizeof(T)); musaMalloc(&dc, n * sizeof(T));
  musaMalloc(&dout, 16 * n * sizeof(T));
  musaMemcpy(da, a.data(), n * sizeof(T), musaMemcpyHostToDevice);
  musaMemcpy(db, b.data(), n * sizeof(T), musaMemcpyHostToDevice);
  musaMemcpy(dc, c.data(), n * sizeof(T), musaMemcpyHostToDevice);
  directedOps<T><<<(n + 127) / 128, 128>>>(da, db, dc, dout, n);
  musaMemcpy(o.data(), dout, 16 * n * sizeof(T), musaMemcpyDeviceToHost);
  static const char *names[16] = {"add_rd", "add_ru", "sub_rd", "sub_ru", "mul_rd", "mul_ru", "div_rd", "div_ru",
                                  "sqrt_rd", "sqrt_ru", "fma_rd", "fma_ru", "rcp_rd", "rcp_ru", "add_rz", "mul_rz"};
  int bad[16] = {0};
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 16; ++k) {
      T want = hostOp<T>(k, a[i], b[i], c[i]);
      if (memcmp(&want, &o[16 * i + k], sizeof(T))) {
        if (bad[k]++ < 2) printf("%s %s(%a, %a, %a) = %a want %a\n", name, names[k], (double)a[i], (double)b[i], (double)c[i], (double)o[16 * i + k], (double)want);
      }
    }
  for (int k = 0; k < 16; ++k) if (bad[k]) { printf("%s %s: %d mismatches\n", name, names[k], bad[k]); ok = false; }
  musaFree(da); musaFree(db); musaFree(dc); musaFree(dout);
}

// ---- interval class and interval Newton ----
template <class T> class interval_gpu {
 public:
  __device__ __host__ interval_gpu() {}
  __device__ __host__ interval_gpu(T const &v) : low(v), up(v) {}
  __device__ __host__ interval_gpu(T const &l, T const &u) : low(l), up(u) {}
  __device__ __host__ T const &lower() const { return low; }
  __device__ __host__ T const &upper() const { return up; }
  __device__ __host__ bool empty() const { return !(low <= up); }
 private:
  T low, up;
};
template <class T> __device__ interval_gpu<T> operator+(interval_gpu<T> const &x, interval_gpu<T> const &y) {
  return interval_gpu<T>(rounded_arith<T>::add_down(x.lower(), y.lower()), rounded_arith<T>::add_up(x.upper(), y.upper()));
}
template <class T> __device__ interval_gpu<T> operator-(interval_gpu<T> const &x, interval_gpu<T> const &y) {
  return interval_gpu<T>(rounded_arith<T>::sub_down(x.lower(), y.upper()), rounded_arith<T>::sub_up(x.upper(), y.lower()));
}
template <class T> __device__ T min4(T a, T b, T c, T d) { return fmin(fmin(a, b), fmin(c, d)); }
template <class T> __device__ T max4(T a, T b, T c, T d) { return fmax(fmax(a, b), fmax(c, d)); }
template <class T> __device__ interval_gpu<T> operator*(interval_gpu<T> const &x, interval_gpu<T> const &y) {
  typedef rounded_arith<T> R;
  T a = x.lower(), b = x.upper(), c = y.lower(), d = y.upper();
  return interval_gpu<T>(min4(R::mul_down(a, c), R::mul_down(a, d), R::mul_down(b, c), R::mul_down(b, d)),
                         max4(R::mul_up(a, c), R::mul_up(a, d), R::mul_up(b, c), R::mul_up(b, d)));
}
// division by an interval not containing zero
template <class T> __device__ interval_gpu<T> operator/(interval_gpu<T> const &x, interval_gpu<T> const &y) {
  typedef rounded_arith<T> R;
  T a = x.lower(), b = x.upper(), c = y.lower(), d = y.upper();
  return interval_gpu<T>(min4(R::div_down(a, c), R::div_down(a, d), R::div_down(b, c), R::div_down(b, d)),
                         max4(R::div_up(a, c), R::div_up(a, d), R::div_up(b, c), R::div_up(b, d)));
}
template <class T> __device__ interval_gpu<T> intersect(interval_gpu<T> const &x, interval_gpu<T> const &y) {
  return interval_gpu<T>(fmax(x.lower(), y.lower()), fmin(x.upper(), y.upper()));
}

// f(x) = x^2 - a, f'(x) = 2x; find sqrt(a) in [lo, hi] (lo > 0)
template <class T, int DEPTH> __global__ void intervalNewton(const T *as, interval_gpu<T> *res, int *iters, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  interval_gpu<T> stack[DEPTH];
  int sp = 0;
  interval_gpu<T> A(as[i]);
  stack[sp++] = interval_gpu<T>((T)0.5, (T)8);
  interval_gpu<T> best((T)0.5, (T)8);
  int it = 0;
  while (sp > 0 && it < 200) {
    interval_gpu<T> x = stack[--sp];
    ++it;
    T m = x.lower() + (x.upper() - x.lower()) / 2;
    interval_gpu<T> M(m);
    interval_gpu<T> N = M - (M * M - A) / (interval_gpu<T>(2) * x);
    interval_gpu<T> nx = intersect(x, N);
    if (nx.empty()) continue;
    if (nx.upper() - nx.lower() >= (x.upper() - x.lower()) * (T)0.75 && sp + 2 <= DEPTH) {
      T mid = nx.lower() + (nx.upper() - nx.lower()) / 2;
      stack[sp++] = interval_gpu<T>(mid, nx.upper());
      stack[sp++] = interval_gpu<T>(nx.lower(), mid);
      continue;
    }
    best = nx;
    if (nx.upper() == nx.lower() || nx.upper() - nx.lower() <= (T)4 * (nx.lower() * (sizeof(T) == 4 ? (T)1.2e-7 : (T)2.3e-16))) break;
    if (sp < DEPTH) stack[sp++] = nx;
  }
  res[i] = best;
  iters[i] = it;
}

template <class T> void checkNewton(const char *name) {
  const int n = 500;
  std::vector<T> a(n);
  for (int i = 0; i < n; ++i) a[i] = (T)(1.0 + 40.0 * i / n);
  T *da; interval_gpu<T> *dr; int *di;
  musaMalloc(&da, n * sizeof(T)); musaMalloc(&dr, n * sizeof(interval_gpu<T>)); musaMalloc(&di, n * sizeof(int));
  musaMemcpy(da, a.data(), n * sizeof(T), musaMemcpyHostToDevice);
  intervalNewton<T, 16><<<(n + 63) / 64, 64>>>(da, dr, di, n);
  std::vector<interval_gpu<T>> r(n);
  std::vector<int> it(n);
  musaError_t e = musaMemcpy(r.data(), dr, n * sizeof(interval_gpu<T>), musaMemcpyDeviceToHost);
  musaMemcpy(it.data(), di, n * sizeof(int), musaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    long double s = sqrtl((long double)a[i]);
    bool contains = (long double)r[i].lower() <= s && s <= (long double)r[i].upper();
    long double w = (long double)r[i].upper() - r[i].lower();
    bool narrow = w <= 16 * s * (sizeof(T) == 4 ? 1.2e-7L : 2.3e-16L);
    if (!contains || !narrow || e != musaSuccess) {
      if (bad++ < 3) printf("%s newton a=%g: [%a, %a] iters %d (contains %d narrow %d)\n", name, (double)a[i], (double)r[i].lower(), (double)r[i].upper(), it[i], contains, narrow);
    }
  }
  if (bad) { printf("%s newton: %d bad\n", name, bad); ok = false; }
  musaFree(da); musaFree(dr); musaFree(di);
}

int main() {
  srand(3);
  checkDirected<float>("float");
  checkDirected<double>("double");
  checkNewton<float>("float");
  checkNewton<double>("double");
  printf("interval (directed rounding): %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

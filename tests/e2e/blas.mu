// cuBLAS's v2 API as programs use it (cublas_v2.h; mublas.h is the same under muBLAS's names):
// gemm in every transpose combination with leading dimensions beyond the rows, the row-major
// trick of the CUDA samples (C^T = B^T A^T), batched and strided-batched gemm, gemv, the
// level-1 routines with increments (negative ones too), device pointer mode, transfers with
// leading dimensions and increments, streams, and the status codes of misuse. Results are
// checked against plain loops on the host.
#include "check.h"
#include <cublas_v2.h>
#include <musa_bf16.h>
#include <musa_fp16.h>
#include <cmath>
#include <cstring>
#include <vector>

#define EXPECT(cond) CHECK(cond, "%s", "")
#define OK(call) EXPECT((call) == CUBLAS_STATUS_SUCCESS)

static unsigned seed = 12345;
static double rnd() {
  seed = seed * 1664525u + 1013904223u;
  return double(seed >> 8) / double(1u << 24) - 0.5;
}

template <class T> static std::vector<T> randomVector(size_t n) {
  std::vector<T> v(n);
  for (T &x : v)
    x = T(rnd());
  return v;
}

template <class T> static T *toDevice(const std::vector<T> &h) {
  T *d = nullptr;
  EXPECT(musaMalloc(&d, h.size() * sizeof(T)) == musaSuccess);
  EXPECT(musaMemcpy(d, h.data(), h.size() * sizeof(T), musaMemcpyHostToDevice) == musaSuccess);
  return d;
}

template <class T> static std::vector<T> toHost(const T *d, size_t n) {
  std::vector<T> h(n);
  EXPECT(musaMemcpy(h.data(), d, n * sizeof(T), musaMemcpyDeviceToHost) == musaSuccess);
  return h;
}

template <class T> static bool close(T got, double want, double tol) {
  return std::fabs(double(got) - want) <= tol * (1 + std::fabs(want));
}

// Reference gemm, column-major: op(X)[r][c] is X[r + c * ld] or, transposed, X[c + r * ld].
static double opAt(const std::vector<double> &X, int ld, bool t, int r, int c) {
  return t ? X[c + size_t(r) * ld] : X[r + size_t(c) * ld];
}

template <class T>
static void gemmCase(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, double tol,
                     cublasStatus_t (*fn)(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                          int, int, int, const T *, const T *, int, const T *,
                                          int, const T *, T *, int)) {
  const int m = 37, n = 29, k = 45;
  bool tA = ta != CUBLAS_OP_N, tB = tb != CUBLAS_OP_N;
  int lda = (tA ? k : m) + 3, ldb = (tB ? n : k) + 1, ldc = m + 2;
  auto A = randomVector<T>(size_t(lda) * (tA ? m : k));
  auto B = randomVector<T>(size_t(ldb) * (tB ? k : n));
  auto C = randomVector<T>(size_t(ldc) * n);
  T *dA = toDevice(A), *dB = toDevice(B), *dC = toDevice(C);
  T alpha = T(1.5), beta = T(-0.75);
  OK(fn(h, ta, tb, m, n, k, &alpha, dA, lda, dB, ldb, &beta, dC, ldc));
  auto got = toHost(dC, C.size());
  std::vector<double> a(A.begin(), A.end()), b(B.begin(), B.end());
  int bad = 0;
  for (int c = 0; c < n; ++c)
    for (int r = 0; r < ldc; ++r) {
      double want = C[r + size_t(c) * ldc]; // rows past m stay as they were
      if (r < m) {
        double s = 0;
        for (int i = 0; i < k; ++i)
          s += opAt(a, lda, tA, r, i) * opAt(b, ldb, tB, i, c);
        want = 1.5 * s - 0.75 * want;
      }
      bad += !close(got[r + size_t(c) * ldc], want, tol);
    }
  CHECK(bad == 0, "gemm ta=%d tb=%d: %d wrong of %d", ta, tb, bad, ldc * n);
  musaFree(dA), musaFree(dB), musaFree(dC);
}

int main() {
  cublasHandle_t h;
  OK(cublasCreate(&h));
  int version = 0;
  OK(cublasGetVersion(h, &version));
  EXPECT(version >= 10000);

  for (auto ta : {CUBLAS_OP_N, CUBLAS_OP_T})
    for (auto tb : {CUBLAS_OP_N, CUBLAS_OP_T}) {
      gemmCase<float>(h, ta, tb, 1e-5, cublasSgemm);
      gemmCase<double>(h, ta, tb, 1e-12, cublasDgemm);
    }

  // The samples' row-major product: C = A B with row-major A (M x K) and B (K x N) is, column
  // major, C^T = B^T A^T: cublasSgemm(N, N, N, M, K, B, N, A, K, C, N).
  {
    const int M = 64, K = 48, N = 80;
    auto A = randomVector<float>(M * K), B = randomVector<float>(K * N);
    float *dA = toDevice(A), *dB = toDevice(B), *dC = nullptr;
    EXPECT(musaMalloc(&dC, M * N * sizeof(float)) == musaSuccess);
    EXPECT(musaMemset(dC, 0xff, M * N * sizeof(float)) == musaSuccess); // NaN: beta 0 ignores C
    const float one = 1.f, zero = 0.f;
    OK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, dB, N, dA, K, &zero, dC, N));
    auto C = toHost(dC, M * N);
    int bad = 0;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double s = 0;
        for (int x = 0; x < K; ++x)
          s += double(A[i * K + x]) * B[x * N + j];
        bad += !close(C[i * N + j], s, 1e-5);
      }
    CHECK(bad == 0, "row-major gemm: %d wrong", bad);
    musaFree(dA), musaFree(dB), musaFree(dC);
  }

  // Batched: three 8 x 8 products, by strides and by arrays of device pointers.
  {
    const int n = 8, batch = 3, stride = n * n + 5;
    auto A = randomVector<float>(stride * batch), B = randomVector<float>(stride * batch);
    std::vector<float> C(stride * batch, 0.f);
    float *dA = toDevice(A), *dB = toDevice(B), *dC = toDevice(C), *dC2 = toDevice(C);
    const float one = 1.f, zero = 0.f;
    OK(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &one, dA, n, stride, dB,
                                 n, stride, &zero, dC, n, stride, batch));
    std::vector<const float *> pa, pb;
    std::vector<float *> pc;
    for (int z = 0; z < batch; ++z)
      pa.push_back(dA + z * stride), pb.push_back(dB + z * stride), pc.push_back(dC2 + z * stride);
    const float **dpa = toDevice(pa), **dpb = toDevice(pb);
    float **dpc = toDevice(pc);
    OK(cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &one, dpa, n, dpb, n, &zero, dpc,
                          n, batch));
    auto g1 = toHost(dC, C.size()), g2 = toHost(dC2, C.size());
    int bad = 0;
    for (int z = 0; z < batch; ++z)
      for (int c = 0; c < n; ++c)
        for (int r = 0; r < n; ++r) {
          double s = 0;
          for (int i = 0; i < n; ++i)
            s += double(A[z * stride + r + i * n]) * B[z * stride + c + i * n];
          size_t at = z * stride + r + c * n;
          bad += !close(g1[at], s, 1e-5) + !close(g2[at], s, 1e-5);
        }
    CHECK(bad == 0, "batched gemm: %d wrong", bad);
    musaFree(dA), musaFree(dB), musaFree(dC), musaFree(dC2);
    musaFree(dpa), musaFree(dpb), musaFree(dpc);
  }

  // gemv, both ways, x with increment 2 and y walked backwards (increment -1).
  for (auto t : {CUBLAS_OP_N, CUBLAS_OP_T}) {
    const int m = 50, n = 30, lda = 53;
    bool tr = t == CUBLAS_OP_T;
    int xs = tr ? m : n, ys = tr ? n : m;
    auto A = randomVector<double>(lda * n), x = randomVector<double>(2 * xs);
    auto y = randomVector<double>(ys);
    double *dA = toDevice(A), *dx = toDevice(x), *dy = toDevice(y);
    double alpha = 2.0, beta = 0.5;
    OK(cublasDgemv(h, t, m, n, &alpha, dA, lda, dx, 2, &beta, dy, -1));
    auto got = toHost(dy, ys);
    int bad = 0;
    for (int i = 0; i < ys; ++i) {
      double s = 0;
      for (int j = 0; j < xs; ++j)
        s += (tr ? A[j + i * lda] : A[i + j * lda]) * x[2 * j];
      int yi = ys - 1 - i; // element i of y with increment -1
      bad += !close(got[yi], alpha * s + beta * y[yi], 1e-12);
    }
    CHECK(bad == 0, "gemv trans=%d: %d wrong", t, bad);
    musaFree(dA), musaFree(dx), musaFree(dy);
  }

  // Level 1.
  {
    const int n = 1000;
    auto x = randomVector<float>(n * 2), y = randomVector<float>(n);
    float *dx = toDevice(x), *dy = toDevice(y);
    float alpha = 3.f, dot = 0.f, nrm = 0.f, asum = 0.f;
    OK(cublasSdot(h, n, dx, 2, dy, 1, &dot));
    float back = 0.f; // a negative increment walks from the far end: x reversed against y
    OK(cublasSdot(h, n, dx, -2, dy, 1, &back));
    double rev = 0;
    for (int i = 0; i < n; ++i)
      rev += double(x[2 * (n - 1 - i)]) * y[i];
    CHECK(close(back, rev, 1e-5), "dot with incx -2: %g, want %g", back, rev);
    OK(cublasSnrm2(h, n, dy, 1, &nrm));
    OK(cublasSasum(h, n, dy, 1, &asum));
    double d = 0, q = 0, a = 0;
    for (int i = 0; i < n; ++i)
      d += double(x[2 * i]) * y[i], q += double(y[i]) * y[i], a += std::fabs(y[i]);
    EXPECT(close(dot, d, 1e-5) && close(nrm, std::sqrt(q), 1e-5) && close(asum, a, 1e-5));
    OK(cublasSaxpy(h, n, &alpha, dx, 2, dy, 1));
    auto got = toHost(dy, n);
    int bad = 0;
    for (int i = 0; i < n; ++i)
      bad += !close(got[i], y[i] + 3.0 * x[2 * i], 1e-6);
    CHECK(bad == 0, "axpy: %d wrong", bad);
    float half = 0.5f;
    OK(cublasSscal(h, n, &half, dy, 1));
    OK(cublasScopy(h, n, dy, 1, dx, 2));
    auto xs = toHost(dx, 2 * n);
    bad = 0;
    for (int i = 0; i < n; ++i)
      bad += !close(xs[2 * i], 0.5 * got[i], 1e-6) + (xs[2 * i + 1] != x[2 * i + 1]);
    CHECK(bad == 0, "scal/copy: %d wrong", bad);
    // iamax / iamin: 1-based, the first of equal magnitudes.
    std::vector<float> v = {1.f, -7.f, 3.f, 7.f, 0.5f, -0.5f, 2.f};
    float *dv = toDevice(v);
    int imax = 0, imin = 0;
    OK(cublasIsamax(h, int(v.size()), dv, 1, &imax));
    OK(cublasIsamin(h, int(v.size()), dv, 1, &imin));
    CHECK(imax == 2 && imin == 5, "iamax %d iamin %d", imax, imin);
    // nrm2 without overflow: |(3e30, 4e30)| = 5e30 in float.
    std::vector<float> big = {3e30f, 4e30f};
    float *db = toDevice(big);
    OK(cublasSnrm2(h, 2, db, 1, &nrm));
    CHECK(close(nrm, 5e30, 1e-6), "nrm2 of large values: %g", nrm);
    // swap
    std::vector<float> s1 = {1, 2, 3}, s2 = {4, 5, 6};
    float *d1 = toDevice(s1), *d2 = toDevice(s2);
    OK(cublasSswap(h, 3, d1, 1, d2, 1));
    auto r1 = toHost(d1, 3), r2 = toHost(d2, 3);
    EXPECT(r1[0] == 4 && r1[2] == 6 && r2[0] == 1 && r2[2] == 3);
    // Device pointer mode: alpha and the result in device memory.
    float *dScalars = nullptr;
    EXPECT(musaMalloc(&dScalars, 2 * sizeof(float)) == musaSuccess);
    float two = 2.f;
    EXPECT(musaMemcpy(dScalars, &two, sizeof two, musaMemcpyHostToDevice) == musaSuccess);
    OK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    cublasPointerMode_t mode;
    OK(cublasGetPointerMode(h, &mode));
    EXPECT(mode == CUBLAS_POINTER_MODE_DEVICE);
    OK(cublasSscal(h, 3, dScalars, d1, 1));
    OK(cublasSdot(h, 3, d1, 1, d2, 1, dScalars + 1));
    float devDot = 0;
    EXPECT(musaMemcpy(&devDot, dScalars + 1, sizeof devDot, musaMemcpyDeviceToHost) == musaSuccess);
    CHECK(devDot == 2 * (4 * 1 + 5 * 2 + 6 * 3), "device-mode dot %g", devDot);
    OK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    musaFree(dx), musaFree(dy), musaFree(dv), musaFree(db), musaFree(d1), musaFree(d2);
    musaFree(dScalars);
  }

  // Transfers with leading dimensions and increments, and on a stream.
  {
    const int rows = 5, cols = 4, lda = 7, ldb = 6;
    std::vector<double> A(lda * cols), back(lda * cols, -1.0);
    for (size_t i = 0; i < A.size(); ++i)
      A[i] = double(i);
    double *dB = nullptr;
    EXPECT(musaMalloc(&dB, ldb * cols * sizeof(double)) == musaSuccess);
    OK(cublasSetMatrix(rows, cols, sizeof(double), A.data(), lda, dB, ldb));
    musaStream_t s;
    EXPECT(musaStreamCreate(&s) == musaSuccess);
    OK(cublasGetMatrixAsync(rows, cols, sizeof(double), dB, ldb, back.data(), lda, s));
    EXPECT(musaStreamSynchronize(s) == musaSuccess);
    int bad = 0;
    for (int c = 0; c < cols; ++c)
      for (int r = 0; r < lda; ++r)
        bad += back[r + c * lda] != (r < rows ? A[r + c * lda] : -1.0);
    CHECK(bad == 0, "Set/GetMatrix: %d wrong", bad);
    std::vector<float> v = {1, 2, 3, 4, 5, 6}, w(3, 0.f);
    float *dv = nullptr;
    EXPECT(musaMalloc(&dv, 6 * sizeof(float)) == musaSuccess);
    OK(cublasSetVector(3, sizeof(float), v.data(), 2, dv, 1)); // 1 3 5
    OK(cublasGetVector(3, sizeof(float), dv, 1, w.data(), 1));
    EXPECT(w[0] == 1 && w[1] == 3 && w[2] == 5);
    // A handle's stream: a gemm behind a memset on it, read back on it.
    OK(cublasSetStream(h, s));
    musaStream_t got;
    OK(cublasGetStream(h, &got));
    EXPECT(got == s);
    EXPECT(musaMemsetAsync(dv, 0, 6 * sizeof(float), s) == musaSuccess);
    float one = 1.f, zero = 0.f, eye[4] = {1, 0, 0, 1}, m2[4] = {2, 3, 4, 5}, out[4] = {};
    float *dm = nullptr;
    EXPECT(musaMalloc(&dm, 8 * sizeof(float)) == musaSuccess);
    EXPECT(musaMemcpyAsync(dm, eye, sizeof eye, musaMemcpyHostToDevice, s) == musaSuccess);
    EXPECT(musaMemcpyAsync(dm + 4, m2, sizeof m2, musaMemcpyHostToDevice, s) == musaSuccess);
    OK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, dm, 2, dm + 4, 2, &zero, dv, 2));
    EXPECT(musaMemcpyAsync(out, dv, sizeof out, musaMemcpyDeviceToHost, s) == musaSuccess);
    EXPECT(musaStreamSynchronize(s) == musaSuccess);
    EXPECT(out[0] == 2 && out[1] == 3 && out[2] == 4 && out[3] == 5);
    OK(cublasSetStream(h, 0));
    musaFree(dB), musaFree(dv), musaFree(dm);
    musaStreamDestroy(s);
  }

  // geam: C = alpha A^T + beta B, and a transpose alone (beta 0, B not read).
  {
    const int m = 5, n = 7;
    auto A = randomVector<float>(n * m), B = randomVector<float>(m * n);
    float *dA = toDevice(A), *dB = toDevice(B), *dC = nullptr;
    EXPECT(musaMalloc(&dC, m * n * sizeof(float)) == musaSuccess);
    float alpha = 2.f, beta = -1.f, zero = 0.f;
    OK(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &alpha, dA, n, &beta, dB, m, dC, m));
    auto C = toHost(dC, m * n);
    int bad = 0;
    for (int r = 0; r < m; ++r)
      for (int c = 0; c < n; ++c)
        bad += !close(C[r + c * m], 2.0 * A[c + r * n] - B[r + c * m], 1e-6);
    OK(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &alpha, dA, n, &zero, nullptr, m, dC, m));
    C = toHost(dC, m * n);
    for (int r = 0; r < m; ++r)
      for (int c = 0; c < n; ++c)
        bad += C[r + c * m] != 2.f * A[c + r * n];
    CHECK(bad == 0, "geam: %d wrong", bad);
    musaFree(dA), musaFree(dB), musaFree(dC);
  }

  // GemmEx: halves in, floats out (computed in float); bfloat16 in and out; int8 in, int32 out;
  // half compute with half alpha; strided batches; an unsupported mix.
  {
    const int m = 20, n = 12, k = 32; // multiples of 4: int8 products want them
    auto a = randomVector<float>(m * k), b = randomVector<float>(k * n);
    std::vector<__half> ha(a.size()), hb(b.size());
    std::vector<__nv_bfloat16> ba(a.size()), bb(b.size());
    std::vector<signed char> ia(a.size()), ib(b.size());
    for (size_t i = 0; i < a.size(); ++i)
      ha[i] = __half(a[i]), ba[i] = __nv_bfloat16(a[i]), ia[i] = (signed char)(int(a[i] * 200));
    for (size_t i = 0; i < b.size(); ++i)
      hb[i] = __half(b[i]), bb[i] = __nv_bfloat16(b[i]), ib[i] = (signed char)(int(b[i] * 200));
    __half *dha = toDevice(ha), *dhb = toDevice(hb);
    __nv_bfloat16 *dba = toDevice(ba), *dbb = toDevice(bb);
    signed char *dia = toDevice(ia), *dib = toDevice(ib);
    float *dc = nullptr;
    __nv_bfloat16 *dbc = nullptr;
    int *dic = nullptr;
    __half *dhc = nullptr;
    EXPECT(musaMalloc(&dc, m * n * sizeof(float)) == musaSuccess);
    EXPECT(musaMalloc(&dbc, m * n * sizeof(__nv_bfloat16)) == musaSuccess);
    EXPECT(musaMalloc(&dic, m * n * sizeof(int)) == musaSuccess);
    EXPECT(musaMalloc(&dhc, 2 * m * n * sizeof(__half)) == musaSuccess);
    float one = 1.f, zero = 0.f;
    int ione = 1, izero = 0;
    __half hone = __half(1.f), hzero = __half(0.f);
    OK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dha, MUSA_R_16F, m, dhb,
                    MUSA_R_16F, k, &zero, dc, MUSA_R_32F, m, CUBLAS_COMPUTE_32F,
                    CUBLAS_GEMM_DEFAULT_TENSOR_OP));
    OK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dba, MUSA_R_16BF, m, dbb,
                    MUSA_R_16BF, k, &zero, dbc, MUSA_R_16BF, m, CUBLAS_COMPUTE_32F,
                    CUBLAS_GEMM_DEFAULT));
    OK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &ione, dia, MUSA_R_8I, m, dib,
                    MUSA_R_8I, k, &izero, dic, MUSA_R_32I, m, CUBLAS_COMPUTE_32I,
                    CUBLAS_GEMM_DEFAULT));
    // Two half products by strides: the same A and B twice (stride 0), C apart.
    OK(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &hone, dha, MUSA_R_16F,
                                  m, 0, dhb, MUSA_R_16F, k, 0, &hzero, dhc, MUSA_R_16F, m, m * n,
                                  2, CUBLAS_COMPUTE_16F, CUBLAS_GEMM_DEFAULT));
    auto c = toHost(dc, m * n);
    auto bc = toHost(dbc, m * n);
    auto ic = toHost(dic, m * n);
    auto hc = toHost(dhc, 2 * m * n);
    int bad = 0;
    for (int col = 0; col < n; ++col)
      for (int r = 0; r < m; ++r) {
        double hs = 0, bs = 0;
        long long is = 0;
        for (int i = 0; i < k; ++i) {
          hs += double(float(ha[r + i * m])) * float(hb[i + col * k]);
          bs += double(float(ba[r + i * m])) * float(bb[i + col * k]);
          is += int(ia[r + i * m]) * int(ib[i + col * k]);
        }
        int at = r + col * m;
        bad += !close(c[at], hs, 1e-5) + !close(float(bc[at]), bs, 1e-2) + (ic[at] != is) +
               !close(float(hc[at]), hs, 2e-3) + (float(hc[at]) != float(hc[at + m * n]));
      }
    CHECK(bad == 0, "GemmEx: %d wrong", bad);
    EXPECT(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dha, MUSA_R_16F, m, dib,
                        MUSA_R_8I, k, &zero, dc, MUSA_R_32F, m, CUBLAS_COMPUTE_32F,
                        CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_NOT_SUPPORTED);
    int major = -1;
    OK(cublasGetProperty(MAJOR_VERSION, &major));
    EXPECT(major >= 10);
    musaFree(dha), musaFree(dhb), musaFree(dba), musaFree(dbb), musaFree(dia), musaFree(dib);
    musaFree(dc), musaFree(dbc), musaFree(dic), musaFree(dhc);
  }

  // Misuse: what cuBLAS answers.
  {
    float one = 1.f, r = 0.f;
    float *d = nullptr;
    EXPECT(musaMalloc(&d, 64 * sizeof(float)) == musaSuccess);
    EXPECT(cublasSgemm(nullptr, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, d, 2, d, 2, &one, d, 2) ==
           CUBLAS_STATUS_NOT_INITIALIZED);
    EXPECT(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 2, 2, &one, d, 2, d, 2, &one, d, 4) ==
           CUBLAS_STATUS_INVALID_VALUE); // lda 2 < m 4
    EXPECT(cublasSgemm(h, (cublasOperation_t)7, CUBLAS_OP_N, 2, 2, 2, &one, d, 2, d, 2, &one, d,
                       2) == CUBLAS_STATUS_INVALID_VALUE);
    EXPECT(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, 2, 2, &one, d, 2, d, 2, &one, d, 2) ==
           CUBLAS_STATUS_INVALID_VALUE);
    EXPECT(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 0, 2, 2, &one, d, 2, d, 2, &one, d, 2) ==
           CUBLAS_STATUS_SUCCESS); // nothing to do
    // As cuBLAS 13 answered on an H200 (tests/hardware/session22/libs_probe.h200.txt): an
    // increment of 0 is taken, a leading dimension below the rows is a mapping error.
    EXPECT(cublasSgemv(h, CUBLAS_OP_N, 2, 2, &one, d, 2, d, 0, &one, d, 1) ==
           CUBLAS_STATUS_SUCCESS); // incx 0: x[0] for all of x
    EXPECT(cublasSgemv(h, CUBLAS_OP_N, 4, 2, &one, d, 2, d, 1, &one, d, 1) ==
           CUBLAS_STATUS_INVALID_VALUE); // lda < m
    EXPECT(cublasSetMatrix(4, 2, 4, &one, 2, d, 4) == CUBLAS_STATUS_MAPPING_ERROR);
    EXPECT(cublasSetMatrix(4, 2, 4, d, 4, d, 2) == CUBLAS_STATUS_MAPPING_ERROR);
    EXPECT(cublasSetVector(2, 4, &one, -1, d, 1) == CUBLAS_STATUS_INVALID_VALUE);
    // nrm2 with incx 0: the first element n times.
    float four[4] = {-3.f, 9.f, 9.f, 9.f};
    EXPECT(musaMemcpy(d, four, sizeof four, musaMemcpyHostToDevice) == musaSuccess);
    EXPECT(cublasSnrm2(h, 4, d, 0, &r) == CUBLAS_STATUS_SUCCESS && close(r, 6.0, 1e-6));
    int ione = 1, izero = 0;
    EXPECT(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 33, &ione, d, MUSA_R_8I, 4, d,
                        MUSA_R_8I, 33, &izero, d, MUSA_R_32I, 4, CUBLAS_COMPUTE_32I,
                        CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_NOT_SUPPORTED); // ldb 33
    EXPECT(cublasSdot(h, 0, d, 1, d, 1, &r) == CUBLAS_STATUS_SUCCESS && r == 0.f);
    EXPECT(cublasSetVector(2, 4, &one, 0, d, 1) == CUBLAS_STATUS_INVALID_VALUE);
    EXPECT(cublasSetPointerMode(h, (cublasPointerMode_t)5) == CUBLAS_STATUS_INVALID_VALUE);
    EXPECT(cublasDestroy(nullptr) == CUBLAS_STATUS_NOT_INITIALIZED);
    EXPECT(std::strcmp(cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE),
                       "CUBLAS_STATUS_INVALID_VALUE") == 0 ||
           std::strcmp(cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE),
                       "MUBLAS_STATUS_INVALID_VALUE") == 0);
    musaFree(d);
  }
  OK(cublasDestroy(h));
  return finish("blas");
}

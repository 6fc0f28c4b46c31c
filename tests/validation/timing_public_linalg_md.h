// The PolyBench-GPU and SHOC kernels of timing_public.mu (suite 8): gesummv, syrk,
// covariance, Gram-Schmidt, Lennard-Jones forces (f32 and f64) and an MD5 key search. Written
// for this suite after the shapes of those benchmarks, not their code. Included by
// timing_public.mu only, after suite_harness.h, its time_median_prep and
// timing_public_kernels.h.
#pragma once

// ================================ PolyBench-GPU ==============================================

// ---- gesummv: y = alpha A x + beta B x, one thread a row walking both rows -----------------
__global__ void gesummv_rows(const float *A, const float *B, const float *x, float *y, int n,
                             float alpha, float beta) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float ta = 0.f, tb = 0.f;
  for (int j = 0; j < n; ++j) {
    ta += A[size_t(i) * n + j] * x[j];
    tb += B[size_t(i) * n + j] * x[j];
  }
  y[i] = alpha * ta + beta * tb;
}

static void bench_gesummv() {
  const int n = 4096;
  const char *cfg = "n=4096,block=256";
  const float alpha = 1.5f, beta = 1.25f;
  size_t nn = size_t(n) * n;
  std::vector<float> A(nn), B(nn), x(n);
  for (size_t i = 0; i < nn; ++i) {
    A[i] = float(int(hash_u32(unsigned(i) * 2u) % 5) - 2);
    B[i] = float(int(hash_u32(unsigned(i) * 2u + 1u) % 5) - 2);
  }
  for (int j = 0; j < n; ++j) x[j] = float(int(hash_u32(unsigned(j) + 4242u) % 7) - 3);
  float *dA, *dB, *dx, *dy;
  CHECK(musaMalloc(&dA, nn * 4));
  CHECK(musaMalloc(&dB, nn * 4));
  CHECK(musaMalloc(&dx, size_t(n) * 4));
  CHECK(musaMalloc(&dy, size_t(n) * 4));
  CHECK(musaMemcpy(dA, A.data(), nn * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, B.data(), nn * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dx, x.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  auto op = [&] { gesummv_rows<<<n / 256, 256>>>(dA, dB, dx, dy, n, alpha, beta); };
  warm(op);
  std::vector<float> y(n);
  CHECK(musaMemcpy(y.data(), dy, size_t(n) * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; i += 7) {
    double ta = 0, tb = 0;  // small integers: the sums are exact
    for (int j = 0; j < n; ++j) {
      ta += A[size_t(i) * n + j] * x[j];
      tb += B[size_t(i) * n + j] * x[j];
    }
    double want = alpha * ta + beta * tb;
    if (!near(y[i], want, 1e-6)) { fail("gesummv_rows", cfg, i, y[i], want); break; }
  }
  report("gesummv_rows", cfg, time_median(op));
  CHECK(musaFree(dA));
  CHECK(musaFree(dB));
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
}

// ---- syrk: C = beta C + alpha A A^T, one output a thread of a 32x8 block -------------------
__global__ void syrk_naive(const float *A, const float *Cin, float *Cout, int n, int m,
                           float alpha, float beta) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  float s = 0.f;
  for (int k = 0; k < m; ++k) s += A[size_t(i) * m + k] * A[size_t(j) * m + k];
  Cout[size_t(i) * n + j] = beta * Cin[size_t(i) * n + j] + alpha * s;
}

static void bench_syrk() {
  const int n = 1024, m = 512;
  const char *cfg = "n=1024,m=512";
  const float alpha = 1.f, beta = 2.f;
  std::vector<float> A(size_t(n) * m), C(size_t(n) * n);
  for (size_t i = 0; i < A.size(); ++i) A[i] = float(int(hash_u32(unsigned(i) + 606u) % 5) - 2);
  for (size_t i = 0; i < C.size(); ++i) C[i] = float(int(hash_u32(unsigned(i) + 707u) % 9) - 4);
  float *dA, *dC, *dO;
  CHECK(musaMalloc(&dA, A.size() * 4));
  CHECK(musaMalloc(&dC, C.size() * 4));
  CHECK(musaMalloc(&dO, C.size() * 4));
  CHECK(musaMemcpy(dA, A.data(), A.size() * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dC, C.data(), C.size() * 4, musaMemcpyHostToDevice));
  auto op = [&] { syrk_naive<<<dim3(n / 32, n / 8), dim3(32, 8)>>>(dA, dC, dO, n, m, alpha, beta); };
  warm(op);
  std::vector<float> O(C.size());
  CHECK(musaMemcpy(O.data(), dO, O.size() * 4, musaMemcpyDeviceToHost));
  for (size_t s = 0; s < O.size(); s += 1021) {
    int i = int(s / n), j = int(s % n);
    float acc = 0.f;  // small integers: exact
    for (int k = 0; k < m; ++k) acc += A[size_t(i) * m + k] * A[size_t(j) * m + k];
    float want = beta * C[s] + alpha * acc;
    if (O[s] != want) { fail("syrk_naive", cfg, long(s), O[s], want); break; }
  }
  report("syrk_naive", cfg, time_median(op));
  CHECK(musaFree(dA));
  CHECK(musaFree(dC));
  CHECK(musaFree(dO));
}

// ---- covariance: column means, centring, then one thread a column j1 computing its row of the
// upper triangle (j2 >= j1), each entry a loop over the n samples --------------------------
__global__ void cov_mean(const float *data, float *mean, int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += data[size_t(i) * m + j];
  mean[j] = s / float(n);
}

__global__ void cov_center(float *data, const float *mean, int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < m) data[size_t(i) * m + j] -= mean[j];
}

__global__ void cov_covar(const float *data, float *sym, int m, int n) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 >= m) return;
  for (int j2 = j1; j2 < m; ++j2) {
    float s = 0.f;
    for (int i = 0; i < n; ++i) s += data[size_t(i) * m + j1] * data[size_t(i) * m + j2];
    sym[size_t(j1) * m + j2] = s;
    sym[size_t(j2) * m + j1] = s;
  }
}

static void bench_covariance() {
  const int m = 256, n = 256;  // m variables (columns), n samples (rows)
  const char *cfg = "m=256,n=256,kernels=3";
  std::vector<float> data(size_t(n) * m);
  for (size_t i = 0; i < data.size(); ++i) data[i] = float(hash_u32(unsigned(i) + 8080u) % 5);
  float *dd, *dmean, *dsym, *dorig;
  CHECK(musaMalloc(&dd, data.size() * 4));
  CHECK(musaMalloc(&dorig, data.size() * 4));
  CHECK(musaMalloc(&dmean, size_t(m) * 4));
  CHECK(musaMalloc(&dsym, size_t(m) * m * 4));
  CHECK(musaMemcpy(dorig, data.data(), data.size() * 4, musaMemcpyHostToDevice));
  auto prep = [&] { CHECK(musaMemcpy(dd, dorig, data.size() * 4, musaMemcpyDeviceToDevice)); };
  auto op = [&] {
    cov_mean<<<(m + 255) / 256, 256>>>(dd, dmean, m, n);
    cov_center<<<dim3(m / 32, n / 8), dim3(32, 8)>>>(dd, dmean, m, n);
    cov_covar<<<m / 64, 64>>>(dd, dsym, m, n);
  };
  prep();
  warm(op);
  std::vector<float> sym(size_t(m) * m);
  CHECK(musaMemcpy(sym.data(), dsym, sym.size() * 4, musaMemcpyDeviceToHost));
  std::vector<double> mean(m, 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) mean[j] += data[size_t(i) * m + j];
  for (int j = 0; j < m; ++j) mean[j] /= n;
  for (int s = 0; s < m * m; s += 37) {
    int j1 = s / m, j2 = s % m;
    double want = 0;
    for (int i = 0; i < n; ++i) want += (data[size_t(i) * m + j1] - mean[j1]) * (data[size_t(i) * m + j2] - mean[j2]);
    if (!near(sym[s], want, 1e-4)) { fail("covariance", cfg, s, sym[s], want); break; }
  }
  report("covariance", cfg, time_median_prep(prep, op));
  CHECK(musaFree(dd));
  CHECK(musaFree(dorig));
  CHECK(musaFree(dmean));
  CHECK(musaFree(dsym));
}

// ---- gramschmidt (modified, column by column): for each column k a one-warp norm, a scale
// of column k into Q, and a thread-per-column projection and update of the columns right of k
__global__ void gs_norm(const float *A, float *R, int n, int k) {
  int lane = threadIdx.x;
  float s = 0.f;
  for (int i = lane; i < n; i += 32) {
    float v = A[size_t(i) * n + k];
    s += v * v;
  }
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) R[size_t(k) * n + k] = sqrtf(s);
}

__global__ void gs_scale(const float *A, const float *R, float *Q, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) Q[size_t(i) * n + k] = A[size_t(i) * n + k] / R[size_t(k) * n + k];
}

__global__ void gs_update(float *A, const float *Q, float *R, int n, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j <= k || j >= n) return;
  float r = 0.f;
  for (int i = 0; i < n; ++i) r += Q[size_t(i) * n + k] * A[size_t(i) * n + j];
  R[size_t(k) * n + j] = r;
  for (int i = 0; i < n; ++i) A[size_t(i) * n + j] -= Q[size_t(i) * n + k] * r;
}

static void bench_gramschmidt() {
  const int n = 128;
  const char *cfg = "n=128,launches=384";
  size_t nn = size_t(n) * n;
  std::vector<float> A(nn);
  for (size_t i = 0; i < nn; ++i) A[i] = float(hash_u32(unsigned(i) + 31337u) % 1000) / 1000.f;
  for (int i = 0; i < n; ++i) A[size_t(i) * n + i] += 4.f;
  float *dA, *dorig, *dQ, *dR;
  CHECK(musaMalloc(&dA, nn * 4));
  CHECK(musaMalloc(&dorig, nn * 4));
  CHECK(musaMalloc(&dQ, nn * 4));
  CHECK(musaMalloc(&dR, nn * 4));
  CHECK(musaMemcpy(dorig, A.data(), nn * 4, musaMemcpyHostToDevice));
  CHECK(musaMemset(dR, 0, nn * 4));
  auto prep = [&] { CHECK(musaMemcpy(dA, dorig, nn * 4, musaMemcpyDeviceToDevice)); };
  auto op = [&] {
    for (int k = 0; k < n; ++k) {
      gs_norm<<<1, 32>>>(dA, dR, n, k);
      gs_scale<<<(n + 63) / 64, 64>>>(dA, dR, dQ, n, k);
      gs_update<<<(n + 63) / 64, 64>>>(dA, dQ, dR, n, k);
    }
  };
  prep();
  warm(op);
  std::vector<float> Q(nn), R(nn);
  CHECK(musaMemcpy(Q.data(), dQ, nn * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(R.data(), dR, nn * 4, musaMemcpyDeviceToHost));
  for (size_t s = 0; s < nn; s += 53) {
    int i = int(s / n), j = int(s % n);
    double qr = 0, qq = 0;
    for (int k = 0; k <= j; ++k) qr += double(Q[size_t(i) * n + k]) * R[size_t(k) * n + j];
    for (int r = 0; r < n; ++r) qq += double(Q[size_t(r) * n + i]) * Q[size_t(r) * n + j];
    if (!near(qr, A[s], 1e-4)) { fail("gramschmidt", cfg, long(s), qr, A[s]); break; }
    if (std::fabs(qq - (i == j)) > 1e-4) { fail("gramschmidt", cfg, long(s), qq, i == j); break; }
  }
  report("gramschmidt", cfg, time_median_prep(prep, op));
  CHECK(musaFree(dA));
  CHECK(musaFree(dorig));
  CHECK(musaFree(dQ));
  CHECK(musaFree(dR));
}

// ===================================== SHOC ==================================================

// ---- md: Lennard-Jones forces, a thread an atom, 128 neighbours from a column-major list ---
struct alignas(32) DPos4 {
  double x, y, z, w;
};

template <class P, class T>
__global__ void md_lj(const P *pos, const int *neigh, P *force, int n, int maxn, T cutsq, T lj1,
                      T lj2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  P ip = pos[i];
  T fx = 0, fy = 0, fz = 0;
  for (int j = 0; j < maxn; ++j) {
    P jp = pos[neigh[size_t(j) * n + i]];
    T dx = ip.x - jp.x, dy = ip.y - jp.y, dz = ip.z - jp.z;
    T r2 = dx * dx + dy * dy + dz * dz;
    if (r2 < cutsq) {
      T r2inv = T(1) / r2;
      T r6inv = r2inv * r2inv * r2inv;
      T f = r2inv * r6inv * (lj1 * r6inv - lj2);
      fx += dx * f;
      fy += dy * f;
      fz += dz * f;
    }
  }
  P o;
  o.x = fx;
  o.y = fy;
  o.z = fz;
  o.w = 0;
  force[i] = o;
}

template <class P, class T> static void bench_md_one(const char *cfg) {
  const int LX = 48, LY = 48, LZ = 32, n = LX * LY * LZ, maxn = 128;
  const T cutsq = 16, lj1 = 1.5, lj2 = 2.0;
  std::vector<P> pos(n);
  for (int i = 0; i < n; ++i) {
    int x = i % LX, y = i / LX % LY, z = i / (LX * LY);
    auto jit = [&](unsigned s) { return T(int(hash_u32(unsigned(i) * 3u + s) % 401) - 200) / T(1000); };
    pos[i].x = T(x) + jit(0);
    pos[i].y = T(y) + jit(1);
    pos[i].z = T(z) + jit(2);
    pos[i].w = 0;
  }
  std::vector<int> neigh(size_t(maxn) * n);
  int offs[maxn][3], c = 0;
  for (int dz = -2; dz <= 2; ++dz)
    for (int dy = -2; dy <= 2; ++dy)
      for (int dx = -2; dx <= 2; ++dx)
        if (dx || dy || dz) { offs[c][0] = dx; offs[c][1] = dy; offs[c][2] = dz; ++c; }
  int extra[4][3] = {{3, 0, 0}, {-3, 0, 0}, {0, 3, 0}, {0, -3, 0}};
  for (int e = 0; e < 4; ++e, ++c)
    for (int d = 0; d < 3; ++d) offs[c][d] = extra[e][d];
  for (int i = 0; i < n; ++i) {
    int x = i % LX, y = i / LX % LY, z = i / (LX * LY);
    for (int j = 0; j < maxn; ++j) {  // periodic indices; wrapped neighbours fall outside the cutoff
      int xx = (x + offs[j][0] + LX) % LX, yy = (y + offs[j][1] + LY) % LY, zz = (z + offs[j][2] + LZ) % LZ;
      neigh[size_t(j) * n + i] = (zz * LY + yy) * LX + xx;
    }
  }
  P *dpos, *dforce;
  int *dneigh;
  CHECK(musaMalloc(&dpos, size_t(n) * sizeof(P)));
  CHECK(musaMalloc(&dforce, size_t(n) * sizeof(P)));
  CHECK(musaMalloc(&dneigh, neigh.size() * 4));
  CHECK(musaMemcpy(dpos, pos.data(), size_t(n) * sizeof(P), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dneigh, neigh.data(), neigh.size() * 4, musaMemcpyHostToDevice));
  auto op = [&] { md_lj<P, T><<<n / 128, 128>>>(dpos, dneigh, dforce, n, maxn, cutsq, lj1, lj2); };
  warm(op);
  std::vector<P> force(n);
  CHECK(musaMemcpy(force.data(), dforce, size_t(n) * sizeof(P), musaMemcpyDeviceToHost));
  const double tol = sizeof(T) == 4 ? 1e-5 : 1e-12;
  for (int i = 0; i < n; i += 101) {
    double f[3] = {0, 0, 0}, mag = 0;
    for (int j = 0; j < maxn; ++j) {
      const P &q = pos[neigh[size_t(j) * n + i]];
      double d[3] = {double(pos[i].x) - q.x, double(pos[i].y) - q.y, double(pos[i].z) - q.z};
      double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      if (r2 < cutsq) {
        double r2inv = 1.0 / r2, r6inv = r2inv * r2inv * r2inv;
        double fs = r2inv * r6inv * (double(lj1) * r6inv - double(lj2));
        for (int k = 0; k < 3; ++k) f[k] += d[k] * fs;
        mag += std::fabs(fs) * std::sqrt(r2);
      }
    }
    double got[3] = {double(force[i].x), double(force[i].y), double(force[i].z)};
    int k = 0;
    for (; k < 3; ++k)
      if (std::fabs(got[k] - f[k]) > tol * mag + 1e-9) break;
    if (k < 3) { fail("md_lj", cfg, long(i) * 3 + k, got[k], f[k]); break; }
  }
  report("md_lj", cfg, time_median(op));
  CHECK(musaFree(dpos));
  CHECK(musaFree(dforce));
  CHECK(musaFree(dneigh));
}

static void bench_md() {
  bench_md_one<float4, float>("f32,atoms=73728,neighbors=128");
  bench_md_one<DPos4, double>("f64,atoms=73728,neighbors=128");
}

// ---- md5 search: each thread hashes one 8-byte key (its index plus a base) with the 64 MD5
// steps, compares with a target digest, and the block XORs its first digest words ----------
#define MD5_ROT(x, s) (((x) << (s)) | ((x) >> (32 - (s))))
#define MD5_STEP(f, a, b, c, d, x, s, k) a = b + MD5_ROT(a + (f) + (x) + (k), s)
#define MD5_F(a, b, c, d, x, s, k) MD5_STEP(((b) & (c)) | (~(b) & (d)), a, b, c, d, x, s, k)
#define MD5_G(a, b, c, d, x, s, k) MD5_STEP(((b) & (d)) | ((c) & ~(d)), a, b, c, d, x, s, k)
#define MD5_H(a, b, c, d, x, s, k) MD5_STEP((b) ^ (c) ^ (d), a, b, c, d, x, s, k)
#define MD5_I(a, b, c, d, x, s, k) MD5_STEP((c) ^ ((b) | ~(d)), a, b, c, d, x, s, k)

// MD5 of the 8 bytes of key (little-endian), one padded 64-byte block.
PUB_HD inline void md5_key8(unsigned long long key, unsigned out[4]) {
  unsigned m[16] = {unsigned(key), unsigned(key >> 32), 0x80u, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 64u, 0};
  unsigned a = 0x67452301u, b = 0xefcdab89u, c = 0x98badcfeu, d = 0x10325476u;
  MD5_F(a, b, c, d, m[0], 7, 0xd76aa478u);
  MD5_F(d, a, b, c, m[1], 12, 0xe8c7b756u);
  MD5_F(c, d, a, b, m[2], 17, 0x242070dbu);
  MD5_F(b, c, d, a, m[3], 22, 0xc1bdceeeu);
  MD5_F(a, b, c, d, m[4], 7, 0xf57c0fafu);
  MD5_F(d, a, b, c, m[5], 12, 0x4787c62au);
  MD5_F(c, d, a, b, m[6], 17, 0xa8304613u);
  MD5_F(b, c, d, a, m[7], 22, 0xfd469501u);
  MD5_F(a, b, c, d, m[8], 7, 0x698098d8u);
  MD5_F(d, a, b, c, m[9], 12, 0x8b44f7afu);
  MD5_F(c, d, a, b, m[10], 17, 0xffff5bb1u);
  MD5_F(b, c, d, a, m[11], 22, 0x895cd7beu);
  MD5_F(a, b, c, d, m[12], 7, 0x6b901122u);
  MD5_F(d, a, b, c, m[13], 12, 0xfd987193u);
  MD5_F(c, d, a, b, m[14], 17, 0xa679438eu);
  MD5_F(b, c, d, a, m[15], 22, 0x49b40821u);
  MD5_G(a, b, c, d, m[1], 5, 0xf61e2562u);
  MD5_G(d, a, b, c, m[6], 9, 0xc040b340u);
  MD5_G(c, d, a, b, m[11], 14, 0x265e5a51u);
  MD5_G(b, c, d, a, m[0], 20, 0xe9b6c7aau);
  MD5_G(a, b, c, d, m[5], 5, 0xd62f105du);
  MD5_G(d, a, b, c, m[10], 9, 0x02441453u);
  MD5_G(c, d, a, b, m[15], 14, 0xd8a1e681u);
  MD5_G(b, c, d, a, m[4], 20, 0xe7d3fbc8u);
  MD5_G(a, b, c, d, m[9], 5, 0x21e1cde6u);
  MD5_G(d, a, b, c, m[14], 9, 0xc33707d6u);
  MD5_G(c, d, a, b, m[3], 14, 0xf4d50d87u);
  MD5_G(b, c, d, a, m[8], 20, 0x455a14edu);
  MD5_G(a, b, c, d, m[13], 5, 0xa9e3e905u);
  MD5_G(d, a, b, c, m[2], 9, 0xfcefa3f8u);
  MD5_G(c, d, a, b, m[7], 14, 0x676f02d9u);
  MD5_G(b, c, d, a, m[12], 20, 0x8d2a4c8au);
  MD5_H(a, b, c, d, m[5], 4, 0xfffa3942u);
  MD5_H(d, a, b, c, m[8], 11, 0x8771f681u);
  MD5_H(c, d, a, b, m[11], 16, 0x6d9d6122u);
  MD5_H(b, c, d, a, m[14], 23, 0xfde5380cu);
  MD5_H(a, b, c, d, m[1], 4, 0xa4beea44u);
  MD5_H(d, a, b, c, m[4], 11, 0x4bdecfa9u);
  MD5_H(c, d, a, b, m[7], 16, 0xf6bb4b60u);
  MD5_H(b, c, d, a, m[10], 23, 0xbebfbc70u);
  MD5_H(a, b, c, d, m[13], 4, 0x289b7ec6u);
  MD5_H(d, a, b, c, m[0], 11, 0xeaa127fau);
  MD5_H(c, d, a, b, m[3], 16, 0xd4ef3085u);
  MD5_H(b, c, d, a, m[6], 23, 0x04881d05u);
  MD5_H(a, b, c, d, m[9], 4, 0xd9d4d039u);
  MD5_H(d, a, b, c, m[12], 11, 0xe6db99e5u);
  MD5_H(c, d, a, b, m[15], 16, 0x1fa27cf8u);
  MD5_H(b, c, d, a, m[2], 23, 0xc4ac5665u);
  MD5_I(a, b, c, d, m[0], 6, 0xf4292244u);
  MD5_I(d, a, b, c, m[7], 10, 0x432aff97u);
  MD5_I(c, d, a, b, m[14], 15, 0xab9423a7u);
  MD5_I(b, c, d, a, m[5], 21, 0xfc93a039u);
  MD5_I(a, b, c, d, m[12], 6, 0x655b59c3u);
  MD5_I(d, a, b, c, m[3], 10, 0x8f0ccc92u);
  MD5_I(c, d, a, b, m[10], 15, 0xffeff47du);
  MD5_I(b, c, d, a, m[1], 21, 0x85845dd1u);
  MD5_I(a, b, c, d, m[8], 6, 0x6fa87e4fu);
  MD5_I(d, a, b, c, m[15], 10, 0xfe2ce6e0u);
  MD5_I(c, d, a, b, m[6], 15, 0xa3014314u);
  MD5_I(b, c, d, a, m[13], 21, 0x4e0811a1u);
  MD5_I(a, b, c, d, m[4], 6, 0xf7537e82u);
  MD5_I(d, a, b, c, m[11], 10, 0xbd3af235u);
  MD5_I(c, d, a, b, m[2], 15, 0x2ad7d2bbu);
  MD5_I(b, c, d, a, m[9], 21, 0xeb86d391u);
  out[0] = a + 0x67452301u;
  out[1] = b + 0xefcdab89u;
  out[2] = c + 0x98badcfeu;
  out[3] = d + 0x10325476u;
}

__global__ void md5_search(unsigned long long base, uint4 target, int *found, unsigned *blockxor) {
  __shared__ unsigned wx[8];
  unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned h[4];
  md5_key8(base + idx, h);
  if (h[0] == target.x && h[1] == target.y && h[2] == target.z && h[3] == target.w) *found = int(idx);
  unsigned x = h[0];
  for (int o = 16; o > 0; o >>= 1) x ^= __shfl_xor_sync(0xffffffffu, x, o);
  if ((threadIdx.x & 31) == 0) wx[threadIdx.x >> 5] = x;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned t = 0;
    for (int w = 0; w < 8; ++w) t ^= wx[w];
    blockxor[blockIdx.x] = t;
  }
}

static void bench_md5() {
  const int n = 1 << 24, blocks = n / 256, secret = 12345678;
  const unsigned long long base = 0x3132333435360000ull;
  const char *cfg = "keys=16777216,len=8";
  unsigned h[4];
  md5_key8(0x3837363534333231ull, h);  // "12345678": 25d55ad283aa400af464c76d713c07ad
  if (h[0] != 0xd25ad525u || h[1] != 0x0a40aa83u || h[2] != 0x6dc764f4u || h[3] != 0xad073c71u)
    fail("md5_search", cfg, -1, h[0], 0xd25ad525u);
  md5_key8(base + secret, h);
  uint4 target = make_uint4(h[0], h[1], h[2], h[3]);
  int *dfound;
  unsigned *dx;
  CHECK(musaMalloc(&dfound, 4));
  CHECK(musaMalloc(&dx, size_t(blocks) * 4));
  CHECK(musaMemset(dfound, 0xff, 4));
  auto op = [&] { md5_search<<<blocks, 256>>>(base, target, dfound, dx); };
  warm(op);
  int found = 0;
  std::vector<unsigned> bx(blocks);
  CHECK(musaMemcpy(&found, dfound, 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(bx.data(), dx, size_t(blocks) * 4, musaMemcpyDeviceToHost));
  if (found != secret) fail("md5_search", cfg, 0, found, secret);
  for (int b = 0; b < blocks; b += 211) {
    unsigned want = 0;
    for (int t = 0; t < 256; ++t) {
      md5_key8(base + unsigned(b * 256 + t), h);
      want ^= h[0];
    }
    if (bx[b] != want) { fail("md5_search", cfg, b, bx[b], want); break; }
  }
  report("md5_search", cfg, time_median(op));
  CHECK(musaFree(dfound));
  CHECK(musaFree(dx));
}

// The Rodinia-style kernels of timing_public.mu (suite 8): hotspot, srad, backprop (both
// kernels), blocked LU, lavaMD, streamcluster's gain kernel, pathfinder, cfd's flux kernel and
// b+tree search. Written for this suite after the shapes of the Rodinia benchmarks (data
// layouts, block shapes, what each thread does); not their code. Included by
// timing_public.mu only, after suite_harness.h and its time_median_prep.
#pragma once

#define PUB_HD __host__ __device__

// ---- hotspot: one explicit step of the 2D thermal model, a 16x16 tile plus a one-cell halo
// in shared memory (edges clamp), one cell a thread ------------------------------------------
struct HotspotCoef {
  float sdc, rx1, ry1, rz1, amb;  // step/capacitance, 1/Rx, 1/Ry, 1/Rz, ambient temperature
};

PUB_HD inline float hotspot_cell(float c, float n, float s, float w, float e, float p,
                                 HotspotCoef k) {
  return c + k.sdc * (p + (n + s - 2.f * c) * k.ry1 + (w + e - 2.f * c) * k.rx1 +
                      (k.amb - c) * k.rz1);
}

__global__ void hotspot_tile(const float *temp, const float *power, float *out, int w, int h,
                             HotspotCoef k) {
  __shared__ float t[18][18];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x0 = blockIdx.x * 16 - 1, y0 = blockIdx.y * 16 - 1;
  for (int i = ty * 16 + tx; i < 18 * 18; i += 256) {
    int ly = i / 18, lx = i % 18;
    int gx = min(max(x0 + lx, 0), w - 1), gy = min(max(y0 + ly, 0), h - 1);
    t[ly][lx] = temp[size_t(gy) * w + gx];
  }
  __syncthreads();
  int x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
  size_t i = size_t(y) * w + x;
  out[i] = hotspot_cell(t[ty + 1][tx + 1], t[ty][tx + 1], t[ty + 2][tx + 1], t[ty + 1][tx],
                        t[ty + 1][tx + 2], power[i], k);
}

static void hotspot_host_step(const std::vector<float> &t, const std::vector<float> &p,
                              std::vector<float> &o, int w, int h, HotspotCoef k) {
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      auto at = [&](int xx, int yy) {
        return t[size_t(std::min(std::max(yy, 0), h - 1)) * w + std::min(std::max(xx, 0), w - 1)];
      };
      o[size_t(y) * w + x] = hotspot_cell(at(x, y), at(x, y - 1), at(x, y + 1), at(x - 1, y),
                                          at(x + 1, y), p[size_t(y) * w + x], k);
    }
}

static void bench_hotspot() {
  const HotspotCoef k = {0.5f, 0.1f, 0.1f, 0.0005f, 80.f};
  struct Cfg { int n, iters; const char *name; };
  for (Cfg c : {Cfg{512, 8, "512x512,iters=8"}, Cfg{4096, 1, "4096x4096,iters=1"}}) {
    const int n = c.n;
    size_t cells = size_t(n) * n;
    std::vector<float> t(cells), p(cells);
    for (size_t i = 0; i < cells; ++i) {
      t[i] = 320.f + float(hash_u32(unsigned(i) * 3u + 1u) % 4000) / 100.f;
      p[i] = float(hash_u32(unsigned(i) * 3u + 2u) % 1000) / 1000.f;
    }
    float *dt[2], *dp;
    CHECK(musaMalloc(&dt[0], cells * 4));
    CHECK(musaMalloc(&dt[1], cells * 4));
    CHECK(musaMalloc(&dp, cells * 4));
    CHECK(musaMemcpy(dt[0], t.data(), cells * 4, musaMemcpyHostToDevice));
    CHECK(musaMemcpy(dp, p.data(), cells * 4, musaMemcpyHostToDevice));
    const int iters = c.iters;
    auto op = [&] {
      for (int it = 0; it < iters; ++it)
        hotspot_tile<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(dt[it & 1], dp, dt[(it + 1) & 1], n, n, k);
    };
    warm(op);
    std::vector<float> got(cells), ref(t), tmp(cells);
    CHECK(musaMemcpy(got.data(), dt[iters & 1], cells * 4, musaMemcpyDeviceToHost));
    for (int it = 0; it < iters; ++it) {
      hotspot_host_step(ref, p, tmp, n, n, k);
      ref.swap(tmp);
    }
    for (size_t i = 0; i < cells; i += (cells > (1u << 20) ? 97 : 1))
      if (!near(got[i], ref[i], 1e-5)) { fail("hotspot_tile", c.name, long(i), got[i], ref[i]); break; }
    report("hotspot_tile", c.name, time_median(op));
    CHECK(musaFree(dt[0]));
    CHECK(musaFree(dt[1]));
    CHECK(musaFree(dp));
  }
}

// ---- srad: speckle-reducing anisotropic diffusion, one step as two kernels (derivatives and
// diffusion coefficient to five arrays; then the divergence update to a second image) --------
PUB_HD inline float srad_coef(const float *J, int w, int h, int x, int y, float q0sqr,
                              float *dn, float *ds, float *dw, float *de) {
  size_t i = size_t(y) * w + x;
  float jc = J[i];
  float n = J[size_t(y > 0 ? y - 1 : 0) * w + x] - jc;
  float s = J[size_t(y < h - 1 ? y + 1 : h - 1) * w + x] - jc;
  float wv = J[size_t(y) * w + (x > 0 ? x - 1 : 0)] - jc;
  float e = J[size_t(y) * w + (x < w - 1 ? x + 1 : w - 1)] - jc;
  float g2 = (n * n + s * s + wv * wv + e * e) / (jc * jc);
  float l = (n + s + wv + e) / jc;
  float num = 0.5f * g2 - (1.f / 16.f) * (l * l);
  float den = 1.f + 0.25f * l;
  float qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1.f + q0sqr));
  float c = 1.f / (1.f + den);
  c = c < 0.f ? 0.f : (c > 1.f ? 1.f : c);
  *dn = n;
  *ds = s;
  *dw = wv;
  *de = e;
  return c;
}

__global__ void srad_grad(const float *J, float *dN, float *dS, float *dW, float *dE, float *C,
                          int w, int h, float q0sqr) {
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  size_t i = size_t(y) * w + x;
  float n, s, wv, e;
  float c = srad_coef(J, w, h, x, y, q0sqr, &n, &s, &wv, &e);
  dN[i] = n;
  dS[i] = s;
  dW[i] = wv;
  dE[i] = e;
  C[i] = c;
}

__global__ void srad_update(const float *J, const float *dN, const float *dS, const float *dW,
                            const float *dE, const float *C, float *Jout, int w, int h,
                            float lambda) {
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  size_t i = size_t(y) * w + x;
  float cc = C[i];
  float cs = C[size_t(y < h - 1 ? y + 1 : h - 1) * w + x];
  float ce = C[size_t(y) * w + (x < w - 1 ? x + 1 : w - 1)];
  float d = cc * dN[i] + cs * dS[i] + cc * dW[i] + ce * dE[i];
  Jout[i] = J[i] + 0.25f * lambda * d;
}

static void bench_srad() {
  const int w = 2048, h = 2048;
  const char *cfg = "2048x2048,kernels=2";
  const float lambda = 0.5f;
  size_t n = size_t(w) * h;
  std::vector<float> J(n);
  double sum = 0, sum2 = 0;
  for (size_t i = 0; i < n; ++i) {
    J[i] = std::exp(float(hash_u32(unsigned(i) + 17u) % 256) / 255.f);
    sum += J[i];
    sum2 += double(J[i]) * J[i];
  }
  double mean = sum / n, var = sum2 / n - mean * mean;
  const float q0sqr = float(var / (mean * mean));
  float *d[7];  // J, dN, dS, dW, dE, C, Jout
  for (int a = 0; a < 7; ++a) CHECK(musaMalloc(&d[a], n * 4));
  CHECK(musaMemcpy(d[0], J.data(), n * 4, musaMemcpyHostToDevice));
  dim3 grid(w / 16, h / 16), block(16, 16);
  auto op = [&] {
    srad_grad<<<grid, block>>>(d[0], d[1], d[2], d[3], d[4], d[5], w, h, q0sqr);
    srad_update<<<grid, block>>>(d[0], d[1], d[2], d[3], d[4], d[5], d[6], w, h, lambda);
  };
  warm(op);
  std::vector<float> out(n);
  CHECK(musaMemcpy(out.data(), d[6], n * 4, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i += 1009) {
    int x = int(i % w), y = int(i / w);
    float dn, ds, dw, de, t0, t1, t2, t3;
    float cc = srad_coef(J.data(), w, h, x, y, q0sqr, &dn, &ds, &dw, &de);
    float cs = srad_coef(J.data(), w, h, x, y < h - 1 ? y + 1 : h - 1, q0sqr, &t0, &t1, &t2, &t3);
    float ce = srad_coef(J.data(), w, h, x < w - 1 ? x + 1 : w - 1, y, q0sqr, &t0, &t1, &t2, &t3);
    double want = J[i] + 0.25 * lambda * (double(cc) * dn + double(cs) * ds + double(cc) * dw + double(ce) * de);
    if (!near(out[i], want, 1e-4)) { fail("srad", cfg, long(i), out[i], want); break; }
  }
  report("srad", cfg, time_median(op));
  for (int a = 0; a < 7; ++a) CHECK(musaFree(d[a]));
}

// ---- backprop: the layer-forward kernel (a 16x16 block multiplies 16 inputs by their 16
// hidden-unit weights in shared memory and reduces over the inputs with a power-of-two tree
// whose test is a modulo) and the weight-adjust kernel (momentum update of two 2D arrays) ---
#define BP_HID 16
__global__ void backprop_layerforward(const float *x, const float *w, float *partial) {
  __shared__ float xin[16];
  __shared__ float prod[16][BP_HID];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.x * 16 + ty;
  if (tx == 0) xin[ty] = x[row];
  __syncthreads();
  prod[ty][tx] = w[size_t(row) * BP_HID + tx] * xin[ty];
  __syncthreads();
  for (int s = 1; s < 16; s *= 2) {
    if (ty % (2 * s) == 0) prod[ty][tx] += prod[ty + s][tx];
    __syncthreads();
  }
  if (ty == 0) partial[size_t(blockIdx.x) * BP_HID + tx] = prod[0][tx];
}

__global__ void backprop_adjust_weights(const float *delta, const float *x, float *w, float *oldw,
                                        float eta, float momentum) {
  int tx = threadIdx.x, row = blockIdx.x * 16 + threadIdx.y;
  size_t i = size_t(row) * BP_HID + tx;
  float dw = eta * delta[tx] * x[row] + momentum * oldw[i];
  w[i] += dw;
  oldw[i] = dw;
}

static void bench_backprop() {
  const int in = 1 << 20;
  size_t nw = size_t(in) * BP_HID;
  std::vector<float> x(in), w(nw), oldw(nw), delta(BP_HID);
  for (int i = 0; i < in; ++i) x[i] = float(hash_u32(unsigned(i) + 5u) % 1000) / 1000.f;
  for (size_t i = 0; i < nw; ++i) {
    w[i] = float(int(hash_u32(unsigned(i) * 2u + 7u) % 1001) - 500) / 1000.f;
    oldw[i] = float(int(hash_u32(unsigned(i) * 2u + 8u) % 1001) - 500) / 10000.f;
  }
  for (int j = 0; j < BP_HID; ++j) delta[j] = float(int(hash_u32(unsigned(j) + 99u) % 201) - 100) / 1000.f;
  float *dx, *dw, *dold, *dpart, *ddelta;
  CHECK(musaMalloc(&dx, size_t(in) * 4));
  CHECK(musaMalloc(&dw, nw * 4));
  CHECK(musaMalloc(&dold, nw * 4));
  CHECK(musaMalloc(&dpart, size_t(in / 16) * BP_HID * 4));
  CHECK(musaMalloc(&ddelta, BP_HID * 4));
  CHECK(musaMemcpy(dx, x.data(), size_t(in) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dw, w.data(), nw * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dold, oldw.data(), nw * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(ddelta, delta.data(), BP_HID * 4, musaMemcpyHostToDevice));
  {
    const char *cfg = "in=1048576,hidden=16";
    auto op = [&] { backprop_layerforward<<<in / 16, dim3(16, 16)>>>(dx, dw, dpart); };
    warm(op);
    std::vector<float> part(size_t(in / 16) * BP_HID);
    CHECK(musaMemcpy(part.data(), dpart, part.size() * 4, musaMemcpyDeviceToHost));
    for (int b = 0; b < in / 16; b += 37)
      for (int j = 0; j < BP_HID; ++j) {
        double want = 0;
        for (int r = 0; r < 16; ++r) want += double(w[size_t(b * 16 + r) * BP_HID + j]) * x[b * 16 + r];
        if (!near(part[size_t(b) * BP_HID + j], want, 1e-5)) {
          fail("backprop_layerforward", cfg, long(b) * BP_HID + j, part[size_t(b) * BP_HID + j], want);
          b = in;
          break;
        }
      }
    report("backprop_layerforward", cfg, time_median(op));
  }
  {
    const char *cfg = "in=1048576,hidden=16";
    const float eta = 0.3f, mom = 0.3f;
    auto op = [&] { backprop_adjust_weights<<<in / 16, dim3(16, 16)>>>(ddelta, dx, dw, dold, eta, mom); };
    warm(op);
    std::vector<float> gw(nw), go(nw);
    CHECK(musaMemcpy(gw.data(), dw, nw * 4, musaMemcpyDeviceToHost));
    CHECK(musaMemcpy(go.data(), dold, nw * 4, musaMemcpyDeviceToHost));
    for (size_t i = 0; i < nw; i += 1013) {
      double dwant = double(eta) * delta[i % BP_HID] * x[i / BP_HID] + double(mom) * oldw[i];
      if (!near(go[i], dwant, 1e-5)) { fail("backprop_adjust_weights", cfg, long(i), go[i], dwant); break; }
      if (!near(gw[i], w[i] + dwant, 1e-5)) { fail("backprop_adjust_weights", cfg, long(i), gw[i], w[i] + dwant); break; }
    }
    report("backprop_adjust_weights", cfg, time_median(op));
  }
  CHECK(musaFree(dx));
  CHECK(musaFree(dw));
  CHECK(musaFree(dold));
  CHECK(musaFree(dpart));
  CHECK(musaFree(ddelta));
}

// ---- lud: blocked right-looking LU without pivoting, 16x16 blocks, three kernels a block
// step (factor the diagonal block in one block; solve the row and column panels; update the
// trailing matrix one 16x16 block a thread block), n/16 steps ---------------------------------
__global__ void lud_diagonal(float *m, int n, int off) {
  __shared__ float s[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = m[size_t(off + ty) * n + off + tx];
  __syncthreads();
  for (int k = 0; k < 15; ++k) {
    if (ty > k && tx == k) s[ty][k] /= s[k][k];
    __syncthreads();
    if (ty > k && tx > k) s[ty][tx] -= s[ty][k] * s[k][tx];
    __syncthreads();
  }
  m[size_t(off + ty) * n + off + tx] = s[ty][tx];
}

// blockIdx.y == 0: the row panel right of the diagonal block (L00 U01 = A01, L00 unit lower);
// blockIdx.y == 1: the column panel below it (L10 U00 = A10).
__global__ void lud_perimeter(float *m, int n, int off) {
  __shared__ float d[16][16], t[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int blk = off + 16 * (blockIdx.x + 1);
  d[ty][tx] = m[size_t(off + ty) * n + off + tx];
  size_t at = blockIdx.y == 0 ? size_t(off + ty) * n + blk + tx : size_t(blk + ty) * n + off + tx;
  t[ty][tx] = m[at];
  __syncthreads();
  if (blockIdx.y == 0) {
    for (int k = 0; k < 15; ++k) {
      if (ty > k) t[ty][tx] -= d[ty][k] * t[k][tx];
      __syncthreads();
    }
  } else {
    for (int k = 0; k < 16; ++k) {
      if (tx == k) t[ty][k] /= d[k][k];
      __syncthreads();
      if (tx > k) t[ty][tx] -= t[ty][k] * d[k][tx];
      __syncthreads();
    }
  }
  m[at] = t[ty][tx];
}

__global__ void lud_internal(float *m, int n, int off) {
  __shared__ float l[16][16], u[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int bi = off + 16 * (blockIdx.y + 1), bj = off + 16 * (blockIdx.x + 1);
  l[ty][tx] = m[size_t(bi + ty) * n + off + tx];
  u[ty][tx] = m[size_t(off + ty) * n + bj + tx];
  __syncthreads();
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < 16; ++k) s += l[ty][k] * u[k][tx];
  m[size_t(bi + ty) * n + bj + tx] -= s;
}

static void bench_lud() {
  const int n = 1024;
  const char *cfg = "n=1024,block=16,launches=190";
  size_t nn = size_t(n) * n;
  std::vector<float> a(nn);
  for (size_t i = 0; i < nn; ++i) a[i] = float(hash_u32(unsigned(i) + 123u) % 1000) / 1000.f;
  for (int i = 0; i < n; ++i) a[size_t(i) * n + i] += float(n) / 4.f;
  float *dm, *dorig;
  CHECK(musaMalloc(&dm, nn * 4));
  CHECK(musaMalloc(&dorig, nn * 4));
  CHECK(musaMemcpy(dorig, a.data(), nn * 4, musaMemcpyHostToDevice));
  auto prep = [&] { CHECK(musaMemcpy(dm, dorig, nn * 4, musaMemcpyDeviceToDevice)); };
  auto op = [&] {
    dim3 b(16, 16);
    int off = 0;
    for (; off < n - 16; off += 16) {
      int rem = (n - off) / 16 - 1;
      lud_diagonal<<<1, b>>>(dm, n, off);
      lud_perimeter<<<dim3(rem, 2), b>>>(dm, n, off);
      lud_internal<<<dim3(rem, rem), b>>>(dm, n, off);
    }
    lud_diagonal<<<1, b>>>(dm, n, off);
  };
  prep();
  warm(op);
  std::vector<float> f(nn);
  CHECK(musaMemcpy(f.data(), dm, nn * 4, musaMemcpyDeviceToHost));
  for (size_t s = 0; s < nn; s += 4099) {
    int i = int(s / n), j = int(s % n);
    double want = 0;
    for (int k = 0; k <= std::min(i, j); ++k) {
      double l = k == i ? 1.0 : f[size_t(i) * n + k];
      want += l * f[size_t(k) * n + j];
    }
    if (!near(want, a[s], 1e-4)) { fail("lud_blocked", cfg, long(s), want, a[s]); break; }
  }
  report("lud_blocked", cfg, time_median_prep(prep, op));
  CHECK(musaFree(dm));
  CHECK(musaFree(dorig));
}

// ---- lavaMD: particles in a 3D grid of boxes, double precision; a 128-thread block a home
// box of 100 particles, each of the up to 27 neighbour boxes staged in shared memory in turn,
// every pair an exp() ------------------------------------------------------------------------
#define LMD_PPB 100
struct LmdPos {
  double v, x, y, z;  // v = x^2 + y^2 + z^2
};

PUB_HD inline void lavamd_pair(const LmdPos &a, const LmdPos &b, double q, double a2,
                               double f[4]) {
  double r2 = a.v + b.v - (a.x * b.x + a.y * b.y + a.z * b.z);
  double vij = exp(-a2 * r2);
  double fs = 2.0 * vij;
  f[0] += q * vij;
  f[1] += q * (fs * (a.x - b.x));
  f[2] += q * (fs * (a.y - b.y));
  f[3] += q * (fs * (a.z - b.z));
}

__global__ void lavamd_boxes(const LmdPos *rv, const double *qv, LmdPos *fv, int nb, double a2) {
  __shared__ LmdPos rb[LMD_PPB];
  __shared__ double qb[LMD_PPB];
  int t = threadIdx.x, box = blockIdx.x;
  int bx = box % nb, by = box / nb % nb, bz = box / (nb * nb);
  LmdPos a = {0, 0, 0, 0};
  if (t < LMD_PPB) a = rv[size_t(box) * LMD_PPB + t];
  double f[4] = {0, 0, 0, 0};
  for (int nz = bz - 1; nz <= bz + 1; ++nz)
    for (int ny = by - 1; ny <= by + 1; ++ny)
      for (int nx = bx - 1; nx <= bx + 1; ++nx) {
        if (nx < 0 || ny < 0 || nz < 0 || nx >= nb || ny >= nb || nz >= nb) continue;
        size_t base = (size_t(nz * nb + ny) * nb + nx) * LMD_PPB;
        __syncthreads();
        if (t < LMD_PPB) {
          rb[t] = rv[base + t];
          qb[t] = qv[base + t];
        }
        __syncthreads();
        if (t < LMD_PPB)
          for (int j = 0; j < LMD_PPB; ++j) lavamd_pair(a, rb[j], qb[j], a2, f);
      }
  if (t < LMD_PPB) {
    LmdPos o = {f[0], f[1], f[2], f[3]};
    fv[size_t(box) * LMD_PPB + t] = o;
  }
}

static void bench_lavamd() {
  const int nb = 10;
  const char *cfg = "boxes=10^3,ppb=100,f64";
  const double a2 = 2.0 * 0.5 * 0.5;
  const int nbox = nb * nb * nb;
  size_t np = size_t(nbox) * LMD_PPB;
  std::vector<LmdPos> rv(np);
  std::vector<double> qv(np);
  for (size_t i = 0; i < np; ++i) {
    int box = int(i / LMD_PPB);
    double x = box % nb + (hash_u32(unsigned(i) * 4u) % 10000) / 10000.0;
    double y = box / nb % nb + (hash_u32(unsigned(i) * 4u + 1u) % 10000) / 10000.0;
    double z = box / (nb * nb) + (hash_u32(unsigned(i) * 4u + 2u) % 10000) / 10000.0;
    rv[i] = {x * x + y * y + z * z, x, y, z};
    qv[i] = (hash_u32(unsigned(i) * 4u + 3u) % 1000 + 1) / 1000.0;
  }
  LmdPos *drv, *dfv;
  double *dqv;
  CHECK(musaMalloc(&drv, np * sizeof(LmdPos)));
  CHECK(musaMalloc(&dfv, np * sizeof(LmdPos)));
  CHECK(musaMalloc(&dqv, np * 8));
  CHECK(musaMemcpy(drv, rv.data(), np * sizeof(LmdPos), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dqv, qv.data(), np * 8, musaMemcpyHostToDevice));
  auto op = [&] { lavamd_boxes<<<nbox, 128>>>(drv, dqv, dfv, nb, a2); };
  warm(op);
  std::vector<LmdPos> fv(np);
  CHECK(musaMemcpy(fv.data(), dfv, np * sizeof(LmdPos), musaMemcpyDeviceToHost));
  for (size_t i = 0; i < np; i += 3331) {
    int box = int(i / LMD_PPB), bx = box % nb, by = box / nb % nb, bz = box / (nb * nb);
    double f[4] = {0, 0, 0, 0}, mag[4] = {0, 0, 0, 0};
    for (int nz = bz - 1; nz <= bz + 1; ++nz)
      for (int ny = by - 1; ny <= by + 1; ++ny)
        for (int nx = bx - 1; nx <= bx + 1; ++nx) {
          if (nx < 0 || ny < 0 || nz < 0 || nx >= nb || ny >= nb || nz >= nb) continue;
          size_t base = (size_t(nz * nb + ny) * nb + nx) * LMD_PPB;
          for (int j = 0; j < LMD_PPB; ++j) {
            double g[4] = {0, 0, 0, 0};
            lavamd_pair(rv[i], rv[base + j], qv[base + j], a2, g);
            for (int c = 0; c < 4; ++c) {
              f[c] += g[c];
              mag[c] += std::fabs(g[c]);
            }
          }
        }
    double got[4] = {fv[i].v, fv[i].x, fv[i].y, fv[i].z};
    int c = 0;
    for (; c < 4; ++c)
      if (std::fabs(got[c] - f[c]) > 1e-10 * mag[c] + 1e-12) break;
    if (c < 4) { fail("lavamd_boxes", cfg, long(i) * 4 + c, got[c], f[c]); break; }
  }
  report("lavamd_boxes", cfg, time_median(op));
  CHECK(musaFree(drv));
  CHECK(musaFree(dfv));
  CHECK(musaFree(dqv));
}

// ---- streamcluster: the gain kernel for one candidate centre; coordinates stored dimension-
// major (coalesced), the candidate in shared memory, the per-centre savings summed with shared
// float atomics, one row of K sums a block -------------------------------------------------
#define SC_K 20
__global__ void streamcluster_gain(const float *coord, const float *weight, const float *cost,
                                   const int *assign, const int *ctable, const float *cand,
                                   int n, int dim, int *sw, float *blower) {
  __shared__ float cs[256];
  __shared__ float low[SC_K];
  int t = threadIdx.x;
  for (int j = t; j < dim; j += blockDim.x) cs[j] = cand[j];
  if (t < SC_K) low[t] = 0.f;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + t;
  if (i < n) {
    float d = 0.f;
    for (int j = 0; j < dim; ++j) {
      float v = coord[size_t(j) * n + i] - cs[j];
      d += v * v;
    }
    float xc = d * weight[i], cur = cost[i];
    int s = 0;
    if (xc < cur) {
      s = 1;
      atomicAdd(&low[ctable[assign[i]]], cur - xc);
    }
    sw[i] = s;
  }
  __syncthreads();
  if (t < SC_K) blower[size_t(blockIdx.x) * SC_K + t] = low[t];
}

static void bench_streamcluster() {
  const int n = 131072, dim = 256, bs = 256, nblk = n / bs;
  const char *cfg = "n=131072,dim=256,k=20";
  std::vector<float> coord(size_t(n) * dim), weight(n), cost(n), cand(dim);
  std::vector<int> assign(n), ctable(SC_K);
  for (size_t i = 0; i < coord.size(); ++i) coord[i] = float(hash_u32(unsigned(i) + 31u) % 1024) / 1024.f;
  for (int j = 0; j < dim; ++j) cand[j] = float(hash_u32(unsigned(j) + 7777u) % 1024) / 1024.f;
  for (int i = 0; i < n; ++i) {
    weight[i] = float(1 + hash_u32(unsigned(i) + 55u) % 3);
    cost[i] = weight[i] * (20.f + float(hash_u32(unsigned(i) + 66u) % 4000) / 100.f);
    assign[i] = int(hash_u32(unsigned(i) + 77u) % SC_K);
  }
  for (int k = 0; k < SC_K; ++k) ctable[k] = (k * 7 + 3) % SC_K;
  float *dcoord, *dw, *dc, *dcand, *dlow;
  int *dassign, *dct, *dsw;
  CHECK(musaMalloc(&dcoord, coord.size() * 4));
  CHECK(musaMalloc(&dw, size_t(n) * 4));
  CHECK(musaMalloc(&dc, size_t(n) * 4));
  CHECK(musaMalloc(&dcand, size_t(dim) * 4));
  CHECK(musaMalloc(&dlow, size_t(nblk) * SC_K * 4));
  CHECK(musaMalloc(&dassign, size_t(n) * 4));
  CHECK(musaMalloc(&dct, SC_K * 4));
  CHECK(musaMalloc(&dsw, size_t(n) * 4));
  CHECK(musaMemcpy(dcoord, coord.data(), coord.size() * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dw, weight.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dc, cost.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dcand, cand.data(), size_t(dim) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dassign, assign.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dct, ctable.data(), SC_K * 4, musaMemcpyHostToDevice));
  auto op = [&] {
    streamcluster_gain<<<nblk, bs>>>(dcoord, dw, dc, dassign, dct, dcand, n, dim, dsw, dlow);
  };
  warm(op);
  std::vector<int> sw(n);
  std::vector<float> low(size_t(nblk) * SC_K);
  CHECK(musaMemcpy(sw.data(), dsw, size_t(n) * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(low.data(), dlow, low.size() * 4, musaMemcpyDeviceToHost));
  for (int b = 0; b < nblk; b += 13) {
    double want[SC_K] = {}, scale[SC_K] = {};
    bool bad = false;
    for (int i = b * bs; i < (b + 1) * bs && !bad; ++i) {
      double d = 0;
      for (int j = 0; j < dim; ++j) {
        double v = double(coord[size_t(j) * n + i]) - cand[j];
        d += v * v;
      }
      double xc = d * weight[i];
      int s = xc < cost[i];
      if (std::fabs(xc - cost[i]) > 1e-4 * cost[i] && sw[i] != s) { fail("streamcluster_gain", cfg, i, sw[i], s); bad = true; }
      if (sw[i]) {
        want[ctable[assign[i]]] += cost[i] - xc;
        scale[ctable[assign[i]]] += cost[i];
      }
    }
    if (bad) break;
    for (int k = 0; k < SC_K; ++k)
      if (std::fabs(low[size_t(b) * SC_K + k] - want[k]) > 1e-4 * scale[k] + 1e-3) {
        fail("streamcluster_gain", cfg, long(b) * SC_K + k, low[size_t(b) * SC_K + k], want[k]);
        bad = true;
        break;
      }
    if (bad) break;
  }
  report("streamcluster_gain", cfg, time_median(op));
  CHECK(musaFree(dcoord));
  CHECK(musaFree(dw));
  CHECK(musaFree(dc));
  CHECK(musaFree(dcand));
  CHECK(musaFree(dlow));
  CHECK(musaFree(dassign));
  CHECK(musaFree(dct));
  CHECK(musaFree(dsw));
}

// ---- pathfinder: minimum-cost path down a grid of small integer costs; each 256-thread block
// advances `iters` rows at once in shared memory (a pyramid: its valid columns shrink by one
// each side a row, so blocks overlap by 2*iters columns) -------------------------------------
__global__ void pathfinder_pyramid(const int *wall, const int *src, int *dst, int cols,
                                   int start, int iters) {
  __shared__ int prev[256], res[256];
  int tx = threadIdx.x;
  int small = 256 - 2 * iters;
  int blk = small * blockIdx.x - iters;
  int x = blk + tx;
  int vmin = blk < 0 ? -blk : 0;
  int vmax = blk + 255 > cols - 1 ? 255 - (blk + 255 - cols + 1) : 255;
  if (x >= 0 && x < cols) prev[tx] = src[x];
  __syncthreads();
  bool computed = false;
  for (int i = 0; i < iters; ++i) {
    computed = false;
    if (tx >= i + 1 && tx <= 254 - i && tx >= vmin && tx <= vmax) {
      computed = true;
      int l = max(tx - 1, vmin), r = min(tx + 1, vmax);
      int m = min(min(prev[l], prev[tx]), prev[r]);
      res[tx] = m + wall[size_t(start + i) * cols + x];
    }
    __syncthreads();
    if (i == iters - 1) break;
    if (computed) prev[tx] = res[tx];
    __syncthreads();
  }
  if (computed) dst[x] = res[tx];
}

static void bench_pathfinder() {
  const int cols = 400000, rows = 101, pyr = 20;
  const char *cfg = "cols=400000,rows=101,pyramid=20";
  size_t n = size_t(rows) * cols;
  std::vector<int> wall(n);
  for (size_t i = 0; i < n; ++i) wall[i] = int(hash_u32(unsigned(i) ^ 0x5bd1e995u) % 10);
  int *dwall, *dbuf[2];
  CHECK(musaMalloc(&dwall, n * 4));
  CHECK(musaMalloc(&dbuf[0], size_t(cols) * 4));
  CHECK(musaMalloc(&dbuf[1], size_t(cols) * 4));
  CHECK(musaMemcpy(dwall, wall.data(), n * 4, musaMemcpyHostToDevice));
  const int blocks = (cols + (256 - 2 * pyr) - 1) / (256 - 2 * pyr);
  int launches = 0;
  auto op = [&] {  // the first launch reads row 0 of the wall itself
    launches = 0;
    for (int t = 0; t < rows - 1; t += pyr, ++launches)
      pathfinder_pyramid<<<blocks, 256>>>(dwall + cols, launches ? dbuf[(launches - 1) & 1] : dwall,
                                          dbuf[launches & 1], cols, t, std::min(pyr, rows - 1 - t));
  };
  warm(op);
  std::vector<int> got(cols), cur(wall.begin(), wall.begin() + cols), nxt(cols);
  CHECK(musaMemcpy(got.data(), dbuf[(launches - 1) & 1], size_t(cols) * 4, musaMemcpyDeviceToHost));
  for (int r = 1; r < rows; ++r) {
    for (int x = 0; x < cols; ++x) {
      int m = cur[x];
      if (x > 0) m = std::min(m, cur[x - 1]);
      if (x < cols - 1) m = std::min(m, cur[x + 1]);
      nxt[x] = m + wall[size_t(r) * cols + x];
    }
    cur.swap(nxt);
  }
  for (int x = 0; x < cols; ++x)
    if (got[x] != cur[x]) { fail("pathfinder_pyramid", cfg, x, got[x], cur[x]); break; }
  report("pathfinder_pyramid", cfg, time_median(op));
  CHECK(musaFree(dwall));
  CHECK(musaFree(dbuf[0]));
  CHECK(musaFree(dbuf[1]));
}

// ---- cfd: the Euler flux kernel of an unstructured finite-volume solver, structure-of-arrays
// (5 conserved variables, 4 faces of neighbour indices and 3-component normals), neighbours
// gathered through the index array, wall (-1) and far-field (-2) faces -----------------------
#define CFD_GAMMA 1.4f
struct CfdVars {
  float v[5];  // density, momentum x/y/z, energy
};

PUB_HD inline void cfd_derived(const CfdVars &s, float &vx, float &vy, float &vz, float &p,
                               float &c, float &speed) {
  vx = s.v[1] / s.v[0];
  vy = s.v[2] / s.v[0];
  vz = s.v[3] / s.v[0];
  float v2 = vx * vx + vy * vy + vz * vz;
  p = (CFD_GAMMA - 1.f) * (s.v[4] - 0.5f * s.v[0] * v2);
  c = sqrtf(CFD_GAMMA * p / s.v[0]);
  speed = sqrtf(v2);
}

// n . F(s) for each conserved variable, F the inviscid flux of state s.
PUB_HD inline void cfd_normal_flux(const CfdVars &s, float vx, float vy, float vz, float p,
                                   float nx, float ny, float nz, float out[5]) {
  float vn = vx * nx + vy * ny + vz * nz;
  out[0] = s.v[0] * vn;
  out[1] = s.v[1] * vn + p * nx;
  out[2] = s.v[2] * vn + p * ny;
  out[3] = s.v[3] * vn + p * nz;
  out[4] = (s.v[4] + p) * vn;
}

PUB_HD inline void cfd_element_flux(const CfdVars &si, const CfdVars *nbs, const int *nb,
                                    const float (*nrm)[3], float flux[5]) {
  const float smooth = 0.2f;
  float vx, vy, vz, p, c, sp;
  cfd_derived(si, vx, vy, vz, p, c, sp);
  for (int k = 0; k < 5; ++k) flux[k] = 0.f;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    float nx = nrm[j][0], ny = nrm[j][1], nz = nrm[j][2];
    float nlen = sqrtf(nx * nx + ny * ny + nz * nz);
    if (nb[j] == -1) {  // wall: pressure only
      flux[1] += nx * p;
      flux[2] += ny * p;
      flux[3] += nz * p;
      continue;
    }
    const CfdVars &o = nbs[j];  // the far-field state where nb[j] == -2
    float ox, oy, oz, op, oc, osp;
    cfd_derived(o, ox, oy, oz, op, oc, osp);
    float factor = -nlen * smooth * 0.5f * (sp + osp + c + oc);
    float fi[5], fo[5];
    cfd_normal_flux(si, vx, vy, vz, p, nx, ny, nz, fi);
    cfd_normal_flux(o, ox, oy, oz, op, nx, ny, nz, fo);
    for (int k = 0; k < 5; ++k) flux[k] += factor * (si.v[k] - o.v[k]) + 0.5f * (fi[k] + fo[k]);
  }
}

__global__ void cfd_flux(const float *vars, const int *nbr, const float *normals, float *fluxes,
                         int nelr, CfdVars ff) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nelr) return;
  CfdVars si, nbs[4];
  int nb[4];
  float nrm[4][3];
  for (int k = 0; k < 5; ++k) si.v[k] = vars[size_t(k) * nelr + i];
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    nb[j] = nbr[size_t(j) * nelr + i];
    for (int d = 0; d < 3; ++d) nrm[j][d] = normals[size_t(j * 3 + d) * nelr + i];
    for (int k = 0; k < 5; ++k) nbs[j].v[k] = nb[j] >= 0 ? vars[size_t(k) * nelr + nb[j]] : ff.v[k];
  }
  float flux[5];
  cfd_element_flux(si, nbs, nb, nrm, flux);
  for (int k = 0; k < 5; ++k) fluxes[size_t(k) * nelr + i] = flux[k];
}

static void bench_cfd() {
  const int W = 1024, H = 768, nelr = W * H;
  const char *cfg = "elements=786432,faces=4";
  std::vector<float> vars(size_t(5) * nelr), normals(size_t(12) * nelr);
  std::vector<int> nbr(size_t(4) * nelr);
  auto u = [](unsigned s) { return float(hash_u32(s) % 10000) / 10000.f; };
  for (int i = 0; i < nelr; ++i) {
    float rho = 1.f + 0.2f * u(unsigned(i) * 8u);
    float vx = 0.5f + 0.2f * u(unsigned(i) * 8u + 1u), vy = 0.1f * u(unsigned(i) * 8u + 2u) - 0.05f,
          vz = 0.1f * u(unsigned(i) * 8u + 3u) - 0.05f;
    float p = 1.f + 0.1f * u(unsigned(i) * 8u + 4u);
    vars[i] = rho;
    vars[size_t(1) * nelr + i] = rho * vx;
    vars[size_t(2) * nelr + i] = rho * vy;
    vars[size_t(3) * nelr + i] = rho * vz;
    vars[size_t(4) * nelr + i] = p / (CFD_GAMMA - 1.f) + 0.5f * rho * (vx * vx + vy * vy + vz * vz);
    int x = i % W, y = i / W;
    int nb[4] = {x > 0 ? i - 1 : -1, x < W - 1 ? i + 1 : -1, y > 0 ? i - W : -2, y < H - 1 ? i + W : -2};
    for (int j = 0; j < 4; ++j) {
      nbr[size_t(j) * nelr + i] = nb[j];
      for (int d = 0; d < 3; ++d)
        normals[size_t(j * 3 + d) * nelr + i] = u(unsigned(i) * 16u + unsigned(j * 3 + d) + 1000003u) - 0.5f;
    }
  }
  CfdVars ff = {{1.f, 0.6f, 0.f, 0.f, 1.f / (CFD_GAMMA - 1.f) + 0.5f * 0.36f}};
  float *dv, *dn, *df;
  int *dnb;
  CHECK(musaMalloc(&dv, vars.size() * 4));
  CHECK(musaMalloc(&dn, normals.size() * 4));
  CHECK(musaMalloc(&df, vars.size() * 4));
  CHECK(musaMalloc(&dnb, nbr.size() * 4));
  CHECK(musaMemcpy(dv, vars.data(), vars.size() * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dn, normals.data(), normals.size() * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dnb, nbr.data(), nbr.size() * 4, musaMemcpyHostToDevice));
  auto op = [&] { cfd_flux<<<nelr / 192, 192>>>(dv, dnb, dn, df, nelr, ff); };
  warm(op);
  std::vector<float> fl(vars.size());
  CHECK(musaMemcpy(fl.data(), df, fl.size() * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < nelr; i += 997) {
    CfdVars si, nbs[4];
    int nb[4];
    float nrm[4][3];
    for (int k = 0; k < 5; ++k) si.v[k] = vars[size_t(k) * nelr + i];
    for (int j = 0; j < 4; ++j) {
      nb[j] = nbr[size_t(j) * nelr + i];
      for (int d = 0; d < 3; ++d) nrm[j][d] = normals[size_t(j * 3 + d) * nelr + i];
      for (int k = 0; k < 5; ++k) nbs[j].v[k] = nb[j] >= 0 ? vars[size_t(k) * nelr + nb[j]] : ff.v[k];
    }
    float want[5];
    cfd_element_flux(si, nbs, nb, nrm, want);
    int k = 0;
    for (; k < 5; ++k)
      if (std::fabs(fl[size_t(k) * nelr + i] - want[k]) > 1e-4f * (1.f + std::fabs(want[k]))) break;
    if (k < 5) { fail("cfd_flux", cfg, long(k) * nelr + i, fl[size_t(k) * nelr + i], want[k]); break; }
  }
  report("cfd_flux", cfg, time_median(op));
  CHECK(musaFree(dv));
  CHECK(musaFree(dn));
  CHECK(musaFree(df));
  CHECK(musaFree(dnb));
}

// ---- b+tree search: a 128-thread block a query walks a three-level tree of 128-key nodes (2M
// keys); at each level every thread compares its key slot, the one whose range holds the query
// publishes the child through shared memory ---------------------------------------------------
#define BT_FAN 128
__global__ void btree_find(const unsigned *keys, const unsigned *queries, int *result) {
  __shared__ int next;
  int t = threadIdx.x;
  unsigned q = queries[blockIdx.x];
  int node = 0, level_base = 0, level_nodes = 1;
  for (int lvl = 0; lvl < 2; ++lvl) {
    const unsigned *k = keys + size_t(level_base + node) * BT_FAN;
    unsigned lo = k[t], hi = t + 1 < BT_FAN ? k[t + 1] : 0xffffffffu;
    if (t == 0 && q < lo) next = node * BT_FAN;  // below the node's smallest key: leftmost child
    if (lo <= q && (q < hi || t == BT_FAN - 1)) next = node * BT_FAN + t;
    __syncthreads();
    node = next;
    __syncthreads();
    level_base += level_nodes;
    level_nodes *= BT_FAN;
  }
  const unsigned *leaf = keys + size_t(level_base + node) * BT_FAN;
  if (t == 0) result[blockIdx.x] = -1;
  __syncthreads();
  if (leaf[t] == q) result[blockIdx.x] = node * BT_FAN + t;
}

static void bench_btree() {
  const int leaves = BT_FAN * BT_FAN, nkeys = leaves * BT_FAN, nq = 65536;
  const char *cfg = "keys=2097152,fanout=128,queries=65536";
  std::vector<unsigned> sorted(nkeys);
  for (int i = 0; i < nkeys; ++i) sorted[i] = unsigned(i) * 8u + (hash_u32(unsigned(i)) & 7u);
  // nodes: root, BT_FAN inner nodes, then the leaves; an inner node's key t is the smallest key
  // under its child t
  std::vector<unsigned> keys(size_t(1 + BT_FAN + leaves) * BT_FAN);
  for (int t = 0; t < BT_FAN; ++t) keys[t] = sorted[size_t(t) * BT_FAN * BT_FAN];
  for (int nd = 0; nd < BT_FAN; ++nd)
    for (int t = 0; t < BT_FAN; ++t)
      keys[size_t(1 + nd) * BT_FAN + t] = sorted[(size_t(nd) * BT_FAN + t) * BT_FAN];
  std::copy(sorted.begin(), sorted.end(), keys.begin() + size_t(1 + BT_FAN) * BT_FAN);
  std::vector<unsigned> q(nq);
  for (int i = 0; i < nq; ++i)
    q[i] = i % 2 ? sorted[hash_u32(unsigned(i) + 1u) % nkeys] : hash_u32(unsigned(i) + 2u) % (unsigned(nkeys) * 8u);
  unsigned *dk, *dq;
  int *dr;
  CHECK(musaMalloc(&dk, keys.size() * 4));
  CHECK(musaMalloc(&dq, size_t(nq) * 4));
  CHECK(musaMalloc(&dr, size_t(nq) * 4));
  CHECK(musaMemcpy(dk, keys.data(), keys.size() * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dq, q.data(), size_t(nq) * 4, musaMemcpyHostToDevice));
  auto op = [&] { btree_find<<<nq, BT_FAN>>>(dk, dq, dr); };
  warm(op);
  std::vector<int> r(nq);
  CHECK(musaMemcpy(r.data(), dr, size_t(nq) * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < nq; ++i) {
    auto it = std::lower_bound(sorted.begin(), sorted.end(), q[i]);
    int want = it != sorted.end() && *it == q[i] ? int(it - sorted.begin()) : -1;
    if (r[i] != want) { fail("btree_find", cfg, i, r[i], want); break; }
  }
  report("btree_find", cfg, time_median(op));
  CHECK(musaFree(dk));
  CHECK(musaFree(dq));
  CHECK(musaFree(dr));
}

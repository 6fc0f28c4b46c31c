// Batched complex FFTs in shared memory, one sequence per block: a templated radix-2 Cooley-Tukey kernel (bit-
// reversed load with __brev into dynamic shared memory, log2(N) butterfly stages, sincosf twiddles) and a radix-4
// Stockham kernel (ping-pong between two static shared buffers, FFT4 butterflies, natural-order output, the
// Govindaraju et al. formulation); forward and inverse transforms against a double-precision host DFT.
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

#define M_PI_F 3.14159265358979323846f

__device__ __forceinline__ float2 cadd(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ __forceinline__ float2 csub(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
__device__ __forceinline__ float2 cmul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
// multiply by -i (forward) or +i (inverse)
__device__ __forceinline__ float2 cmul_i(float2 a, int dir) {
  return dir > 0 ? make_float2(a.y, -a.x) : make_float2(-a.y, a.x);
}

template <int LOGN>
__global__ void fft_radix2(float2 *data, int dir) {
  const int N = 1 << LOGN;
  extern __shared__ float2 s[];
  float2 *x = data + (size_t)blockIdx.x * N;
  for (int i = threadIdx.x; i < N; i += blockDim.x)
    s[__brev(i) >> (32 - LOGN)] = x[i];
  __syncthreads();
#pragma unroll
  for (int l = 1; l <= LOGN; ++l) {
    const int len = 1 << l, half = len >> 1;
    for (int t = threadIdx.x; t < N / 2; t += blockDim.x) {
      int grp = t >> (l - 1), pos = t & (half - 1);
      int i0 = grp * len + pos, i1 = i0 + half;
      float sn, cs;
      sincosf(-2.0f * M_PI_F * dir * pos / len, &sn, &cs);
      float2 a = s[i0], b = cmul(s[i1], make_float2(cs, sn));
      s[i0] = cadd(a, b);
      s[i1] = csub(a, b);
    }
    __syncthreads();
  }
  for (int i = threadIdx.x; i < N; i += blockDim.x)
    x[i] = dir > 0 ? s[i] : make_float2(s[i].x / N, s[i].y / N);
}

template <int N>
__global__ void __launch_bounds__(N / 4) fft_radix4_stockham(const float2 *__restrict__ in,
                                                           float2 *__restrict__ out, int dir) {
  __shared__ float2 buf[2][N];
  const int R = 4;
  const float2 *src = in + (size_t)blockIdx.x * N;
  for (int i = threadIdx.x; i < N; i += blockDim.x)
    buf[0][i] = src[i];
  __syncthreads();
  int cur = 0;
  for (int Ns = 1; Ns < N; Ns *= R) {
    int j = threadIdx.x;  // N/4 threads, one radix-4 butterfly each
    float angle = -2.0f * M_PI_F * dir * (j % Ns) / (Ns * R);
    float2 v[R];
#pragma unroll
    for (int r = 0; r < R; r++) {
      v[r] = buf[cur][j + r * N / R];
      float sn, cs;
      sincosf(r * angle, &sn, &cs);
      v[r] = cmul(v[r], make_float2(cs, sn));
    }
    // FFT4
    float2 a0 = cadd(v[0], v[2]), a1 = csub(v[0], v[2]);
    float2 a2 = cadd(v[1], v[3]), a3 = cmul_i(csub(v[1], v[3]), dir);
    v[0] = cadd(a0, a2);
    v[2] = csub(a0, a2);
    v[1] = cadd(a1, a3);
    v[3] = csub(a1, a3);
    int idxD = (j / Ns) * Ns * R + (j % Ns);
#pragma unroll
    for (int r = 0; r < R; r++)
      buf[cur ^ 1][idxD + r * Ns] = v[r];
    __syncthreads();
    cur ^= 1;
  }
  float2 *dst = out + (size_t)blockIdx.x * N;
  float scale = dir > 0 ? 1.0f : 1.0f / N;
  for (int i = threadIdx.x; i < N; i += blockDim.x)
    dst[i] = make_float2(buf[cur][i].x * scale, buf[cur][i].y * scale);
}

static void host_dft(const float2 *x, double *re, double *im, int n, int dir) {
  for (int k = 0; k < n; k++) {
    double sr = 0, si = 0;
    for (int t = 0; t < n; t++) {
      double a = -2.0 * M_PI * dir * (double)((long long)k * t % n) / n;
      sr += x[t].x * cos(a) - x[t].y * sin(a);
      si += x[t].x * sin(a) + x[t].y * cos(a);
    }
    re[k] = dir > 0 ? sr : sr / n;
    im[k] = dir > 0 ? si : si / n;
  }
}

static int check(const char *name, int n, int batch, const float2 *in, const float2 *out, int dir, float ms) {
  double *re = (double *)malloc(n * sizeof(double)), *im = (double *)malloc(n * sizeof(double));
  double maxerr = 0;
  for (int b = 0; b < batch; b++) {
    host_dft(in + (size_t)b * n, re, im, n, dir);
    double norm = 0;
    for (int k = 0; k < n; k++)
      norm = fmax(norm, sqrt(re[k] * re[k] + im[k] * im[k]));
    for (int k = 0; k < n; k++) {
      double e = hypot(out[(size_t)b * n + k].x - re[k], out[(size_t)b * n + k].y - im[k]) / norm;
      if (e > maxerr)
        maxerr = e;
    }
  }
  int bad = !(maxerr < 2e-5);
  printf("%s N=%d batch=%d %s: %.3f ms, max rel err %.2e%s\n", name, n, batch, dir > 0 ? "forward" : "inverse", ms,
         maxerr, bad ? " MISMATCH" : "");
  free(re);
  free(im);
  return bad;
}

template <int LOGN>
static int testRadix2(int batch, int threads) {
  const int n = 1 << LOGN;
  size_t bytes = (size_t)n * batch * sizeof(float2);
  float2 *h = (float2 *)malloc(bytes), *o = (float2 *)malloc(bytes), *o2 = (float2 *)malloc(bytes);
  for (int i = 0; i < n * batch; i++)
    h[i] = make_float2((float)sin(0.1 * i) + (i % 7) * 0.1f, (float)cos(0.03 * i * i));
  float2 *d;
  CHECK(musaMalloc((void **)&d, bytes));
  CHECK(musaMemcpy(d, h, bytes, musaMemcpyHostToDevice));
  musaEvent_t e0, e1;
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&e1));
  CHECK(musaEventRecord(e0));
  fft_radix2<LOGN><<<batch, threads, n * sizeof(float2)>>>(d, 1);
  CHECK(musaEventRecord(e1));
  CHECK(musaEventSynchronize(e1));
  CHECK(musaGetLastError());
  float ms;
  CHECK(musaEventElapsedTime(&ms, e0, e1));
  CHECK(musaMemcpy(o, d, bytes, musaMemcpyDeviceToHost));
  int bad = check("radix-2", n, batch, h, o, 1, ms);
  CHECK(musaEventRecord(e0));
  fft_radix2<LOGN><<<batch, threads, n * sizeof(float2)>>>(d, -1);
  CHECK(musaEventRecord(e1));
  CHECK(musaEventSynchronize(e1));
  CHECK(musaEventElapsedTime(&ms, e0, e1));
  CHECK(musaMemcpy(o2, d, bytes, musaMemcpyDeviceToHost));
  bad += check("radix-2", n, batch, o, o2, -1, ms);
  double rt = 0;
  for (int i = 0; i < n * batch; i++)
    rt = fmax(rt, fmax(fabs(o2[i].x - h[i].x), fabs(o2[i].y - h[i].y)));
  if (!(rt < 1e-4)) {
    printf("  radix-2 round trip error %g\n", rt);
    bad++;
  }
  musaFree(d); musaEventDestroy(e0); musaEventDestroy(e1);
  free(h); free(o); free(o2);
  return bad;
}

template <int N>
static int testRadix4(int batch) {
  size_t bytes = (size_t)N * batch * sizeof(float2);
  float2 *h = (float2 *)malloc(bytes), *o = (float2 *)malloc(bytes), *o2 = (float2 *)malloc(bytes);
  for (int i = 0; i < N * batch; i++)
    h[i] = make_float2((float)cos(0.2 * i) - 0.3f * (i % 5), (float)sin(0.011 * i * (i % 13)));
  float2 *d_in, *d_out;
  CHECK(musaMalloc((void **)&d_in, bytes));
  CHECK(musaMalloc((void **)&d_out, bytes));
  CHECK(musaMemcpy(d_in, h, bytes, musaMemcpyHostToDevice));
  musaEvent_t e0, e1;
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&e1));
  CHECK(musaEventRecord(e0));
  fft_radix4_stockham<N><<<batch, N / 4>>>(d_in, d_out, 1);
  CHECK(musaEventRecord(e1));
  CHECK(musaEventSynchronize(e1));
  CHECK(musaGetLastError());
  float ms;
  CHECK(musaEventElapsedTime(&ms, e0, e1));
  CHECK(musaMemcpy(o, d_out, bytes, musaMemcpyDeviceToHost));
  int bad = check("radix-4 stockham", N, batch, h, o, 1, ms);
  CHECK(musaEventRecord(e0));
  fft_radix4_stockham<N><<<batch, N / 4>>>(d_out, d_in, -1);
  CHECK(musaEventRecord(e1));
  CHECK(musaEventSynchronize(e1));
  CHECK(musaEventElapsedTime(&ms, e0, e1));
  CHECK(musaMemcpy(o2, d_in, bytes, musaMemcpyDeviceToHost));
  bad += check("radix-4 stockham", N, batch, o, o2, -1, ms);
  musaFree(d_in); musaFree(d_out); musaEventDestroy(e0); musaEventDestroy(e1);
  free(h); free(o); free(o2);
  return bad;
}

int main() {
  int bad = 0;
  bad += testRadix2<3>(5, 4);
  bad += testRadix2<9>(3, 128);
  bad += testRadix2<10>(2, 96);
  bad += testRadix4<16>(7);
  bad += testRadix4<256>(3);
  bad += testRadix4<1024>(2);
  printf("fft_shared: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

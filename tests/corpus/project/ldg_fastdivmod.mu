// Read-only loads and integer index math: NCHW->NHWC permutation with __restrict__ pointers and __ldg, index decomposition by / and % against a FastDivmod (magic multiplier with __umulhi, as CUTLASS does), __ldg of float4 and int2 vectors, __mul24/__umul24, and signed division/modulo corner cases checked against the host.
#include <musa_runtime.h>
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

struct FastDivmod {
  unsigned d, mul, shift;
  __host__ FastDivmod(unsigned div) : d(div) {
    shift = 0;
    while ((1u << shift) < div) ++shift;
    unsigned long long one = 1;
    mul = (unsigned)(((one << 32) * ((one << shift) - div)) / div + 1);
    if (div == 1) { mul = 0; shift = 0; }
  }
  __device__ void divmod(unsigned n, unsigned &q, unsigned &r) const {
    unsigned t = __umulhi(n, mul);
    q = d == 1 ? n : (t + ((n - t) >> 1)) >> (shift - 1);
    r = n - q * d;
  }
};

__global__ void nchw2nhwc(const float *__restrict__ in, float *__restrict__ out, int N, int C, int H, int W,
                          FastDivmod fdW, FastDivmod fdH, FastDivmod fdC, int *mismatch) {
  int total = N * C * H * W;
  for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += gridDim.x * blockDim.x) {
    // idx enumerates the output, NHWC: idx = ((n*H + h)*W + w)*C + c
    unsigned c, w, h, n, t, t2;
    fdC.divmod(idx, t, c);
    fdW.divmod(t, t2, w);
    fdH.divmod(t2, n, h);
    int c2 = idx % C, w2 = (idx / C) % W, h2 = (idx / C / W) % H, n2 = idx / C / W / H;
    if ((int)c != c2 || (int)w != w2 || (int)h != h2 || (int)n != n2)
      atomicAdd(mismatch, 1);
    out[idx] = __ldg(&in[((n * C + c) * H + h) * W + w]);
  }
}

__global__ void vecLdg(const float4 *__restrict__ a, const int2 *__restrict__ b, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 v = __ldg(a + i);
    int2 p = __ldg(b + i);
    out[i] = v.x * p.x + v.y * p.y + v.z - v.w + __mul24(p.x, p.y) + (float)__umul24((unsigned)i, 3u);
  }
}

__global__ void signedDivMod(const int *a, const int *b, int *q, int *r, long long *q64, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    q[i] = a[i] / b[i];
    r[i] = a[i] % b[i];
    q64[i] = ((long long)a[i] * 1000003LL) / (long long)b[i];
  }
}

int main() {
  bool ok = true;
  const int N = 3, C = 7, H = 13, W = 11, total = N * C * H * W;
  float *hin = (float *)malloc(total * 4), *hout = (float *)malloc(total * 4);
  for (int i = 0; i < total; ++i)
    hin[i] = (float)i;
  float *din, *dout;
  int *dmis;
  CHECK(musaMalloc(&din, total * 4));
  CHECK(musaMalloc(&dout, total * 4));
  CHECK(musaMalloc(&dmis, 4));
  CHECK(musaMemset(dmis, 0, 4));
  CHECK(musaMemcpy(din, hin, total * 4, musaMemcpyHostToDevice));
  nchw2nhwc<<<5, 96>>>(din, dout, N, C, H, W, FastDivmod(W), FastDivmod(H), FastDivmod(C), dmis);
  CHECK(musaGetLastError());
  int mis;
  CHECK(musaMemcpy(hout, dout, total * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(&mis, dmis, 4, musaMemcpyDeviceToHost));
  ok = ok && mis == 0;
  for (int n = 0; n < N; ++n)
    for (int h = 0; h < H; ++h)
      for (int w = 0; w < W; ++w)
        for (int c = 0; c < C; ++c)
          if (hout[((n * H + h) * W + w) * C + c] != hin[((n * C + c) * H + h) * W + w])
            ok = false;
  printf("permute: fastdivmod mismatches %d, %s\n", mis, ok ? "ok" : "wrong");

  const int m = 1000;
  float4 *ha = (float4 *)malloc(m * sizeof(float4));
  int2 *hb = (int2 *)malloc(m * sizeof(int2));
  for (int i = 0; i < m; ++i) {
    ha[i] = make_float4(i * 0.5f, 1.0f, 2.0f * i, 0.25f);
    hb[i] = make_int2(i % 13 - 6, i % 7);
  }
  float4 *da;
  int2 *db;
  float *dv;
  CHECK(musaMalloc(&da, m * sizeof(float4)));
  CHECK(musaMalloc(&db, m * sizeof(int2)));
  CHECK(musaMalloc(&dv, m * 4));
  CHECK(musaMemcpy(da, ha, m * sizeof(float4), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(db, hb, m * sizeof(int2), musaMemcpyHostToDevice));
  vecLdg<<<(m + 127) / 128, 128>>>(da, db, dv, m);
  CHECK(musaGetLastError());
  float *hv = (float *)malloc(m * 4);
  CHECK(musaMemcpy(hv, dv, m * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < m; ++i) {
    float4 v = ha[i];
    int2 p = hb[i];
    float ref = v.x * p.x + v.y * p.y + v.z - v.w + p.x * p.y + (float)(i * 3);
    if (fabsf(hv[i] - ref) > 1e-3f * (fabsf(ref) + 1)) {
      printf("vec %d: %f want %f\n", i, hv[i], ref);
      ok = false;
      break;
    }
  }

  const int k = 12;
  int ha2[k] = {7, -7, 7, -7, INT_MIN, INT_MIN + 1, 0, 1, -1, INT_MAX, 100, -100};
  int hb2[k] = {2, 2, -2, -2, 3, -1, 5, INT_MAX, INT_MIN, -3, 7, 7};
  int *d1, *d2, *dq, *dr;
  long long *dq64;
  CHECK(musaMalloc(&d1, k * 4));
  CHECK(musaMalloc(&d2, k * 4));
  CHECK(musaMalloc(&dq, k * 4));
  CHECK(musaMalloc(&dr, k * 4));
  CHECK(musaMalloc(&dq64, k * 8));
  CHECK(musaMemcpy(d1, ha2, k * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(d2, hb2, k * 4, musaMemcpyHostToDevice));
  signedDivMod<<<1, 32>>>(d1, d2, dq, dr, dq64, k);
  CHECK(musaGetLastError());
  int q[k], r[k];
  long long q64[k];
  CHECK(musaMemcpy(q, dq, sizeof q, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(r, dr, sizeof r, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(q64, dq64, sizeof q64, musaMemcpyDeviceToHost));
  for (int i = 0; i < k; ++i) {
    long long rq64 = ((long long)ha2[i] * 1000003LL) / (long long)hb2[i];
    if (q[i] != ha2[i] / hb2[i] || r[i] != ha2[i] % hb2[i] || q64[i] != rq64) {
      printf("%d / %d: %d r %d (q64 %lld), want %d r %d (%lld)\n", ha2[i], hb2[i], q[i], r[i], q64[i], ha2[i] / hb2[i], ha2[i] % hb2[i], rq64);
      ok = false;
    }
  }
  printf("ldg_fastdivmod: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

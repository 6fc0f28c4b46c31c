// Half and bfloat16 atomics as gradient-accumulation and embedding-backward kernels use them:
// atomicAdd(__half*, __half), atomicAdd(__half2*, __half2), atomicAdd(__nv_bfloat16*, ...),
// atomicAdd(__nv_bfloat162*, ...) under contention (values chosen so every order of the adds
// gives the same exact sum), the returned old values (each distinct, so they must form the set
// of partial sums), neighbouring 16-bit atomics in one 32-bit word, atomicAdd_block in shared
// memory; plus the classic 32-bit atomicCAS half2 loop for comparison.
#include <musa_runtime.h>
#include <musa_fp16.h>
#include <musa_bf16.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>
#include <algorithm>

#define CHECK(call) do { musaError_t e_ = (call); if (e_ != musaSuccess) { \
  printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(e_)); exit(1); } } while (0)

// embedding backward: token t adds grad to row ids[t]; all grads are 1/8 so sums are exact
__global__ void embBackward(__half *table, __nv_bfloat16 *tableB, const int *ids, int tokens, int dim) {
  int t = blockIdx.x, d = threadIdx.x;
  if (t >= tokens || d >= dim) return;
  atomicAdd(&table[ids[t] * dim + d], __float2half(0.125f));
  atomicAdd(&tableB[ids[t] * dim + d], __float2bfloat16(0.125f));
}
__global__ void pairAdds(__half2 *h2, __nv_bfloat162 *b2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&h2[i % 4], __floats2half2_rn(1.0f, -0.5f));
  atomicAdd(&b2[i % 4], __floats2bfloat162_rn(2.0f, 0.25f));
}
__global__ void oldValues(__half *acc, float *olds, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  olds[i] = __half2float(atomicAdd(acc, __float2half(1.0f)));
}
__global__ void sharedBlockAdds(float *out) {
  __shared__ __half s[2];
  __shared__ __nv_bfloat16 sb[2];
  if (threadIdx.x < 2) { s[threadIdx.x] = __float2half(0.f); sb[threadIdx.x] = __float2bfloat16(0.f); }
  __syncthreads();
  atomicAdd_block(&s[threadIdx.x & 1], __float2half(0.5f));
  atomicAdd_block(&sb[threadIdx.x & 1], __float2bfloat16(1.0f));
  __syncthreads();
  if (threadIdx.x == 0) { out[4 * blockIdx.x] = __half2float(s[0]); out[4 * blockIdx.x + 1] = __half2float(s[1]);
                          out[4 * blockIdx.x + 2] = __bfloat162float(sb[0]); out[4 * blockIdx.x + 3] = __bfloat162float(sb[1]); }
}
__device__ __half2 casAdd(__half2 *addr, __half2 v) {
  unsigned *p = reinterpret_cast<unsigned *>(addr);
  unsigned old = *p, assumed;
  do {
    assumed = old;
    __half2 cur = *reinterpret_cast<__half2 *>(&assumed);
    __half2 nv = __hadd2(cur, v);
    old = atomicCAS(p, assumed, *reinterpret_cast<unsigned *>(&nv));
  } while (old != assumed);
  return *reinterpret_cast<__half2 *>(&old);
}
__global__ void casLoop(__half2 *h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) casAdd(h, __floats2half2_rn(0.25f, 1.0f));
}

int main() {
  int bad = 0;
  const int tokens = 300, dim = 64, vocab = 10;
  std::vector<int> ids(tokens);
  std::vector<int> count(vocab, 0);
  for (int t = 0; t < tokens; t++) { ids[t] = (t * 7 + t / 3) % vocab; count[ids[t]]++; }
  int *dIds; __half *dT; __nv_bfloat16 *dTB;
  CHECK(musaMalloc(&dIds, tokens * 4)); CHECK(musaMalloc(&dT, vocab * dim * 2)); CHECK(musaMalloc(&dTB, vocab * dim * 2));
  CHECK(musaMemcpy(dIds, ids.data(), tokens * 4, musaMemcpyHostToDevice));
  CHECK(musaMemset(dT, 0, vocab * dim * 2)); CHECK(musaMemset(dTB, 0, vocab * dim * 2));
  embBackward<<<tokens, dim>>>(dT, dTB, dIds, tokens, dim);
  CHECK(musaGetLastError());
  std::vector<__half> t(vocab * dim); std::vector<__nv_bfloat16> tb(vocab * dim);
  CHECK(musaMemcpy(t.data(), dT, vocab * dim * 2, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(tb.data(), dTB, vocab * dim * 2, musaMemcpyDeviceToHost));
  for (int v = 0; v < vocab; v++)
    for (int d = 0; d < dim; d++) {
      float want = count[v] * 0.125f; // <= 30 * 0.125: exact in half and in bf16 (needs 8 bits: counts up to 31)
      if ((__half2float(t[v * dim + d]) != want || __bfloat162float(tb[v * dim + d]) != want) && bad++ < 5)
        printf("emb[%d][%d] = %g / %g want %g\n", v, d, __half2float(t[v * dim + d]), __bfloat162float(tb[v * dim + d]), want);
    }
  // pairs
  const int n = 1000;
  __half2 *dH2; __nv_bfloat162 *dB2;
  CHECK(musaMalloc(&dH2, 16)); CHECK(musaMalloc(&dB2, 16));
  CHECK(musaMemset(dH2, 0, 16)); CHECK(musaMemset(dB2, 0, 16));
  pairAdds<<<(n + 127) / 128, 128>>>(dH2, dB2, n);
  CHECK(musaGetLastError());
  __half2 h2[4]; __nv_bfloat162 b2[4];
  CHECK(musaMemcpy(h2, dH2, 16, musaMemcpyDeviceToHost)); CHECK(musaMemcpy(b2, dB2, 16, musaMemcpyDeviceToHost));
  for (int i = 0; i < 4; i++) {
    // 250 adds each: half 250, -125 exact; bf16 500 exact? 500 = 0b111110100 needs 7 bits: yes; 62.5 = 0b111110.1 needs 7 bits: yes
    if ((__low2float(h2[i]) != 250.f || __high2float(h2[i]) != -125.f || __low2float(b2[i]) != 500.f || __high2float(b2[i]) != 62.5f) && bad++ < 10)
      printf("pair %d: half (%g, %g) bf16 (%g, %g)\n", i, __low2float(h2[i]), __high2float(h2[i]), __low2float(b2[i]), __high2float(b2[i]));
  }
  // old values: 1000 adds of 1 to a half: exact up to 2048
  __half *dAcc; float *dOld;
  CHECK(musaMalloc(&dAcc, 2)); CHECK(musaMalloc(&dOld, n * 4));
  CHECK(musaMemset(dAcc, 0, 2));
  oldValues<<<(n + 127) / 128, 128>>>(dAcc, dOld, n);
  CHECK(musaGetLastError());
  std::vector<float> olds(n);
  CHECK(musaMemcpy(olds.data(), dOld, n * 4, musaMemcpyDeviceToHost));
  std::sort(olds.begin(), olds.end());
  for (int i = 0; i < n; i++) if (olds[i] != (float)i && bad++ < 15) printf("old values: sorted[%d] = %g\n", i, olds[i]);
  __half acc; CHECK(musaMemcpy(&acc, dAcc, 2, musaMemcpyDeviceToHost));
  if (__half2float(acc) != (float)n && bad++ < 16) printf("acc %g\n", __half2float(acc));
  // shared, block scope
  float *dS; CHECK(musaMalloc(&dS, 3 * 4 * 4));
  sharedBlockAdds<<<3, 256>>>(dS);
  CHECK(musaGetLastError());
  float s[12]; CHECK(musaMemcpy(s, dS, sizeof s, musaMemcpyDeviceToHost));
  for (int b = 0; b < 3; b++)
    if ((s[4 * b] != 64.f || s[4 * b + 1] != 64.f || s[4 * b + 2] != 128.f || s[4 * b + 3] != 128.f) && bad++ < 20)
      printf("shared block %d: %g %g %g %g\n", b, s[4 * b], s[4 * b + 1], s[4 * b + 2], s[4 * b + 3]);
  // CAS loop
  __half2 *dC; CHECK(musaMalloc(&dC, 4)); CHECK(musaMemset(dC, 0, 4));
  casLoop<<<4, 128>>>(dC, 512);
  __half2 c; CHECK(musaMemcpy(&c, dC, 4, musaMemcpyDeviceToHost));
  if ((__low2float(c) != 128.f || __high2float(c) != 512.f) && bad++ < 25) printf("cas loop: (%g, %g)\n", __low2float(c), __high2float(c));
  printf("half_atomics: %d mismatches %s\n", bad, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

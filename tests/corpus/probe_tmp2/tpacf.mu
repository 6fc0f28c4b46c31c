// Parboil tpacf style: two-point angular correlation histograms (DD, RR_i by self-pairs, DR_i by cross-pairs) with
// one block per set pair, points staged in shared memory as structs, bin boundaries in __constant__ memory found by
// binary search, 128 sub-histograms per block updated with shared atomicAdd, then a shared tree merge of the
// sub-histograms (tid & (NUM_HISTOGRAMS/2-1) indexing) and unsigned long long output.
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK_SIZE 256
#define NUM_BINS 20
#define WARP_SIZE 32
#define NUM_WARPS (BLOCK_SIZE / WARP_SIZE)
#define HISTS_PER_WARP 16
#define NUM_HISTOGRAMS (NUM_WARPS * HISTS_PER_WARP)
#define THREADS_PER_HIST (WARP_SIZE / HISTS_PER_WARP)
#define D2R (M_PI / 180.0)

typedef unsigned long long hist_t;
struct cartesian {
  float x, y, z;
};

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

__constant__ float dev_binb[NUM_BINS + 1];

__global__ void gen_hists(hist_t *histograms, float *all_x_data, float *all_y_data, float *all_z_data, int NUM_SETS,
                          int NUM_ELEMENTS) {
  unsigned int bx = blockIdx.x;
  unsigned int tid = threadIdx.x;
  bool do_self = (bx < (NUM_SETS + 1));
  float *data_x, *data_y, *data_z;
  float *random_x, *random_y, *random_z;
  __shared__ struct cartesian data_s[BLOCK_SIZE];
  __shared__ unsigned int warp_hists[NUM_BINS][NUM_HISTOGRAMS];

  for (unsigned int w = 0; w < NUM_BINS * NUM_HISTOGRAMS; w += BLOCK_SIZE) {
    if (w + tid < NUM_BINS * NUM_HISTOGRAMS) {
      warp_hists[(w + tid) / NUM_HISTOGRAMS][(w + tid) % NUM_HISTOGRAMS] = 0;
    }
  }
  if (!do_self) {
    data_x = all_x_data;
    data_y = all_y_data;
    data_z = all_z_data;
    random_x = all_x_data + NUM_ELEMENTS * (bx - NUM_SETS);
    random_y = all_y_data + NUM_ELEMENTS * (bx - NUM_SETS);
    random_z = all_z_data + NUM_ELEMENTS * (bx - NUM_SETS);
  } else {
    random_x = all_x_data + NUM_ELEMENTS * (bx);
    random_y = all_y_data + NUM_ELEMENTS * (bx);
    random_z = all_z_data + NUM_ELEMENTS * (bx);
    data_x = random_x;
    data_y = random_y;
    data_z = random_z;
  }
  for (unsigned int i = 0; i < NUM_ELEMENTS; i += BLOCK_SIZE) {
    if (tid + i < NUM_ELEMENTS) {
      data_s[tid] = (struct cartesian){data_x[tid + i], data_y[tid + i], data_z[tid + i]};
    }
    __syncthreads();
    for (unsigned int j = (do_self ? i + 1 : 0); j < NUM_ELEMENTS; j += BLOCK_SIZE) {
      float random_x_s = 0, random_y_s = 0, random_z_s = 0;
      if (tid + j < NUM_ELEMENTS) {
        random_x_s = random_x[tid + j];
        random_y_s = random_y[tid + j];
        random_z_s = random_z[tid + j];
      }
      for (unsigned int k = 0; k < BLOCK_SIZE && i + k < NUM_ELEMENTS; k += 1) {
        float distance = data_s[k].x * random_x_s + data_s[k].y * random_y_s + data_s[k].z * random_z_s;
        unsigned int bin_index = 0;
        unsigned int min = 0;
        unsigned int max = NUM_BINS;
        {
          unsigned int k2;
          while (max > min + 1) {
            k2 = (min + max) / 2;
            if (distance >= dev_binb[k2])
              max = k2;
            else
              min = k2;
          }
          bin_index = max - 1;
        }
        unsigned int warpnum = tid / (WARP_SIZE / HISTS_PER_WARP);
        if ((distance < dev_binb[min]) && (distance >= dev_binb[max]) && (!do_self || (tid + j > i + k)) &&
            (tid + j < NUM_ELEMENTS)) {
          atomicAdd(&warp_hists[bin_index][warpnum], 1U);
        }
      }
    }
    __syncthreads();
  }
  unsigned int warp_index = tid & ((NUM_HISTOGRAMS >> 1) - 1);
  unsigned int bin_index = tid / (NUM_HISTOGRAMS >> 1);
  for (unsigned int offset = NUM_HISTOGRAMS >> 1; offset > 0; offset >>= 1) {
    for (unsigned int bin_base = 0; bin_base < NUM_BINS; bin_base += BLOCK_SIZE / (NUM_HISTOGRAMS >> 1)) {
      __syncthreads();
      if (warp_index < offset && bin_base + bin_index < NUM_BINS) {
        unsigned long sum = warp_hists[bin_base + bin_index][warp_index] +
                            warp_hists[bin_base + bin_index][warp_index + offset];
        warp_hists[bin_base + bin_index][warp_index] = sum;
      }
    }
  }
  __syncthreads();
  hist_t *hist_base = histograms + NUM_BINS * bx;
  if (tid < NUM_BINS) {
    hist_base[tid] = warp_hists[tid][0];
  }
}

static int host_bin(float d, const float *binb) {
  unsigned min = 0, max = NUM_BINS, k2;
  while (max > min + 1) {
    k2 = (min + max) / 2;
    if (d >= binb[k2])
      max = k2;
    else
      min = k2;
  }
  if ((d < binb[min]) && (d >= binb[max]))
    return max - 1;
  return -1;
}

static int run(int NUM_SETS, int NUM_ELEMENTS, unsigned seed) {
  int npts = (NUM_SETS + 1) * NUM_ELEMENTS;
  float *x = (float *)malloc(npts * sizeof(float)), *y = (float *)malloc(npts * sizeof(float));
  float *z = (float *)malloc(npts * sizeof(float));
  // points on a small cap of the unit sphere so that all bins (1..1000 arcmin) fill
  for (int i = 0; i < npts; i++) {
    seed = seed * 1664525u + 1013904223u;
    double ra = ((seed >> 8) & 0xffff) / 65536.0 * 20.0 * D2R;
    seed = seed * 1664525u + 1013904223u;
    double dec = (((seed >> 8) & 0xffff) / 65536.0 * 20.0 - 10.0) * D2R;
    x[i] = (float)(cos(ra) * cos(dec));
    y[i] = (float)(sin(ra) * cos(dec));
    z[i] = (float)sin(dec);
  }
  float binb[NUM_BINS + 1];
  double min_arcmin = 1.0, max_arcmin = 10000.0;
  double bins_per_dec = NUM_BINS / (log10(max_arcmin) - log10(min_arcmin));
  for (int k = 0; k < NUM_BINS + 1; k++)
    binb[k] = (float)cos(pow(10.0, log10(min_arcmin) + k * 1.0 / bins_per_dec) / 60.0 * D2R);
  binb[NUM_BINS] = -1.0f;  // catch everything beyond the last edge
  binb[0] = 1.0001f;
  CHECK(musaMemcpyToSymbol(dev_binb, binb, (NUM_BINS + 1) * sizeof(float)));
  float *dx, *dy, *dz;
  hist_t *dh;
  int nblocks = NUM_SETS * 2 + 1;
  CHECK(musaMalloc((void **)&dx, npts * sizeof(float)));
  CHECK(musaMalloc((void **)&dy, npts * sizeof(float)));
  CHECK(musaMalloc((void **)&dz, npts * sizeof(float)));
  CHECK(musaMalloc((void **)&dh, nblocks * NUM_BINS * sizeof(hist_t)));
  CHECK(musaMemcpy(dx, x, npts * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dy, y, npts * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dz, z, npts * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemset(dh, 0, nblocks * NUM_BINS * sizeof(hist_t)));
  musaEvent_t e0, e1;
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&e1));
  CHECK(musaEventRecord(e0));
  gen_hists<<<nblocks, BLOCK_SIZE>>>(dh, dx, dy, dz, NUM_SETS, NUM_ELEMENTS);
  CHECK(musaEventRecord(e1));
  CHECK(musaEventSynchronize(e1));
  CHECK(musaGetLastError());
  float ms;
  CHECK(musaEventElapsedTime(&ms, e0, e1));
  hist_t *h = (hist_t *)malloc(nblocks * NUM_BINS * sizeof(hist_t));
  CHECK(musaMemcpy(h, dh, nblocks * NUM_BINS * sizeof(hist_t), musaMemcpyDeviceToHost));
  int bad = 0;
  long long total = 0;
  for (int b = 0; b < nblocks; b++) {
    bool self = b < NUM_SETS + 1;
    const float *dxp = self ? x + b * NUM_ELEMENTS : x, *dyp = self ? y + b * NUM_ELEMENTS : y,
                *dzp = self ? z + b * NUM_ELEMENTS : z;
    int rs = self ? b : b - NUM_SETS;
    const float *rx = x + rs * NUM_ELEMENTS, *ry = y + rs * NUM_ELEMENTS, *rz = z + rs * NUM_ELEMENTS;
    long long ref[NUM_BINS] = {0};
    int ambiguous = 0;
    long long expected_pairs = 0;
    for (int p = 0; p < NUM_ELEMENTS; p++)
      for (int q = self ? p + 1 : 0; q < NUM_ELEMENTS; q++) {
        // every evaluation the device may legally pick when it contracts a*b+c*d+e*f into fused multiply-adds
        float a = dxp[p], d = rx[q], bb = dyp[p], e = ry[q], c = dzp[p], f = rz[q];
        float v[6] = {a * d + bb * e + c * f, fmaf(a, d, bb * e) + c * f, fmaf(bb, e, a * d) + c * f,
                      fmaf(c, f, a * d + bb * e), fmaf(c, f, fmaf(a, d, bb * e)), fmaf(c, f, fmaf(bb, e, a * d))};
        int b1 = host_bin(v[0], binb);
        if (b1 >= 0)
          ref[b1]++;
        for (int t = 1; t < 6; t++)
          if (host_bin(v[t], binb) != b1) {
            ambiguous++;
            break;
          }
        expected_pairs++;
      }
    long long diff = 0, sum = 0;
    for (int k = 0; k < NUM_BINS; k++) {
      long long d = (long long)h[b * NUM_BINS + k] - ref[k];
      diff += d < 0 ? -d : d;
      sum += h[b * NUM_BINS + k];
    }
    total += sum;
    if (diff > 2 * ambiguous || sum != expected_pairs) {
      if (bad < 4)
        printf("  block %d: |diff| %lld (ambiguous %d), pairs %lld vs %lld\n", b, diff, ambiguous, sum,
               expected_pairs);
      bad++;
    }
  }
  printf("tpacf %d sets x %d points: %.3f ms, %lld pairs binned%s\n", NUM_SETS, NUM_ELEMENTS, ms, total,
         bad ? " MISMATCH" : "");
  musaFree(dx); musaFree(dy); musaFree(dz); musaFree(dh); musaEventDestroy(e0); musaEventDestroy(e1);
  free(x); free(y); free(z); free(h);
  return bad;
}

int main() {
  int bad = 0;
  bad += run(2, 100, 1);
  bad += run(3, 300, 2);
  bad += run(1, 512, 3);
  printf("tpacf: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

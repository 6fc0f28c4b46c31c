// Rodinia srad_v2: speckle-reducing anisotropic diffusion; per iteration the host computes the ROI statistics
// (q0sqr) from J, copies J to the device and runs srad_cuda_1 (directional derivatives and saturated diffusion
// coefficient through six 16x16 shared tiles with border special cases) and srad_cuda_2 (divergence and update).
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK_SIZE 16
#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

__global__ void srad_cuda_1(float *E_C, float *W_C, float *N_C, float *S_C, float *J_cuda, float *C_cuda, int cols,
                            int rows, float q0sqr) {
  int bx = blockIdx.x;
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int index = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + tx;
  int index_n = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + tx - cols;
  int index_s = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * BLOCK_SIZE + tx;
  int index_w = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty - 1;
  int index_e = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + BLOCK_SIZE;
  float n, w, e, s, jc, g2, l, num, den, qsqr, c;
  __shared__ float temp[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float temp_result[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float north[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float south[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float east[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float west[BLOCK_SIZE][BLOCK_SIZE];

  // (The original reads J_cuda[index_n] unconditionally, one row before the image for by == 0; guarded here.)
  if (by > 0)
    north[ty][tx] = J_cuda[index_n];
  if (by < gridDim.y - 1)
    south[ty][tx] = J_cuda[index_s];
  if (by == 0) {
    north[ty][tx] = J_cuda[BLOCK_SIZE * bx + tx];
  }
  if (by == gridDim.y - 1) {
    south[ty][tx] = J_cuda[cols * BLOCK_SIZE * (gridDim.y - 1) + BLOCK_SIZE * bx + cols * (BLOCK_SIZE - 1) + tx];
  }
  __syncthreads();
  west[ty][tx] = J_cuda[index_w];
  east[ty][tx] = J_cuda[index_e];
  if (bx == 0) {
    west[ty][tx] = J_cuda[cols * BLOCK_SIZE * by + cols * ty];
  } else if (bx == gridDim.x - 1) {
    east[ty][tx] = J_cuda[cols * BLOCK_SIZE * by + BLOCK_SIZE * (gridDim.x - 1) + cols * ty + BLOCK_SIZE - 1];
  }
  __syncthreads();
  temp[ty][tx] = J_cuda[index];
  __syncthreads();
  jc = temp[ty][tx];
  if (ty == 0 && tx == 0) {  // nw
    n = north[ty][tx] - jc;
    s = temp[ty + 1][tx] - jc;
    w = west[ty][tx] - jc;
    e = temp[ty][tx + 1] - jc;
  } else if (ty == 0 && tx == BLOCK_SIZE - 1) {  // ne
    n = north[ty][tx] - jc;
    s = temp[ty + 1][tx] - jc;
    w = temp[ty][tx - 1] - jc;
    e = east[ty][tx] - jc;
  } else if (ty == BLOCK_SIZE - 1 && tx == BLOCK_SIZE - 1) {  // se
    n = temp[ty - 1][tx] - jc;
    s = south[ty][tx] - jc;
    w = temp[ty][tx - 1] - jc;
    e = east[ty][tx] - jc;
  } else if (ty == BLOCK_SIZE - 1 && tx == 0) {  // sw
    n = temp[ty - 1][tx] - jc;
    s = south[ty][tx] - jc;
    w = west[ty][tx] - jc;
    e = temp[ty][tx + 1] - jc;
  } else if (ty == 0) {  // n
    n = north[ty][tx] - jc;
    s = temp[ty + 1][tx] - jc;
    w = temp[ty][tx - 1] - jc;
    e = temp[ty][tx + 1] - jc;
  } else if (tx == BLOCK_SIZE - 1) {  // e
    n = temp[ty - 1][tx] - jc;
    s = temp[ty + 1][tx] - jc;
    w = temp[ty][tx - 1] - jc;
    e = east[ty][tx] - jc;
  } else if (ty == BLOCK_SIZE - 1) {  // s
    n = temp[ty - 1][tx] - jc;
    s = south[ty][tx] - jc;
    w = temp[ty][tx - 1] - jc;
    e = temp[ty][tx + 1] - jc;
  } else if (tx == 0) {  // w
    n = temp[ty - 1][tx] - jc;
    s = temp[ty + 1][tx] - jc;
    w = west[ty][tx] - jc;
    e = temp[ty][tx + 1] - jc;
  } else {
    n = temp[ty - 1][tx] - jc;
    s = temp[ty + 1][tx] - jc;
    w = temp[ty][tx - 1] - jc;
    e = temp[ty][tx + 1] - jc;
  }
  g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
  l = (n + s + w + e) / jc;
  num = (0.5 * g2) - ((1.0 / 16.0) * (l * l));
  den = 1 + (.25 * l);
  qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
  c = 1.0 / (1.0 + den);
  if (c < 0) {
    temp_result[ty][tx] = 0;
  } else if (c > 1) {
    temp_result[ty][tx] = 1;
  } else {
    temp_result[ty][tx] = c;
  }
  __syncthreads();
  C_cuda[index] = temp_result[ty][tx];
  E_C[index] = e;
  W_C[index] = w;
  S_C[index] = s;
  N_C[index] = n;
}

__global__ void srad_cuda_2(float *E_C, float *W_C, float *N_C, float *S_C, float *J_cuda, float *C_cuda, int cols,
                            int rows, float lambda, float q0sqr) {
  int bx = blockIdx.x;
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int index = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + tx;
  int index_s = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * BLOCK_SIZE + tx;
  int index_e = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + BLOCK_SIZE;
  float cc, cn, cs, ce, cw, d_sum;
  __shared__ float south_c[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float east_c[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float c_cuda_temp[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float c_cuda_result[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float temp[BLOCK_SIZE][BLOCK_SIZE];
  temp[ty][tx] = J_cuda[index];
  __syncthreads();
  if (by == gridDim.y - 1) {
    south_c[ty][tx] = C_cuda[cols * BLOCK_SIZE * (gridDim.y - 1) + BLOCK_SIZE * bx + cols * (BLOCK_SIZE - 1) + tx];
  } else {
    south_c[ty][tx] = C_cuda[index_s];
  }
  __syncthreads();
  east_c[ty][tx] = C_cuda[index_e];
  if (bx == gridDim.x - 1) {
    east_c[ty][tx] = C_cuda[cols * BLOCK_SIZE * by + BLOCK_SIZE * (gridDim.x - 1) + cols * ty + BLOCK_SIZE - 1];
  }
  __syncthreads();
  c_cuda_temp[ty][tx] = C_cuda[index];
  __syncthreads();
  cc = c_cuda_temp[ty][tx];
  if (ty == BLOCK_SIZE - 1 && tx == BLOCK_SIZE - 1) {
    cn = cc;
    cs = south_c[ty][tx];
    cw = cc;
    ce = east_c[ty][tx];
  } else if (tx == BLOCK_SIZE - 1) {
    cn = cc;
    cs = c_cuda_temp[ty + 1][tx];
    cw = cc;
    ce = east_c[ty][tx];
  } else if (ty == BLOCK_SIZE - 1) {
    cn = cc;
    cs = south_c[ty][tx];
    cw = cc;
    ce = c_cuda_temp[ty][tx + 1];
  } else {
    cn = cc;
    cs = c_cuda_temp[ty + 1][tx];
    cw = cc;
    ce = c_cuda_temp[ty][tx + 1];
  }
  d_sum = cn * N_C[index] + cs * S_C[index] + cw * W_C[index] + ce * E_C[index];
  c_cuda_result[ty][tx] = temp[ty][tx] + 0.25 * lambda * d_sum;
  __syncthreads();
  J_cuda[index] = c_cuda_result[ty][tx];
}

static float roi_q0sqr(const float *J, int cols, int r1, int r2, int c1, int c2) {
  float sum = 0, sum2 = 0, tmp;
  int size_R = (r2 - r1 + 1) * (c2 - c1 + 1);
  for (int i = r1; i <= r2; i++)
    for (int j = c1; j <= c2; j++) {
      tmp = J[i * cols + j];
      sum += tmp;
      sum2 += tmp * tmp;
    }
  float meanROI = sum / size_R;
  float varROI = (sum2 / size_R) - meanROI * meanROI;
  return varROI / (meanROI * meanROI);
}

static int run(int rows, int cols, int niter, float lambda, unsigned seed) {
  int size_I = rows * cols;
  int r1 = 0, r2 = rows / 2, c1 = 0, c2 = cols / 2;
  float *I = (float *)malloc(size_I * sizeof(float));
  float *J = (float *)malloc(size_I * sizeof(float));
  float *Jh = (float *)malloc(size_I * sizeof(float));
  float *c = (float *)malloc(size_I * sizeof(float));
  float *dN = (float *)malloc(size_I * sizeof(float)), *dS = (float *)malloc(size_I * sizeof(float));
  float *dW = (float *)malloc(size_I * sizeof(float)), *dE = (float *)malloc(size_I * sizeof(float));
  for (int i = 0; i < size_I; i++) {
    seed = seed * 1664525u + 1013904223u;
    I[i] = (float)((seed >> 8) & 0xffff) / 65536.0f;
  }
  for (int k = 0; k < size_I; k++) {
    J[k] = (float)exp(I[k]);
    Jh[k] = J[k];
  }
  float *J_cuda, *C_cuda, *E_C, *W_C, *N_C, *S_C;
  CHECK(musaMalloc((void **)&J_cuda, sizeof(float) * size_I));
  CHECK(musaMalloc((void **)&C_cuda, sizeof(float) * size_I));
  CHECK(musaMalloc((void **)&E_C, sizeof(float) * size_I));
  CHECK(musaMalloc((void **)&W_C, sizeof(float) * size_I));
  CHECK(musaMalloc((void **)&S_C, sizeof(float) * size_I));
  CHECK(musaMalloc((void **)&N_C, sizeof(float) * size_I));
  float total_ms = 0;
  musaEvent_t e0, e1;
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&e1));
  for (int iter = 0; iter < niter; iter++) {
    float q0sqr = roi_q0sqr(J, cols, r1, r2, c1, c2);
    int block_x = cols / BLOCK_SIZE;
    int block_y = rows / BLOCK_SIZE;
    dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
    dim3 dimGrid(block_x, block_y);
    CHECK(musaMemcpy(J_cuda, J, sizeof(float) * size_I, musaMemcpyHostToDevice));
    CHECK(musaEventRecord(e0));
    srad_cuda_1<<<dimGrid, dimBlock>>>(E_C, W_C, N_C, S_C, J_cuda, C_cuda, cols, rows, q0sqr);
    srad_cuda_2<<<dimGrid, dimBlock>>>(E_C, W_C, N_C, S_C, J_cuda, C_cuda, cols, rows, lambda, q0sqr);
    CHECK(musaEventRecord(e1));
    CHECK(musaMemcpy(J, J_cuda, sizeof(float) * size_I, musaMemcpyDeviceToHost));
    float ms;
    CHECK(musaEventElapsedTime(&ms, e0, e1));
    total_ms += ms;
  }
  CHECK(musaGetLastError());

  // host reference: the CPU srad_v2 with clamped neighbour indices
  for (int iter = 0; iter < niter; iter++) {
    float q0sqr = roi_q0sqr(Jh, cols, r1, r2, c1, c2);
    for (int i = 0; i < rows; i++)
      for (int j = 0; j < cols; j++) {
        int k = i * cols + j;
        int iN = i > 0 ? i - 1 : 0, iS = i < rows - 1 ? i + 1 : rows - 1;
        int jW = j > 0 ? j - 1 : 0, jE = j < cols - 1 ? j + 1 : cols - 1;
        float Jc = Jh[k];
        dN[k] = Jh[iN * cols + j] - Jc;
        dS[k] = Jh[iS * cols + j] - Jc;
        dW[k] = Jh[i * cols + jW] - Jc;
        dE[k] = Jh[i * cols + jE] - Jc;
        float G2 = (dN[k] * dN[k] + dS[k] * dS[k] + dW[k] * dW[k] + dE[k] * dE[k]) / (Jc * Jc);
        float L = (dN[k] + dS[k] + dW[k] + dE[k]) / Jc;
        float num = (0.5 * G2) - ((1.0 / 16.0) * (L * L));
        float den = 1 + (.25 * L);
        float qsqr = num / (den * den);
        den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
        c[k] = 1.0 / (1.0 + den);
        if (c[k] < 0)
          c[k] = 0;
        else if (c[k] > 1)
          c[k] = 1;
      }
    for (int i = 0; i < rows; i++)
      for (int j = 0; j < cols; j++) {
        int k = i * cols + j;
        int iS = i < rows - 1 ? i + 1 : rows - 1, jE = j < cols - 1 ? j + 1 : cols - 1;
        float cN = c[k], cS = c[iS * cols + j], cW = c[k], cE = c[i * cols + jE];
        float D = cN * dN[k] + cS * dS[k] + cW * dW[k] + cE * dE[k];
        Jh[k] = Jh[k] + 0.25 * lambda * D;
      }
  }
  double maxerr = 0;
  int bad = 0;
  for (int k = 0; k < size_I; k++) {
    double e = fabs((double)J[k] - Jh[k]) / fabs(Jh[k]);
    if (e > maxerr)
      maxerr = e;
    if (!(e < 1e-4))
      bad++;
  }
  printf("srad_v2 %dx%d, %d iterations, lambda %.2f: %.3f ms, max rel err %.2e%s\n", rows, cols, niter, lambda,
         total_ms, maxerr, bad ? " MISMATCH" : "");
  musaFree(J_cuda); musaFree(C_cuda); musaFree(E_C); musaFree(W_C); musaFree(S_C); musaFree(N_C);
  musaEventDestroy(e0); musaEventDestroy(e1);
  free(I); free(J); free(Jh); free(c); free(dN); free(dS); free(dW); free(dE);
  return bad;
}

int main() {
  int bad = 0;
  bad += run(64, 64, 4, 0.5f, 1);
  bad += run(48, 96, 3, 0.25f, 2);
  bad += run(128, 32, 2, 0.5f, 3);
  printf("srad_v2: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

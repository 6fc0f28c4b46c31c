// Parboil mri-q: ComputePhiMag_GPU, then ComputeQ_GPU over the K-space samples in chunks of 1024 copied into a
// __constant__ array of structs by musaMemcpyToSymbol in a host loop (one launch per chunk), with the odd-numK peel
// and the two-way unrolled loop using sin/cos; several numK/numX including a partial last chunk.
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PI 3.1415926535897932384626433832795029f
#define PIx2 6.2831853071795864769252867665590058f
#define MIN(X, Y) ((X) < (Y) ? (X) : (Y))
#define K_ELEMS_PER_GRID 2048
#define KERNEL_PHI_MAG_THREADS_PER_BLOCK 512
#define KERNEL_Q_THREADS_PER_BLOCK 256
#define KERNEL_Q_K_ELEMS_PER_GRID 1024

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

struct kValues {
  float Kx;
  float Ky;
  float Kz;
  float PhiMag;
};

__constant__ __device__ kValues ck[KERNEL_Q_K_ELEMS_PER_GRID];

__global__ void ComputePhiMag_GPU(float *phiR, float *phiI, float *phiMag, int numK) {
  int indexK = blockIdx.x * KERNEL_PHI_MAG_THREADS_PER_BLOCK + threadIdx.x;
  if (indexK < numK) {
    float real = phiR[indexK];
    float imag = phiI[indexK];
    phiMag[indexK] = real * real + imag * imag;
  }
}

__global__ void ComputeQ_GPU(int numK, int kGlobalIndex, float *x, float *y, float *z, float *Qr, float *Qi) {
  float sX, sY, sZ, sQr, sQi;
  int xIndex = blockIdx.x * KERNEL_Q_THREADS_PER_BLOCK + threadIdx.x;
  sX = x[xIndex];
  sY = y[xIndex];
  sZ = z[xIndex];
  sQr = Qr[xIndex];
  sQi = Qi[xIndex];
  int kIndex = 0;
  if (numK % 2) {
    float expArg = PIx2 * (ck[0].Kx * sX + ck[0].Ky * sY + ck[0].Kz * sZ);
    sQr += ck[0].PhiMag * cos(expArg);
    sQi += ck[0].PhiMag * sin(expArg);
    kIndex++;
    kGlobalIndex++;
  }
  for (; (kIndex < KERNEL_Q_K_ELEMS_PER_GRID) && (kGlobalIndex < numK); kIndex += 2, kGlobalIndex += 2) {
    float expArg = PIx2 * (ck[kIndex].Kx * sX + ck[kIndex].Ky * sY + ck[kIndex].Kz * sZ);
    sQr += ck[kIndex].PhiMag * cos(expArg);
    sQi += ck[kIndex].PhiMag * sin(expArg);
    int kIndex1 = kIndex + 1;
    float expArg1 = PIx2 * (ck[kIndex1].Kx * sX + ck[kIndex1].Ky * sY + ck[kIndex1].Kz * sZ);
    sQr += ck[kIndex1].PhiMag * cos(expArg1);
    sQi += ck[kIndex1].PhiMag * sin(expArg1);
  }
  Qr[xIndex] = sQr;
  Qi[xIndex] = sQi;
}

void computePhiMag_GPU(int numK, float *phiR_d, float *phiI_d, float *phiMag_d) {
  int phiMagBlocks = numK / KERNEL_PHI_MAG_THREADS_PER_BLOCK;
  if (numK % KERNEL_PHI_MAG_THREADS_PER_BLOCK)
    phiMagBlocks++;
  dim3 DimPhiMagBlock(KERNEL_PHI_MAG_THREADS_PER_BLOCK, 1);
  dim3 DimPhiMagGrid(phiMagBlocks, 1);
  ComputePhiMag_GPU<<<DimPhiMagGrid, DimPhiMagBlock>>>(phiR_d, phiI_d, phiMag_d, numK);
}

void computeQ_GPU(int numK, int numX, float *x_d, float *y_d, float *z_d, kValues *kVals, float *Qr_d, float *Qi_d) {
  int QGrids = numK / KERNEL_Q_K_ELEMS_PER_GRID;
  if (numK % KERNEL_Q_K_ELEMS_PER_GRID)
    QGrids++;
  int QBlocks = numX / KERNEL_Q_THREADS_PER_BLOCK;
  if (numX % KERNEL_Q_THREADS_PER_BLOCK)
    QBlocks++;
  dim3 DimQBlock(KERNEL_Q_THREADS_PER_BLOCK, 1);
  dim3 DimQGrid(QBlocks, 1);
  for (int QGrid = 0; QGrid < QGrids; QGrid++) {
    int QGridBase = QGrid * KERNEL_Q_K_ELEMS_PER_GRID;
    kValues *kValsTile = kVals + QGridBase;
    int numElems = MIN(KERNEL_Q_K_ELEMS_PER_GRID, numK - QGridBase);
    CHECK(musaMemcpyToSymbol(ck, kValsTile, numElems * sizeof(kValues), 0));
    ComputeQ_GPU<<<DimQGrid, DimQBlock>>>(numK, QGridBase, x_d, y_d, z_d, Qr_d, Qi_d);
  }
}

static unsigned rs = 99;
static float frand() {
  rs = rs * 1664525u + 1013904223u;
  return (float)((rs >> 8) & 0xffff) / 65536.0f - 0.5f;
}

static int run(int numK, int numX) {
  float *kx = (float *)malloc(numK * sizeof(float)), *ky = (float *)malloc(numK * sizeof(float));
  float *kz = (float *)malloc(numK * sizeof(float)), *phiR = (float *)malloc(numK * sizeof(float));
  float *phiI = (float *)malloc(numK * sizeof(float)), *phiMag = (float *)malloc(numK * sizeof(float));
  float *x = (float *)malloc(numX * sizeof(float)), *y = (float *)malloc(numX * sizeof(float));
  float *z = (float *)malloc(numX * sizeof(float));
  float *Qr = (float *)malloc(numX * sizeof(float)), *Qi = (float *)malloc(numX * sizeof(float));
  for (int i = 0; i < numK; i++) {
    kx[i] = frand(); ky[i] = frand(); kz[i] = frand();
    phiR[i] = frand(); phiI[i] = frand();
  }
  for (int i = 0; i < numX; i++) {
    x[i] = frand() * 4; y[i] = frand() * 4; z[i] = frand() * 4;
  }
  float *phiR_d, *phiI_d, *phiMag_d, *x_d, *y_d, *z_d, *Qr_d, *Qi_d;
  CHECK(musaMalloc((void **)&phiR_d, numK * sizeof(float)));
  CHECK(musaMalloc((void **)&phiI_d, numK * sizeof(float)));
  CHECK(musaMalloc((void **)&phiMag_d, numK * sizeof(float)));
  CHECK(musaMemcpy(phiR_d, phiR, numK * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(phiI_d, phiI, numK * sizeof(float), musaMemcpyHostToDevice));
  musaEvent_t e0, e1, e2;
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&e1));
  CHECK(musaEventCreate(&e2));
  CHECK(musaEventRecord(e0));
  computePhiMag_GPU(numK, phiR_d, phiI_d, phiMag_d);
  CHECK(musaEventRecord(e1));
  CHECK(musaMemcpy(phiMag, phiMag_d, numK * sizeof(float), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < numK; i++) {
    float ref = phiR[i] * phiR[i] + phiI[i] * phiI[i];
    if (!(fabsf(phiMag[i] - ref) <= 1e-6f * (ref + 1e-6f)))
      bad++;
  }
  kValues *kVals = (kValues *)calloc(numK, sizeof(kValues));
  for (int k = 0; k < numK; k++) {
    kVals[k].Kx = kx[k];
    kVals[k].Ky = ky[k];
    kVals[k].Kz = kz[k];
    kVals[k].PhiMag = phiMag[k];
  }
  CHECK(musaMalloc((void **)&x_d, numX * sizeof(float)));
  CHECK(musaMalloc((void **)&y_d, numX * sizeof(float)));
  CHECK(musaMalloc((void **)&z_d, numX * sizeof(float)));
  CHECK(musaMalloc((void **)&Qr_d, numX * sizeof(float)));
  CHECK(musaMalloc((void **)&Qi_d, numX * sizeof(float)));
  CHECK(musaMemcpy(x_d, x, numX * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(y_d, y, numX * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(z_d, z, numX * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemset((void *)Qr_d, 0, numX * sizeof(float)));
  CHECK(musaMemset((void *)Qi_d, 0, numX * sizeof(float)));
  computeQ_GPU(numK, numX, x_d, y_d, z_d, kVals, Qr_d, Qi_d);
  CHECK(musaEventRecord(e2));
  CHECK(musaEventSynchronize(e2));
  CHECK(musaGetLastError());
  float ms1, ms2;
  CHECK(musaEventElapsedTime(&ms1, e0, e1));
  CHECK(musaEventElapsedTime(&ms2, e1, e2));
  CHECK(musaMemcpy(Qr, Qr_d, numX * sizeof(float), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(Qi, Qi_d, numX * sizeof(float), musaMemcpyDeviceToHost));
  double maxerr = 0;
  for (int i = 0; i < numX; i++) {
    double qr = 0, qi = 0, mag = 0;
    for (int k = 0; k < numK; k++) {
      double arg = 2.0 * M_PI * ((double)kx[k] * x[i] + (double)ky[k] * y[i] + (double)kz[k] * z[i]);
      qr += phiMag[k] * cos(arg);
      qi += phiMag[k] * sin(arg);
      mag += phiMag[k];
    }
    double e = fmax(fabs(Qr[i] - qr), fabs(Qi[i] - qi)) / mag;
    if (e > maxerr)
      maxerr = e;
    if (!(e < 2e-5)) {
      if (bad < 4)
        printf("  x %d: (%f,%f) vs (%f,%f)\n", i, Qr[i], Qi[i], qr, qi);
      bad++;
    }
  }
  printf("mri-q numK=%d numX=%d (%d constant chunks): phiMag %.3f ms, Q %.3f ms, max scaled err %.2e%s\n", numK,
         numX, (numK + KERNEL_Q_K_ELEMS_PER_GRID - 1) / KERNEL_Q_K_ELEMS_PER_GRID, ms1, ms2, maxerr,
         bad ? " MISMATCH" : "");
  musaFree(phiR_d); musaFree(phiI_d); musaFree(phiMag_d); musaFree(x_d); musaFree(y_d); musaFree(z_d);
  musaFree(Qr_d); musaFree(Qi_d);
  musaEventDestroy(e0); musaEventDestroy(e1); musaEventDestroy(e2);
  free(kx); free(ky); free(kz); free(phiR); free(phiI); free(phiMag); free(x); free(y); free(z); free(Qr);
  free(Qi); free(kVals);
  return bad;
}

int main() {
  int bad = 0;
  bad += run(777, 256);
  bad += run(2500, 512);
  bad += run(1024, 768);
  printf("mri-q: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

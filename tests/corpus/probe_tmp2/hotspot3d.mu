// Rodinia hotspot3D (hotspotOpt1): 3D thermal stencil with a 2D grid of 64x4 threads, each thread marching up the
// z axis keeping the below/centre/above values in registers (temp1/temp2/temp3); bounds-guarded (HeCBench style) so
// nx, ny need not be multiples of the block; host loop of iterations swapping tIn/tOut, timed with events.
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define STR_SIZE 256
#define MAX_PD (3.0e6)
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100
#define FACTOR_CHIP 0.5

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

float t_chip = 0.0005;
float chip_height = 0.016;
float chip_width = 0.016;
float amb_temp = 80.0;

__global__ void hotspotOpt1(const float *__restrict__ p, const float *__restrict__ tIn, float *__restrict__ tOut,
                            float sdc, int nx, int ny, int nz, float ce, float cw, float cn, float cs, float ct,
                            float cb, float cc) {
  float amb_temp = 80.0;
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  int j = blockDim.y * blockIdx.y + threadIdx.y;
  if (i >= nx || j >= ny)
    return;
  int c = i + j * nx;
  int xy = nx * ny;
  int W = (i == 0) ? c : c - 1;
  int E = (i == nx - 1) ? c : c + 1;
  int N = (j == 0) ? c : c - nx;
  int S = (j == ny - 1) ? c : c + nx;
  float temp1, temp2, temp3;
  temp1 = temp2 = tIn[c];
  temp3 = tIn[c + xy];
  tOut[c] = cc * temp2 + cw * tIn[W] + ce * tIn[E] + cs * tIn[S] + cn * tIn[N] + cb * temp1 + ct * temp3 +
            sdc * p[c] + ct * amb_temp;
  c += xy;
  W += xy;
  E += xy;
  N += xy;
  S += xy;
  for (int k = 1; k < nz - 1; ++k) {
    temp1 = temp2;
    temp2 = temp3;
    temp3 = tIn[c + xy];
    tOut[c] = cc * temp2 + cw * tIn[W] + ce * tIn[E] + cs * tIn[S] + cn * tIn[N] + cb * temp1 + ct * temp3 +
              sdc * p[c] + ct * amb_temp;
    c += xy;
    W += xy;
    E += xy;
    N += xy;
    S += xy;
  }
  temp1 = temp2;
  temp2 = temp3;
  tOut[c] = cc * temp2 + cw * tIn[W] + ce * tIn[E] + cs * tIn[S] + cn * tIn[N] + cb * temp1 + ct * temp3 +
            sdc * p[c] + ct * amb_temp;
}

void computeTempCPU(float *pIn, float *tIn, float *tOut, int nx, int ny, int nz, float Cap, float Rx, float Ry,
                    float Rz, float dt, int numiter) {
  float ce, cw, cn, cs, ct, cb, cc;
  float stepDivCap = dt / Cap;
  ce = cw = stepDivCap / Rx;
  cn = cs = stepDivCap / Ry;
  ct = cb = stepDivCap / Rz;
  cc = 1.0 - (2.0 * ce + 2.0 * cn + 3.0 * ct);
  int c, w, e, n, s, b, t;
  int x, y, z;
  int i = 0;
  do {
    for (z = 0; z < nz; z++)
      for (y = 0; y < ny; y++)
        for (x = 0; x < nx; x++) {
          c = x + y * nx + z * nx * ny;
          w = (x == 0) ? c : c - 1;
          e = (x == nx - 1) ? c : c + 1;
          n = (y == 0) ? c : c - nx;
          s = (y == ny - 1) ? c : c + nx;
          b = (z == 0) ? c : c - nx * ny;
          t = (z == nz - 1) ? c : c + nx * ny;
          tOut[c] = tIn[c] * cc + tIn[n] * cn + tIn[s] * cs + tIn[e] * ce + tIn[w] * cw + tIn[t] * ct +
                    tIn[b] * cb + (dt / Cap) * pIn[c] + ct * amb_temp;
        }
    float *temp = tIn;
    tIn = tOut;
    tOut = temp;
    i++;
  } while (i < numiter);
}

static int run(int nx, int ny, int nz, int numiter, unsigned seed) {
  int size = nx * ny * nz;
  float *powerIn = (float *)malloc(size * sizeof(float));
  float *tempIn = (float *)malloc(size * sizeof(float));
  float *tempCopy = (float *)malloc(size * sizeof(float));
  float *tempOut = (float *)calloc(size, sizeof(float));
  float *answer = (float *)calloc(size, sizeof(float));
  for (int i = 0; i < size; i++) {
    seed = seed * 1664525u + 1013904223u;
    powerIn[i] = (float)((seed >> 9) % 1000) / 1000.0f * 0.005f;
    seed = seed * 1664525u + 1013904223u;
    tempIn[i] = 320.0f + (float)((seed >> 9) % 3000) / 100.0f;
    tempCopy[i] = tempIn[i];
  }
  float dx = chip_height / nx;
  float dy = chip_width / ny;
  float dz = t_chip / nz;
  float Cap = FACTOR_CHIP * SPEC_HEAT_SI * t_chip * dx * dy;
  float Rx = dy / (2.0 * K_SI * t_chip * dx);
  float Ry = dx / (2.0 * K_SI * t_chip * dy);
  float Rz = dz / (K_SI * dx * dy);
  float max_slope = MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI);
  float dt = PRECISION / max_slope;

  float ce, cw, cn, cs, ct, cb, cc;
  float stepDivCap = dt / Cap;
  ce = cw = stepDivCap / Rx;
  cn = cs = stepDivCap / Ry;
  ct = cb = stepDivCap / Rz;
  cc = 1.0 - (2.0 * ce + 2.0 * cn + 3.0 * ct);

  size_t s = sizeof(float) * size;
  float *tIn_d, *tOut_d, *p_d;
  CHECK(musaMalloc((void **)&p_d, s));
  CHECK(musaMalloc((void **)&tIn_d, s));
  CHECK(musaMalloc((void **)&tOut_d, s));
  CHECK(musaMemcpy(tIn_d, tempIn, s, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(p_d, powerIn, s, musaMemcpyHostToDevice));
  dim3 block_dim(64, 4, 1);
  dim3 grid_dim((nx + 63) / 64, (ny + 3) / 4, 1);
  musaEvent_t e0, e1;
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&e1));
  CHECK(musaEventRecord(e0));
  for (int i = 0; i < numiter; ++i) {
    hotspotOpt1<<<grid_dim, block_dim>>>(p_d, tIn_d, tOut_d, stepDivCap, nx, ny, nz, ce, cw, cn, cs, ct, cb, cc);
    float *t = tIn_d;
    tIn_d = tOut_d;
    tOut_d = t;
  }
  CHECK(musaEventRecord(e1));
  CHECK(musaEventSynchronize(e1));
  CHECK(musaGetLastError());
  float ms;
  CHECK(musaEventElapsedTime(&ms, e0, e1));
  CHECK(musaMemcpy(tempOut, tIn_d, s, musaMemcpyDeviceToHost));
  computeTempCPU(powerIn, tempCopy, answer, nx, ny, nz, Cap, Rx, Ry, Rz, dt, numiter);
  float *ref = (numiter % 2) ? answer : tempCopy;
  double maxerr = 0;
  int bad = 0;
  for (int i = 0; i < size; i++) {
    double e = fabs((double)tempOut[i] - ref[i]);
    if (e > maxerr)
      maxerr = e;
    if (!(e < 1e-3 * (1 + fabs(ref[i]) * 1e-2)))
      bad++;
  }
  printf("hotspot3D %dx%dx%d, %d iterations: %.3f ms, max err %.2e%s\n", nx, ny, nz, numiter, ms, maxerr,
         bad ? " MISMATCH" : "");
  musaFree(p_d); musaFree(tIn_d); musaFree(tOut_d);
  musaEventDestroy(e0); musaEventDestroy(e1);
  free(powerIn); free(tempIn); free(tempCopy); free(tempOut); free(answer);
  return bad;
}

int main() {
  int bad = 0;
  bad += run(64, 8, 4, 10, 3);
  bad += run(70, 10, 8, 7, 4);
  bad += run(130, 6, 2, 4, 5);
  printf("hotspot3D: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

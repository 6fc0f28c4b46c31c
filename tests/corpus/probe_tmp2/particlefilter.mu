// Rodinia particlefilter (double version): per frame a likelihood_kernel (per-particle LCG/Box-Muller motion model
// with int-overflowing seeds, disk-template likelihood over a uint8 video, exp weights, 512-entry shared double
// tree reduction into per-block partial sums), a one-thread sum_kernel, weight normalisation with a shared
// broadcast, CDF and the systematic-resampling offsets, and find_index_kernel's linear CDF search; 512-thread blocks
// with particle counts that are not multiples of 512. (Rodinia's normalize kernel lets other blocks read u[0]
// before block 0 writes it, a cross-block race; the CDF/u[0] step is its own one-thread kernel here.)
#include <musa_runtime.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PI 3.1415926535897932
#define M INT_MAX
#define A 1103515245
#define C 12345
const int threads_per_block = 512;

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

__host__ __device__ double d_randu(int *seed, int index) {
  int num = (int)((unsigned)A * (unsigned)seed[index] + (unsigned)C);  // the GPU's wrapping int arithmetic
  seed[index] = num % M;
  return fabs(seed[index] / ((double)M));
}

__host__ __device__ double d_randn(int *seed, int index) {
  double u = d_randu(seed, index);
  double v = d_randu(seed, index);
  double cosine = cos(2 * PI * v);
  double rt = -2 * log(u);
  return sqrt(rt) * cosine;
}

__host__ __device__ int dev_round_double(double value) {
  int newValue = (int)(value);
  if (value - newValue < .5f)
    return newValue;
  else
    return newValue++;
}

__host__ __device__ double calcLikelihoodSum(unsigned char *I, int *ind, int numOnes, int index) {
  double likelihoodSum = 0.0;
  int x;
  for (x = 0; x < numOnes; x++)
    likelihoodSum += (pow((double)(I[ind[index * numOnes + x]] - 100), 2) -
                      pow((double)(I[ind[index * numOnes + x]] - 228), 2)) /
                     50.0;
  return likelihoodSum;
}

__device__ void cdfCalc(double *CDF, double *weights, int Nparticles) {
  int x;
  CDF[0] = weights[0];
  for (x = 1; x < Nparticles; x++) {
    CDF[x] = weights[x] + CDF[x - 1];
  }
}

__global__ void find_index_kernel(double *arrayX, double *arrayY, double *CDF, double *u, double *xj, double *yj,
                                  double *weights, int Nparticles) {
  int block_id = blockIdx.x;
  int i = blockDim.x * block_id + threadIdx.x;
  if (i < Nparticles) {
    int index = -1;
    int x;
    for (x = 0; x < Nparticles; x++) {
      if (CDF[x] >= u[i]) {
        index = x;
        break;
      }
    }
    if (index == -1) {
      index = Nparticles - 1;
    }
    xj[i] = arrayX[index];
    yj[i] = arrayY[index];
  }
  __syncthreads();
}

__global__ void normalize_weights_kernel(double *weights, int Nparticles, double *partial_sums, double *CDF, double *u,
                                         int *seed) {
  int block_id = blockIdx.x;
  int i = blockDim.x * block_id + threadIdx.x;
  __shared__ double sumWeights;
  if (0 == threadIdx.x)
    sumWeights = partial_sums[0];
  __syncthreads();
  if (i < Nparticles) {
    weights[i] = weights[i] / sumWeights;
  }
}

__global__ void cdf_kernel(double *weights, int Nparticles, double *CDF, double *u, int *seed) {
  cdfCalc(CDF, weights, Nparticles);
  u[0] = (1 / ((double)(Nparticles))) * d_randu(seed, 0);
}

__global__ void offsets_kernel(int Nparticles, double *u) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  __shared__ double u1;
  if (0 == threadIdx.x)
    u1 = u[0];
  __syncthreads();
  if (i < Nparticles) {
    u[i] = u1 + i / ((double)(Nparticles));
  }
}

__global__ void sum_kernel(double *partial_sums, int Nparticles) {
  int block_id = blockIdx.x;
  int i = blockDim.x * block_id + threadIdx.x;
  if (i == 0) {
    int x;
    double sum = 0.0;
    int num_blocks = ceil((double)Nparticles / (double)threads_per_block);
    for (x = 0; x < num_blocks; x++) {
      sum += partial_sums[x];
    }
    partial_sums[0] = sum;
  }
}

__global__ void likelihood_kernel(double *arrayX, double *arrayY, double *xj, double *yj, double *CDF, int *ind,
                                  int *objxy, double *likelihood, unsigned char *I, double *u, double *weights,
                                  int Nparticles, int countOnes, int max_size, int k, int IszY, int Nfr, int *seed,
                                  double *partial_sums) {
  int block_id = blockIdx.x;
  int i = blockDim.x * block_id + threadIdx.x;
  int y;
  int indX, indY;
  __shared__ double buffer[512];
  if (i < Nparticles) {
    arrayX[i] = xj[i];
    arrayY[i] = yj[i];
    weights[i] = 1 / ((double)(Nparticles));
    arrayX[i] = arrayX[i] + 1.0 + 5.0 * d_randn(seed, i);
    arrayY[i] = arrayY[i] - 2.0 + 2.0 * d_randn(seed, i);
  }
  __syncthreads();
  if (i < Nparticles) {
    for (y = 0; y < countOnes; y++) {
      indX = dev_round_double(arrayX[i]) + objxy[y * 2 + 1];
      indY = dev_round_double(arrayY[i]) + objxy[y * 2];
      ind[i * countOnes + y] = abs(indX * IszY * Nfr + indY * Nfr + k);
      if (ind[i * countOnes + y] >= max_size)
        ind[i * countOnes + y] = 0;
    }
    likelihood[i] = calcLikelihoodSum(I, ind, countOnes, i);
    likelihood[i] = likelihood[i] / countOnes;
    weights[i] = weights[i] * exp(likelihood[i]);
  }
  buffer[threadIdx.x] = 0.0;
  __syncthreads();
  if (i < Nparticles) {
    buffer[threadIdx.x] = weights[i];
  }
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      buffer[threadIdx.x] += buffer[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partial_sums[blockIdx.x] = buffer[0];
  }
  __syncthreads();
}

static int run(int IszX, int IszY, int Nfr, int Nparticles) {
  int max_size = IszX * IszY * Nfr;
  unsigned char *I = (unsigned char *)malloc(max_size);
  // video: noisy background around 100, a disk of radius 5 at 228 moving right-down
  unsigned s = 7;
  for (int x = 0; x < IszX; x++)
    for (int y = 0; y < IszY; y++)
      for (int k = 0; k < Nfr; k++) {
        int cx = IszX / 2 + k, cy = IszY / 2 - 2 * k;
        s = s * 1664525u + 1013904223u;
        int v = ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= 25) ? 228 : 100;
        v += (int)((s >> 24) % 11) - 5;
        I[x * IszY * Nfr + y * Nfr + k] = (unsigned char)v;
      }
  int radius = 5, diameter = radius * 2 - 1;
  int *disk = (int *)malloc(diameter * diameter * sizeof(int));
  int countOnes = 0;
  for (int x = 0; x < diameter; x++)
    for (int y = 0; y < diameter; y++) {
      double d = sqrt(pow((double)(x - radius + 1), 2) + pow((double)(y - radius + 1), 2));
      disk[x * diameter + y] = d < radius;
      countOnes += d < radius;
    }
  int *objxy = (int *)malloc(countOnes * 2 * sizeof(int));
  int y0 = 0;
  for (int x = 0; x < diameter; x++)
    for (int y = 0; y < diameter; y++)
      if (disk[x * diameter + y] == 1) {
        objxy[y0 * 2] = y - radius + 1;  // Rodinia's getneighbors: (y, x) pairs, offsets from the centre
        objxy[y0 * 2 + 1] = x - radius + 1;
        y0++;
      }
  double *arrayX = (double *)malloc(sizeof(double) * Nparticles), *arrayY = (double *)malloc(sizeof(double) * Nparticles);
  double *xj = (double *)malloc(sizeof(double) * Nparticles), *yj = (double *)malloc(sizeof(double) * Nparticles);
  double *weights = (double *)malloc(sizeof(double) * Nparticles), *CDF = (double *)malloc(sizeof(double) * Nparticles);
  double *u = (double *)malloc(sizeof(double) * Nparticles), *likelihood = (double *)malloc(sizeof(double) * Nparticles);
  int *ind = (int *)malloc(sizeof(int) * countOnes * Nparticles);
  int *seed = (int *)malloc(sizeof(int) * Nparticles);
  for (int i = 0; i < Nparticles; i++)
    seed[i] = 1234567 * (i + 1);
  double xe = roundf(IszY / 2.0), ye = roundf(IszX / 2.0);
  for (int x = 0; x < Nparticles; x++) {
    weights[x] = 1 / ((double)(Nparticles));
    xj[x] = xe;
    yj[x] = ye;
  }
  int num_blocks = (Nparticles + threads_per_block - 1) / threads_per_block;
  double *arrayX_GPU, *arrayY_GPU, *xj_GPU, *yj_GPU, *CDF_GPU, *u_GPU, *likelihood_GPU, *weights_GPU, *partial_sums;
  unsigned char *I_GPU;
  int *ind_GPU, *objxy_GPU, *seed_GPU;
  size_t db = sizeof(double) * Nparticles;
  CHECK(musaMalloc((void **)&arrayX_GPU, db));
  CHECK(musaMalloc((void **)&arrayY_GPU, db));
  CHECK(musaMalloc((void **)&xj_GPU, db));
  CHECK(musaMalloc((void **)&yj_GPU, db));
  CHECK(musaMalloc((void **)&CDF_GPU, db));
  CHECK(musaMalloc((void **)&u_GPU, db));
  CHECK(musaMalloc((void **)&likelihood_GPU, db));
  CHECK(musaMalloc((void **)&weights_GPU, db));
  CHECK(musaMalloc((void **)&I_GPU, max_size));
  CHECK(musaMalloc((void **)&ind_GPU, sizeof(int) * countOnes * Nparticles));
  CHECK(musaMalloc((void **)&objxy_GPU, sizeof(int) * 2 * countOnes));
  CHECK(musaMalloc((void **)&seed_GPU, sizeof(int) * Nparticles));
  CHECK(musaMalloc((void **)&partial_sums, db));
  CHECK(musaMemcpy(I_GPU, I, max_size, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(objxy_GPU, objxy, sizeof(int) * 2 * countOnes, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(weights_GPU, weights, db, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(xj_GPU, xj, db, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(yj_GPU, yj, db, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(seed_GPU, seed, sizeof(int) * Nparticles, musaMemcpyHostToDevice));
  musaEvent_t e0, e1;
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&e1));
  CHECK(musaEventRecord(e0));
  for (int k = 1; k < Nfr; k++) {
    likelihood_kernel<<<num_blocks, threads_per_block>>>(arrayX_GPU, arrayY_GPU, xj_GPU, yj_GPU, CDF_GPU, ind_GPU,
                                                         objxy_GPU, likelihood_GPU, I_GPU, u_GPU, weights_GPU,
                                                         Nparticles, countOnes, max_size, k, IszY, Nfr, seed_GPU,
                                                         partial_sums);
    sum_kernel<<<num_blocks, threads_per_block>>>(partial_sums, Nparticles);
    normalize_weights_kernel<<<num_blocks, threads_per_block>>>(weights_GPU, Nparticles, partial_sums, CDF_GPU, u_GPU,
                                                                seed_GPU);
    cdf_kernel<<<1, 1>>>(weights_GPU, Nparticles, CDF_GPU, u_GPU, seed_GPU);
    offsets_kernel<<<num_blocks, threads_per_block>>>(Nparticles, u_GPU);
    find_index_kernel<<<num_blocks, threads_per_block>>>(arrayX_GPU, arrayY_GPU, CDF_GPU, u_GPU, xj_GPU, yj_GPU,
                                                         weights_GPU, Nparticles);
  }
  CHECK(musaEventRecord(e1));
  CHECK(musaEventSynchronize(e1));
  CHECK(musaGetLastError());
  float ms;
  CHECK(musaEventElapsedTime(&ms, e0, e1));
  double *gx = (double *)malloc(db), *gy = (double *)malloc(db), *gw = (double *)malloc(db);
  CHECK(musaMemcpy(gx, arrayX_GPU, db, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(gy, arrayY_GPU, db, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(gw, weights_GPU, db, musaMemcpyDeviceToHost));
  double *gxj = (double *)malloc(db);
  CHECK(musaMemcpy(gxj, xj_GPU, db, musaMemcpyDeviceToHost));

  // host replay
  for (int k = 1; k < Nfr; k++) {
    for (int i = 0; i < Nparticles; i++) {
      arrayX[i] = xj[i];
      arrayY[i] = yj[i];
      weights[i] = 1 / ((double)(Nparticles));
      arrayX[i] = arrayX[i] + 1.0 + 5.0 * d_randn(seed, i);
      arrayY[i] = arrayY[i] - 2.0 + 2.0 * d_randn(seed, i);
    }
    double sum = 0;
    for (int b = 0; b < num_blocks; b++) {
      double part = 0;  // same tree order as the kernel is not needed for the tolerance used below
      for (int i = b * threads_per_block; i < Nparticles && i < (b + 1) * threads_per_block; i++) {
        for (int y = 0; y < countOnes; y++) {
          int indX = dev_round_double(arrayX[i]) + objxy[y * 2 + 1];
          int indY = dev_round_double(arrayY[i]) + objxy[y * 2];
          ind[i * countOnes + y] = abs(indX * IszY * Nfr + indY * Nfr + k);
          if (ind[i * countOnes + y] >= max_size)
            ind[i * countOnes + y] = 0;
        }
        likelihood[i] = calcLikelihoodSum(I, ind, countOnes, i) / countOnes;
        weights[i] = weights[i] * exp(likelihood[i]);
        part += weights[i];
      }
      sum += part;
    }
    for (int i = 0; i < Nparticles; i++)
      weights[i] = weights[i] / sum;
    CDF[0] = weights[0];
    for (int x = 1; x < Nparticles; x++)
      CDF[x] = weights[x] + CDF[x - 1];
    double u1 = (1 / ((double)(Nparticles))) * d_randu(seed, 0);
    for (int i = 0; i < Nparticles; i++)
      u[i] = u1 + i / ((double)(Nparticles));
    for (int i = 0; i < Nparticles; i++) {
      int index = -1;
      for (int x = 0; x < Nparticles; x++)
        if (CDF[x] >= u[i]) {
          index = x;
          break;
        }
      if (index == -1)
        index = Nparticles - 1;
      xj[i] = arrayX[index];
      yj[i] = arrayY[index];
    }
  }
  int bad = 0;
  double xeg = 0, yeg = 0, xeh = 0, yeh = 0;
  for (int i = 0; i < Nparticles; i++) {
    xeg += gx[i] * gw[i];
    yeg += gy[i] * gw[i];
    xeh += arrayX[i] * weights[i];
    yeh += arrayY[i] * weights[i];
    if (!(fabs(gx[i] - arrayX[i]) < 1e-9 * (1 + fabs(arrayX[i]))) ||
        !(fabs(gy[i] - arrayY[i]) < 1e-9 * (1 + fabs(arrayY[i]))) ||
        !(fabs(gw[i] - weights[i]) < 1e-9 * weights[i] + 1e-300) || !(fabs(gxj[i] - xj[i]) < 1e-9 * (1 + fabs(xj[i])))) {
      if (bad < 4)
        printf("  particle %d: (%g,%g,w %g,xj %g) vs (%g,%g,w %g,xj %g)\n", i, gx[i], gy[i], gw[i], gxj[i],
               arrayX[i], arrayY[i], weights[i], xj[i]);
      bad++;
    }
  }
  printf("particlefilter %dx%dx%d video, %d particles (%d blocks): %.3f ms, estimate (%.3f, %.3f) host (%.3f, %.3f)%s\n",
         IszX, IszY, Nfr, Nparticles, num_blocks, ms, xeg, yeg, xeh, yeh, bad ? " MISMATCH" : "");
  musaFree(arrayX_GPU); musaFree(arrayY_GPU); musaFree(xj_GPU); musaFree(yj_GPU); musaFree(CDF_GPU); musaFree(u_GPU);
  musaFree(likelihood_GPU); musaFree(weights_GPU); musaFree(I_GPU); musaFree(ind_GPU); musaFree(objxy_GPU);
  musaFree(seed_GPU); musaFree(partial_sums); musaEventDestroy(e0); musaEventDestroy(e1);
  free(I); free(disk); free(objxy); free(arrayX); free(arrayY); free(xj); free(yj); free(weights); free(CDF); free(u);
  free(likelihood); free(ind); free(seed); free(gx); free(gy); free(gw); free(gxj);
  return bad;
}

int main() {
  int bad = 0;
  bad += run(64, 64, 5, 1000);
  bad += run(48, 40, 4, 512);
  bad += run(32, 32, 3, 100);
  printf("particlefilter: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

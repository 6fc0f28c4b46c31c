// Rodinia lud: blocked LU decomposition without pivoting, 16x16 blocks; per step a one-block lud_diagonal, a
// lud_perimeter kernel with 2*BLOCK_SIZE threads (one half solves the row strip, the other the column strip) and a 2D
// lud_internal update; verified against a host Doolittle LU and by reconstructing A = L*U.
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

__global__ void lud_diagonal(float *m, int matrix_dim, int offset) {
  int i, j;
  __shared__ float shadow[BLOCK_SIZE][BLOCK_SIZE];
  int array_offset = offset * matrix_dim + offset;
  for (i = 0; i < BLOCK_SIZE; i++) {
    shadow[i][threadIdx.x] = m[array_offset + threadIdx.x];
    array_offset += matrix_dim;
  }
  __syncthreads();
  for (i = 0; i < BLOCK_SIZE - 1; i++) {
    if (threadIdx.x > i) {
      for (j = 0; j < i; j++)
        shadow[threadIdx.x][i] -= shadow[threadIdx.x][j] * shadow[j][i];
      shadow[threadIdx.x][i] /= shadow[i][i];
    }
    __syncthreads();
    if (threadIdx.x > i) {
      for (j = 0; j < i + 1; j++)
        shadow[i + 1][threadIdx.x] -= shadow[i + 1][j] * shadow[j][threadIdx.x];
    }
    __syncthreads();
  }
  array_offset = (offset + 1) * matrix_dim + offset;
  for (i = 1; i < BLOCK_SIZE; i++) {
    m[array_offset + threadIdx.x] = shadow[i][threadIdx.x];
    array_offset += matrix_dim;
  }
}

__global__ void lud_perimeter(float *m, int matrix_dim, int offset) {
  __shared__ float dia[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float peri_row[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float peri_col[BLOCK_SIZE][BLOCK_SIZE];
  int i, j, array_offset;
  int idx;
  if (threadIdx.x < BLOCK_SIZE) {
    idx = threadIdx.x;
    array_offset = offset * matrix_dim + offset;
    for (i = 0; i < BLOCK_SIZE / 2; i++) {
      dia[i][idx] = m[array_offset + idx];
      array_offset += matrix_dim;
    }
    array_offset = offset * matrix_dim + offset;
    for (i = 0; i < BLOCK_SIZE; i++) {
      peri_row[i][idx] = m[array_offset + (blockIdx.x + 1) * BLOCK_SIZE + idx];
      array_offset += matrix_dim;
    }
  } else {
    idx = threadIdx.x - BLOCK_SIZE;
    array_offset = (offset + BLOCK_SIZE / 2) * matrix_dim + offset;
    for (i = BLOCK_SIZE / 2; i < BLOCK_SIZE; i++) {
      dia[i][idx] = m[array_offset + idx];
      array_offset += matrix_dim;
    }
    array_offset = (offset + (blockIdx.x + 1) * BLOCK_SIZE) * matrix_dim + offset;
    for (i = 0; i < BLOCK_SIZE; i++) {
      peri_col[i][idx] = m[array_offset + idx];
      array_offset += matrix_dim;
    }
  }
  __syncthreads();
  if (threadIdx.x < BLOCK_SIZE) {  // peri-row
    idx = threadIdx.x;
    for (i = 1; i < BLOCK_SIZE; i++) {
      for (j = 0; j < i; j++)
        peri_row[i][idx] -= dia[i][j] * peri_row[j][idx];
    }
  } else {  // peri-col
    idx = threadIdx.x - BLOCK_SIZE;
    for (i = 0; i < BLOCK_SIZE; i++) {
      for (j = 0; j < i; j++)
        peri_col[idx][i] -= peri_col[idx][j] * dia[j][i];
      peri_col[idx][i] /= dia[i][i];
    }
  }
  __syncthreads();
  if (threadIdx.x < BLOCK_SIZE) {
    idx = threadIdx.x;
    array_offset = (offset + 1) * matrix_dim + offset;
    for (i = 1; i < BLOCK_SIZE; i++) {
      m[array_offset + (blockIdx.x + 1) * BLOCK_SIZE + idx] = peri_row[i][idx];
      array_offset += matrix_dim;
    }
  } else {
    idx = threadIdx.x - BLOCK_SIZE;
    array_offset = (offset + (blockIdx.x + 1) * BLOCK_SIZE) * matrix_dim + offset;
    for (i = 0; i < BLOCK_SIZE; i++) {
      m[array_offset + idx] = peri_col[i][idx];
      array_offset += matrix_dim;
    }
  }
}

__global__ void lud_internal(float *m, int matrix_dim, int offset) {
  __shared__ float peri_row[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float peri_col[BLOCK_SIZE][BLOCK_SIZE];
  int i;
  float sum;
  int global_row_id = offset + (blockIdx.y + 1) * BLOCK_SIZE;
  int global_col_id = offset + (blockIdx.x + 1) * BLOCK_SIZE;
  peri_row[threadIdx.y][threadIdx.x] = m[(offset + threadIdx.y) * matrix_dim + global_col_id + threadIdx.x];
  peri_col[threadIdx.y][threadIdx.x] = m[(global_row_id + threadIdx.y) * matrix_dim + offset + threadIdx.x];
  __syncthreads();
  sum = 0;
  for (i = 0; i < BLOCK_SIZE; i++)
    sum += peri_col[threadIdx.y][i] * peri_row[i][threadIdx.x];
  m[(global_row_id + threadIdx.y) * matrix_dim + global_col_id + threadIdx.x] -= sum;
}

void lud_cuda(float *m, int matrix_dim) {
  int i = 0;
  dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
  for (i = 0; i < matrix_dim - BLOCK_SIZE; i += BLOCK_SIZE) {
    lud_diagonal<<<1, BLOCK_SIZE>>>(m, matrix_dim, i);
    lud_perimeter<<<(matrix_dim - i) / BLOCK_SIZE - 1, BLOCK_SIZE * 2>>>(m, matrix_dim, i);
    dim3 dimGrid((matrix_dim - i) / BLOCK_SIZE - 1, (matrix_dim - i) / BLOCK_SIZE - 1);
    lud_internal<<<dimGrid, dimBlock>>>(m, matrix_dim, i);
  }
  lud_diagonal<<<1, BLOCK_SIZE>>>(m, matrix_dim, i);
}

static int run(int n, unsigned seed) {
  size_t bytes = (size_t)n * n * sizeof(float);
  float *a = (float *)malloc(bytes), *lu = (float *)malloc(bytes);
  double *ref = (double *)malloc((size_t)n * n * sizeof(double));
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      seed = seed * 1664525u + 1013904223u;
      float v = (float)((seed >> 8) & 0xffff) / 65536.0f - 0.5f;
      a[i * n + j] = (i == j) ? v + (float)n : v;  // diagonally dominant: no pivoting needed
    }
  float *d_m;
  CHECK(musaMalloc((void **)&d_m, bytes));
  CHECK(musaMemcpy(d_m, a, bytes, musaMemcpyHostToDevice));
  musaEvent_t start, stop;
  CHECK(musaEventCreate(&start));
  CHECK(musaEventCreate(&stop));
  CHECK(musaEventRecord(start, 0));
  lud_cuda(d_m, n);
  CHECK(musaEventRecord(stop, 0));
  CHECK(musaEventSynchronize(stop));
  CHECK(musaGetLastError());
  float ms;
  CHECK(musaEventElapsedTime(&ms, start, stop));
  CHECK(musaMemcpy(lu, d_m, bytes, musaMemcpyDeviceToHost));
  // host Doolittle LU in double
  for (int i = 0; i < n * n; i++)
    ref[i] = a[i];
  for (int k = 0; k < n; k++)
    for (int i = k + 1; i < n; i++) {
      ref[i * n + k] /= ref[k * n + k];
      for (int j = k + 1; j < n; j++)
        ref[i * n + j] -= ref[i * n + k] * ref[k * n + j];
    }
  double maxerr = 0, maxrec = 0;
  for (int i = 0; i < n * n; i++) {
    double e = fabs(lu[i] - ref[i]) / (1.0 + fabs(ref[i]));
    if (e > maxerr)
      maxerr = e;
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k <= (i < j ? i : j); k++) {
        double l = (k == i) ? 1.0 : lu[i * n + k];
        s += l * lu[k * n + j];
      }
      double e = fabs(s - a[i * n + j]) / (1.0 + fabs(a[i * n + j]));
      if (e > maxrec)
        maxrec = e;
    }
  int bad = !(maxerr < 1e-4) || !(maxrec < 1e-4);
  printf("lud n=%d: %.3f ms, max err vs host LU %.2e, reconstruction %.2e%s\n", n, ms, maxerr, maxrec,
         bad ? " MISMATCH" : "");
  CHECK(musaFree(d_m));
  CHECK(musaEventDestroy(start));
  CHECK(musaEventDestroy(stop));
  free(a); free(lu); free(ref);
  return bad;
}

int main() {
  int bad = 0;
  bad += run(16, 1);
  bad += run(48, 2);
  bad += run(128, 3);
  printf("lud: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

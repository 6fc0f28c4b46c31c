// Rodinia hotspot: 2D thermal simulation with the pyramid (ghost-zone) trick: each 16x16 block loads a tile with a
// halo of pyramid_height cells, runs several time steps in shared memory, and writes only its shrinking inner part;
// host loop ping-pongs two temperature buffers; grid sizes that are not multiples of the small block.
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK_SIZE 16
#define MAX_PD (3.0e6)
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100
#define FACTOR_CHIP 0.5
#define EXPAND_RATE 2
#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

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

__global__ void calculate_temp(int iteration, float *power, float *temp_src, float *temp_dst, int grid_cols,
                               int grid_rows, int border_cols, int border_rows, float Cap, float Rx, float Ry,
                               float Rz, float step, float time_elapsed) {
  __shared__ float temp_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float power_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float temp_t[BLOCK_SIZE][BLOCK_SIZE];
  float amb_temp = 80.0;
  float step_div_Cap;
  float Rx_1, Ry_1, Rz_1;
  int bx = blockIdx.x;
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  step_div_Cap = step / Cap;
  Rx_1 = 1 / Rx;
  Ry_1 = 1 / Ry;
  Rz_1 = 1 / Rz;
  int small_block_rows = BLOCK_SIZE - iteration * 2;
  int small_block_cols = BLOCK_SIZE - iteration * 2;
  int blkY = small_block_rows * by - border_rows;
  int blkX = small_block_cols * bx - border_cols;
  int blkYmax = blkY + BLOCK_SIZE - 1;
  int blkXmax = blkX + BLOCK_SIZE - 1;
  int yidx = blkY + ty;
  int xidx = blkX + tx;
  int loadYidx = yidx, loadXidx = xidx;
  int index = grid_cols * loadYidx + loadXidx;
  if (IN_RANGE(loadYidx, 0, grid_rows - 1) && IN_RANGE(loadXidx, 0, grid_cols - 1)) {
    temp_on_cuda[ty][tx] = temp_src[index];
    power_on_cuda[ty][tx] = power[index];
  }
  __syncthreads();
  int validYmin = (blkY < 0) ? -blkY : 0;
  int validYmax = (blkYmax > grid_rows - 1) ? BLOCK_SIZE - 1 - (blkYmax - grid_rows + 1) : BLOCK_SIZE - 1;
  int validXmin = (blkX < 0) ? -blkX : 0;
  int validXmax = (blkXmax > grid_cols - 1) ? BLOCK_SIZE - 1 - (blkXmax - grid_cols + 1) : BLOCK_SIZE - 1;
  int N = ty - 1;
  int S = ty + 1;
  int W = tx - 1;
  int E = tx + 1;
  N = (N < validYmin) ? validYmin : N;
  S = (S > validYmax) ? validYmax : S;
  W = (W < validXmin) ? validXmin : W;
  E = (E > validXmax) ? validXmax : E;
  bool computed;
  for (int i = 0; i < iteration; i++) {
    computed = false;
    if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && IN_RANGE(ty, i + 1, BLOCK_SIZE - i - 2) &&
        IN_RANGE(tx, validXmin, validXmax) && IN_RANGE(ty, validYmin, validYmax)) {
      computed = true;
      temp_t[ty][tx] = temp_on_cuda[ty][tx] +
                       step_div_Cap * (power_on_cuda[ty][tx] +
                                       (temp_on_cuda[S][tx] + temp_on_cuda[N][tx] - 2.0 * temp_on_cuda[ty][tx]) * Ry_1 +
                                       (temp_on_cuda[ty][E] + temp_on_cuda[ty][W] - 2.0 * temp_on_cuda[ty][tx]) * Rx_1 +
                                       (amb_temp - temp_on_cuda[ty][tx]) * Rz_1);
    }
    __syncthreads();
    if (i == iteration - 1)
      break;
    if (computed)
      temp_on_cuda[ty][tx] = temp_t[ty][tx];
    __syncthreads();
  }
  if (computed) {
    temp_dst[index] = temp_t[ty][tx];
  }
}

int compute_tran_temp(float *MatrixPower, float *MatrixTemp[2], int col, int row, int total_iterations,
                      int num_iterations, int blockCols, int blockRows, int borderCols, int borderRows, float *params) {
  dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
  dim3 dimGrid(blockCols, blockRows);
  float grid_height = chip_height / row;
  float grid_width = chip_width / col;
  float Cap = FACTOR_CHIP * SPEC_HEAT_SI * t_chip * grid_width * grid_height;
  float Rx = grid_width / (2.0 * K_SI * t_chip * grid_height);
  float Ry = grid_height / (2.0 * K_SI * t_chip * grid_width);
  float Rz = t_chip / (K_SI * grid_height * grid_width);
  float max_slope = MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI);
  float step = PRECISION / max_slope;
  float t;
  float time_elapsed = 0.001;
  params[0] = Cap; params[1] = Rx; params[2] = Ry; params[3] = Rz; params[4] = step;
  int src = 1, dst = 0;
  for (t = 0; t < total_iterations; t += num_iterations) {
    int temp = src;
    src = dst;
    dst = temp;
    calculate_temp<<<dimGrid, dimBlock>>>(MIN(num_iterations, total_iterations - t), MatrixPower, MatrixTemp[src],
                                          MatrixTemp[dst], col, row, borderCols, borderRows, Cap, Rx, Ry, Rz, step,
                                          time_elapsed);
  }
  return dst;
}

static int run(int grid_rows, int grid_cols, int pyramid_height, int total_iterations, unsigned seed) {
  int size = grid_rows * grid_cols;
  int borderCols = (pyramid_height)*EXPAND_RATE / 2;
  int borderRows = (pyramid_height)*EXPAND_RATE / 2;
  int smallBlockCol = BLOCK_SIZE - (pyramid_height)*EXPAND_RATE;
  int smallBlockRow = BLOCK_SIZE - (pyramid_height)*EXPAND_RATE;
  int blockCols = grid_cols / smallBlockCol + ((grid_cols % smallBlockCol == 0) ? 0 : 1);
  int blockRows = grid_rows / smallBlockRow + ((grid_rows % smallBlockRow == 0) ? 0 : 1);
  float *FilesavingTemp = (float *)malloc(size * sizeof(float));
  float *FilesavingPower = (float *)malloc(size * sizeof(float));
  float *MatrixOut = (float *)calloc(size, sizeof(float));
  for (int i = 0; i < size; i++) {
    seed = seed * 1664525u + 1013904223u;
    FilesavingTemp[i] = 320.0f + (float)((seed >> 10) % 4000) / 100.0f;
    seed = seed * 1664525u + 1013904223u;
    FilesavingPower[i] = (float)((seed >> 10) % 1000) / 1000.0f * 0.01f;
  }
  float *MatrixTemp[2], *MatrixPower;
  CHECK(musaMalloc((void **)&MatrixTemp[0], sizeof(float) * size));
  CHECK(musaMalloc((void **)&MatrixTemp[1], sizeof(float) * size));
  CHECK(musaMemcpy(MatrixTemp[0], FilesavingTemp, sizeof(float) * size, musaMemcpyHostToDevice));
  CHECK(musaMalloc((void **)&MatrixPower, sizeof(float) * size));
  CHECK(musaMemcpy(MatrixPower, FilesavingPower, sizeof(float) * size, musaMemcpyHostToDevice));
  float params[5];
  musaEvent_t e0, e1;
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&e1));
  CHECK(musaEventRecord(e0));
  int ret = compute_tran_temp(MatrixPower, MatrixTemp, grid_cols, grid_rows, total_iterations, pyramid_height,
                              blockCols, blockRows, borderCols, borderRows, params);
  CHECK(musaEventRecord(e1));
  CHECK(musaEventSynchronize(e1));
  CHECK(musaGetLastError());
  float ms;
  CHECK(musaEventElapsedTime(&ms, e0, e1));
  CHECK(musaMemcpy(MatrixOut, MatrixTemp[ret], sizeof(float) * size, musaMemcpyDeviceToHost));

  // host reference: same update, neighbours clamped to the grid (the cell itself at an edge)
  float Cap = params[0], Rx = params[1], Ry = params[2], Rz = params[3], step = params[4];
  float step_div_Cap = step / Cap, Rx_1 = 1 / Rx, Ry_1 = 1 / Ry, Rz_1 = 1 / Rz, amb = 80.0f;
  float *a = (float *)malloc(size * sizeof(float)), *b = (float *)malloc(size * sizeof(float));
  for (int i = 0; i < size; i++)
    a[i] = FilesavingTemp[i];
  for (int it = 0; it < total_iterations; it++) {
    for (int r = 0; r < grid_rows; r++)
      for (int c = 0; c < grid_cols; c++) {
        int n = r > 0 ? r - 1 : r, s = r < grid_rows - 1 ? r + 1 : r;
        int w = c > 0 ? c - 1 : c, e = c < grid_cols - 1 ? c + 1 : c;
        float t = a[r * grid_cols + c];
        b[r * grid_cols + c] =
            t + step_div_Cap * (FilesavingPower[r * grid_cols + c] +
                                (a[s * grid_cols + c] + a[n * grid_cols + c] - 2.0 * t) * Ry_1 +
                                (a[r * grid_cols + e] + a[r * grid_cols + w] - 2.0 * t) * Rx_1 + (amb - t) * Rz_1);
      }
    float *tmp = a; a = b; b = tmp;
  }
  double maxerr = 0;
  int bad = 0;
  for (int i = 0; i < size; i++) {
    double e = fabs((double)MatrixOut[i] - a[i]);
    if (e > maxerr)
      maxerr = e;
    if (!(e <= 2e-3)) {
      if (bad < 4)
        printf("  mismatch at (%d,%d): %f vs %f\n", i / grid_cols, i % grid_cols, MatrixOut[i], a[i]);
      bad++;
    }
  }
  printf("hotspot %dx%d pyramid %d, %d iterations, %dx%d blocks: %.3f ms, max err %.2e%s\n", grid_rows, grid_cols,
         pyramid_height, total_iterations, blockCols, blockRows, ms, maxerr, bad ? " MISMATCH" : "");
  musaFree(MatrixPower); musaFree(MatrixTemp[0]); musaFree(MatrixTemp[1]);
  musaEventDestroy(e0); musaEventDestroy(e1);
  free(a); free(b); free(FilesavingTemp); free(FilesavingPower); free(MatrixOut);
  return bad;
}

int main() {
  int bad = 0;
  bad += run(64, 64, 2, 20, 5);
  bad += run(100, 75, 3, 17, 6);
  bad += run(37, 53, 1, 5, 7);
  bad += run(20, 130, 4, 9, 8);
  printf("hotspot: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

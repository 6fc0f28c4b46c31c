// Rodinia nw (Needleman-Wunsch): diagonal wavefront of 16x16 blocks, each block filled by an anti-diagonal sweep
// through shared memory (temp[BLOCK_SIZE+1][BLOCK_SIZE+1], ref[BLOCK_SIZE][BLOCK_SIZE]); two kernels for the
// upper-left and lower-right triangles of blocks, launched once per block diagonal. Several sequence lengths.
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_SIZE 16
#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

__device__ __host__ int maximum(int a, int b, int c) {
  int k;
  if (a <= b)
    k = b;
  else
    k = a;
  if (k <= c)
    return (c);
  else
    return (k);
}

__global__ void needle_cuda_shared_1(int *referrence, int *matrix_cuda, int cols, int penalty, int i, int block_width) {
  int bx = blockIdx.x;
  int tx = threadIdx.x;
  int b_index_x = bx;
  int b_index_y = i - 1 - bx;
  int index = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + (cols + 1);
  int index_n = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + (1);
  int index_w = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + (cols);
  int index_nw = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x;

  __shared__ int temp[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
  __shared__ int ref[BLOCK_SIZE][BLOCK_SIZE];

  if (tx == 0)
    temp[tx][0] = matrix_cuda[index_nw];
  for (int ty = 0; ty < BLOCK_SIZE; ty++)
    ref[ty][tx] = referrence[index + cols * ty];
  __syncthreads();
  temp[tx + 1][0] = matrix_cuda[index_w + cols * tx];
  __syncthreads();
  temp[0][tx + 1] = matrix_cuda[index_n];
  __syncthreads();

  for (int m = 0; m < BLOCK_SIZE; m++) {
    if (tx <= m) {
      int t_index_x = tx + 1;
      int t_index_y = m - tx + 1;
      temp[t_index_y][t_index_x] = maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
                                           temp[t_index_y][t_index_x - 1] - penalty,
                                           temp[t_index_y - 1][t_index_x] - penalty);
    }
    __syncthreads();
  }
  for (int m = BLOCK_SIZE - 2; m >= 0; m--) {
    if (tx <= m) {
      int t_index_x = tx + BLOCK_SIZE - m;
      int t_index_y = BLOCK_SIZE - tx;
      temp[t_index_y][t_index_x] = maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
                                           temp[t_index_y][t_index_x - 1] - penalty,
                                           temp[t_index_y - 1][t_index_x] - penalty);
    }
    __syncthreads();
  }
  for (int ty = 0; ty < BLOCK_SIZE; ty++)
    matrix_cuda[index + ty * cols] = temp[ty + 1][tx + 1];
}

__global__ void needle_cuda_shared_2(int *referrence, int *matrix_cuda, int cols, int penalty, int i, int block_width) {
  int bx = blockIdx.x;
  int tx = threadIdx.x;
  int b_index_x = bx + block_width - i;
  int b_index_y = block_width - bx - 1;
  int index = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + (cols + 1);
  int index_n = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + (1);
  int index_w = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + (cols);
  int index_nw = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x;

  __shared__ int temp[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
  __shared__ int ref[BLOCK_SIZE][BLOCK_SIZE];

  for (int ty = 0; ty < BLOCK_SIZE; ty++)
    ref[ty][tx] = referrence[index + cols * ty];
  __syncthreads();
  if (tx == 0)
    temp[tx][0] = matrix_cuda[index_nw];
  temp[tx + 1][0] = matrix_cuda[index_w + cols * tx];
  __syncthreads();
  temp[0][tx + 1] = matrix_cuda[index_n];
  __syncthreads();

  for (int m = 0; m < BLOCK_SIZE; m++) {
    if (tx <= m) {
      int t_index_x = tx + 1;
      int t_index_y = m - tx + 1;
      temp[t_index_y][t_index_x] = maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
                                           temp[t_index_y][t_index_x - 1] - penalty,
                                           temp[t_index_y - 1][t_index_x] - penalty);
    }
    __syncthreads();
  }
  for (int m = BLOCK_SIZE - 2; m >= 0; m--) {
    if (tx <= m) {
      int t_index_x = tx + BLOCK_SIZE - m;
      int t_index_y = BLOCK_SIZE - tx;
      temp[t_index_y][t_index_x] = maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
                                           temp[t_index_y][t_index_x - 1] - penalty,
                                           temp[t_index_y - 1][t_index_x] - penalty);
    }
    __syncthreads();
  }
  for (int ty = 0; ty < BLOCK_SIZE; ty++)
    matrix_cuda[index + ty * cols] = temp[ty + 1][tx + 1];
}

// A small substitution table in the spirit of blosum62 (10 symbols).
static int sub(int a, int b) { return a == b ? 5 : ((a + b) % 3) - 2; }

static int run(int n, int penalty, unsigned seed) {
  int max_rows = n + 1, max_cols = n + 1;
  int size = max_rows * max_cols;
  int *seqA = (int *)malloc(max_rows * sizeof(int)), *seqB = (int *)malloc(max_cols * sizeof(int));
  int *referrence = (int *)calloc(size, sizeof(int));
  int *input_itemsets = (int *)calloc(size, sizeof(int));
  int *output_itemsets = (int *)malloc(size * sizeof(int));
  for (int i = 1; i < max_rows; i++) {
    seed = seed * 1103515245u + 12345u;
    seqA[i] = (seed >> 16) % 10 + 1;
  }
  for (int j = 1; j < max_cols; j++) {
    seed = seed * 1103515245u + 12345u;
    seqB[j] = (seed >> 16) % 10 + 1;
  }
  for (int i = 1; i < max_cols; i++)
    for (int j = 1; j < max_rows; j++)
      referrence[i * max_cols + j] = sub(seqA[i], seqB[j]);
  for (int i = 1; i < max_rows; i++)
    input_itemsets[i * max_cols] = -i * penalty;
  for (int j = 1; j < max_cols; j++)
    input_itemsets[j] = -j * penalty;

  int *referrence_cuda, *matrix_cuda;
  CHECK(musaMalloc((void **)&referrence_cuda, sizeof(int) * size));
  CHECK(musaMalloc((void **)&matrix_cuda, sizeof(int) * size));
  CHECK(musaMemcpy(referrence_cuda, referrence, sizeof(int) * size, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(matrix_cuda, input_itemsets, sizeof(int) * size, musaMemcpyHostToDevice));

  dim3 dimGrid;
  dim3 dimBlock(BLOCK_SIZE, 1);
  int block_width = (max_cols - 1) / BLOCK_SIZE;
  musaEvent_t start, stop;
  CHECK(musaEventCreate(&start));
  CHECK(musaEventCreate(&stop));
  CHECK(musaEventRecord(start));
  for (int i = 1; i <= block_width; i++) {
    dimGrid.x = i;
    dimGrid.y = 1;
    needle_cuda_shared_1<<<dimGrid, dimBlock>>>(referrence_cuda, matrix_cuda, max_cols, penalty, i, block_width);
  }
  for (int i = block_width - 1; i >= 1; i--) {
    dimGrid.x = i;
    dimGrid.y = 1;
    needle_cuda_shared_2<<<dimGrid, dimBlock>>>(referrence_cuda, matrix_cuda, max_cols, penalty, i, block_width);
  }
  CHECK(musaEventRecord(stop));
  CHECK(musaEventSynchronize(stop));
  CHECK(musaGetLastError());
  float ms = 0;
  CHECK(musaEventElapsedTime(&ms, start, stop));
  CHECK(musaMemcpy(output_itemsets, matrix_cuda, sizeof(int) * size, musaMemcpyDeviceToHost));

  for (int i = 1; i < max_rows; i++)
    for (int j = 1; j < max_cols; j++)
      input_itemsets[i * max_cols + j] =
          maximum(input_itemsets[(i - 1) * max_cols + j - 1] + referrence[i * max_cols + j],
                  input_itemsets[i * max_cols + j - 1] - penalty, input_itemsets[(i - 1) * max_cols + j] - penalty);
  int bad = 0;
  for (int i = 0; i < size; i++)
    if (output_itemsets[i] != input_itemsets[i]) {
      if (bad < 5)
        printf("  n=%d mismatch at (%d,%d): %d vs %d\n", n, i / max_cols, i % max_cols, output_itemsets[i],
               input_itemsets[i]);
      bad++;
    }
  printf("nw n=%d penalty=%d: score %d, %d kernels, %.3f ms, %d mismatches\n", n, penalty,
         output_itemsets[size - 1], 2 * block_width - 1, ms, bad);
  CHECK(musaEventDestroy(start));
  CHECK(musaEventDestroy(stop));
  CHECK(musaFree(referrence_cuda));
  CHECK(musaFree(matrix_cuda));
  free(seqA); free(seqB); free(referrence); free(input_itemsets); free(output_itemsets);
  return bad;
}

int main() {
  int bad = 0;
  bad += run(16, 10, 7);
  bad += run(64, 10, 11);
  bad += run(144, 5, 3);
  printf("nw: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

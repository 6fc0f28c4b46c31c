// Rodinia backprop: one training step of a 2-layer perceptron; bpnn_layerforward_CUDA (16x16 blocks, input-weight
// products reduced down the columns of a shared weight_matrix with a log2 tree driven by __log2f/__powf), host
// finishing the hidden/output layers and errors, then bpnn_adjust_weights_cuda with momentum. Several input sizes.
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 256
#define WIDTH 16
#define HEIGHT 16
#define ETA 0.3
#define MOMENTUM 0.3

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

__global__ void bpnn_layerforward_CUDA(float *input_cuda, float *output_hidden_cuda, float *input_hidden_cuda,
                                       float *hidden_partial_sum, int in, int hid) {
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  int index_in = HEIGHT * by + ty + 1;
  __shared__ float input_node[HEIGHT];
  __shared__ float weight_matrix[HEIGHT][WIDTH];
  if (tx == 0)
    input_node[ty] = input_cuda[index_in];
  __syncthreads();
  weight_matrix[ty][tx] = input_hidden_cuda[index];
  __syncthreads();
  weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];
  __syncthreads();
  for (int i = 1; i <= __log2f(HEIGHT); i++) {
    int power_two = __powf(2, i);
    if (ty % power_two == 0)
      weight_matrix[ty][tx] = weight_matrix[ty][tx] + weight_matrix[ty + power_two / 2][tx];
    __syncthreads();
  }
  input_hidden_cuda[index] = weight_matrix[ty][tx];
  __syncthreads();
  if (tx == 0) {
    hidden_partial_sum[by * hid + ty] = weight_matrix[tx][ty];
  }
}

__global__ void bpnn_adjust_weights_cuda(float *delta, int hid, float *ly, int in, float *w, float *oldw) {
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  int index_y = HEIGHT * by + ty + 1;
  int index_x = tx + 1;
  w[index] += ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));
  oldw[index] = ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));
  __syncthreads();
  if (ty == 0 && by == 0) {
    w[index_x] += ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
    oldw[index_x] = ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
  }
}

static float squash(float x) { return (1.0 / (1.0 + exp(-x))); }

static unsigned rng_state;
static float drnd() {
  rng_state = rng_state * 1664525u + 1013904223u;
  return (float)((rng_state >> 8) & 0xffffff) / 16777216.0f;
}

static int run(int in, unsigned seed) {
  const int hid = 16, out = 1;
  rng_state = seed;
  float *input_units = (float *)malloc((in + 1) * sizeof(float));
  float *input_weights = (float *)malloc((in + 1) * (hid + 1) * sizeof(float));
  float *input_prev_weights = (float *)calloc((in + 1) * (hid + 1), sizeof(float));
  float *hidden_weights = (float *)malloc((hid + 1) * (out + 1) * sizeof(float));
  float hidden_units[hid + 1], output_units[out + 1], hidden_delta[hid + 1], output_delta[out + 1], target[out + 1];
  input_units[0] = 1.0f;
  for (int i = 1; i <= in; i++)
    input_units[i] = drnd();
  for (int i = 0; i < (in + 1) * (hid + 1); i++)
    input_weights[i] = drnd() * 2.0f - 1.0f;
  for (int i = 0; i < (in + 1) * (hid + 1); i++)
    input_prev_weights[i] = (drnd() - 0.5f) * 0.01f;
  for (int i = 0; i < (hid + 1) * (out + 1); i++)
    hidden_weights[i] = drnd() * 2.0f - 1.0f;
  target[1] = 0.1f;
  int num_blocks = in / 16;
  float *partial_sum = (float *)malloc(num_blocks * WIDTH * sizeof(float));
  float *w_after = (float *)malloc((in + 1) * (hid + 1) * sizeof(float));
  float *oldw_after = (float *)malloc((in + 1) * (hid + 1) * sizeof(float));

  float *input_cuda, *output_hidden_cuda, *input_hidden_cuda, *hidden_partial_sum, *hidden_delta_cuda,
      *input_prev_weights_cuda;
  size_t wbytes = (in + 1) * (hid + 1) * sizeof(float);
  CHECK(musaMalloc((void **)&input_cuda, (in + 1) * sizeof(float)));
  CHECK(musaMalloc((void **)&output_hidden_cuda, (hid + 1) * sizeof(float)));
  CHECK(musaMalloc((void **)&input_hidden_cuda, wbytes));
  CHECK(musaMalloc((void **)&hidden_partial_sum, num_blocks * WIDTH * sizeof(float)));
  CHECK(musaMemcpy(input_cuda, input_units, (in + 1) * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(input_hidden_cuda, input_weights, wbytes, musaMemcpyHostToDevice));
  dim3 grid(1, num_blocks);
  dim3 threads(16, 16);
  musaEvent_t e0, e1;
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&e1));
  CHECK(musaEventRecord(e0));
  bpnn_layerforward_CUDA<<<grid, threads>>>(input_cuda, output_hidden_cuda, input_hidden_cuda, hidden_partial_sum,
                                            in, hid);
  CHECK(musaDeviceSynchronize());
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(partial_sum, hidden_partial_sum, num_blocks * WIDTH * sizeof(float), musaMemcpyDeviceToHost));

  int bad = 0;
  // check partial sums against double
  for (int k = 0; k < num_blocks; k++)
    for (int j = 1; j <= hid; j++) {
      double s = 0, mag = 0;
      for (int r = 1; r <= 16; r++) {
        double p = (double)input_weights[(k * 16 + r) * (hid + 1) + j] * input_units[k * 16 + r];
        s += p;
        mag += fabs(p);
      }
      if (!(fabs(partial_sum[k * hid + j - 1] - s) <= 1e-5 * (mag + 1))) {
        if (bad < 4)
          printf("  partial sum block %d unit %d: %f vs %f\n", k, j, partial_sum[k * hid + j - 1], s);
        bad++;
      }
    }
  for (int j = 1; j <= hid; j++) {
    float sum = 0.0;
    for (int k = 0; k < num_blocks; k++)
      sum += partial_sum[k * hid + j - 1];
    sum += input_weights[0 * (hid + 1) + j];
    hidden_units[j] = float(1.0 / (1.0 + exp(-sum)));
  }
  hidden_units[0] = 1.0f;
  // host: hidden -> output layer, errors
  for (int j = 1; j <= out; j++) {
    float sum = 0;
    for (int k = 0; k <= hid; k++)
      sum += hidden_weights[k * (out + 1) + j] * hidden_units[k];
    output_units[j] = squash(sum);
  }
  for (int j = 1; j <= out; j++) {
    float o = output_units[j];
    output_delta[j] = o * (1.0f - o) * (target[j] - o);
  }
  for (int j = 1; j <= hid; j++) {
    float h = hidden_units[j], sum = 0;
    for (int k = 1; k <= out; k++)
      sum += output_delta[k] * hidden_weights[j * (out + 1) + k];
    hidden_delta[j] = h * (1.0f - h) * sum;
  }
  hidden_delta[0] = 0;
  CHECK(musaMalloc((void **)&hidden_delta_cuda, (hid + 1) * sizeof(float)));
  CHECK(musaMalloc((void **)&input_prev_weights_cuda, wbytes));
  CHECK(musaMemcpy(hidden_delta_cuda, hidden_delta, (hid + 1) * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(input_prev_weights_cuda, input_prev_weights, wbytes, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(input_hidden_cuda, input_weights, wbytes, musaMemcpyHostToDevice));
  bpnn_adjust_weights_cuda<<<grid, threads>>>(hidden_delta_cuda, hid, input_cuda, in, input_hidden_cuda,
                                              input_prev_weights_cuda);
  CHECK(musaEventRecord(e1));
  CHECK(musaEventSynchronize(e1));
  CHECK(musaGetLastError());
  float ms;
  CHECK(musaEventElapsedTime(&ms, e0, e1));
  CHECK(musaMemcpy(w_after, input_hidden_cuda, wbytes, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(oldw_after, input_prev_weights_cuda, wbytes, musaMemcpyDeviceToHost));
  // host bpnn_adjust_weights
  int wbad = 0;
  for (int k = 0; k <= in; k++)
    for (int j = 1; j <= hid; j++) {
      int idx = k * (hid + 1) + j;
      double ly = k == 0 ? 1.0 : input_units[k];
      double new_dw = ((ETA * hidden_delta[j] * ly) + (MOMENTUM * input_prev_weights[idx]));
      double w = input_weights[idx] + new_dw;
      if (!(fabs(w_after[idx] - w) <= 1e-6 * (1 + fabs(w))) ||
          !(fabs(oldw_after[idx] - new_dw) <= 1e-6 * (1e-3 + fabs(new_dw)))) {
        if (wbad < 4)
          printf("  weight (%d,%d): %g/%g vs %g/%g\n", k, j, w_after[idx], oldw_after[idx], w, new_dw);
        wbad++;
      }
    }
  bad += wbad;
  printf("backprop in=%d hid=%d: output %.6f, %.3f ms, %d mismatches\n", in, hid, output_units[1], ms, bad);
  musaFree(input_cuda); musaFree(output_hidden_cuda); musaFree(input_hidden_cuda); musaFree(hidden_partial_sum);
  musaFree(hidden_delta_cuda); musaFree(input_prev_weights_cuda);
  musaEventDestroy(e0); musaEventDestroy(e1);
  free(input_units); free(input_weights); free(input_prev_weights); free(hidden_weights); free(partial_sum);
  free(w_after); free(oldw_after);
  return bad;
}

int main() {
  int bad = 0;
  bad += run(16, 1);
  bad += run(256, 2);
  bad += run(4096, 3);
  printf("backprop: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

// Device code the driver API test loads as a module (compiled with --cuda-device-only).
__device__ int counter;
__constant__ float bias[4];

extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i] + bias[i % 4];
}

// Mixed argument sizes: the `extra` packed-buffer launch must lay them out as CUDA does.
extern "C" __global__ void mixed(char tag, double scale, int *out) {
  if (threadIdx.x == 0) {
    out[0] = tag;
    out[1] = int(scale * 10.0);
    atomicAdd(&counter, 1);
  }
}

// A __managed__ variable and a third kernel (the runtime's library test).
__managed__ int tally;
extern "C" __global__ void bump(int by) { atomicAdd(&tally, by); }

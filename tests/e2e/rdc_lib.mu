// The library half of the -rdc program: a device function, a device variable, and a kernel
// of its own that uses both.
__device__ int libraryBias = 7;

__device__ float scaleBy(float x, float factor) { return x * factor; }

__global__ void libraryKernel(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = scaleBy(data[i], 3.0f) + libraryBias;
}

void runLibraryKernel(float *data, int n) { libraryKernel<<<(n + 63) / 64, 64>>>(data, n); }

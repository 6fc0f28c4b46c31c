// The other file of dp_rdc_main.mu.
__global__ void grandchild(int *p);

__global__ void child(int *p, int v) {
  p[threadIdx.x] = v + threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0)
    grandchild<<<1, 1>>>(p);
}

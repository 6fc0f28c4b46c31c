// The second file of the two-file program: a kernel and the host function that launches it.
__global__ void scale(float *data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= factor;
}

void launchScale(float *data, float factor, int n) {
  scale<<<(n + 255) / 256, 256>>>(data, factor, n);
}

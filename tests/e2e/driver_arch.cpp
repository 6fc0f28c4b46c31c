// A .cpp file made a MUSA source with -x musa; reports the device the architecture chose.
#include <stdio.h>

int hostHelper(int x);

__global__ void fill(int *p) { p[threadIdx.x] = warpSize + DRIVER_DEFINE; }

int main() {
  int *d, h[4];
  musaMalloc(&d, sizeof h);
  fill<<<1, 4>>>(d);
  musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost);
  musaDeviceProp prop;
  musaGetDeviceProperties(&prop, 0);
  printf("%s %d %d\n", prop.name, h[3], hostHelper(21));
  return 0;
}

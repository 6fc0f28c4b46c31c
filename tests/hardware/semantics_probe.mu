// semantics_probe.mu: integer and conversion corner cases that C leaves undefined but a GPU
// computes one way (division by zero, INT_MIN / -1, over-wide shifts, out-of-range float to
// integer casts), and cooperative groups' coalesced_threads() after a labeled partition's
// reduction. Inputs come from device memory so that no compiler folds them. Each line is
// `name value`; the same source builds as CUDA (sed musa->cuda) so that the simulator's
// output can be compared line by line with the hardware's (semantics_probe.h200.txt).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cstdint>
#include <cmath>
namespace cg = cooperative_groups;

struct In {
  int i7, im7, i0, im1, imin, i32, i33, i64, iminus1;
  unsigned u7, u0;
  long long l7, lm7, l0, lm1, lmin;
  unsigned long long ul7, ul0;
  float f1e10, fm1e10, fnan, f4e9, fm15, finf, f1e30, fm1, f300, fm300, f1e6, f65536;
  double d1e20, dnan, dm1;
};

constexpr int kOut = 64;

__global__ void scalar_cases(const In *p, long long *o) {
  In v = *p;
  int k = 0;
  o[k++] = v.i7 / v.i0;            // 0
  o[k++] = v.im7 / v.i0;
  o[k++] = v.i0 / v.i0;
  o[k++] = v.i7 % v.i0;
  o[k++] = v.im7 % v.i0;
  o[k++] = v.imin / v.im1;         // 5
  o[k++] = v.imin % v.im1;
  o[k++] = v.u7 / v.u0;
  o[k++] = v.u7 % v.u0;
  o[k++] = v.l7 / v.l0;
  o[k++] = v.lm7 / v.l0;           // 10
  o[k++] = v.l7 % v.l0;
  o[k++] = v.lmin / v.lm1;
  o[k++] = (long long)(v.ul7 / v.ul0);
  o[k++] = (long long)(v.ul7 % v.ul0);
  o[k++] = v.i7 << v.i32;          // 15
  o[k++] = v.i7 << v.i33;
  o[k++] = v.im7 >> v.i32;
  o[k++] = (long long)(v.u7 >> v.i32);
  o[k++] = v.i7 << v.iminus1;
  o[k++] = v.l7 << v.i64;          // 20
  o[k++] = v.lm7 >> v.i64;
  o[k++] = (int)v.f1e10;
  o[k++] = (int)v.fm1e10;
  o[k++] = (int)v.fnan;
  o[k++] = (unsigned)v.f4e9;       // 25
  o[k++] = (unsigned)v.fm15;
  o[k++] = (int)v.finf;
  o[k++] = (long long)v.f1e30;
  o[k++] = (long long)(unsigned long long)v.fm1;
  o[k++] = (int)v.d1e20;           // 30
  o[k++] = (int)v.dnan;
  o[k++] = (signed char)v.f300;
  o[k++] = (unsigned char)v.f300;
  o[k++] = (short)v.f1e6;
  o[k++] = (unsigned short)v.f65536; // 35
  o[k++] = (unsigned char)v.fm300;
  o[k++] = (long long)(unsigned)v.dm1;
  o[k++] = __float2int_rn(v.fnan);
  o[k++] = __float2uint_rn(v.fm1);
  o[k++] = __float2ll_rn(v.fnan);  // 40
  o[k++] = __double2int_rz(v.d1e20);
  o[k++] = (long long)(unsigned long long)v.fnan;
  o[k++] = __ffs(v.i0);
  o[k++] = __clz(v.i0);
  o[k++] = __popc(v.iminus1);      // 45
  o[k++] = __brev(v.u7);
  o[k++] = __mulhi(v.imin, v.imin);
  o[k++] = __sad(v.im7, v.i7, v.u7);
  o[k++] = abs(v.imin);
  o[k++] = llabs(v.lmin);          // 50
  o[k++] = (long long)(float)v.lmin;
  while (k < kOut) o[k++] = 0;
}

__global__ void coalesced_after_partition(int *size, int *sum) {
  int lane = threadIdx.x % 32;
  auto t32 = cg::tiled_partition<32>(cg::this_thread_block());
  cg::coalesced_group lp = cg::labeled_partition(t32, lane < 4);
  sum[threadIdx.x] = cg::reduce(lp, 1, cg::plus<int>());
  size[threadIdx.x] = cg::coalesced_threads().size();
}

int main() {
  In in{7, -7, 0, -1, INT32_MIN, 32, 33, 64, -1, 7u, 0u, 7, -7, 0, -1, INT64_MIN, 7ull, 0ull,
        1e10f, -1e10f, NAN, 4e9f, -1.5f, INFINITY, 1e30f, -1.0f, 300.f, -300.f, 1e6f, 65536.f,
        1e20, NAN, -1.0};
  In *dIn; long long *dOut; int *dSize, *dSum;
  musaMalloc(&dIn, sizeof in);
  musaMalloc(&dOut, kOut * sizeof(long long));
  musaMalloc(&dSize, 64 * sizeof(int));
  musaMalloc(&dSum, 64 * sizeof(int));
  musaMemcpy(dIn, &in, sizeof in, musaMemcpyHostToDevice);
  scalar_cases<<<1, 1>>>(dIn, dOut);
  coalesced_after_partition<<<1, 64>>>(dSize, dSum);
  long long out[kOut]; int size[64], sum[64];
  musaError_t e = musaMemcpy(out, dOut, sizeof out, musaMemcpyDeviceToHost);
  musaMemcpy(size, dSize, sizeof size, musaMemcpyDeviceToHost);
  musaMemcpy(sum, dSum, sizeof sum, musaMemcpyDeviceToHost);
  printf("status %s\n", musaGetErrorName(e));
  for (int i = 0; i < 52; ++i) printf("case%02d %lld\n", i, out[i]);
  printf("coalesced_size lane0 %d lane3 %d lane4 %d lane31 %d lane63 %d\n", size[0], size[3],
         size[4], size[31], size[63]);
  printf("partition_sum lane0 %d lane4 %d\n", sum[0], sum[4]);
  return 0;
}

// Inline PTX statements GPU programs commonly write (special registers, fences, the block
// barrier, prefetch hints, compiler barriers) give what the hardware gives; a statement the
// simulator does not implement (bfind.shiftamt) makes that kernel fail with a message naming it,
// instead of ending the process.
#include "check.h"

__device__ unsigned laneId() {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__global__ void registers(unsigned *out) {
  unsigned warp, lt, le, eq, ge, gt;
  asm("mov.u32 %0, %%warpid;" : "=r"(warp));
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
  asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
  asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
  unsigned long long t0, t1;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0));
  asm volatile("membar.gl;" ::: "memory");
  asm volatile("prefetch.global.L2 [%0];" ::"l"(out));
  asm volatile("" ::: "memory");
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1));
  unsigned tid;
  asm("mov.u32 %0, %%tid.x;" : "=r"(tid));
  unsigned *o = out + 8 * threadIdx.x;
  o[0] = laneId(), o[1] = warp, o[2] = lt, o[3] = le, o[4] = eq, o[5] = ge, o[6] = gt;
  o[7] = (t1 >= t0) && tid == threadIdx.x;
}

__global__ void barrier(int *out) {
  __shared__ int s[256];
  s[threadIdx.x] = threadIdx.x;
  asm volatile("bar.sync 0;" ::: "memory");
  out[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}

// The pointer chase of latency microbenchmarks, through ld.global.cg / ld.volatile / st.wb
// with register offsets and floats; returns where the chase ended and the sum it read.
__global__ void chase(const unsigned *next, unsigned steps, unsigned *end, float *sum) {
  __shared__ float s[32];
  unsigned j = 0;
  for (unsigned k = 0; k < steps; ++k)
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(j) : "l"(next + j));
  float f = float(j);
  asm volatile("st.shared.f32 [%0+4], %1;" ::"l"(s), "f"(f) : "memory");
  float back;
  asm volatile("ld.volatile.shared.f32 %0, [%1 + 4];" : "=f"(back) : "l"(s));
  unsigned long long wide = 0;
  asm volatile("ld.global.nc.u64 %0, [%1+8];" : "=l"(wide) : "l"(next));
  unsigned short half;
  asm volatile("ld.global.u16 %0, [%1];" : "=h"(half) : "l"(next + 1));
  asm volatile("st.global.wb.u32 [%0], %1;" ::"l"(end), "r"(j) : "memory");
  asm volatile("st.relaxed.gpu.global.u32 [%0+4], %1;" ::"l"(end), "r"(unsigned(wide >> 32)) : "memory");
  end[2] = half;
  *sum = back;
}

// Bandwidth-test style vector accesses: ld.global.v4.f32 / st.global.v4.f32 and a v2.u32 pair.
__global__ void copy4(const float4 *in, float4 *out, uint2 *pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v;
  asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(in + i));
  asm volatile("st.global.cs.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(out + i), "f"(v.w), "f"(v.z),
               "f"(v.y), "f"(v.x)
               : "memory");
  unsigned lo, hi;
  asm volatile("ld.global.v2.u32 {%0, %1}, [%2+8];" : "=r"(lo), "=r"(hi) : "l"(in + i));
  asm volatile("st.global.v2.u32 [%0], {%1, %2};" ::"l"(pairs + i), "r"(hi), "r"(lo) : "memory");
}

__global__ void unimplemented(unsigned *out) {
  unsigned shift;
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(shift) : "r"(*out));
  *out = shift;
}

int main() {
  const int threads = 256;
  unsigned *out;
  int *iout;
  CHECK_MUSA(musaMalloc(&out, threads * 8 * sizeof(unsigned)));
  CHECK_MUSA(musaMalloc(&iout, threads * sizeof(int)));
  registers<<<1, threads>>>(out);
  barrier<<<1, threads>>>(iout);
  CHECK_MUSA(musaDeviceSynchronize());
  unsigned h[threads * 8];
  int hi[threads];
  CHECK_MUSA(musaMemcpy(h, out, sizeof h, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(hi, iout, sizeof hi, musaMemcpyDeviceToHost));
  int warpSize = 0;
  CHECK_MUSA(musaDeviceGetAttribute(&warpSize, musaDevAttrWarpSize, 0));
  for (int t = 0; t < threads; ++t) {
    const unsigned *o = h + 8 * t;
    unsigned bit = 1u << (t % 32);
    CHECK(o[0] == unsigned(t % warpSize), "thread %d: laneid %u", t, o[0]);
    CHECK(o[1] == unsigned(t / warpSize), "thread %d: warpid %u", t, o[1]);
    CHECK(o[2] == bit - 1 && o[3] == (bit | (bit - 1)) && o[4] == bit && o[5] == ~(bit - 1) &&
              o[6] == ~(bit | (bit - 1)),
          "thread %d: lane masks %x %x %x %x %x", t, o[2], o[3], o[4], o[5], o[6]);
    CHECK(o[7] == 1, "thread %d: clock64 or tid.x", t);
    CHECK(hi[t] == (t + 1) % threads, "thread %d: bar.sync gave %d", t, hi[t]);
  }
  // A chase over a permutation: next[i] = (i * 5 + 3) % 64.
  unsigned hn[64], *next, *end;
  for (int i = 0; i < 64; ++i)
    hn[i] = (i * 5 + 3) % 64;
  float *sum;
  CHECK_MUSA(musaMalloc(&next, sizeof hn));
  CHECK_MUSA(musaMalloc(&end, 3 * sizeof(unsigned)));
  CHECK_MUSA(musaMalloc(&sum, sizeof(float)));
  CHECK_MUSA(musaMemcpy(next, hn, sizeof hn, musaMemcpyHostToDevice));
  chase<<<1, 1>>>(next, 10, end, sum);
  unsigned he[3];
  float hs = 0;
  CHECK_MUSA(musaMemcpy(he, end, sizeof he, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(&hs, sum, sizeof hs, musaMemcpyDeviceToHost));
  unsigned want = 0;
  for (int k = 0; k < 10; ++k)
    want = hn[want];
  CHECK(he[0] == want && hs == float(want), "ld.global.cg chase ended at %u (%g), want %u", he[0],
        hs, want);
  CHECK(he[1] == hn[3] && he[2] == hn[1], "ld.global.nc.u64 / ld.u16 gave %u %u", he[1], he[2]);

  float4 h4[64], *in4, *out4;
  uint2 *pairs, hp[64];
  for (int i = 0; i < 64; ++i)
    h4[i] = make_float4(i, i + 0.25f, i + 0.5f, i + 0.75f);
  CHECK_MUSA(musaMalloc(&in4, sizeof h4));
  CHECK_MUSA(musaMalloc(&out4, sizeof h4));
  CHECK_MUSA(musaMalloc(&pairs, sizeof hp));
  CHECK_MUSA(musaMemcpy(in4, h4, sizeof h4, musaMemcpyHostToDevice));
  copy4<<<2, 32>>>(in4, out4, pairs);
  CHECK_MUSA(musaMemcpy(h4, out4, sizeof h4, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(hp, pairs, sizeof hp, musaMemcpyDeviceToHost));
  for (int i = 0; i < 64; ++i) {
    CHECK(h4[i].x == i + 0.75f && h4[i].y == i + 0.5f && h4[i].z == i + 0.25f && h4[i].w == i,
          "v4 copy %d: %g %g %g %g", i, h4[i].x, h4[i].y, h4[i].z, h4[i].w);
    float z = i + 0.5f, w = i + 0.75f;
    unsigned zb, wb;
    memcpy(&zb, &z, 4), memcpy(&wb, &w, 4);
    CHECK(hp[i].x == wb && hp[i].y == zb, "v2 pair %d: %x %x", i, hp[i].x, hp[i].y);
  }

  // bfind.shiftamt is not implemented: the kernel prints which statement and fails (the device's
  // sticky error, as a trap is), after the other kernels of the module ran.
  unimplemented<<<1, 1>>>(out);
  musaError_t e = musaDeviceSynchronize();
  CHECK(e == musaErrorLaunchFailure, "a kernel running bfind.shiftamt gave %s", musaGetErrorName(e));
  return finish("inline_asm");
}

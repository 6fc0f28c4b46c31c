// systemWideAtomics-style: atomic*_system on managed memory (and on mapped pinned memory),
// _block variants, and host and device incrementing one counter at the same time when
// concurrentManagedAccess is reported.
#include <musa_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <atomic>
#include <thread>

static bool ok = true;
#define CK(x) do { musaError_t e_ = (x); if (e_ != musaSuccess) { printf("line %d: %s -> %s\n", __LINE__, #x, musaGetErrorString(e_)); ok = false; } } while (0)

__global__ void atomicKernel(int *atom_arr) {
  unsigned int tid = blockDim.x * blockIdx.x + threadIdx.x;
  for (int i = 0; i < 10; i++) {
    atomicAdd_system(&atom_arr[0], 10);
    atomicExch_system(&atom_arr[1], tid);
    atomicMax_system(&atom_arr[2], tid);
    atomicMin_system(&atom_arr[3], tid);
    atomicInc_system((unsigned int *)&atom_arr[4], 17);
    atomicDec_system((unsigned int *)&atom_arr[5], 137);
    atomicCAS_system(&atom_arr[6], tid - 1, tid);
    atomicAnd_system(&atom_arr[7], 2 * tid + 7);
    atomicOr_system(&atom_arr[8], 1 << tid % 32);
    atomicXor_system(&atom_arr[9], tid);
  }
}

__global__ void blockScoped(int *arr, float *f, unsigned long long *u) {
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  atomicAdd_block(&s, 1);
  atomicAdd_block(&arr[blockIdx.x], 2);
  atomicAdd_system(f, 0.5f);
  atomicAdd_system(u, 3ull);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd_system(&arr[gridDim.x], s);
}

__global__ void deviceCounter(unsigned long long *c, int iters) {
  for (int i = 0; i < iters; ++i) atomicAdd_system(c, 1ull);
}

int verify(int *testData, const unsigned len) {
  int val = 0;
  for (unsigned i = 0; i < len * 10; ++i) val += 10;
  if (val != testData[0]) { printf("atomicAdd failed %d\n", testData[0]); return false; }
  val = 0;
  bool found = false;
  for (unsigned i = 0; i < len; ++i) if ((unsigned)testData[1] == i) { found = true; break; }
  if (!found) { printf("atomicExch failed\n"); return false; }
  val = -(1 << 8);
  for (unsigned i = 0; i < len; ++i) val = val > (int)i ? val : i;
  if (val != testData[2]) { printf("atomicMax failed\n"); return false; }
  val = 1 << 8;
  for (unsigned i = 0; i < len; ++i) val = val < (int)i ? val : i;
  if (val != testData[3]) { printf("atomicMin failed\n"); return false; }
  int limit = 17;
  val = 0;
  for (unsigned i = 0; i < len * 10; ++i) val = (val >= limit) ? 0 : val + 1;
  if (val != testData[4]) { printf("atomicInc failed %d want %d\n", testData[4], val); return false; }
  limit = 137;
  val = 0;
  for (unsigned i = 0; i < len * 10; ++i) val = ((val == 0) || (val > limit)) ? limit : val - 1;
  if (val != testData[5]) { printf("atomicDec failed %d want %d\n", testData[5], val); return false; }
  found = false;
  for (unsigned i = 0; i < len; ++i) if ((unsigned)testData[6] == i) { found = true; break; }
  if (!found) { printf("atomicCAS failed\n"); return false; }
  val = 0xff;
  for (unsigned i = 0; i < len; ++i) val &= (2 * i + 7);
  if (val != testData[7]) { printf("atomicAnd failed\n"); return false; }
  val = 0;
  for (unsigned i = 0; i < len; ++i) val |= (1 << (i % 32));
  if (val != testData[8]) { printf("atomicOr failed\n"); return false; }
  val = 0xff;
  for (unsigned i = 0; i < len; ++i) val ^= i;
  // each tid is xored 10 times (even) -> unchanged
  if (0xff != testData[9]) { printf("atomicXor failed %x\n", testData[9]); return false; }
  return true;
}

int main() {
  int dev = 0;
  musaDeviceProp prop;
  CK(musaGetDeviceProperties(&prop, dev));
  unsigned numThreads = 256, numBlocks = 64, numData = 10;
  int *atom_arr;
  CK(musaMallocManaged(&atom_arr, sizeof(int) * numData));
  for (unsigned i = 0; i < numData; i++) atom_arr[i] = 0;
  atom_arr[7] = atom_arr[9] = 0xff;
  atomicKernel<<<numBlocks, numThreads>>>(atom_arr);
  CK(musaDeviceSynchronize());
  if (!verify(atom_arr, numThreads * numBlocks)) ok = false;
  CK(musaFree(atom_arr));

  // same kernel on mapped pinned memory
  CK(musaHostAlloc(&atom_arr, sizeof(int) * numData, musaHostAllocMapped));
  for (unsigned i = 0; i < numData; i++) atom_arr[i] = 0;
  atom_arr[7] = atom_arr[9] = 0xff;
  int *d_arr;
  CK(musaHostGetDevicePointer(&d_arr, atom_arr, 0));
  atomicKernel<<<numBlocks, numThreads>>>(d_arr);
  CK(musaDeviceSynchronize());
  if (!verify(atom_arr, numThreads * numBlocks)) { printf("(mapped)\n"); ok = false; }
  CK(musaFreeHost(atom_arr));

  // block scope + float/u64 system atomics
  {
    int *arr; float *f; unsigned long long *u;
    CK(musaMallocManaged(&arr, sizeof(int) * 9));
    CK(musaMallocManaged(&f, sizeof(float)));
    CK(musaMallocManaged(&u, sizeof(unsigned long long)));
    for (int i = 0; i < 9; ++i) arr[i] = 0;
    *f = 0; *u = 0;
    blockScoped<<<8, 128>>>(arr, f, u);
    CK(musaDeviceSynchronize());
    for (int i = 0; i < 8; ++i) if (arr[i] != 256) { printf("block atomics arr[%d]=%d\n", i, arr[i]); ok = false; }
    if (arr[8] != 1024 || *f != 512.0f || *u != 3072ull) { printf("scoped sums %d %f %llu\n", arr[8], *f, *u); ok = false; }
    musaFree(arr); musaFree(f); musaFree(u);
  }
  // host and device add to one managed counter concurrently
  int cma = 0;
  CK(musaDeviceGetAttribute(&cma, musaDevAttrConcurrentManagedAccess, dev));
  if (cma && prop.concurrentManagedAccess) {
    unsigned long long *c;
    CK(musaMallocManaged(&c, sizeof(*c)));
    *c = 0;
    deviceCounter<<<16, 64>>>(c, 50);
    const int hostAdds = 100000;
    for (int i = 0; i < hostAdds; ++i) __atomic_fetch_add(c, 1ull, __ATOMIC_SEQ_CST);
    CK(musaDeviceSynchronize());
    unsigned long long want = 16ull * 64 * 50 + hostAdds;
    if (*c != want) { printf("concurrent counter %llu want %llu\n", *c, want); ok = false; }
    musaFree(c);
  } else {
    printf("(no concurrent managed access: host/device concurrent part skipped)\n");
  }
  printf("systemWideAtomics: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

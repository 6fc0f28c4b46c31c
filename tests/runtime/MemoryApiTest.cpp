// Allocation, copies and memset: results and every refusal.
#include "musa_runtime.h"

#include <gtest/gtest.h>

#include <vector>

TEST(MemoryApi, RoundTripThroughDeviceMemory) {
  std::vector<int> in(1000), out(1000, 0);
  for (int i = 0; i < 1000; ++i)
    in[size_t(i)] = i * 3;
  int *d = nullptr, *e = nullptr;
  ASSERT_EQ(musaMalloc(&d, 4000), musaSuccess);
  ASSERT_EQ(musaMalloc(&e, 4000), musaSuccess);
  ASSERT_EQ(musaMemcpy(d, in.data(), 4000, musaMemcpyHostToDevice), musaSuccess);
  ASSERT_EQ(musaMemcpy(e, d, 4000, musaMemcpyDeviceToDevice), musaSuccess);
  ASSERT_EQ(musaMemcpy(out.data(), e, 4000, musaMemcpyDefault), musaSuccess);
  EXPECT_EQ(in, out);
  ASSERT_EQ(musaMemset(e, 0xab, 4000), musaSuccess);
  ASSERT_EQ(musaMemcpy(out.data(), e, 4000, musaMemcpyDeviceToHost), musaSuccess);
  EXPECT_EQ(out[999], int(0xabababab));
  EXPECT_EQ(musaFree(d), musaSuccess);
  EXPECT_EQ(musaFree(e), musaSuccess);
}

TEST(MemoryApi, BadPointersSizesAndKindsAreRefused) {
  char host[64];
  char *d = nullptr;
  ASSERT_EQ(musaMalloc(&d, 64), musaSuccess);
  EXPECT_EQ(musaMemcpy(d, host, 65, musaMemcpyHostToDevice), musaErrorInvalidValue);
  EXPECT_EQ(musaMemcpy(host, d + 32, 33, musaMemcpyDeviceToHost), musaErrorInvalidValue);
  EXPECT_EQ(musaMemcpy(d, host, 8, musaMemcpyDeviceToHost), musaErrorInvalidValue);
  EXPECT_EQ(musaMemcpy(nullptr, host, 8, musaMemcpyHostToDevice), musaErrorInvalidValue);
  EXPECT_EQ(musaMemcpy(d, host, 8, musaMemcpyKind(17)), musaErrorInvalidMemcpyDirection);
  EXPECT_EQ(musaMemset(host, 0, 8), musaErrorInvalidValue);
  EXPECT_EQ(musaMemset(d, 0, 65), musaErrorInvalidValue);
  EXPECT_EQ(musaMemcpy(d, host, 0, musaMemcpyHostToDevice), musaSuccess);
  EXPECT_EQ(musaMalloc(nullptr, 8), musaErrorInvalidValue);
  EXPECT_EQ(musaFree(d + 1), musaErrorInvalidValue);
  EXPECT_EQ(musaFree(host), musaErrorInvalidValue);
  EXPECT_EQ(musaFree(d), musaSuccess);
  EXPECT_EQ(musaFree(d), musaErrorInvalidValue); // double free
  EXPECT_EQ(musaMemcpy(d, host, 8, musaMemcpyHostToDevice), musaErrorInvalidValue); // freed
  EXPECT_EQ(musaFree(nullptr), musaSuccess);
  musaGetLastError();
}

TEST(MemoryApi, OutOfMemoryLeavesTheOutputAlone) {
  void *p = reinterpret_cast<void *>(0x1234);
  EXPECT_EQ(musaMalloc(&p, size_t(49) << 30), musaErrorOutOfMemory);
  EXPECT_EQ(p, reinterpret_cast<void *>(0x1234));
  EXPECT_EQ(musaGetLastError(), musaErrorMemoryAllocation);
  void *z = reinterpret_cast<void *>(0x1);
  EXPECT_EQ(musaMalloc(&z, 0), musaSuccess);
  EXPECT_EQ(z, nullptr);
}

TEST(MemoryApi, PinnedHostMemory) {
  float *h = nullptr;
  ASSERT_EQ(musaMallocHost(&h, 1 << 20), musaSuccess);
  h[(1 << 18) - 1] = 1.5f;
  EXPECT_EQ(musaFreeHost(h), musaSuccess);
  EXPECT_EQ(musaFreeHost(h), musaErrorInvalidValue);
  void *w = nullptr;
  EXPECT_EQ(musaHostAlloc(&w, 4096, musaHostAllocWriteCombined | musaHostAllocMapped |
                                        musaHostAllocPortable), musaSuccess);
  EXPECT_EQ(musaFreeHost(w), musaSuccess);
  EXPECT_EQ(musaHostAlloc(&w, 4096, 0x80), musaErrorInvalidValue);
  musaGetLastError();
}

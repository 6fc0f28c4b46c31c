// Streams: handles, ordering, asynchrony of copies.
#include "musa_runtime.h"

#include <gtest/gtest.h>

#include <vector>

TEST(StreamApi, CopiesOnOneStreamRunInOrder) {
  musaStream_t s;
  ASSERT_EQ(musaStreamCreate(&s), musaSuccess);
  std::vector<int> a(1 << 16, 1), b(1 << 16, 2), out(1 << 16, 0);
  int *d;
  ASSERT_EQ(musaMalloc(&d, a.size() * sizeof(int)), musaSuccess);
  ASSERT_EQ(musaMemcpyAsync(d, a.data(), a.size() * sizeof(int), musaMemcpyHostToDevice, s),
            musaSuccess);
  ASSERT_EQ(musaMemcpyAsync(d, b.data(), b.size() * sizeof(int), musaMemcpyHostToDevice, s),
            musaSuccess);
  ASSERT_EQ(musaMemcpyAsync(out.data(), d, out.size() * sizeof(int), musaMemcpyDeviceToHost, s),
            musaSuccess);
  ASSERT_EQ(musaStreamSynchronize(s), musaSuccess);
  EXPECT_EQ(out, b);
  EXPECT_EQ(musaStreamQuery(s), musaSuccess);
  EXPECT_EQ(musaStreamDestroy(s), musaSuccess);
  EXPECT_EQ(musaFree(d), musaSuccess);
}

TEST(StreamApi, StaleAndForeignHandlesAreErrorsNotCrashes) {
  musaStream_t s;
  ASSERT_EQ(musaStreamCreateWithFlags(&s, musaStreamNonBlocking), musaSuccess);
  ASSERT_EQ(musaStreamDestroy(s), musaSuccess);
  EXPECT_EQ(musaStreamDestroy(s), musaErrorInvalidResourceHandle);
  EXPECT_EQ(musaStreamSynchronize(s), musaErrorInvalidResourceHandle);
  EXPECT_EQ(musaStreamQuery(s), musaErrorInvalidResourceHandle);
  int local = 0;
  auto foreign = reinterpret_cast<musaStream_t>(&local);
  EXPECT_EQ(musaStreamSynchronize(foreign), musaErrorInvalidResourceHandle);
  char host[8], *d;
  ASSERT_EQ(musaMalloc(&d, 8), musaSuccess);
  EXPECT_EQ(musaMemcpyAsync(d, host, 8, musaMemcpyHostToDevice, foreign),
            musaErrorInvalidResourceHandle);
  EXPECT_EQ(musaStreamCreateWithFlags(&s, 0x40), musaErrorInvalidValue);
  EXPECT_EQ(musaStreamCreate(nullptr), musaErrorInvalidValue);
  EXPECT_EQ(musaStreamDestroy(nullptr), musaErrorInvalidResourceHandle);
  // The default stream and the per-thread stream are always valid.
  EXPECT_EQ(musaStreamSynchronize(0), musaSuccess);
  EXPECT_EQ(musaStreamSynchronize(musaStreamPerThread), musaSuccess);
  EXPECT_EQ(musaFree(d), musaSuccess);
  musaGetLastError();
}

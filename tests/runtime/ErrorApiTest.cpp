// Error codes, names, strings and the per-thread last error.
#include "musa_runtime.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <thread>

TEST(ErrorApi, GuideValuesAreFixed) {
  EXPECT_EQ(musaSuccess, 0);
  EXPECT_EQ(musaErrorInvalidValue, 1);
  EXPECT_EQ(musaErrorOutOfMemory, 2);
  EXPECT_EQ(musaErrorMemoryAllocation, 2);
  EXPECT_EQ(musaErrorNotInitialized, 3);
  EXPECT_EQ(musaErrorInitializationError, 3);
  EXPECT_EQ(musaErrorInvalidDevice, 100);
  EXPECT_EQ(musaErrorInvalidKernel, 300);
  EXPECT_EQ(musaErrorLaunchFailure, 400);
  EXPECT_EQ(musaErrorLaunchTimeout, 408);
  EXPECT_EQ(musaErrorInvalidConfiguration, 9);
  EXPECT_NE(musaErrorNoDevice, musaErrorInvalidDevice);
  EXPECT_NE(musaErrorInvalidResourceHandle, musaErrorLaunchFailure);
}

TEST(ErrorApi, EveryCodeHasADistinctNameAndAMessage) {
  std::set<std::string> names;
#define MUSA_ERROR_CODE(name, value, text)                                                     \
  EXPECT_STREQ(musaGetErrorName(name), #name);                                               \
  EXPECT_STREQ(musaGetErrorString(name), text);                                              \
  EXPECT_TRUE(names.insert(#name).second);
#include "musa_error_codes.def"
#undef MUSA_ERROR_CODE
  EXPECT_GT(names.size(), 100u);
  // CUDA: "If the error code is not recognized, \"unrecognized error code\" is returned."
  EXPECT_STREQ(musaGetErrorName(musaError_t(123456)), "unrecognized error code");
}

TEST(ErrorApi, GuideOutParameterFormOfGetErrorName) {
  const char *name = nullptr;
  EXPECT_EQ(musaGetErrorName(&name, musaErrorInvalidDevice), musaSuccess);
  EXPECT_STREQ(name, "musaErrorInvalidDevice");
  EXPECT_EQ(musaGetErrorName(nullptr, musaErrorInvalidDevice), musaErrorInvalidValue);
}

TEST(ErrorApi, LastErrorIsPerThreadAndGetResetsIt) {
  EXPECT_EQ(musaSetDevice(99), musaErrorInvalidDevice);
  std::thread other([] { EXPECT_EQ(musaGetLastError(), musaSuccess); });
  other.join();
  EXPECT_EQ(musaPeekAtLastError(), musaErrorInvalidDevice);
  EXPECT_EQ(musaGetLastError(), musaErrorInvalidDevice);
  EXPECT_EQ(musaGetLastError(), musaSuccess);
}

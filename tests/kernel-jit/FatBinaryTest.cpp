// The fat-binary container: round trip and every rejection path.
#include "musa/jit/FatBinary.h"

#include <gtest/gtest.h>

using namespace musa::jit;

TEST(FatBinary, RoundTrip) {
  std::string fat = packFatBinary("BC\xc0\xde payload");
  FatBinaryParse parsed = parseFatBinary(fat.data(), fat.size());
  ASSERT_TRUE(parsed.view) << parsed.error;
  EXPECT_EQ(parsed.view->payload, "BC\xc0\xde payload");
  EXPECT_EQ(parsed.view->hash, fnv1a("BC\xc0\xde payload"));
  // Registration knows only the start address: no limit needed.
  EXPECT_TRUE(parseFatBinary(fat.data()).view);
}

TEST(FatBinary, RejectsForeignCorruptAndTruncatedImages) {
  std::string fat = packFatBinary("device code");
  EXPECT_NE(parseFatBinary(nullptr).error, "");

  std::string badMagic = fat;
  badMagic[0] = 'X';
  EXPECT_NE(parseFatBinary(badMagic.data(), badMagic.size()).error.find("magic"),
            std::string::npos);

  std::string corrupt = fat;
  corrupt.back() ^= 1;
  EXPECT_NE(parseFatBinary(corrupt.data(), corrupt.size()).error.find("hash"),
            std::string::npos);

  EXPECT_NE(parseFatBinary(fat.data(), fat.size() - 1).error.find("size"), std::string::npos);
  EXPECT_NE(parseFatBinary(fat.data(), 10).error.find("header"), std::string::npos);

  std::string future = fat;
  reinterpret_cast<FatBinaryHeader *>(future.data())->version = 99;
  EXPECT_NE(parseFatBinary(future.data(), future.size()).error.find("version"),
            std::string::npos);
}

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

TEST(FatBinary, DeviceSectionsForTheHardwareBackends) {
  std::string fat = packFatBinary("bitcode");
  size_t bare = fat.size();
  EXPECT_EQ(fatBinaryLength(fat.data()), bare);
  EXPECT_FALSE(findPtxSection(fat.data()));
  appendPtxSection(fat, ".version 8.0", 90);
  std::string image("\x7f" "ELF\0\1mtgpu", 11); // binary: NULs inside
  appendDeviceSection(fat, MusaImageSectionMagic, image, 22, FatBinaryHasMusaImage);
  // The bitcode reads as before.
  ASSERT_TRUE(parseFatBinary(fat.data(), fat.size()).view);
  EXPECT_EQ(parseFatBinary(fat.data()).view->payload, "bitcode");
  auto ptx = findPtxSection(fat.data(), fat.size());
  ASSERT_TRUE(ptx);
  EXPECT_EQ(ptx->text, ".version 8.0");
  EXPECT_EQ(ptx->sm, 90u);
  auto musa = findDeviceSection(fat.data(), MusaImageSectionMagic);
  ASSERT_TRUE(musa);
  EXPECT_EQ(musa->bytes, image);
  EXPECT_EQ(musa->arch, 22u);
  EXPECT_EQ(fatBinaryLength(fat.data()), fat.size());
  // A truncated or corrupt section is not found; the sections before it still are.
  EXPECT_FALSE(findDeviceSection(fat.data(), MusaImageSectionMagic, fat.size() - 1));
  EXPECT_TRUE(findPtxSection(fat.data(), fat.size() - 1));
  std::string corrupt = fat;
  corrupt.back() ^= 1;
  EXPECT_FALSE(findDeviceSection(corrupt.data(), MusaImageSectionMagic));
  EXPECT_EQ(fatBinaryLength(corrupt.data()), fat.size() - sizeof(PtxSectionHeader) - image.size());
  // A section whose flag is not set is not read.
  std::string unflagged = packFatBinary("bitcode");
  appendDeviceSection(unflagged, MusaImageSectionMagic, image, 22, 0);
  EXPECT_FALSE(findDeviceSection(unflagged.data(), MusaImageSectionMagic));
}

// Packing and validating the fat-binary container.
#include "musa/jit/FatBinary.h"

#include <cstring>

namespace musa::jit {

uint64_t fnv1a(std::string_view bytes, uint64_t seed) {
  uint64_t h = seed;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string packFatBinary(std::string_view bitcode) {
  FatBinaryHeader header{};
  std::memcpy(header.magic, FatBinaryMagic, sizeof header.magic);
  header.version = FatBinaryVersion;
  header.payloadSize = bitcode.size();
  header.payloadHash = fnv1a(bitcode);
  std::string out(reinterpret_cast<const char *>(&header), sizeof header);
  out.append(bitcode);
  return out;
}

FatBinaryParse parseFatBinary(const void *data, uint64_t limit) {
  if (!data)
    return {std::nullopt, "null fat binary"};
  if (limit < sizeof(FatBinaryHeader))
    return {std::nullopt, "fat binary shorter than its header"};
  FatBinaryHeader header;
  std::memcpy(&header, data, sizeof header);
  if (std::memcmp(header.magic, FatBinaryMagic, sizeof header.magic) != 0)
    return {std::nullopt, "not a musa-sim fat binary (bad magic)"};
  if (header.version != FatBinaryVersion)
    return {std::nullopt, "unsupported fat binary version " + std::to_string(header.version)};
  if (header.payloadSize == 0 || header.payloadSize > FatBinaryMaxPayload ||
      header.payloadSize > limit - sizeof header)
    return {std::nullopt, "fat binary payload size out of range"};
  std::string_view payload(static_cast<const char *>(data) + sizeof header, header.payloadSize);
  if (fnv1a(payload) != header.payloadHash)
    return {std::nullopt, "fat binary payload hash mismatch (corrupt)"};
  return {FatBinaryView{payload, header.payloadHash}, {}};
}

} // namespace musa::jit

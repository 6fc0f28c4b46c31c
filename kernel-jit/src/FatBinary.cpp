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

void appendPtxSection(std::string &container, std::string_view ptx, unsigned sm) {
  PtxSectionHeader section{};
  std::memcpy(section.magic, "PTX", 4);
  section.sm = sm;
  section.size = ptx.size() + 1; // with its NUL: cuModuleLoadData reads PTX as a C string
  std::string text(ptx);
  text.push_back('\0');
  section.hash = fnv1a(text);
  container.append(reinterpret_cast<const char *>(&section), sizeof section);
  container.append(text);
  reinterpret_cast<FatBinaryHeader *>(container.data())->flags |= FatBinaryHasPtx;
}

std::optional<PtxSection> findPtxSection(const void *data, uint64_t limit) {
  FatBinaryParse parsed = parseFatBinary(data, limit);
  if (!parsed.view)
    return std::nullopt;
  FatBinaryHeader header;
  std::memcpy(&header, data, sizeof header);
  if (!(header.flags & FatBinaryHasPtx))
    return std::nullopt;
  uint64_t at = sizeof header + header.payloadSize;
  if (limit - at < sizeof(PtxSectionHeader))
    return std::nullopt;
  PtxSectionHeader section;
  std::memcpy(&section, static_cast<const char *>(data) + at, sizeof section);
  if (std::memcmp(section.magic, "PTX", 4) != 0 || section.size == 0 ||
      section.size > FatBinaryMaxPayload || section.size > limit - at - sizeof section)
    return std::nullopt;
  std::string_view text(static_cast<const char *>(data) + at + sizeof section, section.size);
  if (fnv1a(text) != section.hash || text.back() != '\0')
    return std::nullopt;
  text.remove_suffix(1);
  return PtxSection{text, section.sm};
}

} // namespace musa::jit

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

void appendDeviceSection(std::string &container, const char (&magic)[4], std::string_view bytes,
                         unsigned arch, uint32_t flag) {
  PtxSectionHeader section{};
  std::memcpy(section.magic, magic, 4);
  section.sm = arch;
  section.size = bytes.size();
  section.hash = fnv1a(bytes);
  container.append(reinterpret_cast<const char *>(&section), sizeof section);
  container.append(bytes);
  reinterpret_cast<FatBinaryHeader *>(container.data())->flags |= flag;
}

namespace {

/// Calls `visit(header, bytes)` for each valid section in order; stops at the first that is
/// not (or when `visit` returns true). Returns the offset just past the last valid section.
template <class Visit> uint64_t forEachSection(const void *data, uint64_t limit, Visit visit) {
  FatBinaryParse parsed = parseFatBinary(data, limit);
  if (!parsed.view)
    return 0;
  FatBinaryHeader header;
  std::memcpy(&header, data, sizeof header);
  uint64_t at = sizeof header + header.payloadSize;
  unsigned expected = ((header.flags & FatBinaryHasPtx) ? 1 : 0) +
                      ((header.flags & FatBinaryHasMusaImage) ? 1 : 0);
  for (unsigned n = 0; n < expected; ++n) {
    if (limit - at < sizeof(PtxSectionHeader))
      break;
    PtxSectionHeader section;
    std::memcpy(&section, static_cast<const char *>(data) + at, sizeof section);
    bool known = std::memcmp(section.magic, PtxSectionMagic, 4) == 0 ||
                 std::memcmp(section.magic, MusaImageSectionMagic, 4) == 0;
    if (!known || section.size == 0 || section.size > FatBinaryMaxPayload ||
        section.size > limit - at - sizeof section)
      break;
    std::string_view bytes(static_cast<const char *>(data) + at + sizeof section, section.size);
    if (fnv1a(bytes) != section.hash)
      break;
    at += sizeof section + section.size;
    if (visit(section, bytes))
      break;
  }
  return at;
}

} // namespace

std::optional<DeviceSection> findDeviceSection(const void *data, const char (&magic)[4],
                                               uint64_t limit) {
  std::optional<DeviceSection> found;
  forEachSection(data, limit, [&](const PtxSectionHeader &section, std::string_view bytes) {
    if (std::memcmp(section.magic, magic, 4) != 0)
      return false;
    found = DeviceSection{bytes, section.sm};
    return true;
  });
  return found;
}

uint64_t fatBinaryLength(const void *data, uint64_t limit) {
  return forEachSection(data, limit, [](const PtxSectionHeader &, std::string_view) {
    return false;
  });
}

void appendPtxSection(std::string &container, std::string_view ptx, unsigned sm) {
  std::string text(ptx);
  text.push_back('\0');
  appendDeviceSection(container, PtxSectionMagic, text, sm, FatBinaryHasPtx);
}

std::optional<PtxSection> findPtxSection(const void *data, uint64_t limit) {
  std::optional<DeviceSection> section = findDeviceSection(data, PtxSectionMagic, limit);
  if (!section || section->bytes.back() != '\0')
    return std::nullopt;
  return PtxSection{section->bytes.substr(0, section->bytes.size() - 1), section->arch};
}

} // namespace musa::jit

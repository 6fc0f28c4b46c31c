// The fat-binary container: device bitcode as the host object embeds it.
//
// Layout (little endian): 8-byte magic "MUSASIM\0", u32 version, u32 flags, u64 payload size,
// u64 FNV-1a hash of the payload, then the payload (LLVM bitcode of the device pass). The host
// pass embeds the file through clang's -fcuda-include-gpubinary; at run time the registration
// call hands us a pointer to its first byte, so the header must carry the size.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace musa::jit {

struct FatBinaryHeader {
  char magic[8];
  uint32_t version;
  uint32_t flags;
  uint64_t payloadSize;
  uint64_t payloadHash;
};
static_assert(sizeof(FatBinaryHeader) == 32);

inline constexpr char FatBinaryMagic[8] = {'M', 'U', 'S', 'A', 'S', 'I', 'M', '\0'};
inline constexpr uint32_t FatBinaryVersion = 1;
/// Header flags: the low 16 bits are the architecture (22 for mp_22; 0 if unspecified).
inline constexpr uint32_t FatBinaryArchMask = 0xffff;
/// Relocatable device code (-rdc): linked with the program's other such images at load time.
inline constexpr uint32_t FatBinaryRelocatable = 0x10000;
/// A PTX section follows the payload (see appendPtxSection): device code for the hardware
/// backend (MUSA_SIM_BACKEND=hw|diff), compiled from the same source for an NVIDIA sm_NN.
inline constexpr uint32_t FatBinaryHasPtx = 0x20000;
/// Payloads larger than this are rejected as corrupt rather than trusted.
inline constexpr uint64_t FatBinaryMaxPayload = uint64_t(1) << 32;

uint64_t fnv1a(std::string_view bytes, uint64_t seed = 0xcbf29ce484222325ull);

/// Wraps device bitcode into a container.
std::string packFatBinary(std::string_view bitcode);

/// A view of the payload inside a container, or an error message.
struct FatBinaryView {
  std::string_view payload;
  uint64_t hash = 0;
};
struct FatBinaryParse {
  std::optional<FatBinaryView> view;
  std::string error;
};

/// The PTX section after the payload: u32 magic "PTX\0", u32 sm number (90), u64 size, u64
/// FNV-1a hash, then the PTX text and a NUL. The header's payloadSize and hash still cover
/// only the bitcode, so readers that know nothing of PTX read the container as before.
struct PtxSectionHeader {
  char magic[4];
  uint32_t sm;
  uint64_t size;
  uint64_t hash;
};
static_assert(sizeof(PtxSectionHeader) == 24);
/// Appends a PTX section to a packed container and sets FatBinaryHasPtx.
void appendPtxSection(std::string &container, std::string_view ptx, unsigned sm);
/// The PTX of a validated container (null-terminated view), if it has a valid section.
struct PtxSection {
  std::string_view text;
  unsigned sm = 0;
};
std::optional<PtxSection> findPtxSection(const void *container, uint64_t limit = UINT64_MAX);

/// Validates a container given only a pointer to it (as registration does). `limit` bounds
/// how many bytes may be read when the caller knows the size.
FatBinaryParse parseFatBinary(const void *data, uint64_t limit = UINT64_MAX);

} // namespace musa::jit

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
/// Device-code sections follow the payload (see appendDeviceSection), one per flag set:
/// device code for the hardware backends (MUSA_SIM_BACKEND=hw|diff) compiled from the same
/// source. PTX for an NVIDIA sm_NN (clang's NVPTX back end) ...
inline constexpr uint32_t FatBinaryHasPtx = 0x20000;
/// ... and a MUSA device image written by the real toolkit's mcc (musa-sim-cc --mcc=PATH).
inline constexpr uint32_t FatBinaryHasMusaImage = 0x40000;
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

/// A device-code section after the payload: u32 magic ("PTX\0" or "MUBN"), u32 architecture
/// (sm 90, mp 22), u64 size, u64 FNV-1a hash, then the bytes (PTX text with its NUL). Sections
/// follow one another; the header's payloadSize and hash still cover only the bitcode, so
/// readers that know nothing of them read the container as before.
struct PtxSectionHeader {
  char magic[4];
  uint32_t sm;
  uint64_t size;
  uint64_t hash;
};
static_assert(sizeof(PtxSectionHeader) == 24);
inline constexpr char PtxSectionMagic[4] = {'P', 'T', 'X', '\0'};
inline constexpr char MusaImageSectionMagic[4] = {'M', 'U', 'B', 'N'};

/// Appends a section of `magic` holding `bytes` to a packed container and sets `flag`.
void appendDeviceSection(std::string &container, const char (&magic)[4], std::string_view bytes,
                         unsigned arch, uint32_t flag);
/// The bytes of the section of `magic` in a validated container (`limit` as for
/// parseFatBinary), if it has a valid one.
struct DeviceSection {
  std::string_view bytes;
  unsigned arch = 0;
};
std::optional<DeviceSection> findDeviceSection(const void *container, const char (&magic)[4],
                                               uint64_t limit = UINT64_MAX);
/// The container's whole length: header, payload and sections (0 if it is not valid).
uint64_t fatBinaryLength(const void *container, uint64_t limit = UINT64_MAX);

/// PTX: a section of PtxSectionMagic whose text ends in a NUL (cuModuleLoadData reads PTX as
/// a C string); findPtxSection's view leaves the NUL out.
void appendPtxSection(std::string &container, std::string_view ptx, unsigned sm);
struct PtxSection {
  std::string_view text;
  unsigned sm = 0;
};
std::optional<PtxSection> findPtxSection(const void *container, uint64_t limit = UINT64_MAX);

/// Validates a container given only a pointer to it (as registration does). `limit` bounds
/// how many bytes may be read when the caller knows the size.
FatBinaryParse parseFatBinary(const void *data, uint64_t limit = UINT64_MAX);

} // namespace musa::jit

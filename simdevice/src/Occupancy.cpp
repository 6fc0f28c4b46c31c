// Occupancy: resident blocks per multiprocessor and the shared memory left for them.
#include "musa/sim/Occupancy.h"

#include <algorithm>

namespace musa::sim {

namespace {
/// Resident blocks allowed by every limit except shared memory (at least 1 for a block the
/// device accepts; see the header).
uint64_t blocksByThreadsAndRegisters(const DeviceProfile &p, uint64_t threads) {
  uint64_t warpSize = uint64_t(p.warpSize);
  uint64_t allocated = (threads + warpSize - 1) / warpSize * warpSize; // whole warps
  uint64_t byThreads = uint64_t(p.maxThreadsPerMultiProcessor) / allocated;
  uint64_t byRegisters = uint64_t(p.regsPerMultiprocessor) / (uint64_t(p.regsPerThread) * allocated);
  uint64_t blocks = std::min({uint64_t(p.maxBlocksPerMultiProcessor), byThreads, byRegisters});
  return std::max<uint64_t>(blocks, 1);
}
} // namespace

int residentBlocksPerMultiprocessor(const DeviceProfile &p, uint64_t threads,
                                    uint64_t sharedBytes) {
  if (threads == 0 || threads > uint64_t(p.maxThreadsPerBlock) ||
      sharedBytes > p.sharedMemPerBlockOptin)
    return 0;
  uint64_t blocks = blocksByThreadsAndRegisters(p, threads);
  if (sharedBytes)
    blocks = std::min(blocks, p.sharedMemPerMultiprocessor / sharedBytes);
  return int(std::max<uint64_t>(blocks, 1));
}

uint64_t availableDynamicSharedPerBlock(const DeviceProfile &p, uint64_t threads,
                                        uint64_t blocks, uint64_t staticBytes) {
  if (threads == 0 || threads > uint64_t(p.maxThreadsPerBlock) || blocks == 0 ||
      blocks > blocksByThreadsAndRegisters(p, threads))
    return 0;
  uint64_t perBlock = std::min(p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor / blocks);
  return perBlock > staticBytes ? perBlock - staticBytes : 0;
}

} // namespace musa::sim

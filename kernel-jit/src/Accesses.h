// What the passes that look at a kernel's memory accesses share (InstrumentTiming.cpp).
#pragma once

#include "llvm/IR/Instruction.h"

#include <cstdint>
#include <optional>

namespace musa::jit {

/// The pointer an access uses, or null if `I` is not a memory access of device memory (not a
/// load, store or atomic; or one of a by-value parameter, a context field). An access to the
/// thread's own stack frame (local memory) gets AccessLocal. `info` gets the access's size in
/// bytes (low 16 bits) and its AccessStore/Atomic/Retry/Local flags.
llvm::Value *accessPointer(llvm::Instruction &I, uint32_t &info, const llvm::DataLayout &DL);
/// The offset of the context field `ptr`'s base pointer was loaded from (ctx->shared, the
/// counters' arrays, ...), or none if it was not loaded from the context.
std::optional<uint64_t> contextFieldOf(llvm::Value *ptr, llvm::Argument *ctx);
/// Whether `ptr` is statically in this block's shared memory (an offset from ctx->shared).
bool isSharedPointer(llvm::Value *ptr, llvm::Argument *ctx);

} // namespace musa::jit

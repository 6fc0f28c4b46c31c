// What the timing instrumentation knows of warp matrix multiplies (mma.h's wmma API, lowered to
// the WarpFn collective __MUSA_SIM_WARP_MMA; WarpMatrix.cpp).
#pragma once

#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"

namespace musa::jit {

/// The tensor-core work of a warp matrix multiply in steps of one m16n8k16 fp16 multiply
/// (abi::ClassTensor); 0 for any other call.
unsigned tensorSteps(const llvm::CallBase &call);

/// Whether `object` (an alloca) holds a fragment of a warp matrix multiply, or the operand
/// record that hands fragments to one: registers on a GPU, whose loads and stores cost nothing.
bool isWarpMatrixRegister(const llvm::AllocaInst &object);

/// A load or store an mma.h load or store step synchronises its lanes with (a __syncwarp the
/// GPU does not issue: its fragment loads are warp-wide instructions).
bool isWarpMatrixStepSync(const llvm::CallBase &call);

} // namespace musa::jit

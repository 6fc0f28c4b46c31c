// What one call of a math function, or a division, costs the GPU, by pipe (InstrumentTiming's
// tables).
#pragma once

#include "musa/sim/KernelAbi.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Instructions.h"

#include <array>

namespace musa::jit {

/// One call of a math function as the GPU runs it: MUFU (special-function unit) operations,
/// floating-point instructions and integer or branch instructions on its common path, as Nsight
/// Compute counts the warp instructions the H200 executes per call by pipe (XU, FMA, ALU and
/// CBU; tests/hardware/probes/math_pipes.h200.txt, typical arguments 0.5-10.5, nvcc -O3
/// without fast math): sqrtf is one XU, four FMA-pipe and four ALU or branch instructions;
/// expf one XU, six and two; logf no XU at all but fifteen and thirteen; powf four, 43 and 35.
/// In double the floating-point count is the fp64 pipe's. With the approximate-function flag
/// (the fast intrinsics __sinf, __expf, ..., or --use_fast_math) a call is what the fast
/// intrinsic runs: __sinf one MUFU and one FMA-pipe instruction, __expf and __logf one, three
/// and one, __powf two, six and two, __tanf three, four and one.
/// `base` is the name without a leading "__" or trailing "f".
struct MathCost {
  unsigned special, fp, integer;
};
MathCost mathCost(llvm::StringRef base, bool fast, bool isDouble = false);

/// Warp instructions per class (sim::abi::Class*) of a basic block or instruction.
using Counts = std::array<unsigned, sim::abi::ClassCount>;

/// The class of floating-point arithmetic on `T`: fp64 for double, else fp32.
inline unsigned floatClass(llvm::Type *T) {
  T = T->getScalarType();
  return T->isDoubleTy() ? sim::abi::ClassFp64 : sim::abi::ClassFp32;
}

/// Whether `name` is a math library function (sinf, __expf, erfcinv, ...).
bool isMathLibraryName(llvm::StringRef name);
/// Whether `I` is the square root of an rsqrtf (1 / sqrt(x)), counted on its division.
bool isSqrtOfRsqrt(const llvm::Instruction &I);
/// Adds `cost` to `c`, its floating-point part in `T`'s class.
void addCost(Counts &c, const MathCost &cost, llvm::Type *T);
/// Adds the cost of a call of the math function `base` (its flags say whether fast).
void addMath(Counts &c, llvm::StringRef base, const llvm::CallBase &call);
/// Adds the cost of a floating-point division or remainder.
void addFloatDivision(Counts &c, llvm::Instruction &I);
/// Adds the cost of an integer division or remainder.
void addIntegerDivision(Counts &c, llvm::Instruction &I);
/// Adds a 32-bit division by a divisor that changes (its reciprocal recomputed each time).
void addVariableDivision(Counts &c, bool isSigned);
/// `x & (p - 1)` that clang made of `x % p` (p a power of two from a loop recurrence), which
/// nvcc keeps as a remainder.
bool isMaskedRemainder(const llvm::Instruction &I);

} // namespace musa::jit

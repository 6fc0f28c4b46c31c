// What one call of a math function costs the GPU, by pipe (InstrumentTiming's table).
#pragma once

#include "llvm/ADT/StringRef.h"

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

} // namespace musa::jit

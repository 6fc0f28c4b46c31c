// The per-call costs of math functions (MathCosts.h), as Nsight Compute counts them on the
// H200 (tests/hardware/probes/math_pipes.h200.txt).
#include "MathCosts.h"

using llvm::StringRef;

namespace musa::jit {

MathCost mathCost(StringRef base, bool fast, bool isDouble) {
  if (fast) { // the fast intrinsics (__sinf, __expf, ...; math_pipes.h200.txt)
    if (base == "sin" || base == "cos")
      return {1, 1, 0};
    if (base == "tan") // sine, cosine and a fast division
      return {3, 4, 1};
    if (base == "pow") // lg2, a multiply, ex2
      return {2, 6, 2};
    if (base == "exp" || base == "exp10" || base == "log" || base == "log2" || base == "log10")
      return {1, 3, 1};
    return {1, 1, 0};
  }
  if (isDouble) { // fp64 pipe instructions, then the rest (math_pipes.h200.txt)
    if (base == "sqrt")
      return {1, 8, 8};
    if (base == "exp" || base == "exp2" || base == "exp10")
      return {0, 15, 11};
    if (base == "log" || base == "log2" || base == "log10" || base == "log1p")
      return {1, 30, 32};
    if (base == "sin" || base == "cos")
      return {2, 16, 13};
    if (base == "pow")
      return {1, 86, 60};
    return {1, 20, 12};
  }
  if (base == "sqrt")
    return {1, 4, 4};
  if (base == "rsqrt")
    return {1, 2, 1};
  if (base == "exp2")
    return {1, 2, 1};
  if (base == "exp" || base == "exp10")
    return {1, 6, 2};
  if (base == "expm1")
    return {2, 16, 10};
  if (base == "log" || base == "log2" || base == "log10" || base == "log1p")
    return {0, 15, 13};
  if (base == "sin" || base == "cos")
    return {1, 15, 12};
  if (base == "sincos") // sinf and cosf of one argument (nvcc shares part of the work)
    return {1, 25, 20};
  if (base == "sincos_call") // an explicit sincosf
    return {1, 15, 15};
  if (base == "tan")
    return {2, 12, 12};
  if (base == "tanh")
    return {2, 9, 5};
  if (base == "erf")
    return {1, 12, 15};
  if (base == "erfc")
    return {4, 34, 8};
  if (base == "pow")
    return {4, 43, 35};
  if (base == "atan")
    return {1, 11, 6};
  if (base == "atan2")
    return {2, 18, 19};
  return {1, 20, 5};
}

} // namespace musa::jit

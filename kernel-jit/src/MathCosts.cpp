// The per-call costs of math functions and divisions (MathCosts.h), as Nsight Compute counts
// them on the H200 (tests/hardware/probes/math_pipes.h200.txt).
#include "MathCosts.h"

#include "musa/jit/DeviceLowering.h"

#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

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
  if (isDouble) {
    // XU and fp64 pipe instructions, then all the others the row's `all` column counts
    // (math_pipes.h200.txt): besides the ALU, FMA-pipe and branch instructions listed, a
    // double function issues as many again on pipes the probe does not list (exp: 49 in all,
    // 26 listed), and every one takes an issue slot. Counted as integer instructions. Before
    // 2026-12-05 only the listed ones were (softplus_f64 in the seventh suite: 89
    // instructions an element against the 199 Nsight counts in the kernel).
    if (base == "sqrt")
      return {1, 8, 9};
    if (base == "exp" || base == "exp2" || base == "exp10")
      return {0, 15, 34};
    if (base == "log" || base == "log2" || base == "log10" || base == "log1p")
      return {1, 30, 53};
    if (base == "sin" || base == "cos")
      return {2, 16, 27};
    if (base == "pow")
      return {1, 86, 110};
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

namespace {
/// Whether `V` is computed from a phi within `depth` def-use steps: a value that changes from
/// one loop iteration to the next (a divisor that does not cannot have its reciprocal hoisted).
bool followsPhi(const Value *V, unsigned depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return false;
  if (isa<PHINode>(I) || isa<SelectInst>(I))
    return true;
  if (!depth || isa<LoadInst>(I) || isa<CallBase>(I))
    return false;
  return any_of(I->operands(), [&](const Value *op) { return followsPhi(op, depth - 1); });
}

/// Whether an earlier 32-bit division or remainder in the block has the same divisor: the GPU
/// compiler computes the divisor's reciprocal once for both (an unrolled loop of x / d and
/// x % d).
bool sharesReciprocal(const Instruction &I) {
  for (const Instruction *J = I.getPrevNode(); J; J = J->getPrevNode())
    if (auto *bin = dyn_cast<BinaryOperator>(J); bin && bin->getOperand(1) == I.getOperand(1))
      switch (bin->getOpcode()) {
      case Instruction::UDiv: case Instruction::SDiv: case Instruction::URem:
      case Instruction::SRem:
        return true;
      default:
        break;
      }
  return false;
}

} // namespace

/// `x & (p - 1)` with p a power of two that a loop recurrence produces (a phi, or a phi
/// shifted left by a constant): what clang makes of `x % p` once it has proved p a power of
/// two (the constant may be -1 or, where x's known bits allow, a narrower mask). nvcc keeps
/// the remainder: the H200 runs the classic interleaved reduction's `tid % (2 * s)` as a
/// division, 3 XU, 10 FMA-pipe and 11 ALU instructions an iteration
/// (tests/hardware/ncu/pipe_counts.h200.txt). A mask of `(1 << k) - 1` is not one of these.
bool isMaskedRemainder(const Instruction &I) {
  if (I.getOpcode() != Instruction::And || I.getType()->getScalarSizeInBits() > 32)
    return false;
  for (unsigned k = 0; k < 2; ++k) {
    auto *add = dyn_cast<BinaryOperator>(I.getOperand(k));
    auto *mask = add && add->getOpcode() == Instruction::Add
                     ? dyn_cast<ConstantInt>(add->getOperand(1))
                     : nullptr;
    if (!mask)
      continue;
    APInt next = mask->getValue() + 1;
    if (!next.isZero() && !next.isPowerOf2())
      continue;
    Value *p = add->getOperand(0);
    Value *root = p;
    if (auto *shl = dyn_cast<BinaryOperator>(p);
        shl && shl->getOpcode() == Instruction::Shl && isa<ConstantInt>(shl->getOperand(1)))
      root = shl->getOperand(0);
    if (isa<PHINode>(root) &&
        isKnownToBeAPowerOfTwo(p, I.getModule()->getDataLayout(), /*OrZero=*/true, 0, nullptr,
                               &I))
      return true;
  }
  return false;
}

namespace {

/// Whether the block lies on a cycle (runs once per iteration of some loop).
bool inLoop(const BasicBlock &BB) {
  return any_of(successors(&BB), [&](const BasicBlock *next) {
    return isPotentiallyReachable(next, &BB);
  });
}

} // namespace

bool isMathLibraryName(StringRef name) {
  static const char *const names[] = {
      "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh",
      "acosh", "atanh", "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "pow",
      "sqrt", "cbrt", "hypot", "erf", "erfc", "tgamma", "lgamma", "fmod", "remainder", "rsqrt",
      "sincos", "erfinv", "erfcinv", "normcdf", "normcdfinv", "j0", "j1", "y0", "y1"};
  name.consume_front("__");
  name.consume_back("f");
  for (const char *n : names)
    if (name == n)
      return true;
  return false;
}

/// rsqrtf as the headers write it: 1 / sqrt(x), the square root used only there. The GPU
/// runs it as MUFU.RSQ and three fp32 (math_sass.sm90.txt); counted on the division, the
/// square root itself free.
bool isSqrtOfRsqrt(const Instruction &I) {
  auto *call = dyn_cast<IntrinsicInst>(&I);
  if (!call || call->getIntrinsicID() != Intrinsic::sqrt || !call->hasOneUse())
    return false;
  auto *div = dyn_cast<BinaryOperator>(*call->user_begin());
  auto *one = div && div->getOpcode() == Instruction::FDiv
                  ? dyn_cast<ConstantFP>(div->getOperand(0))
                  : nullptr;
  return one && one->isExactlyValue(1.0) && div->getOperand(1) == call;
}

void addCost(Counts &c, const MathCost &cost, Type *T) {
  c[sim::abi::ClassSpecial] += cost.special;
  c[floatClass(T)] += cost.fp;
  c[sim::abi::ClassInt] += cost.integer;
}

namespace {
/// An accurate cosine whose argument an accurate sine in the same basic block also takes:
/// GPU compilers compute the two as one sincos (math_pipes.h200.txt: sinf(x) * cosf(x) is one
/// XU, 26 FMA-pipe and 20 ALU or branch instructions, a sine alone 1, 15 and 12).
bool cosineBesideSine(StringRef base, const CallBase &call, bool fast) {
  if (fast || base != "cos" || !call.arg_size())
    return false;
  for (const User *U : call.getArgOperand(0)->users()) {
    const auto *other = dyn_cast<CallBase>(U);
    const Function *F = other ? other->getCalledFunction() : nullptr;
    if (!F || other == &call || other->getParent() != call.getParent() ||
        (isa<FPMathOperator>(other) && other->hasApproxFunc()))
      continue;
    StringRef name = F->getName();
    if (name.starts_with("llvm.sin.") || name == "sinf" || name == "sin")
      return true;
  }
  return false;
}

} // namespace

void addMath(Counts &c, StringRef base, const CallBase &call) {
  bool fast = isa<FPMathOperator>(call) && call.hasApproxFunc();
  Type *T = call.getType()->isVoidTy() && call.arg_size() ? call.getArgOperand(0)->getType()
                                                          : call.getType();
  bool isDouble = floatClass(T) == sim::abi::ClassFp64;
  if (!isDouble && !fast && base == "cos" && call.hasMetadata(SincosMetadata)) {
    // sincosf's cosine: what an explicit sincosf adds to its sine (math_pipes.h200.txt:
    // sincosf 1 XU, 15 FMA-pipe, 15 ALU or branch; sinf 1, 15, 12).
    MathCost both = mathCost("sincos_call", false), sine = mathCost("sin", false);
    addCost(c, {both.special - sine.special, both.fp - sine.fp, both.integer - sine.integer}, T);
    return;
  }
  if (!isDouble && cosineBesideSine(base, call, fast)) {
    // The sine pays its own cost; the cosine what sincos adds to it.
    MathCost both = mathCost("sincos", false), sine = mathCost("sin", false);
    addCost(c, {both.special - sine.special, both.fp - sine.fp, both.integer - sine.integer}, T);
    return;
  }
  addCost(c, mathCost(base, fast, isDouble), T);
}

void addFloatDivision(Counts &c, Instruction &I) {
  using namespace sim::abi;
  if (auto *root = dyn_cast<Instruction>(I.getOperand(1)); root && isSqrtOfRsqrt(*root)) {
    addCost(c, mathCost("rsqrt", root->hasApproxFunc()), I.getType());
    return;
  }
  if (floatClass(I.getType()) == ClassFp64) {
    // Newton iterations in double from an XU reciprocal seed (math_pipes.h200.txt: eight
    // fp64, one XU, three FMA-pipe and seven other instructions, 19 in all).
    c[ClassFp64] += 8;
    ++c[ClassSpecial];
    c[ClassFp32] += 3;
    c[ClassInt] += 7;
  } else if (I.hasAllowReciprocal() || I.hasApproxFunc()) {
    // Fast division (__fdividef, --use_fast_math): MUFU.RCP, four FMA-pipe and one ALU
    // instruction (math_pipes.h200.txt).
    ++c[ClassSpecial];
    c[ClassFp32] += 4;
    ++c[ClassInt];
  } else if (auto *one = dyn_cast<ConstantFP>(I.getOperand(0)); one && one->isExactlyValue(1.0)) {
    // An IEEE reciprocal: MUFU.RCP, four FMA-pipe, four ALU or branch (math_pipes.h200.txt).
    ++c[ClassSpecial];
    c[ClassFp32] += 4;
    c[ClassInt] += 4;
  } else {
    // IEEE division (math_pipes.h200.txt): MUFU.RCP and FCHK on the XU pipe, six on the FMA
    // pipe, and the branch around the slow path.
    c[ClassSpecial] += 2;
    c[ClassFp32] += 6;
    c[ClassInt] += 2;
  }
}

void addVariableDivision(Counts &c, bool isSigned) {
  using namespace sim::abi;
  // The reciprocal's I2F, MUFU.RCP and F2I on the XU pipe, the refinement's IMADs and the
  // corrections' ALU instructions: 3, 5 and 9 unsigned, 3, 8 and 11 signed (Nsight Compute
  // on the H200, math_pipes.h200.txt; a divisor that differs per lane).
  c[ClassSpecial] += 3;
  c[ClassIntMul] += isSigned ? 8 : 5;
  c[ClassInt] += isSigned ? 11 : 9;
}

void addIntegerDivision(Counts &c, Instruction &I) {
  using namespace sim::abi;
  // No hardware integer divide. 32 bits: a reciprocal of the divisor (an SFU
  // approximation refined by integer multiplies), then a multiply-high and a correction;
  // the GPU compiler hoists the reciprocal out of a loop when the divisor does not change
  // in it (taken here as: the division sits on a cycle and its divisor does not follow a
  // phi; outside a loop, or with a divisor that changes, it pays the whole expansion). 64
  // bits: a subroutine of about 60 integer instructions. The H200 runs 16 unsigned 32-bit
  // divisions and remainders by a kernel parameter at about 5 cycles per warp iteration
  // and the 64-bit ones 7x slower (tests/hardware/probes/workload_probe.h200.txt).
  bool invariant = (inLoop(*I.getParent()) && !followsPhi(I.getOperand(1), 6)) ||
                   sharesReciprocal(I);
  bool isSigned = I.getOpcode() == Instruction::SDiv || I.getOpcode() == Instruction::SRem;
  if (I.getType()->getScalarSizeInBits() > 32) {
    c[ClassInt] += 60;
  } else if (invariant) {
    c[ClassInt] += isSigned ? 6 : 4;
  } else {
    // The reciprocal's I2F, MUFU.RCP and F2I on the XU pipe, the refinement's IMADs and the
    // corrections' ALU instructions: 3, 5 and 9 unsigned, 3, 8 and 11 signed (Nsight Compute
    // on the H200, math_pipes.h200.txt; a divisor that differs per lane).
    c[ClassSpecial] += 3;
    c[ClassIntMul] += isSigned ? 8 : 5;
    c[ClassInt] += isSigned ? 11 : 9;
  }
}

} // namespace musa::jit

// GpuArithmeticPass: integer corner cases computed as the GPU computes them, not as x86 does.
//
// Device IR leaves these undefined (poison or undefined behaviour); the NVPTX back end gives
// them the PTX instructions' meaning, which device code comes to rely on, and the host
// instructions disagree:
//   - float to integer (fptosi/fptoui, what a C cast becomes): cvt.rzi saturates to the
//     destination's range; x86's cvttss2si gives the "integer indefinite" (INT_MIN) instead,
//     and an unsigned conversion of a negative float wraps. They become llvm.fptosi.sat /
//     llvm.fptoui.sat, with what the H200 measured on top (tests/hardware/semantics_probe*):
//     NaN gives 0 from float to 32 bits, the top bit alone from double and to 64 bits; char
//     and short destinations take the low bits of the saturated 32-bit conversion.
//   - integer division and remainder by zero: x / 0 is all ones (a 64-bit dividend below 2^32
//     gives 0xffffffff) and x % 0 is x, as measured on the H200; x86's idiv traps, which
//     would end the launch (SIGFPE). INT_MIN / -1 (which also traps on x86) gives INT_MIN and
//     its remainder 0, as the GPU's wrapping arithmetic does.
//   - shifts by the width or more: PTX's shl/shr clamp the amount (shl and shr.u give 0, shr.s
//     the sign), x86 takes it modulo the width: (1u << 32) - 1 is the all-ones mask on a GPU.
// Divisors and shift amounts that are constants in range are left alone. Runs after
// InstrumentTiming: the guards are the host's, not instructions the GPU issues.
#include "musa/jit/DeviceLowering.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace musa::jit {

namespace {

/// A constant (or splat) whose every element satisfies `ok`.
template <class Pred> bool constantWhere(const Value *v, Pred ok) {
  const auto *c = dyn_cast<Constant>(v);
  if (!c)
    return false;
  if (const auto *i = dyn_cast<ConstantInt>(c))
    return ok(i->getValue());
  if (const auto *splat = dyn_cast_or_null<ConstantInt>(c->getSplatValue()))
    return ok(splat->getValue());
  return false;
}

Value *lowerDivision(BinaryOperator &I) {
  Value *x = I.getOperand(0), *d = I.getOperand(1);
  Type *T = I.getType();
  const bool isSigned = I.getOpcode() == Instruction::SDiv || I.getOpcode() == Instruction::SRem;
  const bool isDiv = I.getOpcode() == Instruction::SDiv || I.getOpcode() == Instruction::UDiv;
  if (constantWhere(d, [&](const APInt &v) { return !v.isZero() && !(isSigned && v.isAllOnes()); }))
    return nullptr; // a constant divisor other than 0 (and -1 for signed)
  IRBuilder<> b(&I);
  Value *zero = b.CreateICmpEQ(d, Constant::getNullValue(T));
  Value *minusOne = isSigned ? b.CreateICmpEQ(d, Constant::getAllOnesValue(T)) : nullptr;
  Value *unsafe = minusOne ? b.CreateOr(zero, minusOne) : zero;
  Value *safe = b.CreateSelect(unsafe, ConstantInt::get(T, 1), d);
  Value *q = b.CreateBinOp(I.getOpcode(), x, safe); // a new instruction: no `exact` flag
  if (minusOne && isDiv) // x / -1 = -x, wrapping (INT_MIN / -1 = INT_MIN); x % -1 = x % 1 = 0
    q = b.CreateSelect(minusOne, b.CreateSub(Constant::getNullValue(T), x), q);
  if (!isDiv) // x % 0 is x
    return b.CreateSelect(zero, x, q);
  // x / 0: all ones, except in 64 bits for a dividend below 2^32 (nvcc's 64-bit division takes
  // its 32-bit path then): 0xffffffff, as the H200 and H100 give for 7 / 0, signed or not.
  Value *byZero = Constant::getAllOnesValue(T);
  if (T->getScalarSizeInBits() == 64)
    byZero = b.CreateSelect(b.CreateICmpULT(x, ConstantInt::get(T, 1ull << 32)),
                            ConstantInt::get(T, 0xffffffffull), byZero);
  return b.CreateSelect(zero, byZero, q);
}

Value *lowerShift(BinaryOperator &I) {
  Type *T = I.getType();
  unsigned bits = T->getScalarSizeInBits();
  Value *x = I.getOperand(0), *amount = I.getOperand(1);
  if (constantWhere(amount, [&](const APInt &v) { return v.ult(bits); }))
    return nullptr;
  IRBuilder<> b(&I);
  Value *big = b.CreateICmpUGE(amount, ConstantInt::get(T, bits));
  Value *safe = b.CreateSelect(big, ConstantInt::get(T, bits - 1), amount);
  auto *shift = cast<BinaryOperator>(b.CreateBinOp(I.getOpcode(), x, safe));
  if (I.getOpcode() == Instruction::AShr)
    return shift; // shr.s: the sign fills the value
  return b.CreateSelect(big, Constant::getNullValue(T), shift);
}

/// The integer a conversion of NaN gives, as nvcc's code gives it on the H200
/// (tests/hardware/semantics_probe*.mu): 0 from float to a 32-bit or narrower integer, the
/// least signed value's bits (only the top bit set) from double, and to 64-bit integers.
bool nanGivesTopBit(Type *from, unsigned toBits) {
  return from->getScalarType()->isDoubleTy() || toBits > 32;
}

Value *lowerFloatToInt(CastInst &I) {
  IRBuilder<> b(&I);
  Intrinsic::ID id =
      I.getOpcode() == Instruction::FPToSI ? Intrinsic::fptosi_sat : Intrinsic::fptoui_sat;
  Type *to = I.getDestTy(), *from = I.getSrcTy();
  unsigned bits = to->getScalarSizeInBits();
  Value *x = I.getOperand(0), *result;
  if (bits < 32) {
    // char and short: nvcc converts to a 32-bit integer (saturating) and keeps the low bits,
    // so (unsigned char)300.f is 44 and (short)1e6f is 16960, not the narrow type's limit.
    Type *wide = to->getWithNewBitWidth(32);
    result = b.CreateTrunc(b.CreateIntrinsic(id, {wide, from}, {x}), to);
  } else {
    result = b.CreateIntrinsic(id, {to, from}, {x});
  }
  // (A narrow destination keeps the low bits of the 32-bit answer, 0 either way.)
  if (bits >= 32 && nanGivesTopBit(from, bits))
    result = b.CreateSelect(b.CreateFCmpUNO(x, x),
                            ConstantInt::get(to, APInt::getSignedMinValue(bits)), result);
  return result;
}

} // namespace

PreservedAnalyses GpuArithmeticPass::run(Module &M, ModuleAnalysisManager &) {
  bool changed = false;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    SmallVector<Instruction *, 16> work;
    for (Instruction &I : instructions(F))
      switch (I.getOpcode()) {
      case Instruction::SDiv:
      case Instruction::UDiv:
      case Instruction::SRem:
      case Instruction::URem:
      case Instruction::Shl:
      case Instruction::LShr:
      case Instruction::AShr:
      case Instruction::FPToSI:
      case Instruction::FPToUI:
        work.push_back(&I);
        break;
      default:
        break;
      }
    for (Instruction *I : work) {
      Value *replacement = nullptr;
      if (auto *conversion = dyn_cast<CastInst>(I))
        replacement = lowerFloatToInt(*conversion);
      else if (I->isShift())
        replacement = lowerShift(*cast<BinaryOperator>(I));
      else
        replacement = lowerDivision(*cast<BinaryOperator>(I));
      if (!replacement)
        continue;
      replacement->takeName(I);
      I->replaceAllUsesWith(replacement);
      I->eraseFromParent();
      changed = true;
    }
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace musa::jit

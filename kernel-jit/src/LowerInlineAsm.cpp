// LowerInlineAsmPass: the inline PTX assembly that GPU programs commonly write becomes the
// operation it stands for, so that the host code generator never sees PTX text (which it
// cannot assemble: without this pass such a kernel aborted the process).
//
// Recognised, one instruction per asm statement (whitespace and a trailing ';' ignored):
//   mov.u32/u64 $0, %laneid | %warpid | %smid | %nsmid | %clock | %clock64 | %globaltimer |
//                   %tid.x ... | %dynamic_smem_size | %total_smem_size |
//                   %lanemask_eq | _lt | _le | _gt | _ge          the special register
//   membar.cta | membar.gl | membar.sys | fence.* (no operands)   a sequentially consistent fence
//                                                   (its scope as metadata: .cta, .gl/.gpu, .sys)
//   bar.sync 0 | barrier.sync 0                                    __syncthreads()
//   bar{.cta}.sync|arrive a{, b} | barrier{.cta}.sync|arrive{.aligned} a{, b}
//                                                 a named barrier (__musa_sim_named_barrier)
//   prefetch.* / prefetchu.* [$0]                                  nothing (a hint)
//   ld.<qualifiers>(.v2/.v4).<type> $0 or {$0, ..}, [$k(+offset)]     loads of that width
//                                   (.shared with an integer address: a .shared window one)
//   st.<qualifiers>.<type> [$k(+offset)], $m                       a store (.volatile kept,
//                                                   .relaxed/.acquire/.release as orderings)
//   one-instruction integer and float arithmetic (lowerArithmetic)  the operation
//   an empty statement ("" with or without clobbers)               a compiler barrier
// and statement sequences, predicates, carry chains, cvt and prmt (InlinePtxBlock.cpp).
// Anything else prints its text and traps when a thread reaches it (musaErrorLaunchFailure
// for that launch; the module's other kernels are unaffected).
#include "musa/jit/DeviceLowering.h"

#include "InlinePtx.h"

#include "musa/sim/KernelAbi.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <string>

using namespace llvm;

namespace musa::jit {
namespace ptx {

/// The statement with runs of whitespace as one space, trimmed, without a trailing ';'.
std::string normalise(StringRef text) {
  std::string out;
  for (char c : text) {
    bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (space) {
      if (!out.empty() && out.back() != ' ')
        out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == ';'))
    out.pop_back();
  return out;
}

/// The NVVM intrinsic that reads special register `reg` (as the asm names it), or "".
std::string specialRegisterIntrinsic(StringRef reg) {
  static const char *const direct[] = {"laneid", "warpid", "clock", "clock64", "globaltimer",
                                       "tid.x", "tid.y", "tid.z", "ntid.x", "ntid.y",
                                       "ntid.z", "ctaid.x", "ctaid.y", "ctaid.z", "nctaid.x",
                                       "nctaid.y", "nctaid.z", "smid", "nsmid"};
  for (const char *name : direct)
    if (reg == name)
      return std::string("llvm.nvvm.read.ptx.sreg.") + name;
  for (const char *mask : {"lanemask_eq", "lanemask_lt", "lanemask_le", "lanemask_gt",
                           "lanemask_ge"})
    if (reg == mask)
      return std::string("llvm.nvvm.read.ptx.sreg.lanemask.") + (mask + 9);
  // No NVVM intrinsic reads these: LowerDeviceCalls computes them from the context.
  if (reg == "dynamic_smem_size" || reg == "total_smem_size")
    return ("__musa_sim_sreg_" + reg).str();
  return {};
}

/// The call argument PTX operand `$k` names (outputs come first: one per element of a struct
/// result), or null.
Value *operand(CallInst &call, StringRef text) {
  unsigned k = 0;
  if (!text.consume_front("$") || text.getAsInteger(10, k))
    return nullptr;
  Type *result = call.getType();
  unsigned outputs = result->isVoidTy()     ? 0
                     : result->isStructTy() ? result->getStructNumElements()
                                            : 1;
  return k >= outputs && k - outputs < call.arg_size() ? call.getArgOperand(k - outputs) : nullptr;
}

/// `value` as `to` (same width: bit cast; integers: truncated or extended), or null.
Value *convert(IRBuilder<> &b, Value *value, Type *to, bool isSigned) {
  Type *from = value->getType();
  if (from == to)
    return value;
  if (from->isIntegerTy() && to->isIntegerTy())
    return b.CreateIntCast(value, to, isSigned);
  if (from->getPrimitiveSizeInBits() == to->getPrimitiveSizeInBits() &&
      (from->isIntegerTy() || from->isFloatingPointTy()) &&
      (to->isIntegerTy() || to->isFloatingPointTy()))
    return b.CreateBitCast(value, to);
  return nullptr;
}

Value *sharedAddress(IRBuilder<> &b, Value *address) {
  Module &M = *b.GetInsertBlock()->getModule();
  FunctionCallee fn = M.getOrInsertFunction(
      sim::abi::SharedAddressFn, FunctionType::get(b.getPtrTy(), {b.getInt64Ty()}, false));
  return b.CreateCall(fn, {b.CreateZExtOrTrunc(address, b.getInt64Ty())});
}

/// ld.* / st.* of a scalar or a .v2/.v4 vector, with an address `[$k]` or `[$k+offset]`: the
/// loads or stores it makes (state space and cache qualifiers are hints here; .volatile stays
/// volatile, .relaxed/.acquire/.release become atomic orderings).
bool lowerLoadStore(CallInst &call, StringRef t) {
  bool load = t.consume_front("ld.");
  if (!load && !t.consume_front("st."))
    return false;
  auto [opcode, operands] = t.split(' ');
  SmallVector<StringRef, 6> parts;
  opcode.split(parts, '.');
  bool isVolatile = false, isShared = false;
  AtomicOrdering ordering = AtomicOrdering::NotAtomic;
  unsigned bits = 0, count = 1;
  bool isSigned = false, isFloat = false;
  for (StringRef q : parts) {
    if (q == "volatile")
      isVolatile = true;
    else if (q == "shared")
      isShared = true;
    else if (q == "relaxed")
      ordering = AtomicOrdering::Monotonic;
    else if (q == "acquire" || q == "release")
      ordering = load ? AtomicOrdering::Acquire : AtomicOrdering::Release;
    else if (q == "v2" || q == "v4")
      count = q == "v2" ? 2 : 4;
    else if (q.size() >= 2 && StringRef("usbf").contains(q[0]) && !q.drop_front().getAsInteger(10, bits))
      isSigned = q[0] == 's', isFloat = q[0] == 'f';
  }
  if ((bits != 8 && bits != 16 && bits != 32 && bits != 64) || (count > 1 && ordering != AtomicOrdering::NotAtomic))
    return false;
  // "$0, [$1+8]" / "{$0, $1}, [$2]" (load) or "[$0], $1" / "[$0], {$1, $2}" (store).
  operands = operands.trim();
  StringRef address, values;
  if (load) {
    size_t bracket = operands.find('[');
    if (bracket == StringRef::npos)
      return false;
    values = operands.substr(0, bracket).trim();
    address = operands.substr(bracket).trim();
    if (!values.consume_back(","))
      return false;
  } else {
    auto [first, rest] = operands.split(',');
    address = first.trim(), values = rest.trim();
  }
  values = values.trim();
  if (count > 1 && (!values.consume_front("{") || !values.consume_back("}")))
    return false;
  SmallVector<StringRef, 4> elements;
  values.split(elements, ',');
  if (elements.size() != count || !address.consume_front("[") || !address.consume_back("]"))
    return false;
  auto [base, offsetText] = address.split('+');
  int64_t offset = 0;
  if (!offsetText.trim().empty() && offsetText.trim().getAsInteger(0, offset))
    return false;
  Value *pointer = operand(call, base.trim());
  if (!pointer || !(pointer->getType()->isIntegerTy() || pointer->getType()->isPointerTy()))
    return false;
  Type *result = call.getType();
  if (load && (count > 1 ? !result->isStructTy() || result->getStructNumElements() != count
                         : result->isStructTy() || result->isVoidTy()))
    return false;
  if (!load && !result->isVoidTy())
    return false;
  IRBuilder<> b(&call);
  Type *memType = isFloat ? (bits == 64 ? b.getDoubleTy() : bits == 32 ? b.getFloatTy() : nullptr)
                          : b.getIntNTy(bits);
  if (!memType)
    return false;
  SmallVector<Value *, 4> stored;
  for (unsigned e = 0; e < count; ++e) { // the operands are checked before any code is emitted
    if (load) {
      Type *want = count > 1 ? result->getStructElementType(e) : result;
      bool fits = want->isIntegerTy() ? !isFloat || want->getPrimitiveSizeInBits() == bits
                                      : want->isFloatingPointTy() &&
                                            want->getPrimitiveSizeInBits() == bits;
      if (elements[e].trim() != ("$" + std::to_string(e)) || !fits)
        return false;
      continue;
    }
    Value *v = operand(call, elements[e].trim());
    v = v ? convert(b, v, memType, false) : nullptr;
    if (!v)
      return false;
    stored.push_back(v);
  }
  if (pointer->getType()->isIntegerTy())
    pointer = isShared ? sharedAddress(b, pointer) : b.CreateIntToPtr(pointer, b.getPtrTy());
  // A vector access is aligned to its whole size (PTX requires it).
  Align align(uint64_t(bits / 8) * count);
  Value *out = PoisonValue::get(result);
  for (unsigned e = 0; e < count; ++e) {
    Value *at = b.CreateConstGEP1_64(b.getInt8Ty(), pointer, offset + int64_t(e * bits / 8));
    Align a = e == 0 ? align : commonAlignment(align, e * bits / 8);
    if (load) {
      LoadInst *value = b.CreateAlignedLoad(memType, at, a, isVolatile);
      if (ordering != AtomicOrdering::NotAtomic)
        value->setAtomic(ordering);
      Type *want = count > 1 ? result->getStructElementType(e) : result;
      Value *v = convert(b, value, want, isSigned);
      out = count > 1 ? b.CreateInsertValue(out, v, e) : v;
    } else {
      StoreInst *store = b.CreateAlignedStore(stored[e], at, a, isVolatile);
      if (ordering != AtomicOrdering::NotAtomic)
        store->setAtomic(ordering);
    }
  }
  if (load)
    call.replaceAllUsesWith(out);
  call.eraseFromParent();
  return true;
}

/// `v` as a value of `type`: integers zero-extended or truncated, same-width values bit cast;
/// null if neither applies.
Value *asType(IRBuilder<> &b, Value *v, Type *type) {
  Type *from = v->getType();
  if (from == type)
    return v;
  if (from->isPointerTy() && type->isIntegerTy()) // "l"(pointer) operands
    return b.CreateZExtOrTrunc(b.CreatePtrToInt(v, b.getInt64Ty()), type);
  if (from->isIntegerTy() && type->isIntegerTy())
    return b.CreateZExtOrTrunc(v, type);
  if (from->getPrimitiveSizeInBits() == type->getPrimitiveSizeInBits() &&
      (from->isIntegerTy() || from->isFloatingPointTy()))
    return b.CreateBitCast(v, type);
  return nullptr;
}

/// An operand of an arithmetic statement as a value of `type`: `$k` (converted by width) or
/// a literal.
Value *arithmeticOperand(IRBuilder<> &b, CallInst &call, StringRef text, Type *type) {
  if (text.starts_with("$")) {
    Value *v = operand(call, text);
    return v ? asType(b, v, type) : nullptr;
  }
  return literal(b, text, type);
}

Value *literal(IRBuilder<> &b, StringRef text, Type *type) {
  unsigned bits = type->getPrimitiveSizeInBits();
  uint64_t raw = 0;
  bool negative = text.consume_front("-");
  if ((text.consume_front("0f") || text.consume_front("0F") || text.consume_front("0d") ||
       text.consume_front("0D"))) {
    if (text.getAsInteger(16, raw))
      return nullptr;
    Value *v = b.CreateBitCast(b.getIntN(bits, raw), type);
    return negative ? b.CreateFNeg(v) : v;
  }
  if (text.getAsInteger(0, raw))
    return nullptr;
  if (type->isFloatingPointTy())
    return ConstantFP::get(type, negative ? -double(raw) : double(raw));
  return b.getIntN(bits, negative ? uint64_t(0) - raw : raw);
}

/// One-instruction ALU statements (`op.qualifiers.type $0, a, b, ...`): integer add, sub,
/// mul/mad (.lo/.hi/.wide), min, max, and, or, xor, not, neg, abs, shl, shr, div, rem, popc,
/// clz, brev, bfind, bfe, bfi, lop3, shf, mov; float add, sub, mul, div, fma/mad, neg, abs,
/// min, max, rcp, sqrt, rsqrt, ex2, lg2, sin, cos, tanh (round-to-nearest or .approx forms).
bool lowerArithmetic(CallInst &call, StringRef t) {
  auto [opcode, operandText] = t.split(' ');
  SmallVector<StringRef, 6> ops;
  operandText.split(ops, ',');
  for (StringRef &o : ops)
    o = o.trim();
  if (ops.empty() || ops[0] != "$0" || call.getType()->isVoidTy())
    return false;
  IRBuilder<> b(&call);
  Value *r = arithmetic(b, opcode, ArrayRef<StringRef>(ops).drop_front(),
                        [&](StringRef text, Type *type) {
                          return arithmeticOperand(b, call, text, type);
                        });
  if (!r)
    return false;
  Type *resultType = call.getType();
  if (resultType != r->getType()) {
    if (resultType->isIntegerTy() && r->getType()->isIntegerTy())
      r = b.CreateZExtOrTrunc(r, resultType);
    else if (resultType->getPrimitiveSizeInBits() == r->getType()->getPrimitiveSizeInBits())
      r = b.CreateBitCast(r, resultType);
    else
      return false;
  }
  call.replaceAllUsesWith(r);
  call.eraseFromParent();
  return true;
}

Value *arithmetic(IRBuilder<> &b, StringRef opcode, ArrayRef<StringRef> sources,
                  function_ref<Value *(StringRef, Type *)> resolve) {
  SmallVector<StringRef, 6> parts;
  opcode.split(parts, '.');
  if (parts.size() < 2)
    return nullptr;
  StringRef op = parts.front(), type = parts.back();
  bool isFloat = type.starts_with("f"), isSigned = type.starts_with("s");
  unsigned bits = 0;
  if (type.size() < 2 || !StringRef("usbf").contains(type[0]) ||
      type.drop_front().getAsInteger(10, bits) || (bits != 16 && bits != 32 && bits != 64) ||
      (isFloat && bits == 16))
    return nullptr;
  bool hi = false, wide = false, left = false, clamp = false;
  for (StringRef q : ArrayRef<StringRef>(parts).slice(1, parts.size() - 2)) {
    if (q == "hi")
      hi = true;
    else if (q == "wide")
      wide = true;
    else if (q == "l")
      left = true;
    else if (q == "clamp")
      clamp = true;
    else if (!(q == "lo" || q == "rn" || q == "approx" || q == "ftz" || q == "full" ||
               q == "r" || q == "wrap" || q == "u32" || q == "s32"))
      return nullptr; // other rounding modes, .sat, .cc and the like: not these semantics
  }
  Type *T = isFloat ? (bits == 64 ? b.getDoubleTy() : b.getFloatTy()) : b.getIntNTy(bits);
  // Inputs: shift and position operands of shl/shr/bfe/bfi/shf are 32-bit.
  SmallVector<Value *, 4> in;
  for (size_t k = 1; k <= sources.size(); ++k) {
    bool u32Operand = (op == "shl" || op == "shr") ? k == 2
                      : op == "bfe"               ? k >= 2
                      : op == "bfi"               ? k >= 3
                      : op == "lop3"              ? k == 4
                                                  : false;
    Type *operandType = u32Operand                             ? b.getInt32Ty()
                        : wide && op == "mad" && k == 3 && !isFloat ? b.getIntNTy(2 * bits)
                                                                   : T;
    Value *v = resolve(sources[k - 1], operandType);
    if (!v)
      return nullptr;
    in.push_back(v);
  }
  auto need = [&](size_t n) { return in.size() == n; };
  Module &M = *b.GetInsertBlock()->getModule();
  auto intrinsic = [&](Intrinsic::ID id, ArrayRef<Value *> args) -> Value * {
    return b.CreateIntrinsic(id, {T}, args);
  };
  auto widen = [&](Value *v) {
    return isSigned ? b.CreateSExt(v, b.getIntNTy(2 * bits)) : b.CreateZExt(v, b.getIntNTy(2 * bits));
  };
  auto highHalf = [&](Value *product) { return b.CreateTrunc(b.CreateLShr(product, bits), T); };
  Value *r = nullptr;
  if (isFloat) {
    Value *one = ConstantFP::get(T, 1.0);
    if (op == "add" && need(2)) r = b.CreateFAdd(in[0], in[1]);
    else if (op == "sub" && need(2)) r = b.CreateFSub(in[0], in[1]);
    else if (op == "mul" && need(2)) r = b.CreateFMul(in[0], in[1]);
    else if (op == "div" && need(2)) r = b.CreateFDiv(in[0], in[1]);
    else if ((op == "fma" || op == "mad") && need(3)) r = intrinsic(Intrinsic::fma, in);
    else if (op == "neg" && need(1)) r = b.CreateFNeg(in[0]);
    else if (op == "abs" && need(1)) r = intrinsic(Intrinsic::fabs, in);
    else if (op == "min" && need(2)) r = intrinsic(Intrinsic::minnum, in);
    else if (op == "max" && need(2)) r = intrinsic(Intrinsic::maxnum, in);
    else if (op == "rcp" && need(1)) r = b.CreateFDiv(one, in[0]);
    else if (op == "sqrt" && need(1)) r = intrinsic(Intrinsic::sqrt, in);
    else if (op == "rsqrt" && need(1)) r = b.CreateFDiv(one, intrinsic(Intrinsic::sqrt, in));
    else if (op == "ex2" && need(1)) r = intrinsic(Intrinsic::exp2, in);
    else if (op == "lg2" && need(1)) r = intrinsic(Intrinsic::log2, in);
    else if (op == "sin" && need(1)) r = intrinsic(Intrinsic::sin, in);
    else if (op == "cos" && need(1)) r = intrinsic(Intrinsic::cos, in);
    else if (op == "tanh" && need(1))
      r = b.CreateCall(M.getOrInsertFunction(bits == 64 ? "tanh" : "tanhf", T, T), in);
    else if (op == "mov" && need(1)) r = in[0];
  } else if ((op == "mul" || op == "mad") && (hi || wide) && in.size() == (op == "mad" ? 3u : 2u)) {
    Value *product = b.CreateMul(widen(in[0]), widen(in[1]));
    if (wide) { // the result (and mad's addend) are twice the width
      r = op == "mad" ? b.CreateAdd(product, in[2]) : product;
    } else {
      r = highHalf(product);
      if (op == "mad")
        r = b.CreateAdd(r, in[2]);
    }
  } else if (op == "add" && need(2)) r = b.CreateAdd(in[0], in[1]);
  else if (op == "sub" && need(2)) r = b.CreateSub(in[0], in[1]);
  else if (op == "mul" && need(2)) r = b.CreateMul(in[0], in[1]);
  else if (op == "mad" && need(3)) r = b.CreateAdd(b.CreateMul(in[0], in[1]), in[2]);
  else if (op == "min" && need(2)) r = intrinsic(isSigned ? Intrinsic::smin : Intrinsic::umin, in);
  else if (op == "max" && need(2)) r = intrinsic(isSigned ? Intrinsic::smax : Intrinsic::umax, in);
  else if (op == "and" && need(2)) r = b.CreateAnd(in[0], in[1]);
  else if (op == "or" && need(2)) r = b.CreateOr(in[0], in[1]);
  else if (op == "xor" && need(2)) r = b.CreateXor(in[0], in[1]);
  else if (op == "not" && need(1)) r = b.CreateNot(in[0]);
  else if (op == "neg" && need(1)) r = b.CreateNeg(in[0]);
  else if (op == "abs" && need(1)) r = intrinsic(Intrinsic::abs, {in[0], b.getFalse()});
  else if (op == "mov" && need(1)) r = in[0];
  else if ((op == "shl" || op == "shr") && need(2)) {
    // PTX clamps shift amounts past the width: shl/shr.u give 0, shr.s the sign.
    Value *amount = b.CreateZExtOrTrunc(in[1], T);
    Value *big = b.CreateICmpUGE(in[1], b.getInt32(bits));
    Value *safe = b.CreateSelect(big, ConstantInt::get(T, bits - 1), amount);
    if (op == "shl")
      r = b.CreateSelect(big, ConstantInt::get(T, 0), b.CreateShl(in[0], safe));
    else if (isSigned)
      r = b.CreateAShr(in[0], safe);
    else
      r = b.CreateSelect(big, ConstantInt::get(T, 0), b.CreateLShr(in[0], safe));
  } else if ((op == "div" || op == "rem") && need(2)) {
    // Division by zero is undefined on the GPU too, but must not trap the host: give all ones.
    Value *zero = b.CreateICmpEQ(in[1], ConstantInt::get(T, 0));
    Value *divisor = b.CreateSelect(zero, ConstantInt::get(T, 1), in[1]);
    Value *q = op == "div" ? (isSigned ? b.CreateSDiv(in[0], divisor) : b.CreateUDiv(in[0], divisor))
                           : (isSigned ? b.CreateSRem(in[0], divisor) : b.CreateURem(in[0], divisor));
    r = b.CreateSelect(zero, ConstantInt::get(T, ~uint64_t(0)), q);
  } else if (op == "popc" && need(1)) r = intrinsic(Intrinsic::ctpop, in);
  else if (op == "clz" && need(1)) r = intrinsic(Intrinsic::ctlz, {in[0], b.getFalse()});
  else if (op == "brev" && need(1)) r = intrinsic(Intrinsic::bitreverse, in);
  else if (op == "bfind" && need(1)) {
    // The most significant bit not equal to the sign (set bit for unsigned); ~0 if none.
    Value *x = isSigned ? b.CreateSelect(b.CreateICmpSLT(in[0], ConstantInt::get(T, 0)),
                                         b.CreateNot(in[0]), in[0])
                        : in[0];
    Value *lz = intrinsic(Intrinsic::ctlz, {x, b.getFalse()});
    r = b.CreateSelect(b.CreateICmpEQ(x, ConstantInt::get(T, 0)), ConstantInt::get(T, ~uint64_t(0)),
                       b.CreateSub(ConstantInt::get(T, bits - 1), lz));
  } else if (op == "bfe" && need(3)) {
    // Field of `len` bits from `pos` (each the low byte of its operand), sign-extended for
    // .s types; past the width, bits of the sign (or zeros).
    Type *W = b.getInt64Ty();
    Value *pos = b.CreateZExt(b.CreateAnd(in[1], b.getInt32(255)), W);
    Value *len = b.CreateZExt(b.CreateAnd(in[2], b.getInt32(255)), W);
    Value *x = isSigned ? b.CreateSExt(in[0], b.getInt128Ty()) : b.CreateZExt(in[0], b.getInt128Ty());
    Value *shifted = isSigned ? b.CreateAShr(x, b.CreateZExt(b.CreateSelect(b.CreateICmpUGT(pos, b.getInt64(127)), b.getInt64(127), pos), b.getInt128Ty()))
                              : b.CreateLShr(x, b.CreateZExt(b.CreateSelect(b.CreateICmpUGT(pos, b.getInt64(127)), b.getInt64(127), pos), b.getInt128Ty()));
    Value *width = b.CreateSelect(b.CreateICmpUGT(len, b.getInt64(bits)), b.getInt64(bits), len);
    Value *up = b.CreateZExt(b.CreateSub(b.getInt64(128), b.CreateSelect(b.CreateICmpEQ(width, b.getInt64(0)), b.getInt64(1), width)), b.getInt128Ty());
    Value *field = isSigned ? b.CreateAShr(b.CreateShl(shifted, up), up) : b.CreateLShr(b.CreateShl(shifted, up), up);
    r = b.CreateSelect(b.CreateICmpEQ(len, b.getInt64(0)), ConstantInt::get(T, 0), b.CreateTrunc(field, T));
  } else if (op == "bfi" && need(4)) {
    // Positions and lengths are the operands' low bytes; past 64 they change nothing more
    // (and keep the 128-bit shifts defined).
    Type *W = b.getInt128Ty();
    auto byte = [&](Value *v) {
      Value *x = b.CreateAnd(v, b.getInt32(255));
      return b.CreateZExt(b.CreateSelect(b.CreateICmpUGT(x, b.getInt32(64)), b.getInt32(64), x), W);
    };
    Value *pos = byte(in[2]), *len = byte(in[3]);
    Value *ones = b.CreateSub(b.CreateShl(ConstantInt::get(W, 1), len), ConstantInt::get(W, 1));
    Value *mask = b.CreateTrunc(b.CreateShl(ones, pos), T);
    Value *insert = b.CreateTrunc(b.CreateShl(b.CreateZExt(in[0], W), pos), T);
    r = b.CreateOr(b.CreateAnd(in[1], b.CreateNot(mask)), b.CreateAnd(insert, mask));
  } else if (op == "lop3" && need(4) && bits == 32) {
    auto *lut = dyn_cast<ConstantInt>(in[3]);
    if (!lut)
      return nullptr;
    r = b.getInt32(0);
    for (unsigned i = 0; i < 8; ++i)
      if (lut->getZExtValue() >> i & 1) {
        Value *a = i & 4 ? in[0] : b.CreateNot(in[0]), *bb = i & 2 ? in[1] : b.CreateNot(in[1]),
              *c = i & 1 ? in[2] : b.CreateNot(in[2]);
        r = b.CreateOr(r, b.CreateAnd(b.CreateAnd(a, bb), c));
      }
  } else if (op == "shf" && need(3) && bits == 32) {
    // Funnel shift of the 64-bit hi:lo pair (in[1]:in[0]) by in[2] (mod 32, or at most 32).
    Value *amount = clamp ? intrinsic(Intrinsic::umin, {in[2], b.getInt32(32)})
                          : b.CreateAnd(in[2], b.getInt32(31));
    Value *pair = b.CreateOr(b.CreateShl(b.CreateZExt(in[1], b.getInt64Ty()), 32),
                             b.CreateZExt(in[0], b.getInt64Ty()));
    Value *s = b.CreateZExt(amount, b.getInt64Ty());
    r = left ? b.CreateTrunc(b.CreateLShr(b.CreateShl(pair, s), 32), T)
             : b.CreateTrunc(b.CreateLShr(pair, s), T);
  }
  return r;
}

/// `text` as an i32 operand: `$k` (an asm argument) or a decimal literal; null otherwise.
Value *integerOperand(IRBuilder<> &b, CallInst &call, StringRef text) {
  text = text.trim();
  if (unsigned literal = 0; !text.getAsInteger(10, literal))
    return b.getInt32(literal);
  Value *v = operand(call, text);
  return v && v->getType()->isIntegerTy() ? b.CreateZExtOrTrunc(v, b.getInt32Ty()) : nullptr;
}

/// bar{.cta}.sync / barrier{.cta}.sync{.aligned} a{, b} and the .arrive forms: barrier 0
/// without a count is __syncthreads(); anything else a named barrier (its header builtin,
/// which LowerDeviceCalls gives the context).
bool lowerBarrier(CallInst &call, StringRef t) {
  if (!t.starts_with("bar.") && !t.starts_with("barrier."))
    return false;
  auto [opcode, operands] = t.split(' ');
  SmallVector<StringRef, 4> parts;
  opcode.split(parts, '.');
  bool sync = false, arrive = false;
  for (StringRef q : ArrayRef<StringRef>(parts).drop_front()) {
    if (q == "sync")
      sync = true;
    else if (q == "arrive")
      arrive = true;
    else if (q != "cta" && q != "aligned")
      return false; // bar.red, bar.warp.sync (lowered as intrinsics elsewhere), unknown forms
  }
  if (sync == arrive || !call.getType()->isVoidTy())
    return false;
  IRBuilder<> b(&call);
  Module &M = *call.getModule();
  auto [idText, countText] = operands.split(',');
  Value *id = integerOperand(b, call, idText);
  Value *count = countText.trim().empty() ? b.getInt32(0) : integerOperand(b, call, countText);
  if (!id || !count || (arrive && countText.trim().empty()))
    return false; // bar.arrive needs a count
  auto *constId = dyn_cast<ConstantInt>(id);
  auto *constCount = dyn_cast<ConstantInt>(count);
  CallInst *barrier;
  if (sync && constId && constId->isZero() && constCount && constCount->isZero()) {
    barrier = b.CreateCall(M.getOrInsertFunction("llvm.nvvm.barrier0",
                                                 FunctionType::get(b.getVoidTy(), false)));
  } else {
    Type *i32 = b.getInt32Ty();
    barrier = b.CreateCall(M.getOrInsertFunction(sim::abi::NamedBarrierFn,
                                                 FunctionType::get(b.getVoidTy(), {i32, i32, i32},
                                                                   false)),
                           {id, count, b.getInt32(arrive)});
  }
  barrier->addFnAttr(Attribute::Convergent);
  call.eraseFromParent();
  return true;
}

} // namespace ptx

namespace {
using namespace ptx;

/// Replaces `call` (an inline asm statement) with what it does; false if not recognised.
bool lower(CallInst &call, const std::string &text) {
  IRBuilder<> b(&call);
  Module &M = *call.getModule();
  StringRef t(text);
  if (t.empty()) { // asm volatile("" ::: "memory"): only orders memory for the compiler
    b.CreateFence(AtomicOrdering::SequentiallyConsistent, SyncScope::SingleThread);
    call.eraseFromParent();
    return true;
  }
  if (t == "membar.cta" || t == "membar.gl" || t == "membar.sys" ||
      (t.starts_with("fence.") && !t.contains(' '))) {
    createScopedFence(b, t.ends_with(".cta")                         ? FenceScope::Block
                         : t.ends_with(".sys") || t == "membar.sys" ? FenceScope::System
                                                                     : FenceScope::Gpu);
    call.eraseFromParent();
    return true;
  }
  if (lowerBarrier(call, t))
    return true;
  if (lowerLoadStore(call, t))
    return true;
  if (lowerArithmetic(call, t)) // a mov from a special register is not one: it falls through
    return true;
  if ((t.starts_with("prefetch.") || t.starts_with("prefetchu.")) && call.getType()->isVoidTy()) {
    call.eraseFromParent();
    return true;
  }
  // mov.u32 $0, %reg / mov.u64 $0, %reg / mov.b32 ...
  if (t.consume_front("mov.") && (t.consume_front("u32 ") || t.consume_front("u64 ") ||
                                  t.consume_front("b32 ") || t.consume_front("b64 ") ||
                                  t.consume_front("s32 "))) {
    if (!t.consume_front("$0, %") && !t.consume_front("$0,%"))
      return false;
    std::string intrinsic = specialRegisterIntrinsic(t);
    if (intrinsic.empty() || !call.getType()->isIntegerTy())
      return false;
    bool wide = StringRef(intrinsic).ends_with("clock64") ||
                StringRef(intrinsic).ends_with("globaltimer");
    Type *regType = wide ? b.getInt64Ty() : b.getInt32Ty();
    Value *value =
        b.CreateCall(M.getOrInsertFunction(intrinsic, FunctionType::get(regType, false)));
    call.replaceAllUsesWith(b.CreateZExtOrTrunc(value, call.getType()));
    call.eraseFromParent();
    return true;
  }
  return false;
}

/// A statement the simulator does not implement: the thread that reaches it prints which one
/// and traps (the launch fails with musaErrorLaunchFailure), so the module's other kernels
/// still run. No PTX text is left for the host code generator.
void refuseAtRunTime(CallInst &call, const std::string &text) {
  Module &M = *call.getModule();
  IRBuilder<> b(&call);
  std::string message = "musa-sim: inline PTX the simulator does not implement: asm(\"";
  for (char c : text) // printf's format: a '%' stands for itself
    message += c == '%' ? std::string("%%") : std::string(1, c);
  message += "\")\n";
  Type *ptrTy = b.getPtrTy();
  b.CreateCall(M.getOrInsertFunction("vprintf", FunctionType::get(b.getInt32Ty(),
                                                                  {ptrTy, ptrTy}, false)),
               {b.CreateGlobalStringPtr(message), ConstantPointerNull::get(b.getPtrTy())});
  b.CreateCall(M.getOrInsertFunction("llvm.trap", FunctionType::get(b.getVoidTy(), false)));
  if (!call.getType()->isVoidTy())
    call.replaceAllUsesWith(PoisonValue::get(call.getType()));
  call.eraseFromParent();
}

} // namespace

PreservedAnalyses LowerInlineAsmPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<std::pair<CallInst *, std::string>, 8> statements;
  for (Function &F : M)
    for (BasicBlock &B : F)
      for (Instruction &I : B)
        if (auto *call = dyn_cast<CallInst>(&I))
          if (auto *asmText = dyn_cast<InlineAsm>(call->getCalledOperand()))
            statements.push_back({call, normalise(asmText->getAsmString())});
  for (auto &[call, text] : statements)
    if (!lower(*call, text) && !lowerBlock(*call, text))
      refuseAtRunTime(*call, text);
  return statements.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace musa::jit

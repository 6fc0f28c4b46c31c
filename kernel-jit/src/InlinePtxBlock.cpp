// Inline PTX written as a sequence of statements: `{ .reg .pred p; setp.ne.u32 p, $1, 0;
// selp.u32 $0, 1, 2, p; }`, multi-word arithmetic through the carry flag (add.cc / addc /
// sub.cc / subc / mad.lo.cc / madc.hi and their .cc forms, also across separate asm
// statements), conversions (cvt) and byte permutes (prmt). Each statement becomes the IR of
// what it does on the values of its operands: `$k` operands (outputs start as their tied "+r"
// inputs), registers the block declares with .reg, literals and special registers.
//
// Recognised statements (an optional guard `@p` / `@!p` before any of them):
//   .reg .TYPE a, b<4>;                    declarations (b0..b3)
//   setp.CMP[.and|.or|.xor].TYPE p[|q], a, b[, [!]c]
//   selp.TYPE d, a, b, p
//   mov.TYPE d, {lo, hi} | mov.TYPE {lo, hi}, s | mov.TYPE d, s
//   cvt[.rni|.rzi|.rmi|.rpi|.rn|.rz][.ftz][.sat].D.S d, a   (integer and f32/f64 types)
//   add.cc / addc[.cc] / sub.cc / subc[.cc] (.u32 .s32 .u64 .s64)
//   mad.lo.cc / mad.hi.cc / madc.lo[.cc] / madc.hi[.cc] (.u32 .s32 .u64 .s64)
//   prmt.b32 d, a, b, c                    (the default mode)
//   vote[.sync].ballot.b32 d, p[, mask]; vote[.sync].any|all|uni.pred d, p[, mask]
//   shfl.sync.idx|up|down|bfly.b32 d, a, b, c, mask   (warp collectives, as the intrinsics)
//   cp.async.ca|cg.shared.global[...] [dst], [src], size[, src-size]  a copy done at once
//   cp.async.commit_group / wait_group N / wait_all          nothing left to wait for
//   cvta[.to].shared|global.u32|u64 d, a                     .shared window conversions
//   every one-instruction ALU statement LowerInlineAsm.cpp knows (arithmetic())
// The carry flag lives in a variable of the function, so a chain split over several asm
// statements carries too (PTX leaves that undefined; compilers keep it in practice).
#include "InlinePtx.h"

#include "musa/sim/KernelAbi.h"
#include "musa_sim_collective_ops.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Module.h"

#include <map>
#include <optional>

using namespace llvm;

namespace musa::jit::ptx {
namespace {

struct PtxType {
  Type *type;
  unsigned bits;
  bool isSigned = false, isFloat = false, isPred = false;
};

/// The IR type of a PTX type name (u8..u64, s8..s64, b8..b64, f32, f64, pred).
std::optional<PtxType> typeOf(LLVMContext &c, StringRef name) {
  if (name == "pred")
    return PtxType{Type::getInt1Ty(c), 1, false, false, true};
  unsigned bits = 0;
  if (name.size() < 2 || !StringRef("usbf").contains(name[0]) ||
      name.drop_front().getAsInteger(10, bits))
    return std::nullopt;
  if (name[0] == 'f') {
    if (bits != 32 && bits != 64)
      return std::nullopt;
    return PtxType{bits == 32 ? Type::getFloatTy(c) : Type::getDoubleTy(c), bits, true, true};
  }
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
    return std::nullopt;
  return PtxType{Type::getIntNTy(c, bits), bits, name[0] == 's'};
}

/// The rounding of cvt's integer rounding modes (.rni .rzi .rmi .rpi), or not_intrinsic.
Intrinsic::ID roundToInteger(StringRef mode) {
  return mode == "rni"   ? Intrinsic::roundeven
         : mode == "rzi" ? Intrinsic::trunc
         : mode == "rmi" ? Intrinsic::floor
         : mode == "rpi" ? Intrinsic::ceil
                         : Intrinsic::not_intrinsic;
}

/// Splits "a, {b, c}, d" at the commas outside braces.
SmallVector<StringRef, 6> splitOperands(StringRef text) {
  SmallVector<StringRef, 6> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{')
      ++depth;
    else if (text[i] == '}')
      --depth;
    else if (text[i] == ',' && depth == 0) {
      out.push_back(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (!text.trim().empty())
    out.push_back(text.substr(start).trim());
  return out;
}

class Block {
public:
  explicit Block(CallInst &call) : call_(call), b_(&call) {
    Type *result = call.getType();
    unsigned outputs = result->isVoidTy() ? 0 : result->isStructTy() ? result->getStructNumElements() : 1;
    for (unsigned k = 0; k < outputs; ++k)
      outs_.push_back({result->isStructTy() ? result->getStructElementType(k) : result, nullptr});
    // "+r" operands: clang ties an input (constraint "N") to output N; it is the start value.
    auto *asmText = cast<InlineAsm>(call.getCalledOperand());
    unsigned arg = 0;
    for (const InlineAsm::ConstraintInfo &c : asmText->ParseConstraints()) {
      if (c.Type != InlineAsm::isInput)
        continue;
      unsigned tied = 0;
      if (!c.Codes.empty() && !StringRef(c.Codes[0]).getAsInteger(10, tied) && tied < outputs &&
          arg < call.arg_size())
        outs_[tied].value = call.getArgOperand(arg);
      ++arg;
    }
  }

  bool run(StringRef text) {
    SmallVector<StringRef, 16> statements;
    text.split(statements, ';');
    for (StringRef s : statements) {
      // Block braces around statements, not those of a {a, b} operand: strip the unmatched.
      s = s.trim();
      while (s.count('{') > s.count('}') && s.consume_front("{"))
        s = s.trim();
      while (s.count('}') > s.count('{') && (s.consume_front("}") || s.consume_back("}")))
        s = s.trim();
      if (!s.empty() && !statement(s))
        return false;
    }
    Type *result = call_.getType();
    if (result->isVoidTy())
      return true;
    Value *out = PoisonValue::get(result);
    for (unsigned k = 0; k < outs_.size(); ++k) {
      Value *v = outs_[k].value ? asType(b_, outs_[k].value, outs_[k].type) : nullptr;
      if (!v)
        return false;
      out = result->isStructTy() ? b_.CreateInsertValue(out, v, k) : v;
    }
    call_.replaceAllUsesWith(out);
    return true;
  }

private:
  struct Output {
    Type *type;
    Value *value;
  };
  CallInst &call_;
  IRBuilder<> b_;
  SmallVector<Output, 4> outs_;
  std::map<std::string, Value *, std::less<>> regs_;
  Value *guard_ = nullptr; // the statement's @p, if any (negation applied)

  LLVMContext &ctx() { return call_.getContext(); }

  /// The function's carry flag (an i32 variable, 0 at entry).
  Value *carryCell() {
    Function &F = *call_.getFunction();
    for (Instruction &I : F.getEntryBlock())
      if (I.getName() == "ptx.carry")
        return &I;
    IRBuilder<> entry(&*F.getEntryBlock().getFirstInsertionPt());
    AllocaInst *cell = entry.CreateAlloca(entry.getInt32Ty(), nullptr, "ptx.carry");
    entry.CreateStore(entry.getInt32(0), cell);
    createdCell = cell;
    return cell;
  }

public:
  AllocaInst *createdCell = nullptr; // the carry cell this block made, if any

private:

  /// Operand `text` as a value of `type`, or null.
  Value *read(StringRef text, Type *type) {
    text = text.trim();
    bool negate = text.consume_front("!");
    Value *v = nullptr;
    if (text.starts_with("$")) {
      unsigned k = 0;
      if (text.drop_front().getAsInteger(10, k))
        return nullptr;
      v = k < outs_.size() ? outs_[k].value : operand(call_, text);
    } else if (text.consume_front("%")) {
      std::string name = specialRegisterIntrinsic(text);
      if (name.empty())
        return nullptr;
      bool wide = StringRef(name).ends_with("clock64") || StringRef(name).ends_with("globaltimer");
      Module &M = *call_.getModule();
      v = b_.CreateCall(M.getOrInsertFunction(
          name, FunctionType::get(wide ? b_.getInt64Ty() : b_.getInt32Ty(), false)));
    } else if (auto it = regs_.find(text); it != regs_.end()) {
      v = it->second;
    } else {
      v = literal(b_, text, type);
    }
    if (!v)
      return nullptr;
    v = asType(b_, v, type);
    return v && negate ? b_.CreateNot(v) : v;
  }

  /// Writes `v` to destination `dest` (under the statement's guard).
  bool write(StringRef dest, Value *v) {
    dest = dest.trim();
    Value **slot = nullptr;
    if (dest.starts_with("$")) {
      unsigned k = 0;
      if (dest.drop_front().getAsInteger(10, k) || k >= outs_.size())
        return false;
      slot = &outs_[k].value;
    } else if (auto it = regs_.find(dest); it != regs_.end()) {
      slot = &it->second;
    } else {
      return false;
    }
    if (guard_) {
      Value *old = *slot ? asType(b_, *slot, v->getType()) : PoisonValue::get(v->getType());
      if (!old)
        return false;
      v = b_.CreateSelect(guard_, v, old);
    }
    *slot = v;
    return true;
  }

  bool declare(StringRef s) {
    // .reg .b32 a, b<4>
    auto [kind, rest] = s.drop_front(strlen(".reg")).trim().split(' ');
    std::optional<PtxType> t = typeOf(ctx(), kind.drop_front());
    if (!kind.starts_with(".") || !t)
      return false;
    for (StringRef name : splitOperands(rest)) {
      unsigned count = 0;
      if (size_t open = name.find('<'); open != StringRef::npos) {
        if (name.substr(open + 1).drop_back().getAsInteger(10, count) || !name.ends_with(">"))
          return false;
        for (unsigned i = 0; i < count; ++i)
          regs_[(name.substr(0, open) + Twine(i)).str()] = PoisonValue::get(t->type);
      } else {
        regs_[name.str()] = PoisonValue::get(t->type);
      }
    }
    return true;
  }

  bool statement(StringRef s) {
    if (s.starts_with(".reg "))
      return declare(s);
    guard_ = nullptr;
    if (s.consume_front("@")) {
      auto [pred, rest] = s.split(' ');
      guard_ = read(pred, b_.getInt1Ty());
      if (!guard_)
        return false;
      s = rest.trim();
    }
    auto [opcode, operandText] = s.split(' ');
    SmallVector<StringRef, 6> ops = splitOperands(operandText);
    SmallVector<StringRef, 6> parts;
    opcode.split(parts, '.');
    if (opcode == "cp.async.commit_group" || opcode == "cp.async.wait_all" ||
        (opcode == "cp.async.wait_group" && ops.size() == 1))
      return true; // the copies completed when they were issued
    if (parts.size() < 2 || ops.empty())
      return false;
    StringRef op = parts.front();
    std::optional<PtxType> t = typeOf(ctx(), parts.back());
    if (op == "setp")
      return setp(parts, ops);
    if (op == "selp" && t && ops.size() == 4) {
      Value *a = read(ops[1], t->type), *c = read(ops[2], t->type), *p = read(ops[3], b_.getInt1Ty());
      return a && c && p && write(ops[0], b_.CreateSelect(p, a, c));
    }
    if (op == "mov" && t && ops.size() == 2 && parts.size() == 2)
      return mov(*t, ops);
    if (op == "cvt")
      return cvt(parts, ops);
    if (op == "prmt" && parts.size() == 2 && parts[1] == "b32" && ops.size() == 4)
      return prmt(ops);
    if (op == "vote")
      return vote(parts, ops);
    if (op == "cp" && parts.size() >= 2 && parts[1] == "async")
      return cpAsync(parts, ops);
    if (op == "cvta" && ops.size() == 2)
      return cvta(parts, ops);
    if (op == "shfl" && parts.size() == 4 && parts[1] == "sync" && parts[3] == "b32" &&
        ops.size() == 5 && !ops[0].contains('|'))
      return shfl(parts[2], ops);
    bool carryOp = op == "addc" || op == "subc" || op == "madc" || is_contained(parts, "cc");
    if (carryOp)
      return carry(op, parts, ops, t);
    Value *r = arithmetic(b_, opcode, ArrayRef<StringRef>(ops).drop_front(),
                          [&](StringRef text, Type *type) { return read(text, type); });
    return r && write(ops[0], r);
  }

  /// A warp collective through the same builtin the headers' __ballot_sync and __shfl_sync
  /// call (LowerDeviceCalls gives it the context).
  Value *warp(unsigned op, Value *mask, Value *value, Value *arg, Value *width) {
    Module &M = *call_.getModule();
    Type *i32 = b_.getInt32Ty(), *i64 = b_.getInt64Ty();
    FunctionCallee fn = M.getOrInsertFunction(
        sim::abi::WarpFn, FunctionType::get(i64, {i32, i32, i64, i32, i32}, false));
    CallInst *c = b_.CreateCall(fn, {b_.getInt32(op), mask, value, arg, width});
    c->addFnAttr(Attribute::Convergent);
    return c;
  }

  bool vote(ArrayRef<StringRef> parts, ArrayRef<StringRef> ops) {
    // vote.sync.MODE.TYPE d, p, mask / vote.MODE.TYPE d, p (all lanes)
    bool sync = parts.size() == 4 && parts[1] == "sync";
    if (parts.size() != (sync ? 4u : 3u) || ops.size() != (sync ? 3u : 2u))
      return false;
    StringRef mode = parts[sync ? 2 : 1];
    Value *p = read(ops[1], b_.getInt1Ty());
    Value *mask = sync ? read(ops[2], b_.getInt32Ty()) : b_.getInt32(0xffffffffu);
    if (!p || !mask)
      return false;
    Value *v = b_.CreateZExt(p, b_.getInt64Ty());
    Value *zero = b_.getInt32(0);
    auto asPred = [&](Value *x) { return b_.CreateICmpNE(x, b_.getInt64(0)); };
    if (mode == "ballot" && parts.back() == "b32")
      return write(ops[0], b_.CreateTrunc(warp(__MUSA_SIM_WARP_BALLOT, mask, v, zero, zero),
                                          b_.getInt32Ty()));
    if (parts.back() != "pred")
      return false;
    if (mode == "any")
      return write(ops[0], asPred(warp(__MUSA_SIM_WARP_ANY, mask, v, zero, zero)));
    if (mode == "all")
      return write(ops[0], asPred(warp(__MUSA_SIM_WARP_ALL, mask, v, zero, zero)));
    if (mode == "uni") { // every lane or none
      Value *all = asPred(warp(__MUSA_SIM_WARP_ALL, mask, v, zero, zero));
      Value *any = asPred(warp(__MUSA_SIM_WARP_ANY, mask, v, zero, zero));
      return write(ops[0], b_.CreateOr(all, b_.CreateNot(any)));
    }
    return false;
  }

  bool shfl(StringRef mode, ArrayRef<StringRef> ops) {
    unsigned op = mode == "idx"    ? __MUSA_SIM_WARP_SHFL_IDX
                  : mode == "up"   ? __MUSA_SIM_WARP_SHFL_UP
                  : mode == "down" ? __MUSA_SIM_WARP_SHFL_DOWN
                  : mode == "bfly" ? __MUSA_SIM_WARP_SHFL_XOR
                                   : ~0u;
    Type *i32 = b_.getInt32Ty();
    Value *a = read(ops[1], i32), *lane = read(ops[2], i32), *c = read(ops[3], i32),
          *mask = read(ops[4], i32);
    if (op == ~0u || !a || !lane || !c || !mask)
      return false;
    // c holds the segment mask in bits 8-12 (__shfl_sync's width w gives (32 - w) << 8).
    Value *width = b_.CreateSub(b_.getInt32(32), b_.CreateAnd(b_.CreateLShr(c, 8), 0x1f));
    Value *r = warp(op, mask, b_.CreateZExt(a, b_.getInt64Ty()), lane, width);
    return write(ops[0], b_.CreateTrunc(r, i32));
  }

  /// `[$k]` / `[$k+16]` / `[name]`: the operand and the byte offset.
  Value *address(StringRef text, bool shared) {
    text = text.trim();
    if (!text.consume_front("[") || !text.consume_back("]"))
      return nullptr;
    auto [base, offsetText] = text.split('+');
    int64_t offset = 0;
    if (!offsetText.trim().empty() && offsetText.trim().getAsInteger(0, offset))
      return nullptr;
    Value *v = read(base, b_.getInt64Ty());
    if (!v)
      return nullptr;
    Value *p = shared ? sharedAddress(b_, v) : b_.CreateIntToPtr(v, b_.getPtrTy());
    return b_.CreateConstGEP1_64(b_.getInt8Ty(), p, offset);
  }

  bool cpAsync(ArrayRef<StringRef> parts, ArrayRef<StringRef> ops) {
    // cp.async.ca|cg.shared.global[.L2::...] [dst], [src], cp-size[, src-size][, policy]
    if (parts.size() < 5 || parts[3] != "shared" || parts[4] != "global" || ops.size() < 3)
      return false;
    uint64_t size = 0, copied = 0;
    if (ops[2].getAsInteger(0, size) || (size != 4 && size != 8 && size != 16))
      return false;
    Value *dst = address(ops[0], true), *src = address(ops[1], false);
    if (!dst || !src)
      return false;
    if (ops.size() >= 4 && !ops[3].getAsInteger(0, copied) && copied < size) {
      // The first src-size bytes from src, zeros after them.
      b_.CreateMemSet(dst, b_.getInt8(0), size, MaybeAlign(1));
      if (copied)
        b_.CreateMemCpy(dst, MaybeAlign(1), src, MaybeAlign(1), copied);
      return true;
    }
    if (ops.size() >= 4 && ops[3].starts_with("$")) { // a run-time src-size
      Value *n = read(ops[3], b_.getInt64Ty());
      if (!n)
        return false;
      b_.CreateMemSet(dst, b_.getInt8(0), size, MaybeAlign(1));
      b_.CreateMemCpy(dst, MaybeAlign(1), src, MaybeAlign(1),
                      b_.CreateBinaryIntrinsic(Intrinsic::umin, n, b_.getInt64(size)));
      return true;
    }
    b_.CreateMemCpy(dst, MaybeAlign(1), src, MaybeAlign(1), size);
    return true;
  }

  bool cvta(ArrayRef<StringRef> parts, ArrayRef<StringRef> ops) {
    // cvta.to.SPACE.TYPE d, a (generic to SPACE) / cvta.SPACE.TYPE d, a (SPACE to generic)
    bool to = parts.size() == 4 && parts[1] == "to";
    if (parts.size() != (to ? 4u : 3u))
      return false;
    StringRef space = parts[to ? 2 : 1];
    std::optional<PtxType> t = typeOf(ctx(), parts.back());
    if (!t || t->isFloat || t->isPred || t->bits < 32)
      return false;
    Value *a = read(ops[1], b_.getInt64Ty());
    if (!a)
      return false;
    if (space == "global")
      return write(ops[0], b_.CreateZExtOrTrunc(a, t->type));
    if (space != "shared")
      return false;
    Module &M = *call_.getModule();
    Value *r;
    if (to) {
      FunctionCallee fn = M.getOrInsertFunction(
          sim::abi::CvtaToSharedFn, FunctionType::get(b_.getInt64Ty(), {b_.getPtrTy()}, false));
      r = b_.CreateCall(fn, {b_.CreateIntToPtr(a, b_.getPtrTy())});
    } else {
      r = b_.CreatePtrToInt(sharedAddress(b_, a), b_.getInt64Ty());
    }
    return write(ops[0], b_.CreateZExtOrTrunc(r, t->type));
  }

  bool setp(ArrayRef<StringRef> parts, ArrayRef<StringRef> ops) {
    // setp.CMP[.BOOLOP].TYPE p[|q], a, b[, c]
    if (parts.size() < 3 || ops.size() < 3)
      return false;
    std::optional<PtxType> t = typeOf(ctx(), parts.back());
    StringRef cmp = parts[1], boolOp = parts.size() >= 4 && parts[2] != "ftz" ? parts[2] : "";
    if (!t || t->isPred || (boolOp.empty() != (ops.size() == 3)))
      return false;
    Value *a = read(ops[1], t->type), *c = read(ops[2], t->type);
    if (!a || !c)
      return false;
    using P = CmpInst::Predicate;
    static const std::pair<const char *, P> ints[] = {
        {"eq", P::ICMP_EQ}, {"ne", P::ICMP_NE}, {"lo", P::ICMP_ULT}, {"ls", P::ICMP_ULE},
        {"hi", P::ICMP_UGT}, {"hs", P::ICMP_UGE}};
    static const std::pair<const char *, P> floats[] = {
        {"eq", P::FCMP_OEQ}, {"ne", P::FCMP_ONE}, {"lt", P::FCMP_OLT}, {"le", P::FCMP_OLE},
        {"gt", P::FCMP_OGT}, {"ge", P::FCMP_OGE}, {"equ", P::FCMP_UEQ}, {"neu", P::FCMP_UNE},
        {"ltu", P::FCMP_ULT}, {"leu", P::FCMP_ULE}, {"gtu", P::FCMP_UGT}, {"geu", P::FCMP_UGE},
        {"num", P::FCMP_ORD}, {"nan", P::FCMP_UNO}};
    std::optional<P> pred;
    if (t->isFloat) {
      for (auto &[name, p] : floats)
        if (cmp == name)
          pred = p;
    } else {
      for (auto &[name, p] : ints)
        if (cmp == name)
          pred = p;
      static const std::pair<const char *, std::pair<P, P>> ordered[] = {
          {"lt", {P::ICMP_SLT, P::ICMP_ULT}}, {"le", {P::ICMP_SLE, P::ICMP_ULE}},
          {"gt", {P::ICMP_SGT, P::ICMP_UGT}}, {"ge", {P::ICMP_SGE, P::ICMP_UGE}}};
      for (auto &[name, pp] : ordered)
        if (cmp == name)
          pred = t->isSigned ? pp.first : pp.second;
    }
    if (!pred)
      return false;
    // p = BoolOp(t, c) and q = BoolOp(!t, c), where t is the comparison.
    Value *cmpResult = t->isFloat ? b_.CreateFCmp(*pred, a, c) : b_.CreateICmp(*pred, a, c);
    Value *other = boolOp.empty() ? nullptr : read(ops[3], b_.getInt1Ty());
    if (!boolOp.empty() && (!other || (boolOp != "and" && boolOp != "or" && boolOp != "xor")))
      return false;
    auto combine = [&](Value *v) -> Value * {
      if (boolOp.empty())
        return v;
      return boolOp == "and" ? b_.CreateAnd(v, other)
             : boolOp == "or" ? b_.CreateOr(v, other)
                              : b_.CreateXor(v, other);
    };
    auto [p, q] = ops[0].split('|');
    return write(p, combine(cmpResult)) &&
           (q.empty() || write(q, combine(b_.CreateNot(cmpResult))));
  }

  bool mov(const PtxType &t, ArrayRef<StringRef> ops) {
    StringRef dest = ops[0], src = ops[1];
    if (src.consume_front("{") && src.consume_back("}")) { // pack, the first element lowest
      SmallVector<StringRef, 4> parts = splitOperands(src);
      if (t.isFloat || parts.empty() || t.bits % parts.size())
        return false;
      unsigned width = t.bits / unsigned(parts.size());
      Value *r = ConstantInt::get(t.type, 0);
      for (size_t i = 0; i < parts.size(); ++i) {
        Value *v = read(parts[i], b_.getIntNTy(width));
        if (!v)
          return false;
        r = b_.CreateOr(r, b_.CreateShl(b_.CreateZExt(v, t.type), width * i));
      }
      return write(dest, r);
    }
    if (dest.consume_front("{") && dest.consume_back("}")) { // unpack
      SmallVector<StringRef, 4> parts = splitOperands(dest);
      Value *v = read(src, b_.getIntNTy(t.bits));
      if (!v || parts.empty() || t.bits % parts.size())
        return false;
      unsigned width = t.bits / unsigned(parts.size());
      for (size_t i = 0; i < parts.size(); ++i)
        if (parts[i] != "_" &&
            !write(parts[i], b_.CreateTrunc(b_.CreateLShr(v, width * i), b_.getIntNTy(width))))
          return false;
      return true;
    }
    Value *v = read(src, t.type);
    return v && write(dest, v);
  }

  bool cvt(ArrayRef<StringRef> parts, ArrayRef<StringRef> ops) {
    if (parts.size() < 3 || ops.size() != 2)
      return false;
    std::optional<PtxType> to = typeOf(ctx(), parts[parts.size() - 2]),
                           from = typeOf(ctx(), parts.back());
    if (!to || !from || to->isPred || from->isPred)
      return false;
    StringRef rounding;
    bool saturate = false;
    for (StringRef q : parts.slice(1, parts.size() - 3)) {
      if (q == "sat")
        saturate = true;
      else if (q != "ftz")
        rounding = q;
    }
    Value *a = read(ops[1], from->type);
    if (!a)
      return false;
    Value *r = nullptr;
    if (from->isFloat && to->isFloat) {
      if (!rounding.empty() && rounding != "rn" && !(to->bits >= from->bits))
        return false; // directed roundings of a narrowing conversion: not these semantics
      r = to->bits > from->bits ? b_.CreateFPExt(a, to->type)
          : to->bits < from->bits ? b_.CreateFPTrunc(a, to->type)
                                  : a;
      if (to->bits == from->bits && !rounding.empty()) {
        Intrinsic::ID id = roundToInteger(rounding);
        if (id == Intrinsic::not_intrinsic)
          return false;
        r = b_.CreateUnaryIntrinsic(id, a);
      }
      if (saturate) // clamps to [0, 1], NaN to 0
        r = b_.CreateSelect(b_.CreateFCmpUNO(r, r), ConstantFP::get(to->type, 0.0),
                            b_.CreateBinaryIntrinsic(
                                Intrinsic::minnum,
                                b_.CreateBinaryIntrinsic(Intrinsic::maxnum, r,
                                                         ConstantFP::get(to->type, 0.0)),
                                ConstantFP::get(to->type, 1.0)));
    } else if (from->isFloat) { // float to integer: rounded, then saturated (NaN gives 0)
      Intrinsic::ID id = roundToInteger(rounding.empty() ? StringRef("rni") : rounding);
      if (id == Intrinsic::not_intrinsic)
        return false;
      Value *whole = b_.CreateUnaryIntrinsic(id, a);
      r = b_.CreateIntrinsic(to->isSigned ? Intrinsic::fptosi_sat : Intrinsic::fptoui_sat,
                             {to->type, from->type}, {whole});
    } else if (to->isFloat) { // integer to float, round to nearest
      if (!rounding.empty() && rounding != "rn")
        return false;
      r = from->isSigned ? b_.CreateSIToFP(a, to->type) : b_.CreateUIToFP(a, to->type);
    } else { // integer to integer: extended by the source's signedness, or truncated
      if (saturate) {
        // Clamp to the destination's range, comparing in the wider of the two types.
        unsigned w = std::max(to->bits, from->bits) + 1;
        Type *W = b_.getIntNTy(w);
        Value *x = from->isSigned ? b_.CreateSExt(a, W) : b_.CreateZExt(a, W);
        APInt lo = to->isSigned ? APInt::getSignedMinValue(to->bits).sext(w) : APInt(w, 0);
        APInt hi = to->isSigned ? APInt::getSignedMaxValue(to->bits).sext(w)
                                : APInt::getMaxValue(to->bits).zext(w);
        x = b_.CreateBinaryIntrinsic(Intrinsic::smax, x, ConstantInt::get(W, lo));
        x = b_.CreateBinaryIntrinsic(Intrinsic::smin, x, ConstantInt::get(W, hi));
        r = b_.CreateTrunc(x, to->type);
      } else {
        r = b_.CreateIntCast(a, to->type, from->isSigned);
      }
    }
    return write(ops[0], r);
  }

  bool prmt(ArrayRef<StringRef> ops) {
    // Bytes 0-3 from a, 4-7 from b; each selector nibble of c picks one (bit 3: replicate
    // its sign bit instead).
    Value *a = read(ops[1], b_.getInt32Ty()), *c = read(ops[2], b_.getInt32Ty()),
          *sel = read(ops[3], b_.getInt32Ty());
    if (!a || !c || !sel)
      return false;
    Type *I64 = b_.getInt64Ty();
    Value *pool = b_.CreateOr(b_.CreateZExt(a, I64), b_.CreateShl(b_.CreateZExt(c, I64), 32));
    Value *r = b_.getInt32(0);
    for (unsigned i = 0; i < 4; ++i) {
      Value *nibble = b_.CreateAnd(b_.CreateLShr(sel, 4 * i), 0xf);
      Value *index = b_.CreateZExt(b_.CreateAnd(nibble, 7), I64);
      Value *byte = b_.CreateTrunc(b_.CreateLShr(pool, b_.CreateMul(index, b_.getInt64(8))),
                                   b_.getInt8Ty());
      Value *sign = b_.CreateSelect(b_.CreateICmpSLT(byte, b_.getInt8(0)), b_.getInt8(-1),
                                    b_.getInt8(0));
      byte = b_.CreateSelect(b_.CreateICmpNE(b_.CreateAnd(nibble, 8), b_.getInt32(0)), sign, byte);
      r = b_.CreateOr(r, b_.CreateShl(b_.CreateZExt(byte, b_.getInt32Ty()), 8 * i));
    }
    return write(ops[0], r);
  }

  bool carry(StringRef op, ArrayRef<StringRef> parts, ArrayRef<StringRef> ops,
             const std::optional<PtxType> &t) {
    if (!t || t->isFloat || t->isPred || t->bits < 32)
      return false;
    bool setsCarry = is_contained(parts, "cc");
    bool usesCarry = op == "addc" || op == "subc" || op == "madc";
    bool mad = op == "mad" || op == "madc", subtract = op == "sub" || op == "subc";
    bool hi = is_contained(parts, "hi");
    if (!(op == "add" || op == "addc" || subtract || mad) || ops.size() != (mad ? 4u : 3u) ||
        (mad && !hi && !is_contained(parts, "lo")))
      return false;
    unsigned bits = t->bits;
    Type *W = b_.getIntNTy(2 * bits + 2), *T = t->type;
    Value *x = read(ops[1], T), *y = read(ops[2], T), *z = mad ? read(ops[3], T) : nullptr;
    if (!x || !y || (mad && !z))
      return false;
    Value *cell = carryCell();
    Value *carryIn = usesCarry ? b_.CreateZExt(b_.CreateLoad(b_.getInt32Ty(), cell), W)
                               : ConstantInt::get(W, 0);
    // Unsigned arithmetic in a wider type: the carry (or borrow) is what does not fit.
    Value *wide;
    if (mad) {
      Value *product = b_.CreateMul(t->isSigned ? b_.CreateSExt(x, W) : b_.CreateZExt(x, W),
                                    t->isSigned ? b_.CreateSExt(y, W) : b_.CreateZExt(y, W));
      Value *half = hi ? b_.CreateLShr(product, bits) : product;
      half = b_.CreateZExt(b_.CreateTrunc(half, T), W);
      wide = b_.CreateAdd(b_.CreateAdd(half, b_.CreateZExt(z, W)), carryIn);
    } else if (subtract) {
      wide = b_.CreateSub(b_.CreateSub(b_.CreateZExt(x, W), b_.CreateZExt(y, W)), carryIn);
    } else {
      wide = b_.CreateAdd(b_.CreateAdd(b_.CreateZExt(x, W), b_.CreateZExt(y, W)), carryIn);
    }
    if (setsCarry) {
      Value *out = subtract ? b_.CreateICmpSLT(wide, ConstantInt::get(W, 0)) // a borrow
                            : b_.CreateICmpNE(b_.CreateLShr(wide, bits), ConstantInt::get(W, 0));
      Value *flag = b_.CreateZExt(out, b_.getInt32Ty());
      if (guard_)
        flag = b_.CreateSelect(guard_, flag, b_.CreateLoad(b_.getInt32Ty(), cell));
      b_.CreateStore(flag, cell);
    }
    return write(ops[0], b_.CreateTrunc(wide, T));
  }
};

} // namespace

bool lowerBlock(CallInst &call, StringRef text) {
  // What a failed attempt emitted is removed again: everything between `before` and the
  // call, and a carry cell it made.
  Instruction *before = call.getPrevNode();
  BasicBlock *where = call.getParent();
  Block block(call);
  if (block.run(text)) {
    call.eraseFromParent();
    return true;
  }
  SmallVector<Instruction *, 32> emitted;
  for (Instruction *I = before ? before->getNextNode() : &where->front(); I != &call;
       I = I->getNextNode())
    if (I != block.createdCell)
      emitted.push_back(I);
  for (auto it = emitted.rbegin(); it != emitted.rend(); ++it)
    if ((*it)->use_empty())
      (*it)->eraseFromParent();
  if (AllocaInst *cell = block.createdCell) {
    SmallVector<Instruction *, 4> users;
    for (User *u : cell->users())
      users.push_back(cast<Instruction>(u));
    for (Instruction *u : users)
      u->eraseFromParent();
    cell->eraseFromParent();
  }
  return false;
}

} // namespace musa::jit::ptx

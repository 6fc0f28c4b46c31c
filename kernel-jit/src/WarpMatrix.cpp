// Warp matrix multiplies as the timing instrumentation sees them (WarpMatrix.h).
#include "WarpMatrix.h"

#include "musa/sim/KernelAbi.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"

using namespace llvm;

namespace musa::jit {

namespace {

/// The op of a WarpFn call (without the quarter-local flag), or -1.
int64_t warpOp(const CallBase &call) {
  const Function *F = call.getCalledFunction();
  if (!F || F->getName() != sim::abi::WarpFn || call.arg_size() < 4)
    return -1;
  auto *op = dyn_cast<ConstantInt>(call.getArgOperand(0));
  return op ? int64_t(op->getZExtValue() & 0xff) : -1;
}

/// Whether `A` is the operand record of a warp matrix multiply: its address goes to the
/// collective as the lane's value.
bool isOperandRecord(const AllocaInst &A) {
  for (const User *U : A.users())
    if (auto *cast = dyn_cast<PtrToIntInst>(U))
      for (const User *V : cast->users())
        if (auto *call = dyn_cast<CallBase>(V);
            call && warpOp(*call) == __MUSA_SIM_WARP_MMA && call->getArgOperand(2) == cast)
          return true;
  return false;
}

} // namespace

unsigned tensorSteps(const CallBase &call) {
  // 16x16x16 (and 32x8x16, 8x32x16) in half or bfloat16 is two m16n8k16 steps; tf32 runs
  // at half that rate per multiply-add, so 16x16x8 is also two; 8-bit integers at twice it,
  // one; an 8x8x4 double multiply (DMMA, 256 multiply-adds at a sixteenth of the fp16 rate)
  // two.
  if (warpOp(call) != __MUSA_SIM_WARP_MMA)
    return 0;
  auto *code = dyn_cast<ConstantInt>(call.getArgOperand(3));
  unsigned inputs = code ? unsigned(code->getZExtValue() >> 4) & 0xf : 0u;
  return inputs == __MUSA_SIM_MMA_S8 || inputs == __MUSA_SIM_MMA_U8 ? 1 : 2;
}

bool isWarpMatrixRegister(const AllocaInst &object) {
  if (isOperandRecord(object))
    return true;
  // A fragment (or an array of them): an address in it is stored into an operand record.
  SmallVector<const Value *, 8> addresses{&object};
  for (size_t i = 0; i < addresses.size() && i < 64; ++i)
    for (const User *U : addresses[i]->users()) {
      if (isa<GetElementPtrInst>(U)) {
        addresses.push_back(U);
        continue;
      }
      auto *store = dyn_cast<StoreInst>(U);
      if (!store || store->getValueOperand() != addresses[i])
        continue;
      auto *record = dyn_cast<AllocaInst>(getUnderlyingObject(store->getPointerOperand()));
      if (record && isOperandRecord(*record))
        return true;
    }
  return false;
}

bool isWarpMatrixStepSync(const CallBase &call) {
  if (warpOp(call) != __MUSA_SIM_WARP_SYNC)
    return false;
  auto *arg = dyn_cast<ConstantInt>(call.getArgOperand(3));
  return arg && arg->getZExtValue() == __MUSA_SIM_WARP_SYNC_MMA_STEP;
}

} // namespace musa::jit

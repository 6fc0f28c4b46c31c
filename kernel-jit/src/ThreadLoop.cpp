// ThreadLoop: the loop nest over a block's threads that the block and region loops share.
#include "ThreadLoop.h"

#include "musa/jit/DeviceLowering.h"
#include "musa/sim/KernelAbi.h"

#include "llvm/Analysis/LoopInfo.h"

using namespace llvm;

namespace musa::jit {

ThreadLoop ThreadLoop::open(IRBuilder<> &b, Value *ctx) {
  LLVMContext &C = b.getContext();
  Function *F = b.GetInsertBlock()->getParent();
  Type *i32 = b.getInt32Ty();
  ThreadLoop loop;
  for (unsigned d = 0; d < 3; ++d) {
    loop.extent[d] = b.CreateLoad(
        i32, b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx, sim::abi::NtidOffset + 4 * d));
    loop.tidSlot[d] =
        b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx, sim::abi::TidOffset + 4 * d);
  }
  loop.exit = BasicBlock::Create(C, "exit", F);
  // z (outer) .. x (inner); each header is entered with its index at 0.
  BasicBlock *preheader = b.GetInsertBlock();
  for (int d = 2; d >= 0; --d) {
    BasicBlock *header = BasicBlock::Create(C, "dim" + Twine(d), F);
    b.CreateBr(header);
    b.SetInsertPoint(header);
    loop.index[d] = b.CreatePHI(i32, 2);
    loop.index[d]->addIncoming(b.getInt32(0), preheader);
    preheader = header;
  }
  return loop;
}

Value *ThreadLoop::linear(IRBuilder<> &b) const {
  Type *i64 = b.getInt64Ty();
  auto wide = [&](Value *v) { return b.CreateZExt(v, i64); };
  return b.CreateAdd(
      wide(index[0]),
      b.CreateMul(wide(extent[0]),
                  b.CreateAdd(wide(index[1]),
                              b.CreateMul(wide(extent[1]), wide(index[2]), "", true, true), "",
                              true, true),
                  "", true, true),
      "t", true, true);
}

void ThreadLoop::storeTid(IRBuilder<> &b) const {
  for (unsigned d = 0; d < 3; ++d)
    b.CreateStore(index[d], tidSlot[d]);
}

void ThreadLoop::close(IRBuilder<> &b) {
  LLVMContext &C = b.getContext();
  Function *F = b.GetInsertBlock()->getParent();
  for (int d = 0; d < 3; ++d) {
    Value *next = b.CreateAdd(index[d], b.getInt32(1), "", true, true);
    index[d]->addIncoming(next, b.GetInsertBlock());
    BasicBlock *done = d == 2 ? exit : BasicBlock::Create(C, "done" + Twine(d), F);
    BranchInst *latch = b.CreateCondBr(b.CreateICmpULT(next, extent[d]), index[d]->getParent(), done);
    if (d == 0) {
      // A distinct loop id marks the loop over threads x for SplitThreadGuardsPass.
      MDNode *marker = MDNode::get(C, MDString::get(C, ThreadLoopMD));
      MDNode *id = MDNode::getDistinct(C, {nullptr, marker});
      id->replaceOperandWith(0, id);
      latch->setMetadata(LLVMContext::MD_loop, id);
    }
    b.SetInsertPoint(done);
  }
}

bool isThreadLoop(const Loop &L) {
  MDNode *id = L.getLoopID();
  if (!id)
    return false;
  for (const MDOperand &op : drop_begin(id->operands()))
    if (auto *node = dyn_cast<MDNode>(op.get()))
      if (auto *name = dyn_cast<MDString>(node->getOperand(0));
          name && name->getString() == ThreadLoopMD)
        return true;
  return false;
}

} // namespace musa::jit

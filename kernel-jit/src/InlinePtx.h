// Inline PTX for LowerInlineAsmPass: the pieces the one-statement forms (LowerInlineAsm.cpp)
// and the statement sequences (InlinePtxBlock.cpp) share.
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

#include <string>

namespace musa::jit::ptx {

/// The statement with runs of whitespace as one space, trimmed, without a trailing ';'.
std::string normalise(llvm::StringRef text);
/// The NVVM intrinsic that reads special register `reg` (as the asm names it without its
/// '%'), or "".
std::string specialRegisterIntrinsic(llvm::StringRef reg);
/// The call argument PTX operand `$k` names (outputs come first), or null.
llvm::Value *operand(llvm::CallInst &call, llvm::StringRef text);
/// `v` as a value of `type` (integers zero-extended or truncated, same widths bit cast), or
/// null.
llvm::Value *asType(llvm::IRBuilder<> &b, llvm::Value *v, llvm::Type *type);
/// A literal operand of `type`: decimal, 0x hex, or PTX's 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX
/// float bits (with an optional '-'); null if it is not one.
llvm::Value *literal(llvm::IRBuilder<> &b, llvm::StringRef text, llvm::Type *type);
/// The result of one ALU statement `opcode dest, sources...` (see lowerArithmetic), its
/// operands read through `resolve(text, type)`; null if not one this recognises.
llvm::Value *arithmetic(llvm::IRBuilder<> &b, llvm::StringRef opcode,
                        llvm::ArrayRef<llvm::StringRef> sources,
                        llvm::function_ref<llvm::Value *(llvm::StringRef, llvm::Type *)> resolve);
/// The generic pointer of a .shared address (an integer: the block's shared memory offset).
llvm::Value *sharedAddress(llvm::IRBuilder<> &b, llvm::Value *address);
/// A sequence of statements (InlinePtxBlock.cpp); false, with nothing changed, if one is not
/// recognised.
bool lowerBlock(llvm::CallInst &call, llvm::StringRef text);

} // namespace musa::jit::ptx

; LowerInlineAsm's statement sequences (InlinePtxBlock.cpp): a carry chain becomes wide
; arithmetic through the function's carry cell, also across two asm statements; a block with a
; .reg predicate becomes a compare and a select; a "+r" operand starts from its tied input; a
; vote becomes the warp builtin; an unknown statement inside a block leaves nothing of the
; block behind but the trap.
; PASSES: musa-retarget,musa-lower-asm
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @k(
; CHECK: %ptx.carry = alloca i32
; CHECK-NOT: asm
; The chain in one statement: the first add sets the cell, addc reads it.
; CHECK: add i66
; CHECK: store i32 {{.*}}, ptr %ptx.carry
; CHECK: load i32, ptr %ptx.carry
; The predicate block: setp.lt.s32 and selp.
; CHECK: icmp slt i32 %a, %b
; CHECK: select i1
; The guarded "+r" update: the old value is the tied input.
; CHECK: icmp ugt i32 %a, %b
; CHECK: select i1 {{.*}}, i32 %a, i32 %b
; CHECK: call i64 @__musa_sim_warp(i32 5, i32 -1,
; CHECK-NOT: icmp ugt
; CHECK: call void @llvm.trap()
; CHECK: ret void
define void @k(ptr %out, i32 %a, i32 %b) {
  %pair = call { i32, i32 } asm "add.cc.u32 $0, $2, $3;\0A\09addc.u32 $1, $3, $2;", "=r,=r,r,r"(i32 %a, i32 %b)
  %lo = extractvalue { i32, i32 } %pair, 0
  store i32 %lo, ptr %out
  %first = call i32 asm sideeffect "add.cc.u32 $0, $1, $2;", "=r,r,r"(i32 %a, i32 %b)
  %second = call i32 asm sideeffect "addc.u32 $0, $1, $2;", "=r,r,r"(i32 %b, i32 %a)
  store i32 %second, ptr %out
  %min = call i32 asm "{\0A\09.reg .pred p;\0A\09setp.lt.s32 p, $1, $2;\0A\09selp.s32 $0, $1, $2, p;\0A\09}", "=r,r,r"(i32 %a, i32 %b)
  store i32 %min, ptr %out
  %g = call i32 asm "{ .reg .pred q; setp.hi.u32 q, $1, $2; @q mov.u32 $0, $1; }", "=r,r,r,0"(i32 %a, i32 %b, i32 %b)
  store i32 %g, ptr %out
  %ballot = call i32 asm "{ .reg .pred p; setp.ne.u32 p, $1, 0; vote.sync.ballot.b32 $0, p, 0xffffffff; }", "=r,r"(i32 %a)
  store i32 %ballot, ptr %out
  %bad = call i32 asm "{ .reg .pred q; setp.hi.u32 q, $1, $2; @q bfind.shiftamt.u32 $0, $1; }", "=r,r,r"(i32 %a, i32 %b)
  store i32 %bad, ptr %out
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

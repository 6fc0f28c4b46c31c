; CheckAccesses bounds the misalignment check by the alignment an access declares: two 2-byte
; stores the optimiser merged into one 4-byte store marked `align 2` are checked for 2-byte
; alignment (the low bit), as the GPU back end splits them again; an `align 1` load (a packed
; field, read bytewise on the GPU) is not checked; an `align 4` load through a pointer of
; unknown alignment is checked for 4 (the low two bits).
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-check-accesses
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr %pairs, ptr %packed, ptr %words) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %dst = getelementptr i16, ptr %pairs, i32 %t
  store <2 x i16> <i16 1, i16 2>, ptr %dst, align 2
  %p = load i32, ptr %packed, align 1
  %src = getelementptr i32, ptr %words, i32 %t
  %w = load i32, ptr %src, align 4
  %s = add i32 %p, %w
  store i32 %s, ptr %src, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

; CHECK-LABEL: define void @k(
; CHECK: and i64 {{.*}}, 1
; CHECK: store <2 x i16>
; CHECK-NOT: and i64
; CHECK: load i32, ptr %packed, align 1
; CHECK: and i64 {{.*}}, 3
; CHECK: load i32, ptr %src, align 4
; CHECK: ret void

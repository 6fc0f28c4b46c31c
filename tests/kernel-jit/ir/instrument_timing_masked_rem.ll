; InstrumentTiming: clang turns `tid % (2 * s)`, with s doubled by the loop, into a mask
; (`(2s - 1) & tid`); nvcc keeps the remainder, and the H200 runs it as one by a divisor that
; changes (tests/hardware/ncu/pipe_counts.h200.txt): 3 XU, 5 IMAD, 9 ALU. @r0's loop block:
; int 12 (add, the remainder's 9, two compares), special 3, branch 1, IMAD 6 (the constant
; shift and the remainder's 5). A mask built as `(1 << k) - 1` stays three ALU instructions.
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-instrument-timing
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @r0(ptr %p, i32 %tid, i32 %n) {
entry:
  br label %loop
loop:
  %s = phi i32 [ 1, %entry ], [ %s2, %loop ]
  %s2 = shl i32 %s, 1
  %m = add i32 %s2, 1023
  %r = and i32 %m, %tid
  %z = icmp eq i32 %r, 0
  %zz = zext i1 %z to i32
  store i32 %zz, ptr %p
  %c = icmp ult i32 %s2, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

define void @mask(ptr %p, i32 %x, i32 %k) {
  %b = shl i32 1, %k
  %m = add i32 %b, -1
  %r = and i32 %m, %x
  store i32 %r, ptr %p
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @r0, !"kernel", i32 1}
!1 = !{ptr @mask, !"kernel", i32 1}

; CHECK: @__musa_timing_blocks = {{.*}}[10 x i32] [i32 12, i32 0, i32 0, i32 3, i32 1, i32 0, i32 0, i32 6, i32 0, i32 {{[0-9]+}}]
; CHECK-SAME: [10 x i32] [i32 3, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 {{[0-9]+}}]]

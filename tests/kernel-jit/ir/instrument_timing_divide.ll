; InstrumentTiming: a 32-bit integer division by a divisor that differs per lane costs what
; the H200 executes for it (Nsight Compute, tests/hardware/probes/math_pipes.h200.txt): the
; reciprocal's I2F, MUFU.RCP and F2I on the XU pipe (class 3), five IMAD (class 7) and nine
; ALU instructions (class 0). A remainder by the same divisor right after it reuses the
; reciprocal: a multiply-high and a correction, four ALU. A division by a loop-invariant
; divisor inside a loop (@loop) is the cheap form too: four ALU, plus the loop's compare and
; add (two ALU) and its branch.
; @once: ALU 9 + 4 + 1 (add) = 14, XU 3, IMAD 5.
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-instrument-timing
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @once(ptr %p, i32 %x, i32 %d) {
  %q = udiv i32 %x, %d
  %r = urem i32 %x, %d
  %s = add i32 %q, %r
  store i32 %s, ptr %p
  ret void
}

define void @loop(ptr %p, i32 %x, i32 %d) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %n, %body ]
  %q = udiv i32 %i, %d
  store i32 %q, ptr %p
  %n = add i32 %i, 1
  %c = icmp ult i32 %n, %x
  br i1 %c, label %body, label %exit
exit:
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @once, !"kernel", i32 1}
!1 = !{ptr @loop, !"kernel", i32 1}

; CHECK: @__musa_timing_blocks = {{.*}}[10 x i32] [i32 14, i32 0, i32 0, i32 3, i32 0, i32 0, i32 0, i32 5, i32 0, i32 {{[0-9]+}}]
; CHECK-SAME: [10 x i32] [i32 6, i32 0, i32 0, i32 0, i32 1, i32 0, i32 0, i32 0, i32 0, i32 {{[0-9]+}}]

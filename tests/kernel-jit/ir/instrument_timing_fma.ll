; InstrumentTiming: an add takes one product into its fused multiply-add. @one's a*x + c is
; one FFMA (class 1, abi::ClassFp32); @two's a*x + b*y is an FMUL and an FFMA (two, as nvcc
; compiles it: binomialOptions' pu*c[j+1] + pd*c[j] runs 2 FMA-pipe instructions an element on
; the H100, tests/hardware/session15/ncu_samples.csv), not one; @strict's products without
; contraction stay apart from their add (three).
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-instrument-timing
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @one(ptr %p, float %a, float %x, float %c) {
  %m = fmul contract float %a, %x
  %r = fadd contract float %m, %c
  store float %r, ptr %p
  ret void
}

define void @two(ptr %p, float %a, float %x, float %b, float %y) {
  %m = fmul contract float %a, %x
  %n = fmul contract float %b, %y
  %r = fadd contract float %m, %n
  store float %r, ptr %p
  ret void
}

define void @strict(ptr %p, float %a, float %x, float %b, float %y) {
  %m = fmul float %a, %x
  %n = fmul float %b, %y
  %r = fadd float %m, %n
  store float %r, ptr %p
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @one, !"kernel", i32 1}
!1 = !{ptr @two, !"kernel", i32 1}
!2 = !{ptr @strict, !"kernel", i32 1}

; CHECK: @__musa_timing_blocks = {{.*}}[10 x i32] [i32 0, i32 1, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 {{[0-9]+}}], [10 x i32] [i32 0, i32 2, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 {{[0-9]+}}], [10 x i32] [i32 0, i32 3, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 {{[0-9]+}}]]

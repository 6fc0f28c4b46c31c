; InstrumentTiming: math functions cost what their common path is in sm_90 SASS
; (tests/hardware/probes/math_sass.sm90.txt). sqrtf: one special (MUFU.RSQ), four fp32, two
; int; an IEEE division: one special (MUFU.RCP), six fp32 (FCHK, five FFMA), two int; rsqrtf,
; which the headers write as 1 / sqrt(x): one special and three fp32, the square root free;
; a fast-math (afn) expf: one special and one fp32. Totals with the final fadd: int 4,
; fp32 15, special 4.
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-instrument-timing
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare float @llvm.sqrt.f32(float)
declare float @llvm.exp.f32(float)

define void @math(ptr %p, float %x, float %y) {
  %s = call float @llvm.sqrt.f32(float %x)
  %d = fdiv float %s, %y
  %r = call float @llvm.sqrt.f32(float %y)
  %q = fdiv float 1.0, %r
  %e = call afn float @llvm.exp.f32(float %q)
  %t = fadd float %d, %e
  store float %t, ptr %p
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @math, !"kernel", i32 1}

; CHECK: @__musa_timing_blocks = {{.*}}[9 x i32] [i32 4, i32 15, i32 0, i32 4, i32 0, i32 0, i32 0, i32 0, i32 {{[0-9]+}}]]

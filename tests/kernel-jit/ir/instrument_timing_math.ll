; InstrumentTiming: math functions cost the warp instructions the H200 executes per call, by
; pipe (Nsight Compute, tests/hardware/probes/math_pipes.h200.txt). sqrtf: one special (XU),
; four fp32 (FMA pipe), four int; an IEEE division: two special (MUFU.RCP, FCHK), six fp32,
; two int; rsqrtf, which the headers write as 1 / sqrt(x): one special, two fp32 and one int,
; the square root free; a fast-math (afn) expf, as __expf: one special, three fp32 and one
; int. Totals with the final fadd: int 8, fp32 16, special 5.
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

; CHECK: @__musa_timing_blocks = {{.*}}[10 x i32] [i32 8, i32 16, i32 0, i32 5, i32 0, i32 0, i32 0, i32 0, i32 0, i32 {{[0-9]+}}]]

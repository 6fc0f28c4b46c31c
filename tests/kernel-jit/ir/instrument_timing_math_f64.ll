; InstrumentTiming: double-precision math functions cost every warp instruction the H200
; executes per call (Nsight Compute, tests/hardware/probes/math_pipes.h200.txt, the `all`
; column), not only those on the pipes the probe lists: exp 15 fp64 and 34 others (49 in all),
; log1p one XU, 30 fp64 and 53 others (84), a division one XU, eight fp64, three on the FMA
; pipe and seven others (19). The others count as integer instructions (they take issue
; slots). With the final fadd: int 94, fp32 3, fp64 54, special 2.
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-instrument-timing
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare double @llvm.exp.f64(double)
declare double @log1p(double)

define void @softplus(ptr %p, double %x, double %y) {
  %e = call double @llvm.exp.f64(double %x)
  %l = call double @log1p(double %e)
  %d = fdiv double %l, %y
  %t = fadd double %d, %x
  store double %t, ptr %p
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @softplus, !"kernel", i32 1}

; CHECK: @__musa_timing_blocks = {{.*}}[10 x i32] [i32 94, i32 3, i32 54, i32 2, i32 0, i32 0, i32 0, i32 0, i32 0, i32 {{[0-9]+}}]]

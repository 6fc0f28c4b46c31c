; InstrumentTiming: bit counting and reversal run on the XU pipe (class 3, as special
; functions; tests/hardware/probes/math_pipes.h200.txt): __popc (ctpop) and __brev
; (bitreverse) one XU instruction each, __clz (ctlz) one XU and one ALU, a count of trailing
; zeros (cttz, as __ffs computes it) two XU. With the two adds: ALU 3, XU 5.
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-instrument-timing
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.ctpop.i32(i32)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i32 @llvm.cttz.i32(i32, i1)
declare i32 @llvm.bitreverse.i32(i32)

define void @bits(ptr %p, i32 %x) {
  %a = call i32 @llvm.ctpop.i32(i32 %x)
  %b = call i32 @llvm.ctlz.i32(i32 %x, i1 false)
  %c = call i32 @llvm.cttz.i32(i32 %a, i1 false)
  %d = call i32 @llvm.bitreverse.i32(i32 %b)
  %e = add i32 %c, %d
  %f = add i32 %e, %x
  store i32 %f, ptr %p
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @bits, !"kernel", i32 1}

; CHECK: @__musa_timing_blocks = {{.*}}[10 x i32] [i32 3, i32 0, i32 0, i32 5, i32 0, i32 0, i32 0, i32 0, i32 0, i32 {{[0-9]+}}]]

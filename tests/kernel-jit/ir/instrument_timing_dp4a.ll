; InstrumentTiming: __dp4a as the headers write it (the sum of a product of two widened byte
; vectors, plus the accumulator) is one IDP4A on the IMAD pipe (class 7, abi::ClassIntMul),
; as GPUs run it (the seventh suite's gemv_dp4a: Nsight counts one IMAD-pipe instruction per
; four bytes): no ALU instruction for the sum or the add. @notdot's sum of a product of
; widened 32-bit halves is ordinary work: the multiply on IMAD, the sum and the add on the ALU.
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-instrument-timing
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)
declare i64 @llvm.vector.reduce.add.v2i64(<2 x i64>)

define void @dot(ptr %p, i32 %a, i32 %b, i32 %c) {
  %va = bitcast i32 %a to <4 x i8>
  %vb = bitcast i32 %b to <4 x i8>
  %wa = sext <4 x i8> %va to <4 x i32>
  %wb = sext <4 x i8> %vb to <4 x i32>
  %m = mul <4 x i32> %wa, %wb
  %s = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %m)
  %r = add i32 %s, %c
  store i32 %r, ptr %p
  ret void
}

define void @notdot(ptr %p, i64 %a, i64 %b, i64 %c) {
  %va = bitcast i64 %a to <2 x i32>
  %vb = bitcast i64 %b to <2 x i32>
  %wa = sext <2 x i32> %va to <2 x i64>
  %wb = sext <2 x i32> %vb to <2 x i64>
  %m = mul <2 x i64> %wa, %wb
  %s = call i64 @llvm.vector.reduce.add.v2i64(<2 x i64> %m)
  %r = add i64 %s, %c
  store i64 %r, ptr %p
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @dot, !"kernel", i32 1}
!1 = !{ptr @notdot, !"kernel", i32 1}

; CHECK: @__musa_timing_blocks = {{.*}}[10 x i32] [i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 1, i32 0, i32 {{[0-9]+}}], [10 x i32] [i32 2, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 4, i32 0, i32 {{[0-9]+}}]]

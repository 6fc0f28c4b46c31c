; InstrumentTiming: fast intrinsics and sine-cosine pairs cost what the H200 executes for them
; (tests/hardware/probes/math_pipes.h200.txt). An afn sine (__sinf): one special, one fp32;
; a fast division (__fdividef: arcp afn): one special, four fp32, one int; an accurate sine:
; 1, 15, 12; an accurate cosine of the same argument in the same block adds what sincos adds
; to a sine: 0, 10, 8; an accurate cosine whose argument only a fast sine takes: 1, 15, 12;
; a sine (1, 15, 12) and the cosine of an explicit sincosf (marked musa.sincos) 0, 0, 3.
; With the four fadds and the fmul: special 5, fp32 65, int 48.
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-instrument-timing
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare float @llvm.sin.f32(float)
declare float @llvm.cos.f32(float)

define void @fastmath(ptr %p, float %x, float %y, float %z) {
  %a = call afn float @llvm.sin.f32(float %x)
  %b = fdiv arcp afn float %a, %y
  %s = call float @llvm.sin.f32(float %y)
  %c = call float @llvm.cos.f32(float %y)
  %d = call float @llvm.cos.f32(float %x)
  %t1 = fadd float %b, %s
  %t2 = fadd float %c, %d
  %t3 = fadd float %t1, %t2
  %zs = call float @llvm.sin.f32(float %z)
  %zc = call float @llvm.cos.f32(float %z), !musa.sincos !1
  %zp = fmul float %zs, %zc
  %t4 = fadd float %t3, %zp
  store float %t4, ptr %p
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @fastmath, !"kernel", i32 1}
!1 = !{}

; CHECK: @__musa_timing_blocks = {{.*}}[10 x i32] [i32 48, i32 65, i32 0, i32 5, i32 0, i32 0, i32 0, i32 0, i32 0, i32 {{[0-9]+}}]]

; InstrumentTiming: integer work splits between the ALU (class 0) and the IMAD pipe (class 7,
; abi::ClassIntMul), as GPU compilers issue it (tests/hardware/probes/request_rates.h200.txt):
; a 32-bit multiply and a shift left by a constant go to IMAD, a 64-bit multiply takes four
; IMAD slots; a shift right, a variable shift left and 32-bit logic are one ALU instruction,
; 64-bit logic and shifts two (one per half). @xorshift: ALU 1 (lshr) + 2 (xors) = 3, IMAD 2.
; @wide: IMAD 1 + 4 = 5, ALU 2 (lshr i64) + 2 (xor i64) + 1 (variable shl) = 5.
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-instrument-timing
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @xorshift(ptr %p) {
  %x = load i32, ptr %p
  %a = shl i32 %x, 13
  %b = xor i32 %x, %a
  %c = lshr i32 %b, 17
  %d = xor i32 %b, %c
  %e = shl i32 %d, 5
  store i32 %e, ptr %p
  ret void
}

define void @wide(ptr %p, ptr %q, i32 %s) {
  %x = load i64, ptr %p
  %y = load i32, ptr %q
  %m = mul i32 %y, 747796405
  %v = shl i32 %m, %s
  %a = mul i64 %x, 6364136223846793005
  %b = lshr i64 %a, 29
  %c = xor i64 %a, %b
  store i64 %c, ptr %p
  store i32 %v, ptr %q
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @xorshift, !"kernel", i32 1}
!1 = !{ptr @wide, !"kernel", i32 1}

; CHECK: @__musa_timing_blocks = {{.*}}[10 x i32] [i32 3, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 2, i32 0, i32 {{[0-9]+}}], [10 x i32] [i32 5, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 5, i32 0, i32 {{[0-9]+}}]]

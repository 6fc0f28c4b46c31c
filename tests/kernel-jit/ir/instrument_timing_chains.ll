; InstrumentTiming: a load's group (bits 24-31 of its site info) is how many of its block's
; global loads are in flight at once: the block's loads over its longest chain of loads that
; depend on one another. @chase's three loads each need the one before (group 1: three
; waits); @gather's three are independent (group 3: one wait). Half-precision arithmetic as
; the headers write it (widen, compute in float or double, narrow) counts one fp32-pipe
; instruction per two operations (HADD2, HFMA2) and nothing for the conversions: @half2add's
; two emulated adds count 1, its add of two half values 1 more (fp32 2, fp64 0); @mixed's
; float add of a widened half is ordinary float arithmetic and its widening a conversion.
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-instrument-timing
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @chase(ptr %next, ptr %out) {
  %a = load ptr, ptr %next
  %b = load ptr, ptr %a
  %c = load i32, ptr %b
  store i32 %c, ptr %out
  ret void
}

define void @gather(ptr %x, ptr %y, ptr %z, ptr %out) {
  %a = load i32, ptr %x
  %b = load i32, ptr %y
  %c = load i32, ptr %z
  %s = add i32 %a, %b
  %t = add i32 %s, %c
  store i32 %t, ptr %out
  ret void
}

define half @half2add(half %x0, half %y0, half %x1, half %y1) {
  %a0 = fpext half %x0 to float
  %b0 = fpext half %y0 to float
  %s0 = fadd float %a0, %b0
  %h0 = fptrunc float %s0 to half
  %a1 = fpext half %x1 to double
  %b1 = fpext half %y1 to double
  %s1 = fadd double %a1, %b1
  %n1 = fptrunc double %s1 to float
  %h1 = fptrunc float %n1 to half
  %r = fadd half %h0, %h1
  ret half %r
}

define float @mixed(half %x, float %y) {
  %a = fpext half %x to float
  %s = fadd float %a, %y
  ret float %s
}

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @chase, !"kernel", i32 1}
!1 = !{ptr @gather, !"kernel", i32 1}

; 0x01000008 = 16777224 (8-byte pointer load, group 1); 0x01000004 = 16777220;
; 0x03000004 = 50331652; stores carry their block's group too (0x01010004, 0x03010004).
; CHECK: @__musa_timing_site_info = constant [8 x i32] [i32 16777224, i32 16777224, i32 16777220, i32 16842756, i32 50331652, i32 50331652, i32 50331652, i32 50397188]
; Each block's row ends with its dependent-chain steps: @chase's four accesses each wait for
; the one before (4); in @gather a load, two adds and the store depend in turn (4, where its
; six instructions at one a cycle would take 2 steps); @half2add's and @mixed's two
; instructions depend (2).
; CHECK: @__musa_timing_blocks = {{.*}}[10 x i32] [i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 4], [10 x i32] [i32 2, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 4], [10 x i32] [i32 0, i32 2, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 2], [10 x i32] [i32 0, i32 2, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 2]]

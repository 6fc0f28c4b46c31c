; InstrumentTiming: a global load after a store it may alias waits for the loads that store
; waited for (the compiler cannot issue it earlier): two unrolled steps of a recurrence
; `out[i] = 2 * in[i]` through unrestricted pointers are two waits (@recurrence, group 1); with
; `__restrict__` (noalias) they are independent (@restricted, group 2).
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-instrument-timing
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @recurrence(ptr %in, ptr %out) {
  %a = load float, ptr %in
  %a2 = fmul float %a, 2.0
  store float %a2, ptr %out
  %in1 = getelementptr float, ptr %in, i64 1
  %out1 = getelementptr float, ptr %out, i64 1
  %b = load float, ptr %in1
  %b2 = fmul float %b, 2.0
  store float %b2, ptr %out1
  ret void
}

define void @restricted(ptr noalias %in, ptr noalias %out) {
  %a = load float, ptr %in
  %a2 = fmul float %a, 2.0
  store float %a2, ptr %out
  %in1 = getelementptr float, ptr %in, i64 1
  %out1 = getelementptr float, ptr %out, i64 1
  %b = load float, ptr %in1
  %b2 = fmul float %b, 2.0
  store float %b2, ptr %out1
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @recurrence, !"kernel", i32 1}
!1 = !{ptr @restricted, !"kernel", i32 1}

; 0x01000004 = 16777220 (4-byte load, group 1), 0x01010004 = 16842756 (its store);
; 0x02000004 = 33554436, 0x02010004 = 33619972 (group 2).
; CHECK: @__musa_timing_site_info = constant [8 x i32] [i32 16777220, i32 16842756, i32 16777220, i32 16842756, i32 33554436, i32 33619972, i32 33554436, i32 33619972]

; InstrumentTiming: accesses to the thread's own stack frame that survive optimisation (an
; array indexed at run time) are local memory, counted as memory accesses with AccessLocal
; (0x80000) in their site info. The full variant's hook receives the access's byte offset
; in the frame, not its address: the frame's objects in entry-block order, each at its
; alignment (%a starts at 4, after the i32 %pad), plus the offset within the object.
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-instrument-timing
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @walk(ptr %idx, ptr %out) {
  %pad = alloca i32, align 4
  %a = alloca [8 x float], align 4
  store volatile i32 1, ptr %pad
  store float 1.0, ptr %a
  %j = load i32, ptr %idx
  %p = getelementptr [8 x float], ptr %a, i32 0, i32 %j
  %v = load float, ptr %p
  store float %v, ptr %out
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @walk, !"kernel", i32 1}

; Local stores 0x01090004 = 17367044, the global load 0x01000004 = 16777220, the local load
; 0x01080004 = 17301508, the global store 0x01010004 = 16842756 (all group 1: two loads in a
; chain).
; CHECK: @__musa_timing_site_info = constant [5 x i32] [i32 17367044, i32 17367044, i32 16777220, i32 17301508, i32 16842756]
; CHECK-LABEL: define {{.*}}@walk.musa.full(
; CHECK: [[OFF:%[^ ]+]] = add i64 {{%[^ ]+}}, 4
; CHECK: [[P:%[^ ]+]] = inttoptr i64 [[OFF]] to ptr
; CHECK: call void @__musa_sim_mem(ptr [[P]], i32 17367044, i32 1,
; CHECK: call void @__musa_sim_mem(ptr {{%[^ ]+}}, i32 16777220, i32 2,
; CHECK: call void @__musa_sim_mem(ptr {{%[^ ]+}}, i32 17301508, i32 3,

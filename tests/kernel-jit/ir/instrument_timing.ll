; InstrumentTiming: the light variant (every block the model does not sample) calls nothing per
; access; its counters are in their own alias scopes. The full variant, `.musa.full`, calls the
; memory hook before each access, and the full thread thunk runs it. An access through a
; kernel's pointer parameter is known to be global (no test against the shared window); one
; through a device function's pointer parameter may be shared memory and is classified.
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-instrument-timing,musa-emit-thunks
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @copy(ptr %in, ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %src = getelementptr float, ptr %in, i32 %t
  %v = load float, ptr %src
  %dst = getelementptr float, ptr %out, i32 %t
  store float %v, ptr %dst
  call void @bump(ptr %dst)
  ret void
}

define void @bump(ptr %p) {
  %v = load float, ptr %p
  %w = fadd float %v, 1.0
  store float %w, ptr %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @copy, !"kernel", i32 1}

; CHECK: @__musa_timing_sites = constant i32 4
; CHECK: @__musa_timing_site_info = constant [4 x i32]
; CHECK-LABEL: define void @copy(
; CHECK-NOT: call void @__musa_sim_mem
; CHECK-NOT: icmp ult i64
; CHECK: call i64 @llvm.umin.i64
; CHECK-NEXT: store i64 {{.*}} !alias.scope
; CHECK-NOT: icmp ult i64
; CHECK: load float, ptr %src{{.*}}!noalias
; CHECK-NOT: icmp ult i64
; CHECK: ret void
; CHECK-LABEL: define void @bump(
; CHECK: icmp ult i64
; CHECK-LABEL: define internal void @copy.musa.full(
; CHECK: call void @__musa_sim_mem(ptr %src, i32 {{[0-9]+}}, i32 0, ptr %musa.ctx)
; CHECK: call void @__musa_sim_mem(ptr %dst, i32 {{[0-9]+}}, i32 1, ptr %musa.ctx)
; CHECK-LABEL: define void @__musa_thunk_full_copy(
; CHECK: call void @copy.musa.full(

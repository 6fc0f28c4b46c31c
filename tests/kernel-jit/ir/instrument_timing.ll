; InstrumentTiming: the light variant (every block the model does not sample) calls nothing per
; access; its counters are in their own alias scopes. The full variant, `.musa.full`, calls the
; memory hook before each access, and the full thread thunk runs it. An access through a
; kernel's pointer parameter is known to be global (no test against the shared window); one
; through a device function's pointer parameter may be shared memory and is classified.
; The light variant counts each basic block's executions once (an i64), not its instructions
; per class nor its accesses to shared memory: @tile's store to shared memory adds nothing,
; its site names its block in @__musa_timing_site_blocks, and the runtime derives both. In
; the full variant that store calls the hook only while the site's per-call counter is
; below 2 (abi::SampledInstances), and counts itself in ctx->siteAccum afterwards.
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

@tileMem = internal addrspace(3) global [32 x float] undef

define void @tile(float %x) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr [32 x float], ptr addrspace(3) @tileMem, i32 0, i32 %t
  store float %x, ptr addrspace(3) %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @copy, !"kernel", i32 1}
!1 = !{ptr @tile, !"kernel", i32 1}

; CHECK: @__musa_timing_sites = constant i32 5
; CHECK: @__musa_timing_site_info = constant [5 x i32]
; CHECK: @__musa_timing_site_blocks = constant [5 x i32] [i32 0, i32 0, i32 0, i32 0, i32 {{[1-9][0-9]*}}]
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
; CHECK-LABEL: define void @tile(
; CHECK: add i64 {{.*}}, 1
; CHECK-NOT: call void @__musa_sim_mem
; CHECK-NOT: umin
; CHECK: store float %x
; CHECK-NEXT: ret void
; CHECK-LABEL: define internal void @copy.musa.full(
; CHECK: call void @__musa_sim_mem(ptr %src, i32 {{[0-9]+}}, i32 0, ptr %musa.ctx)
; CHECK: call void @__musa_sim_mem(ptr %dst, i32 {{[0-9]+}}, i32 1, ptr %musa.ctx)
; CHECK-LABEL: define internal void @tile.musa.full(
; CHECK: alloca [1 x i8]
; CHECK: icmp ult i8 {{.*}}, 2
; CHECK: call void @__musa_sim_mem(
; CHECK: add i64 {{.*}}, 1
; CHECK: store float %x
; CHECK-LABEL: define void @__musa_thunk_full_copy(
; CHECK: call void @copy.musa.full(

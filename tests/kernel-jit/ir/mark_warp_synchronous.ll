; MarkWarpSynchronous: a volatile load or store of a shared object that a function both loads
; and stores with volatile accesses at more than one address gets a convergence point after it
; (a WarpConverge call, !musa.lockstep): @tail, the reduction tail s[t] += s[t + 16] (its
; store needs none: the kernel returns next), through a select of two arrays (@selected) and
; through a helper's pointer argument
; (@helper, not a kernel: its store gets one, the caller goes on). Left alone: volatile accesses at
; one address only (@ownslot: a thread's own slot; @flag: one flag), a kernel's own pointer
; argument (@globalarg: global memory), plain (non-volatile) accesses (@plain). No point
; where a block barrier or the kernel's return comes first (@tree: the store before
; __syncthreads and the last store; the load in between still gets one).
; PASSES: musa-retarget,musa-mark-warp-synchronous
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [64 x i32] undef
@f = internal addrspace(3) global i32 undef
@s2 = internal addrspace(3) global [64 x i32] undef

; CHECK-LABEL: define void @tail(
; CHECK: load volatile i32
; CHECK-NEXT: call i64 @__musa_sim_warp(i32 18, i32 -1, i64 0, i32 0, i32 0), !musa.lockstep
; CHECK: load volatile i32
; CHECK-NEXT: call i64 @__musa_sim_warp(i32 18, {{.*}}!musa.lockstep
; CHECK: store volatile i32
; CHECK-NEXT: ret void
define void @tail(i32 %t) {
  %g = addrspacecast ptr addrspace(3) @s to ptr
  %p = getelementptr i32, ptr %g, i32 %t
  %t16 = add i32 %t, 16
  %q = getelementptr i32, ptr %g, i32 %t16
  %a = load volatile i32, ptr %q
  %b = load volatile i32, ptr %p
  %c = add i32 %a, %b
  store volatile i32 %c, ptr %p
  ret void
}

; CHECK-LABEL: define internal void @helper(
; CHECK: load volatile float
; CHECK-NEXT: call i64 @__musa_sim_warp(i32 18, {{.*}}!musa.lockstep
; CHECK: load volatile float
; CHECK-NEXT: call i64 @__musa_sim_warp(i32 18, {{.*}}!musa.lockstep
; CHECK: store volatile float
; CHECK-NEXT: call i64 @__musa_sim_warp(i32 18, {{.*}}!musa.lockstep
define internal void @helper(ptr %sdata, i32 %t) {
  %p = getelementptr float, ptr %sdata, i32 %t
  %t1 = add i32 %t, 1
  %q = getelementptr float, ptr %sdata, i32 %t1
  %a = load volatile float, ptr %q
  %b = load volatile float, ptr %p
  %c = fadd float %a, %b
  store volatile float %c, ptr %p
  ret void
}

define void @callshelper(i32 %t) {
  %g = addrspacecast ptr addrspace(3) @s to ptr
  call void @helper(ptr %g, i32 %t)
  ret void
}

; CHECK-LABEL: define void @ownslot(
; CHECK-NOT: musa.lockstep
; CHECK: ret void
define void @ownslot(i32 %t) {
  %g = addrspacecast ptr addrspace(3) @s to ptr
  %p = getelementptr i32, ptr %g, i32 %t
  %a = load volatile i32, ptr %p
  %b = add i32 %a, 1
  store volatile i32 %b, ptr %p
  ret void
}

; CHECK-LABEL: define void @flag(
; CHECK-NOT: musa.lockstep
; CHECK: ret void
define void @flag(i32 %t) {
  store volatile i32 %t, ptr addrspace(3) @f
  %a = load volatile i32, ptr addrspace(3) @f
  ret void
}

; CHECK-LABEL: define void @globalarg(
; CHECK-NOT: musa.lockstep
; CHECK: ret void
define void @globalarg(ptr %out, i32 %t) {
  %p = getelementptr i32, ptr %out, i32 %t
  %t1 = add i32 %t, 1
  %q = getelementptr i32, ptr %out, i32 %t1
  %a = load volatile i32, ptr %q
  store volatile i32 %a, ptr %p
  ret void
}

; CHECK-LABEL: define void @plain(
; CHECK-NOT: musa.lockstep
; CHECK: ret void
define void @plain(i32 %t) {
  %g = addrspacecast ptr addrspace(3) @s to ptr
  %p = getelementptr i32, ptr %g, i32 %t
  %t16 = add i32 %t, 16
  %q = getelementptr i32, ptr %g, i32 %t16
  %a = load i32, ptr %q
  store i32 %a, ptr %p
  ret void
}

; CHECK-LABEL: define void @tree(
; CHECK: store volatile i32
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
; CHECK: load volatile i32
; CHECK-NEXT: call i64 @__musa_sim_warp(i32 18, {{.*}}!musa.lockstep
; CHECK: store volatile i32
; CHECK-NEXT: br label %done
; CHECK: done:
; CHECK-NEXT: ret void
define void @tree(i32 %t) {
  %g = addrspacecast ptr addrspace(3) @s to ptr
  %p = getelementptr i32, ptr %g, i32 %t
  store volatile i32 %t, ptr %p
  call void @llvm.nvvm.barrier0()
  %t1 = add i32 %t, 1
  %q = getelementptr i32, ptr %g, i32 %t1
  %a = load volatile i32, ptr %q
  store volatile i32 %a, ptr %p
  br label %done
done:
  ret void
}

; CHECK-LABEL: define void @selected(
; CHECK: load volatile i32
; CHECK-NEXT: call i64 @__musa_sim_warp(i32 18, {{.*}}!musa.lockstep
; CHECK: load volatile i32
; CHECK-NEXT: call i64 @__musa_sim_warp(i32 18, {{.*}}!musa.lockstep
define void @selected(i1 %odd, i32 %t) {
  %a = addrspacecast ptr addrspace(3) @s to ptr
  %b = addrspacecast ptr addrspace(3) @s2 to ptr
  %g = select i1 %odd, ptr %a, ptr %b
  %p = getelementptr i32, ptr %g, i32 %t
  %t16 = add i32 %t, 16
  %q = getelementptr i32, ptr %g, i32 %t16
  %x = load volatile i32, ptr %q
  %y = load volatile i32, ptr %p
  %z = add i32 %x, %y
  store volatile i32 %z, ptr %p
  ret void
}

declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6, !7}
!0 = !{ptr @tail, !"kernel", i32 1}
!1 = !{ptr @callshelper, !"kernel", i32 1}
!2 = !{ptr @ownslot, !"kernel", i32 1}
!3 = !{ptr @flag, !"kernel", i32 1}
!4 = !{ptr @globalarg, !"kernel", i32 1}
!5 = !{ptr @plain, !"kernel", i32 1}
!6 = !{ptr @tree, !"kernel", i32 1}
!7 = !{ptr @selected, !"kernel", i32 1}

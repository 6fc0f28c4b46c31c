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
; Divergent branches: a branch whose region holds a point (@guarded: `if (t >= o)` steps of a
; scan in a loop) or a call of a function with points (@guardedcall) takes the mask of the lanes
; there (a WarpConverge call) and its post-dominator starts with a quarter-local __syncwarp of
; it (op 256); a branch out of a loop (@rows: lanes leave the loop at different trips) takes the
; mask in the loop's preheader and syncs at the exit (@guarded's loop too: its trip count is
; not known to be the same for every lane). None for a branch whose region has no point, or
; whose post-dominator is the function's exit (@earlyexit: the lanes that return hold nobody
; up), or whose condition every lane of a 32-lane group computes alike (@warpzero: legacy code's
; `if (tid < 32)`; the other functions branch on threadIdx.x itself for this reason).
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

; CHECK-LABEL: define void @guarded(
; CHECK: entry:
; CHECK: [[ENTERED:%[0-9]+]] = call i64 @__musa_sim_warp(i32 18, {{.*}}!musa.lockstep
; CHECK-NEXT: [[INLOOP:%[0-9]+]] = trunc i64 [[ENTERED]] to i32
; CHECK-NEXT: br label %loop
; CHECK: loop:
; CHECK: [[LANES:%[0-9]+]] = call i64 @__musa_sim_warp(i32 18, i32 -1, i64 0, i32 0, i32 0), !musa.lockstep
; CHECK-NEXT: [[MASK:%[0-9]+]] = trunc i64 [[LANES]] to i32
; CHECK-NEXT: br i1 %take, label %step, label %join
; CHECK: step:
; CHECK: load volatile i32
; CHECK-NEXT: call i64 @__musa_sim_warp(i32 18, {{.*}}!musa.lockstep
; CHECK: join:
; CHECK-NEXT: call i64 @__musa_sim_warp(i32 256, i32 [[MASK]], i64 0, i32 0, i32 0), !musa.lockstep
; CHECK: done:
; CHECK-NEXT: call i64 @__musa_sim_warp(i32 256, i32 [[INLOOP]], {{.*}}!musa.lockstep
; CHECK-NEXT: ret void
define void @guarded() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %g = addrspacecast ptr addrspace(3) @s to ptr
  %p = getelementptr i32, ptr %g, i32 %t
  br label %loop
loop:
  %o = phi i32 [ 1, %entry ], [ %o2, %join ]
  %take = icmp uge i32 %t, %o
  br i1 %take, label %step, label %join
step:
  %src = sub i32 %t, %o
  %q = getelementptr i32, ptr %g, i32 %src
  %a = load volatile i32, ptr %q
  %b = load volatile i32, ptr %p
  %c = add i32 %a, %b
  store volatile i32 %c, ptr %p
  br label %join
join:
  %o2 = shl i32 %o, 1
  %more = icmp ult i32 %o2, 32
  br i1 %more, label %loop, label %done
done:
  ret void
}

; CHECK-LABEL: define void @guardedcall(
; CHECK: [[LANES:%[0-9]+]] = call i64 @__musa_sim_warp(i32 18, {{.*}}!musa.lockstep
; CHECK-NEXT: [[MASK:%[0-9]+]] = trunc i64 [[LANES]] to i32
; CHECK-NEXT: br i1
; CHECK: call void @helper(
; CHECK: join:
; CHECK-NEXT: call i64 @__musa_sim_warp(i32 256, i32 [[MASK]], {{.*}}!musa.lockstep
define void @guardedcall() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %g = addrspacecast ptr addrspace(3) @s to ptr
  %low = icmp ult i32 %t, 16
  br i1 %low, label %call, label %join
call:
  call void @helper(ptr %g, i32 %t)
  br label %join
join:
  ret void
}

; CHECK-LABEL: define void @rows(
; CHECK: entry:
; CHECK: [[LANES:%[0-9]+]] = call i64 @__musa_sim_warp(i32 18, {{.*}}!musa.lockstep
; CHECK-NEXT: [[MASK:%[0-9]+]] = trunc i64 [[LANES]] to i32
; CHECK-NEXT: br label %loop
; CHECK: exit:
; CHECK-NEXT: call i64 @__musa_sim_warp(i32 256, i32 [[MASK]], {{.*}}!musa.lockstep
define void @rows(i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %g = addrspacecast ptr addrspace(3) @s to ptr
  %p = getelementptr i32, ptr %g, i32 %t
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i2, %loop ]
  %t1 = add i32 %t, 1
  %q = getelementptr i32, ptr %g, i32 %t1
  %a = load volatile i32, ptr %q
  store volatile i32 %a, ptr %p
  %i2 = add i32 %i, 1
  %more = icmp ult i32 %i2, %t
  br i1 %more, label %loop, label %exit
exit:
  store i32 %i2, ptr %p
  ret void
}

; CHECK-LABEL: define void @earlyexit(
; CHECK-NOT: i32 256
; CHECK: ret void
define void @earlyexit(i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %out = icmp uge i32 %t, %n
  br i1 %out, label %leave, label %work
leave:
  ret void
work:
  %g = addrspacecast ptr addrspace(3) @s to ptr
  %p = getelementptr i32, ptr %g, i32 %t
  %t1 = add i32 %t, 1
  %q = getelementptr i32, ptr %g, i32 %t1
  %a = load volatile i32, ptr %q
  store volatile i32 %a, ptr %p
  ret void
}

; CHECK-LABEL: define void @warpzero(
; CHECK-NOT: i32 256
; CHECK: ret void
define void @warpzero() {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = icmp ult i32 %t, 32
  br i1 %first, label %tail, label %done
tail:
  %g = addrspacecast ptr addrspace(3) @s to ptr
  %p = getelementptr i32, ptr %g, i32 %t
  %t16 = add i32 %t, 16
  %q = getelementptr i32, ptr %g, i32 %t16
  %a = load volatile i32, ptr %q
  store volatile i32 %a, ptr %p
  br label %done
done:
  ret void
}

declare void @llvm.nvvm.barrier0()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6, !7, !8, !9, !10, !11, !12}
!0 = !{ptr @tail, !"kernel", i32 1}
!1 = !{ptr @callshelper, !"kernel", i32 1}
!2 = !{ptr @ownslot, !"kernel", i32 1}
!3 = !{ptr @flag, !"kernel", i32 1}
!4 = !{ptr @globalarg, !"kernel", i32 1}
!5 = !{ptr @plain, !"kernel", i32 1}
!6 = !{ptr @tree, !"kernel", i32 1}
!7 = !{ptr @selected, !"kernel", i32 1}
!8 = !{ptr @guarded, !"kernel", i32 1}
!9 = !{ptr @guardedcall, !"kernel", i32 1}
!10 = !{ptr @rows, !"kernel", i32 1}
!11 = !{ptr @earlyexit, !"kernel", i32 1}
!12 = !{ptr @warpzero, !"kernel", i32 1}

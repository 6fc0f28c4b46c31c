; CheckAccesses (as MUSA_SIM_MEMCHECK=1 runs it): a 4-byte load through a pointer of unknown
; alignment ORs its low two address bits into a local; a shared-memory store tests its end
; against ctx->sharedLimit (and not its alignment) and, past it, goes to the module's sink
; instead of whatever lies beyond the block's shared memory; the local reaches ctx->accessFaults
; (offset 128) once, at the return. Accesses through pointer arguments (of any size) ask the
; runtime whether their address is reachable (host memory); the shared store and the global's
; load do not. A byte access and an access to a known-aligned global are not alignment-checked.
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-check-accesses-memcheck
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x i32] undef, align 4
@aligned = internal addrspace(1) global [4 x i32] zeroinitializer, align 16

define void @k(ptr %in, ptr %bytes) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %src = getelementptr i32, ptr %in, i32 %t
  %v = load i32, ptr %src
  %dst = getelementptr [64 x i32], ptr addrspace(3) @tile, i32 0, i32 %t
  store i32 %v, ptr addrspace(3) %dst
  %b = load i8, ptr %bytes
  %g = load i32, ptr addrspace(1) @aligned
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

; CHECK: @musa.shared.sink = internal global [256 x i8] zeroinitializer, align 64
; CHECK-LABEL: define void @k(
; CHECK: %musa.faults = alloca i64
; CHECK: and i64 {{.*}}, 3
; CHECK: call i64 @__musa_sim_check_address(ptr {{.*}}, ptr %musa.ctx)
; CHECK: load i32, ptr %src
; CHECK: [[PAST:%[0-9]+]] = icmp sgt i64
; CHECK: select i1 [[PAST]], i64 256, i64 0
; CHECK: [[TO:%[0-9]+]] = select i1 [[PAST]], ptr addrspace(3) addrspacecast (ptr @musa.shared.sink to ptr addrspace(3)), ptr addrspace(3) %dst
; CHECK: store i32 %v, ptr addrspace(3) [[TO]]
; CHECK-NOT: and i64 {{.*}}, 3
; CHECK: call i64 @__musa_sim_check_address(
; CHECK: load i8, ptr %bytes
; CHECK-NOT: call i64 @__musa_sim_check_address(
; CHECK: getelementptr inbounds i8, ptr %musa.ctx, i32 128
; CHECK: ret void

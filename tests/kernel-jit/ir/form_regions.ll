; FormBarrierRegions: a kernel with a barrier inside a loop becomes two region loops (from the
; entry to the barrier, and from the barrier around the loop back to it or to the end). The
; barrier call is gone from them: a thread reaching it stores its next region and flags it
; pending (store i32 1). The loop counter and threadIdx, live across the barrier, live in the
; frame (slots of their natural size); the facts record the frame size and one park point.
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-emit-thunks,musa-form-regions
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x i32] undef, align 4

define void @k(ptr %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %slot = getelementptr [64 x i32], ptr addrspacecast (ptr addrspace(3) @tile to ptr), i32 0, i32 %t
  store i32 %i, ptr %slot
  call void @llvm.nvvm.barrier0()
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  %p = getelementptr i32, ptr %out, i32 %t
  store i32 %next, ptr %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

; CHECK: @__musa_rfacts_k = constant { i32, i32, [1 x i32] } { i32 {{[1-9][0-9]*}}, i32 1, [1 x i32] zeroinitializer }
; CHECK: define void @__musa_regions_k(ptr %0, ptr %1, ptr %2, ptr %3, i32 %4)
; CHECK: switch i32 %4
; CHECK-NOT: call void @__musa_sim_barrier
; CHECK: define internal void @__musa_regions_body_k.0(
; CHECK-NOT: call void @__musa_sim_barrier
; CHECK: store i32 1, ptr
; CHECK: define internal void @__musa_regions_body_k.1(
; CHECK-NOT: call void @__musa_sim_barrier
; CHECK: ret void

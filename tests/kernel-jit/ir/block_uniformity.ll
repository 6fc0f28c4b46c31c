; BlockUniformity in FormBarrierRegions: a value every thread holds alike across a barrier
; (the tree reduction's stride: blockDim.x / 2, halved each round) is stored per thread as any
; other, but reloaded at the region's start through a select on "every thread enters": that
; variant reads thread 0's slot once, before the loop over threads (a load in the entry
; block). A value that is computed alike but chosen by a thread-dependent branch both of whose
; sides reach the barrier (@chosen's %x, a phi where the two ways meet) is reloaded per thread
; only; so is threadIdx-derived data (%v). One side of a thread-dependent branch that returns
; (`if (t >= n) return`) does not stop the stride being uniform, nor does a thread-dependent
; if/else that rejoins before the loop (@joined's counter %k).
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-emit-thunks,musa-form-regions
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [256 x float] undef, align 4

define void @tree(ptr %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %early = icmp uge i32 %t, %n
  br i1 %early, label %gone, label %start
gone:
  ret void
start:
  %half = lshr i32 %ntid, 1
  br label %loop
loop:
  %stride = phi i32 [ %half, %start ], [ %next, %loop ]
  %p = getelementptr [256 x float], ptr addrspacecast (ptr addrspace(3) @s to ptr), i32 0, i32 %t
  store float 1.0, ptr %p
  call void @llvm.nvvm.barrier0()
  %next = lshr i32 %stride, 1
  %more = icmp ugt i32 %next, 0
  br i1 %more, label %loop, label %done
done:
  %o = getelementptr i32, ptr %out, i32 %t
  store i32 %stride, ptr %o
  ret void
}

define void @chosen(ptr %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %xa = mul i32 %n, 2
  %xb = mul i32 %n, 3
  %low = icmp ult i32 %t, 5
  br i1 %low, label %a, label %b
a:
  br label %join
b:
  br label %join
join:
  %x = phi i32 [ %xa, %a ], [ %xb, %b ]
  %v = mul i32 %t, %n
  call void @llvm.nvvm.barrier0()
  %sum = add i32 %x, %v
  %o = getelementptr i32, ptr %out, i32 %t
  store i32 %sum, ptr %o
  ret void
}

define void @joined(ptr %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %low = icmp ult i32 %t, 5
  br i1 %low, label %a, label %b
a:
  %pa = getelementptr i32, ptr %out, i32 %t
  store i32 1, ptr %pa
  br label %start
b:
  %pb = getelementptr i32, ptr %out, i32 %n
  store i32 2, ptr %pb
  br label %start
start:
  br label %loop
loop:
  %k = phi i32 [ 0, %start ], [ %k.next, %loop ]
  call void @llvm.nvvm.barrier0()
  %k.next = add i32 %k, 1
  %more = icmp slt i32 %k.next, %n
  br i1 %more, label %loop, label %done
done:
  %o = getelementptr i32, ptr %out, i32 %t
  store i32 %k, ptr %o
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @tree, !"kernel", i32 1}
!1 = !{ptr @chosen, !"kernel", i32 1}
!2 = !{ptr @joined, !"kernel", i32 1}

; CHECK-LABEL: define internal void @__musa_regions_body_tree.1(
; CHECK: %stride.reload.first = load i32, ptr
; CHECK: %stride.reload = load i32, ptr
; CHECK: select i1 {{.*}}, i32 %stride.reload.first, i32 %stride.reload
; CHECK-LABEL: define internal void @__musa_regions_body_chosen.1(
; CHECK-NOT: .first
; CHECK: ret void
; CHECK-LABEL: define internal void @__musa_regions_body_joined.1(
; CHECK: %k.reload.first = load i32, ptr
; CHECK: select i1 {{.*}}, i32 %k.reload.first, i32 %k.reload

; FormBarrierRegions at a warp collective: the shuffle becomes stores of its operands to the
; thread's park record (no call into the simulator), the thread parks (its resume entry has
; the parked bit, 0x80000001) and flags the pass as parked (a byte of the event word), and the
; region after the point loads the result from the record before the thread exits
; (2147483647, flagging that too). The facts name the
; point a warp collective (kind 2).
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-emit-thunks,musa-form-regions
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @shfl(ptr %out, i32 %delta) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = zext i32 %t to i64
  %r = call i64 @__musa_sim_warp(i32 3, i32 -1, i64 %v, i32 %delta, i32 32)
  %p = getelementptr i64, ptr %out, i32 %t
  store i64 %r, ptr %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i64 @__musa_sim_warp(i32, i32, i64, i32, i32)

!nvvm.annotations = !{!0}
!0 = !{ptr @shfl, !"kernel", i32 1}

; CHECK: @__musa_rfacts_shfl = constant { i32, i32, [1 x i32] } { i32 {{[0-9]+}}, i32 1, [1 x i32] [i32 2] }
; CHECK-NOT: __musa_park_result.placeholder
; CHECK: define internal void @__musa_regions_body_shfl.0(
; CHECK-NOT: call {{.*}}@__musa_sim_warp
; CHECK: store i32 3, ptr
; CHECK: store i32 -1, ptr
; CHECK: store i32 -2147483647, ptr
; CHECK: store i8 1, ptr
; CHECK: define internal void @__musa_regions_body_shfl.1(
; CHECK-NOT: call {{.*}}@__musa_sim_warp
; CHECK: load i64, ptr
; CHECK: store i32 2147483647, ptr
; CHECK: store i8 1, ptr

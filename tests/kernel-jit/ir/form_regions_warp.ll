; FormBarrierRegions at a warp collective: the shuffle becomes stores of its operands to the
; thread's park record (no call into the simulator), the thread parks (its resume entry has
; the parked bit, 0x80000001) and flags the pass as parked (a byte of the event word), and the
; region after the point loads the result from the record before the thread exits
; (2147483647, flagging that too). The facts name the
; point a warp collective (kind 2).
; The shuffle's mask, delta and width are block-uniform and it is the only point region 0 can
; reach: after running region 0 for every thread, the entry asks the simulator to complete it
; (__musa_sim_region_shuffle) and goes on with region 1 for every thread (its variant
; "region3") in the same call. A shuffle whose delta depends on the thread gets no such chain.
; Such a point's facts carry abi::RegionPointUniform (2 | 0x100 = 258), and in the variant
; for every thread its operation, mask, delta and width are stored through a select on
; `all` (the uniform record there, the thread's arrays otherwise); its value always to the
; thread's array.
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

define void @shfl_lane(ptr %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = zext i32 %t to i64
  %src = and i32 %t, 7
  %r = call i64 @__musa_sim_warp(i32 1, i32 -1, i64 %v, i32 %src, i32 32)
  %p = getelementptr i64, ptr %out, i32 %t
  store i64 %r, ptr %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i64 @__musa_sim_warp(i32, i32, i64, i32, i32)

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @shfl, !"kernel", i32 1}
!1 = !{ptr @shfl_lane, !"kernel", i32 1}

; CHECK: @__musa_rfacts_shfl = constant { i32, i32, [1 x i32] } { i32 {{[0-9]+}}, i32 1, [1 x i32] [i32 258] }
; CHECK: @__musa_rfacts_shfl_lane = constant { i32, i32, [1 x i32] } { i32 {{[0-9]+}}, i32 1, [1 x i32] [i32 2] }
; CHECK: define void @__musa_regions_shfl(
; CHECK: region2:
; CHECK-NEXT: call void @__musa_regions_body_shfl.all.0(
; CHECK-NEXT: [[DONE:%[0-9]+]] = call i32 @__musa_sim_region_shuffle(ptr %1, ptr %3, i32 2, i32 0)
; CHECK-NEXT: [[OK:%[0-9]+]] = icmp ne i32 [[DONE]], 0
; CHECK-NEXT: br i1 [[OK]], label %region3, label %done
; CHECK: region3:
; CHECK-NEXT: call void @__musa_regions_body_shfl.all.1(
; CHECK-NEXT: br label %done
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
; CHECK: define internal void @__musa_regions_body_shfl.all.0(
; CHECK: [[OP:%[0-9]+]] = select i1 {{%[0-9]+}}, ptr {{%[0-9]+}}, ptr {{%[0-9]+}}
; CHECK-NEXT: store i32 3, ptr [[OP]]
; CHECK: [[MASK:%[0-9]+]] = select i1 {{%[0-9]+}}, ptr {{%[0-9]+}}, ptr {{%[0-9]+}}
; CHECK-NEXT: store i32 -1, ptr [[MASK]]
; CHECK-NEXT: getelementptr inbounds i64
; CHECK-NEXT: store i64 %v, ptr
; CHECK: define void @__musa_regions_shfl_lane(
; CHECK-NOT: __musa_sim_region_shuffle
; CHECK: ret void

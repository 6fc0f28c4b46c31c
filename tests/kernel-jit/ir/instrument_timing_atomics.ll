; InstrumentTiming: an atomic the GPU compiler makes one a warp gets AccessCombinedAtomic
; (1 << 22) in its site's info: an integer add at an address every lane computes alike
; (@uniformAdd: a kernel parameter; @blockAdd: plus blockIdx.x), and an and/or/xor/min/max
; whose result is unused (@uniformMax). Not combined, so a warp's lanes on one address are
; applied one after another: an add at a lane's own address (@laneAdd: threadIdx.x), an
; exchange (@uniformXchg), a max whose result is used (@usedMax), a float add (@floatAdd:
; AccessFloatAtomic, 1 << 21). Info = size | AccessAtomic (1 << 17) | those bits.
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-instrument-timing,musa-emit-thunks
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @uniformAdd(ptr %g) {
  %old = atomicrmw add ptr %g, i32 1 monotonic
  ret void
}

define void @blockAdd(ptr %g, ptr %out) {
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %p = getelementptr i32, ptr %g, i32 %b
  %old = atomicrmw add ptr %p, i32 3 monotonic
  store i32 %old, ptr %out
  ret void
}

define void @laneAdd(ptr %g) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr i32, ptr %g, i32 %t
  %old = atomicrmw add ptr %p, i32 1 monotonic
  ret void
}

define void @uniformXchg(ptr %g, i32 %v) {
  %old = atomicrmw xchg ptr %g, i32 %v monotonic
  ret void
}

define void @uniformMax(ptr %g) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %old = atomicrmw max ptr %g, i32 %t monotonic
  ret void
}

define void @usedMax(ptr %g, ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %old = atomicrmw max ptr %g, i32 %t monotonic
  store i32 %old, ptr %out
  ret void
}

define void @floatAdd(ptr %g) {
  %old = atomicrmw fadd ptr %g, float 1.0 monotonic
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6}
!0 = !{ptr @uniformAdd, !"kernel", i32 1}
!1 = !{ptr @blockAdd, !"kernel", i32 1}
!2 = !{ptr @laneAdd, !"kernel", i32 1}
!3 = !{ptr @uniformXchg, !"kernel", i32 1}
!4 = !{ptr @uniformMax, !"kernel", i32 1}
!5 = !{ptr @usedMax, !"kernel", i32 1}
!6 = !{ptr @floatAdd, !"kernel", i32 1}

; Each also holds a group of one (1 << 24 = 16777216): 21102596 = 4 | 1 << 17 | 1 << 22 |
; 1 << 24; 16908292 = 4 | 1 << 17 | 1 << 24; 19005444 = 4 | 1 << 17 | 1 << 21 | 1 << 24.
; blockAdd's store (16842756 = 4 | 1 << 16 | 1 << 24) and usedMax's follow their atomics.
; CHECK: @__musa_timing_site_info = constant [9 x i32] [i32 21102596, i32 21102596, i32 16842756, i32 16908292, i32 16908292, i32 21102596, i32 16908292, i32 16842756, i32 19005444]

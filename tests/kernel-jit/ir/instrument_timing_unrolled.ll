; InstrumentTiming: a counted loop clang has already unrolled at run time (here by four: the
; main loop's eight loads against its remainder loop's two, the remainder marked
; llvm.loop.unroll.disable as LLVM marks it) keeps the four iterations its body holds in
; flight: its loads have group 8 x 1 = 8, not 8 x 4 = 32 as a loop nvcc would still unroll.
; The remainder loop's two loads have group 2. @plain (no remainder loop beside it) keeps
; nvcc's four: 2 x 4 = 8.
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-instrument-timing
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define float @unrolled(ptr %a, ptr %b, i32 %n) {
entry:
  %n4 = and i32 %n, -4
  %some = icmp sgt i32 %n4, 0
  br i1 %some, label %main, label %after
main:
  %i = phi i32 [ 0, %entry ], [ %i4, %main ]
  %s = phi float [ 0.0, %entry ], [ %s3, %main ]
  %pa0 = getelementptr float, ptr %a, i32 %i
  %pb0 = getelementptr float, ptr %b, i32 %i
  %x0 = load float, ptr %pa0
  %y0 = load float, ptr %pb0
  %m0 = fmul float %x0, %y0
  %s0 = fadd float %s, %m0
  %i1 = add i32 %i, 1
  %pa1 = getelementptr float, ptr %a, i32 %i1
  %pb1 = getelementptr float, ptr %b, i32 %i1
  %x1 = load float, ptr %pa1
  %y1 = load float, ptr %pb1
  %m1 = fmul float %x1, %y1
  %s1 = fadd float %s0, %m1
  %i2 = add i32 %i, 2
  %pa2 = getelementptr float, ptr %a, i32 %i2
  %pb2 = getelementptr float, ptr %b, i32 %i2
  %x2 = load float, ptr %pa2
  %y2 = load float, ptr %pb2
  %m2 = fmul float %x2, %y2
  %s2 = fadd float %s1, %m2
  %i3 = add i32 %i, 3
  %pa3 = getelementptr float, ptr %a, i32 %i3
  %pb3 = getelementptr float, ptr %b, i32 %i3
  %x3 = load float, ptr %pa3
  %y3 = load float, ptr %pb3
  %m3 = fmul float %x3, %y3
  %s3 = fadd float %s2, %m3
  %i4 = add i32 %i, 4
  %more = icmp slt i32 %i4, %n4
  br i1 %more, label %main, label %after, !llvm.loop !0
after:
  %j0 = phi i32 [ 0, %entry ], [ %i4, %main ]
  %t0 = phi float [ 0.0, %entry ], [ %s3, %main ]
  %rest = icmp slt i32 %j0, %n
  br i1 %rest, label %remainder, label %exit
remainder:
  %j = phi i32 [ %j0, %after ], [ %j1, %remainder ]
  %t = phi float [ %t0, %after ], [ %t1, %remainder ]
  %pa = getelementptr float, ptr %a, i32 %j
  %pb = getelementptr float, ptr %b, i32 %j
  %x = load float, ptr %pa
  %y = load float, ptr %pb
  %m = fmul float %x, %y
  %t1 = fadd float %t, %m
  %j1 = add i32 %j, 1
  %again = icmp slt i32 %j1, %n
  br i1 %again, label %remainder, label %exit, !llvm.loop !2
exit:
  %r = phi float [ %t0, %after ], [ %t1, %remainder ]
  ret float %r
}

define float @plain(ptr %a, ptr %b, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %acc, %loop ]
  %pa = getelementptr float, ptr %a, i32 %i
  %pb = getelementptr float, ptr %b, i32 %i
  %x = load float, ptr %pa
  %y = load float, ptr %pb
  %m = fmul float %x, %y
  %acc = fadd float %sum, %m
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret float %acc
}

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.mustprogress"}
!2 = distinct !{!2, !3}
!3 = !{!"llvm.loop.unroll.disable"}

; Group 8: 0x08000004 = 134217732 (the main loop's eight loads, @plain's two); group 2:
; 0x02000004 = 33554436 (the remainder's two).
; CHECK: @__musa_timing_site_info = constant [12 x i32] [i32 134217732, i32 134217732, i32 134217732, i32 134217732, i32 134217732, i32 134217732, i32 134217732, i32 134217732, i32 33554436, i32 33554436, i32 134217732, i32 134217732]

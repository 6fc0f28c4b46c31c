; SplitThreadGuards: a thread loop (marked musa.thread.loop) with `if (base + x < n)` becomes
; a first loop over the leading k = clamp(n - base, 0, T) threads without the test, and the
; original loop, test kept, over the rest, starting from the first loop's values (the
; induction variable and the sum alike). A loop without the marker is left alone.
; PASSES: function(musa-split-guards)
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @threads(ptr %out, i32 %base, i32 %n, i32 %ntid) {
entry:
  br label %loop

loop:
  %x = phi i32 [ 0, %entry ], [ %x.next, %latch ]
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %latch ]
  %i = add i32 %base, %x
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %latch

body:
  %p = getelementptr i32, ptr %out, i32 %i
  store i32 %x, ptr %p
  br label %latch

latch:
  %add = zext i1 %in to i32
  %sum.next = add i32 %sum, %add
  %x.next = add nuw i32 %x, 1
  %more = icmp ult i32 %x.next, %ntid
  br i1 %more, label %loop, label %exit, !llvm.loop !0

exit:
  ret i32 %sum.next
}

define void @plain(ptr %out, i32 %base, i32 %n, i32 %ntid) {
entry:
  br label %loop

loop:
  %x = phi i32 [ 0, %entry ], [ %x.next, %latch ]
  %i = add i32 %base, %x
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %latch

body:
  %p = getelementptr i32, ptr %out, i32 %i
  store i32 %x, ptr %p
  br label %latch

latch:
  %x.next = add nuw i32 %x, 1
  %more = icmp ult i32 %x.next, %ntid
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!"musa.thread.loop"}

; CHECK-LABEL: define i32 @threads(
; CHECK: %musa.split.k = call i64 @llvm.smin.i64(
; CHECK: br i1 {{.*}}, label %musa.split.first.ph, label %musa.split.mid
; CHECK: musa.split.mid:
; CHECK-DAG: phi i32 [ 0, %entry ], [ %x.next.first, %latch.first ]
; CHECK-DAG: phi i32 [ 0, %entry ], [ %sum.next.first, %latch.first ]
; CHECK: br i1 {{.*}}, label %musa.split.rest.ph, label %exit
; CHECK: loop:
; CHECK: %in = icmp slt i32 %i, %n
; CHECK: br i1 %in, label %body, label %latch
; CHECK: exit:
; CHECK-NEXT: phi i32 [ %sum.next, %latch ], [ {{%[0-9a-z.]+}}, %musa.split.mid ]
; CHECK: loop.first:
; CHECK-NOT: icmp slt
; CHECK: br i1 true, label %body.first, label %latch.first
; CHECK: latch.first:
; CHECK: icmp ult i64 {{.*}}, %musa.split.k
; CHECK-LABEL: define void @plain(
; CHECK-NOT: musa.split
; CHECK: ret void

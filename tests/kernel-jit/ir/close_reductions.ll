; CloseLoopReductions: in a loop whose counters update on every iteration, a count growing by
; a constant, the lowest and highest address of an access (umin/umax of ptrtoint of
; p + 4 * sext(base + x), an index that is not an add recurrence once extended) and the
; alignment check's low bits (or of `addr & 3` with a stride of 4) are computed before the
; loop from its trip count; the loop keeps only the kernel's own work. A reduction whose
; update is conditional (the count in @guarded) stays.
; PASSES: function(musa-close-reductions)
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @threads(ptr %a, i32 %base, i32 %ntid, ptr %out) {
entry:
  br label %loop

loop:
  %x = phi i32 [ 0, %entry ], [ %x.next, %loop ]
  %count = phi i64 [ 7, %entry ], [ %count.next, %loop ]
  %low = phi i64 [ -1, %entry ], [ %low.next, %loop ]
  %high = phi i64 [ 0, %entry ], [ %high.next, %loop ]
  %faults = phi i64 [ 0, %entry ], [ %faults.next, %loop ]
  %i = add i32 %base, %x
  %wide = sext i32 %i to i64
  %p = getelementptr float, ptr %a, i64 %wide
  store float 1.0, ptr %p
  %addr = ptrtoint ptr %p to i64
  %end = add i64 %addr, 4
  %count.next = add i64 %count, 3
  %low.next = call i64 @llvm.umin.i64(i64 %low, i64 %addr)
  %high.next = call i64 @llvm.umax.i64(i64 %high, i64 %end)
  %bits = and i64 %addr, 3
  %faults.next = or i64 %faults, %bits
  %x.next = add nuw i32 %x, 1
  %more = icmp ult i32 %x.next, %ntid
  br i1 %more, label %loop, label %exit

exit:
  store i64 %count.next, ptr %out
  %o1 = getelementptr i64, ptr %out, i64 1
  store i64 %low.next, ptr %o1
  %o2 = getelementptr i64, ptr %out, i64 2
  store i64 %high.next, ptr %o2
  %o3 = getelementptr i64, ptr %out, i64 3
  store i64 %faults.next, ptr %o3
  ret void
}

define i64 @guarded(ptr %a, i32 %n, i32 %ntid) {
entry:
  br label %loop

loop:
  %x = phi i32 [ 0, %entry ], [ %x.next, %latch ]
  %count = phi i64 [ 0, %entry ], [ %count.next, %latch ]
  %in = icmp slt i32 %x, %n
  br i1 %in, label %body, label %latch

body:
  %added = add i64 %count, 1
  br label %latch

latch:
  %count.next = phi i64 [ %added, %body ], [ %count, %loop ]
  %x.next = add nuw i32 %x, 1
  %more = icmp ult i32 %x.next, %ntid
  br i1 %more, label %loop, label %exit

exit:
  ret i64 %count.next
}

declare i64 @llvm.umin.i64(i64, i64)
declare i64 @llvm.umax.i64(i64, i64)

; CHECK-LABEL: define void @threads(
; CHECK: entry:
; CHECK-DAG: call i64 @llvm.umin.i64(i64 -1,
; CHECK-DAG: call i64 @llvm.umax.i64(i64 0,
; CHECK: loop:
; CHECK-NOT: phi i64
; CHECK-NOT: @llvm.umin
; CHECK-NOT: @llvm.umax
; CHECK: store float 1.0
; CHECK: exit:
; CHECK-LABEL: define i64 @guarded(
; CHECK: loop:
; CHECK: %count = phi i64

; MarkParallelThreadLoops: a thread loop (marked musa.thread.loop) whose accesses are the
; kernel's own (`s[x] += s[x + stride]`, a distance the vectoriser cannot know) has them in
; one access group that its loop id lists as parallel. Left alone: a thread loop that updates
; a fixed address with a per-thread value (the fault word, in order), one with a volatile
; access (warp-synchronous code), and a loop that is not a thread loop.
; PASSES: function(musa-mark-parallel)
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @tree(
; CHECK: load float, ptr %{{.*}}, !llvm.access.group ![[GROUP:[0-9]+]]
; CHECK: load float, ptr %{{.*}}, !llvm.access.group ![[GROUP]]
; CHECK: store float %{{.*}}, !llvm.access.group ![[GROUP]]
; CHECK: store i32 1, ptr %flag, align 4, !llvm.access.group ![[GROUP]]
; CHECK: br i1 %more, label %loop, label %exit, !llvm.loop ![[LOOP:[0-9]+]]
define void @tree(ptr %s, i32 %stride, i32 %ntid, ptr %flag) {
entry:
  br label %loop

loop:
  %x = phi i32 [ 0, %entry ], [ %x.next, %latch ]
  %in = icmp ult i32 %x, %stride
  br i1 %in, label %body, label %latch

body:
  %far = add i32 %x, %stride
  %pfar = getelementptr float, ptr %s, i32 %far
  %pnear = getelementptr float, ptr %s, i32 %x
  %a = load float, ptr %pfar
  %b = load float, ptr %pnear
  %sum = fadd float %a, %b
  store float %sum, ptr %pnear
  br label %latch

latch:
  store i32 1, ptr %flag, align 4
  %x.next = add nuw i32 %x, 1
  %more = icmp ult i32 %x.next, %ntid
  br i1 %more, label %loop, label %exit, !llvm.loop !0

exit:
  ret void
}

; CHECK-LABEL: define void @faults(
; CHECK-NOT: llvm.access.group
; CHECK-LABEL: define void @volatile(
define void @faults(ptr %out, i32 %ntid, ptr %word) {
entry:
  br label %loop

loop:
  %x = phi i32 [ 0, %entry ], [ %x.next, %loop ]
  %p = getelementptr i32, ptr %out, i32 %x
  store i32 %x, ptr %p
  %bits = ptrtoint ptr %p to i64
  %low = and i64 %bits, 3
  %old = load i64, ptr %word
  %new = or i64 %old, %low
  store i64 %new, ptr %word
  %x.next = add nuw i32 %x, 1
  %more = icmp ult i32 %x.next, %ntid
  br i1 %more, label %loop, label %exit, !llvm.loop !2

exit:
  ret void
}

; CHECK-NOT: llvm.access.group
; CHECK-LABEL: define void @plain(
define void @volatile(ptr %s, i32 %ntid) {
entry:
  br label %loop

loop:
  %x = phi i32 [ 0, %entry ], [ %x.next, %loop ]
  %near = getelementptr i32, ptr %s, i32 %x
  %far.index = add i32 %x, 16
  %far = getelementptr i32, ptr %s, i32 %far.index
  %v = load volatile i32, ptr %far
  store volatile i32 %v, ptr %near
  %x.next = add nuw i32 %x, 1
  %more = icmp ult i32 %x.next, %ntid
  br i1 %more, label %loop, label %exit, !llvm.loop !3

exit:
  ret void
}

; CHECK-NOT: llvm.access.group
; CHECK: ![[LOOP]] = distinct !{![[LOOP]], ![[MARKER:[0-9]+]], ![[PARALLEL:[0-9]+]]}
; CHECK: ![[MARKER]] = !{!"musa.thread.loop"}
; CHECK: ![[PARALLEL]] = !{!"llvm.loop.parallel_accesses", ![[GROUP]]}
define void @plain(ptr %s, i32 %stride, i32 %ntid) {
entry:
  br label %loop

loop:
  %x = phi i32 [ 0, %entry ], [ %x.next, %loop ]
  %far.index = add i32 %x, %stride
  %far = getelementptr i32, ptr %s, i32 %far.index
  %near = getelementptr i32, ptr %s, i32 %x
  %v = load i32, ptr %far
  store i32 %v, ptr %near
  %x.next = add nuw i32 %x, 1
  %more = icmp ult i32 %x.next, %ntid
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!"musa.thread.loop"}
!2 = distinct !{!2, !1}
!3 = distinct !{!3, !1}

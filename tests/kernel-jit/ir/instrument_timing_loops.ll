; InstrumentTiming: in an innermost loop that stores nothing and whose addresses do not depend
; on its own loads, the loads of four iterations are in flight at once (GPU compilers unroll
; such loops by four): @dot's two independent loads have group 2 x 4 = 8. A loop that also
; stores (@axpy: a later iteration's loads cannot move above the store) or chases pointers
; (@chase: each address is the previous load) keeps one iteration at a time: groups 2 and 1.
; So does a loop whose counter steps by a run-time amount (@stride_sum: `i += blockDim.x`,
; which nvcc does not unroll): its one load has group 1.
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-instrument-timing
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define float @dot(ptr %a, ptr %b, i32 %n) {
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

define void @axpy(ptr %x, ptr %y, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %px = getelementptr float, ptr %x, i32 %i
  %py = getelementptr float, ptr %y, i32 %i
  %a = load float, ptr %px
  %b = load float, ptr %py
  %s = fadd float %a, %b
  store float %s, ptr %py
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define i32 @chase(ptr %next, i32 %steps) {
entry:
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %loop ]
  %p = phi i32 [ 0, %entry ], [ %q, %loop ]
  %pp = getelementptr i32, ptr %next, i32 %p
  %q = load i32, ptr %pp
  %k1 = add i32 %k, 1
  %done = icmp eq i32 %k1, %steps
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %q
}

define float @stride_sum(ptr %a, i32 %start, i32 %stride, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ %start, %entry ], [ %next, %loop ]
  %sum = phi float [ 0.0, %entry ], [ %acc, %loop ]
  %pa = getelementptr float, ptr %a, i32 %i
  %x = load float, ptr %pa
  %acc = fadd float %sum, %x
  %next = add i32 %i, %stride
  %done = icmp sge i32 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret float %acc
}

; Loads 0x08000004 = 134217732 (group 8); @axpy's loads 0x02000004 = 33554436 and its store
; 0x02010004 = 33619972; @chase's load 0x01000004 = 16777220, @stride_sum's too.
; CHECK: @__musa_timing_site_info = constant [7 x i32] [i32 134217732, i32 134217732, i32 33554436, i32 33554436, i32 33619972, i32 16777220, i32 16777220]

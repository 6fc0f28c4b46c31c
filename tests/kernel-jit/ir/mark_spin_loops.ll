; MarkSpinLoops: loops whose exit depends on a location they poll yield on each back edge
; (a trip counter from 0 and a call to __musa_sim_spin with the context), and the kernel is
; marked as needing fibers. Polls: a volatile load (@flag), a compare-and-swap with a fixed
; expected value (@lock), atomicAdd(p, 0) (@count), a plain load with a fence in the loop
; (@fenced), a volatile load deciding whether a trip got anywhere, at a moving address
; (@lookback). Not polls: a CAS retry loop (@casadd: the expected value is the last one read),
; linear probing (@probe: the address moves), a work queue (@queue: atomicAdd(next, 1)).
; A volatile poll of a __shared__ flag (@sharedflag) is a spin loop that waits only for its
; own block: no FactWaits, no !musa.spin.waits.
; Polls inside functions the loop calls (not inlined): a volatile load that @ready returns
; (@viacall waits for a value), a compare-and-swap that @trylock returns the success of, with
; the same lock every trip (@lockcall takes a lock). Not a poll: @take's atomicAdd(next, 1)
; (@takecall is a work queue).
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-mark-spins,musa-emit-thunks
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @flag(ptr %p, ptr %out) {
entry:
  br label %wait
wait:
  %v = load volatile i32, ptr %p
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %wait, label %done
done:
  store i32 %v, ptr %out
  ret void
}

define void @lock(ptr %l, ptr %c) {
entry:
  br label %acquire
acquire:
  %r = cmpxchg ptr %l, i32 0, i32 1 monotonic monotonic
  %ok = extractvalue { i32, i1 } %r, 1
  br i1 %ok, label %held, label %acquire
held:
  %x = load i32, ptr %c
  %y = add i32 %x, 1
  store i32 %y, ptr %c
  %old = atomicrmw xchg ptr %l, i32 0 monotonic
  ret void
}

define void @count(ptr %n, i32 %target) {
entry:
  br label %wait
wait:
  %v = atomicrmw add ptr %n, i32 0 monotonic
  %less = icmp ult i32 %v, %target
  br i1 %less, label %wait, label %done
done:
  ret void
}

define void @fenced(ptr %p) {
entry:
  br label %wait
wait:
  fence seq_cst
  %v = load i32, ptr %p
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %wait, label %done
done:
  ret void
}

define void @casadd(ptr %p) {
entry:
  %first = load i32, ptr %p
  br label %retry
retry:
  %seen = phi i32 [ %first, %entry ], [ %old, %retry ]
  %new = add i32 %seen, 3
  %r = cmpxchg ptr %p, i32 %seen, i32 %new monotonic monotonic
  %old = extractvalue { i32, i1 } %r, 0
  %ok = extractvalue { i32, i1 } %r, 1
  br i1 %ok, label %done, label %retry
done:
  ret void
}

define void @probe(ptr %table, i32 %key) {
entry:
  br label %try
try:
  %slot = phi i32 [ %key, %entry ], [ %next, %try ]
  %masked = and i32 %slot, 1023
  %a = getelementptr i32, ptr %table, i32 %masked
  %r = cmpxchg ptr %a, i32 0, i32 %key monotonic monotonic
  %ok = extractvalue { i32, i1 } %r, 1
  %next = add i32 %slot, 1
  br i1 %ok, label %done, label %try
done:
  ret void
}

define void @queue(ptr %next, ptr %items, i32 %n) {
entry:
  br label %take
take:
  %i = atomicrmw add ptr %next, i32 1 monotonic
  %more = icmp ult i32 %i, %n
  br i1 %more, label %work, label %done
work:
  %a = getelementptr i32, ptr %items, i32 %i
  store i32 1, ptr %a
  br label %take
done:
  ret void
}

; Look-back: poll slot j until it is ready, then j - 1 (the address moves, but the volatile
; load decides whether a trip got anywhere).
define void @lookback(ptr %flags, ptr %out) {
entry:
  br label %loop
loop:
  %j = phi i32 [ 3, %entry ], [ %j, %loop ], [ %next, %ready ]
  %a = getelementptr i32, ptr %flags, i32 %j
  %v = load volatile i32, ptr %a
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %loop, label %ready
ready:
  %next = sub i32 %j, 1
  %more = icmp sge i32 %next, 0
  br i1 %more, label %loop, label %done
done:
  store i32 %j, ptr %out
  ret void
}

@sflag = internal addrspace(3) global i32 undef, align 4

define void @sharedflag(ptr %out) {
entry:
  br label %wait
wait:
  %v = load volatile i32, ptr addrspace(3) @sflag
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %wait, label %done
done:
  store i32 %v, ptr %out
  ret void
}

define internal i32 @ready(ptr %p) noinline {
  %v = load volatile i32, ptr %p
  ret i32 %v
}

define void @viacall(ptr %p, ptr %out) {
entry:
  br label %wait
wait:
  %v = call i32 @ready(ptr %p)
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %wait, label %done
done:
  store i32 %v, ptr %out
  ret void
}

define internal i1 @trylock(ptr %l) noinline {
  %r = cmpxchg ptr %l, i32 0, i32 1 monotonic monotonic
  %ok = extractvalue { i32, i1 } %r, 1
  ret i1 %ok
}

define void @lockcall(ptr %l) {
entry:
  br label %acquire
acquire:
  %ok = call i1 @trylock(ptr %l)
  br i1 %ok, label %held, label %acquire
held:
  %old = atomicrmw xchg ptr %l, i32 0 monotonic
  ret void
}

define internal i32 @take(ptr %next) noinline {
  %i = atomicrmw add ptr %next, i32 1 monotonic
  ret i32 %i
}

define void @takecall(ptr %next, ptr %items, i32 %n) {
entry:
  br label %take
take:
  %i = call i32 @take(ptr %next)
  %more = icmp ult i32 %i, %n
  br i1 %more, label %work, label %done
work:
  %a = getelementptr i32, ptr %items, i32 %i
  store i32 1, ptr %a
  br label %take
done:
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6, !7, !8, !9, !10, !11}
!0 = !{ptr @flag, !"kernel", i32 1}
!1 = !{ptr @lock, !"kernel", i32 1}
!2 = !{ptr @count, !"kernel", i32 1}
!3 = !{ptr @fenced, !"kernel", i32 1}
!4 = !{ptr @casadd, !"kernel", i32 1}
!5 = !{ptr @probe, !"kernel", i32 1}
!6 = !{ptr @queue, !"kernel", i32 1}
!7 = !{ptr @lookback, !"kernel", i32 1}
!8 = !{ptr @sharedflag, !"kernel", i32 1}
!9 = !{ptr @viacall, !"kernel", i32 1}
!10 = !{ptr @lockcall, !"kernel", i32 1}
!11 = !{ptr @takecall, !"kernel", i32 1}

; The facts' second field is needsFibers: 1 (fibers) for the spin loops, plus 2 (FactWaits) for
; those that wait for a value rather than take a lock (whose spin call is !musa.spin.waits);
; 0 for the others.
; CHECK: @__musa_kfacts_flag = constant {{.*}} { i64 0, i32 3,
; CHECK: @__musa_kfacts_lock = constant {{.*}} { i64 0, i32 1,
; CHECK: @__musa_kfacts_count = constant {{.*}} { i64 0, i32 3,
; CHECK: @__musa_kfacts_fenced = constant {{.*}} { i64 0, i32 3,
; CHECK: @__musa_kfacts_casadd = constant {{.*}} { i64 0, i32 0,
; CHECK: @__musa_kfacts_probe = constant {{.*}} { i64 0, i32 0,
; CHECK: @__musa_kfacts_queue = constant {{.*}} { i64 0, i32 0,
; CHECK: @__musa_kfacts_lookback = constant {{.*}} { i64 0, i32 3,
; CHECK: @__musa_kfacts_sharedflag = constant {{.*}} { i64 {{[0-9]+}}, i32 1,
; CHECK: @__musa_kfacts_viacall = constant {{.*}} { i64 0, i32 3,
; CHECK: @__musa_kfacts_lockcall = constant {{.*}} { i64 0, i32 1,
; CHECK: @__musa_kfacts_takecall = constant {{.*}} { i64 0, i32 0,
; CHECK-LABEL: define void @flag(
; CHECK: wait:
; CHECK-NEXT: %spin.trip = phi i64 [ %spin.next, %wait ], [ 0, %entry ]
; CHECK: call void @__musa_sim_spin(i64 %spin.trip, ptr %musa.ctx), !musa.spin.waits
; CHECK-NEXT: %spin.next = add i64 %spin.trip, 1
; CHECK-LABEL: define void @lock(
; CHECK: call void @__musa_sim_spin(i64 %spin.trip, ptr %musa.ctx){{$}}
; CHECK-LABEL: define void @count(
; CHECK: call void @__musa_sim_spin(
; CHECK-LABEL: define void @fenced(
; CHECK: call void @__musa_sim_spin(
; CHECK-LABEL: define void @casadd(
; CHECK-NOT: __musa_sim_spin
; CHECK-LABEL: define void @probe(
; CHECK-NOT: __musa_sim_spin
; CHECK-LABEL: define void @queue(
; CHECK-NOT: __musa_sim_spin
; CHECK-LABEL: define void @lookback(
; CHECK: call void @__musa_sim_spin(
; CHECK: call void @__musa_sim_spin(
; CHECK-LABEL: define void @sharedflag(
; CHECK: call void @__musa_sim_spin(i64 %spin.trip, ptr %musa.ctx){{$}}
; CHECK-LABEL: define void @viacall(
; CHECK: call void @__musa_sim_spin(i64 %spin.trip, ptr %musa.ctx), !musa.spin.waits
; CHECK-LABEL: define void @lockcall(
; CHECK: call void @__musa_sim_spin(i64 %spin.trip, ptr %musa.ctx){{$}}
; CHECK-LABEL: define void @takecall(
; CHECK-NOT: __musa_sim_spin
; CHECK-LABEL: declare void @__musa_sim_spin(i64, ptr)

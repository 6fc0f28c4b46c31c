; InstrumentTiming: a short guarded block is predicated code on a GPU, and its loads issue
; with those of the block it hangs from. @guarded's second load (a grid-stride loop's
; `if (i + 1 < n) sum += in[i + 1]`) adds no wait: group 255 (0xFF000004 = -16777212 as i32).
; @dependent's guard needs the first load's value, so its load is a second wait (group 1), as
; is @withcall's (a call is not predicated), and @afterstore's (its guarded load may read what
; the block before stored, so it waits behind that store's load).
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-instrument-timing
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @opaque(float)

define void @guarded(ptr %in, ptr %out, i64 %i, i64 %n) {
entry:
  %p = getelementptr float, ptr %in, i64 %i
  %a = load float, ptr %p
  %j = add i64 %i, 1
  %c = icmp ult i64 %j, %n
  br i1 %c, label %then, label %join
then:
  %q = getelementptr float, ptr %in, i64 %j
  %b = load float, ptr %q
  %s = fadd float %a, %b
  br label %join
join:
  %r = phi float [ %a, %entry ], [ %s, %then ]
  store float %r, ptr %out
  ret void
}

define void @dependent(ptr %in, ptr %out, i64 %i) {
entry:
  %p = getelementptr float, ptr %in, i64 %i
  %a = load float, ptr %p
  %c = fcmp ogt float %a, 0.0
  br i1 %c, label %then, label %join
then:
  %q = getelementptr float, ptr %out, i64 %i
  %b = load float, ptr %q
  br label %join
join:
  %r = phi float [ %a, %entry ], [ %b, %then ]
  store float %r, ptr %out
  ret void
}

define void @withcall(ptr %in, ptr %out, i64 %i, i64 %n) {
entry:
  %p = getelementptr float, ptr %in, i64 %i
  %a = load float, ptr %p
  %c = icmp ult i64 %i, %n
  br i1 %c, label %then, label %join
then:
  %q = getelementptr float, ptr %in, i64 %n
  %b = load float, ptr %q
  call void @opaque(float %b)
  br label %join
join:
  store float %a, ptr %out
  ret void
}

define void @afterstore(ptr %in, ptr %out, i64 %i, i64 %n) {
entry:
  %p = getelementptr float, ptr %in, i64 %i
  %a = load float, ptr %p
  store float %a, ptr %out
  %c = icmp ult i64 %i, %n
  br i1 %c, label %then, label %join
then:
  %q = getelementptr float, ptr %in, i64 %n
  %b = load float, ptr %q
  br label %join
join:
  %r = phi float [ %a, %entry ], [ %b, %then ]
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3}
!0 = !{ptr @guarded, !"kernel", i32 1}
!1 = !{ptr @dependent, !"kernel", i32 1}
!2 = !{ptr @withcall, !"kernel", i32 1}
!3 = !{ptr @afterstore, !"kernel", i32 1}

; 0x01000004 = 16777220 (4-byte load, group 1), 0x01010004 = 16842756 (a store, group 1).
; CHECK: @__musa_timing_site_info = constant [12 x i32] [i32 16777220, i32 -16777212, i32 16842756, i32 16777220, i32 16777220, i32 16842756, i32 16777220, i32 16777220, i32 16842756, i32 16777220, i32 16842756, i32 16777220]

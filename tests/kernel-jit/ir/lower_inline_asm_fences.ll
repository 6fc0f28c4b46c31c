; LowerInlineAsm: a fence written as inline PTX becomes a sequentially consistent fence that
; keeps its scope for the timing model (!musa.fence.scope: 0 for .cta, 2 for .sys; none for
; .gl/.gpu, the default): membar.cta, membar.gl, membar.sys, fence.sc.gpu, fence.acq_rel.cta,
; fence.sc.sys.
; PASSES: musa-retarget,musa-lower-asm
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @k(
; CHECK-NOT: asm
; CHECK: fence seq_cst, !musa.fence.scope ![[CTA:[0-9]+]]
; CHECK-NEXT: fence seq_cst{{$}}
; CHECK-NEXT: fence seq_cst, !musa.fence.scope ![[SYS:[0-9]+]]
; CHECK-NEXT: fence seq_cst{{$}}
; CHECK-NEXT: fence seq_cst, !musa.fence.scope ![[CTA]]
; CHECK-NEXT: fence seq_cst, !musa.fence.scope ![[SYS]]
; CHECK-DAG: ![[CTA]] = !{i32 0}
; CHECK-DAG: ![[SYS]] = !{i32 2}
define void @k() {
  call void asm sideeffect "membar.cta;", "~{memory}"()
  call void asm sideeffect "membar.gl;", "~{memory}"()
  call void asm sideeffect "membar.sys;", "~{memory}"()
  call void asm sideeffect "fence.sc.gpu;", "~{memory}"()
  call void asm sideeffect "fence.acq_rel.cta;", "~{memory}"()
  call void asm sideeffect "fence.sc.sys;", "~{memory}"()
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

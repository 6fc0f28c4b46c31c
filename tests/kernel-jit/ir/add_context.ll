; AddContextParam: a __noinline__ helper that reads threadIdx.x is `memory(none)` on the device;
; lowered, it reads the context, so that attribute (and nosync, willreturn) must go, and call
; sites lose it too. The context parameter is dereferenceable and aligned, not noalias.
; PASSES: musa-retarget,musa-add-context,musa-lower-calls
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define internal i32 @myTid() #0 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  ret i32 %t
}

define void @k(ptr %out) {
  %i = call i32 @myTid() #0
  %p = getelementptr i32, ptr %out, i32 %i
  store i32 %i, ptr %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { noinline nosync willreturn memory(none) }

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

; CHECK: define internal i32 @myTid(ptr noundef align 8 dereferenceable(136) %musa.ctx) [[HELPER:#[0-9]+]]
; CHECK-NEXT: getelementptr inbounds i8, ptr %musa.ctx, i32 0
; CHECK-NEXT: load i32
; CHECK: define void @k(ptr %out, ptr noundef align 8 dereferenceable(136) %musa.ctx)
; CHECK: call i32 @myTid(ptr %musa.ctx) [[CALL:#[0-9]+]]
; CHECK: attributes [[HELPER]] = { noinline "musa-sim-ctx" }
; CHECK: attributes [[CALL]] = { noinline }

; LowerSharedMemory: each kernel's static shared size counts every variable it uses, also one
; whose address reaches inline assembly only as an integer (ptrtoint of an addrspacecast, as
; clang emits for asm("st.shared.f32 [%0], %1;" :: "l"(s), ...)); @other is used by no kernel
; here and takes no space. Uses become offsets from ctx->shared.
; PASSES: musa-retarget,musa-add-context,musa-lower-shared
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@direct = internal addrspace(3) global [8 x i32] undef, align 4
@viaAsm = internal addrspace(3) global [32 x float] undef, align 4
@other = internal addrspace(3) global [100 x i32] undef, align 4

define void @k(float %f) {
  store i32 1, ptr addrspace(3) @direct
  call void asm sideeffect "st.shared.f32 [$0+4], $1;", "l,f"(i64 ptrtoint (ptr addrspacecast (ptr addrspace(3) @viaAsm to ptr) to i64), float %f)
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

; CHECK: define void @k({{.*}} !musa.static_shared ![[SIZE:[0-9]+]]
; CHECK: %viaAsm = getelementptr inbounds i8, ptr %musa.shared, i64 32
; CHECK: %direct = getelementptr inbounds i8, ptr %musa.shared, i64 0
; CHECK: ![[SIZE]] = !{i64 160}

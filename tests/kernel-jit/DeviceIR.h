// NVPTX device IR fixtures (what clang-19's CUDA device pass emits) for the lowering tests.
#pragma once

// A kernel with a static shared array, an extern shared array, a barrier and a device
// function that reads threadIdx through the context.
inline constexpr const char *BarrierKernelIR = R"IR(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x float] undef, align 4
@dyn = external addrspace(3) global [0 x float], align 4

define internal i32 @lane() #0 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  ret i32 %t
}

define void @reverse(ptr %in, ptr %out) #0 {
  %t = call i32 @lane()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bo = mul i32 %b, %n
  %g = add i32 %bo, %t
  %gi = sext i32 %g to i64
  %src = getelementptr float, ptr %in, i64 %gi
  %v = load float, ptr %src
  %ti = zext i32 %t to i64
  %slot = getelementptr [64 x float], ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 0, i64 %ti
  store float %v, ptr %slot
  %dslot = getelementptr float, ptr addrspacecast (ptr addrspace(3) @dyn to ptr), i64 %ti
  store float %v, ptr %dslot
  call void @llvm.nvvm.barrier0()
  %last = sub i32 63, %t
  %li = zext i32 %last to i64
  %rslot = getelementptr [64 x float], ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 0, i64 %li
  %r = load float, ptr %rslot
  %dst = getelementptr float, ptr %out, i64 %gi
  store float %r, ptr %dst
  ret void
}

define void @plain(ptr %out, i32 %k) #0 {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ti = zext i32 %t to i64
  %p = getelementptr i32, ptr %out, i64 %ti
  %w = call i32 @llvm.nvvm.read.ptx.sreg.warpsize()
  %s = add i32 %k, %w
  store i32 %s, ptr %p
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.warpsize()
declare void @llvm.nvvm.barrier0() #1

attributes #0 = { "target-cpu"="sm_70" "target-features"="+ptx83,+sm_70" }
attributes #1 = { convergent nounwind }

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @reverse, !"kernel", i32 1}
!1 = !{ptr @plain, !"kernel", i32 1}
!2 = !{ptr @reverse, !"maxntidx", i32 64}
)IR";

; LowerInlineAsm: the inline PTX statements programs commonly write become NVVM intrinsics or
; fences (which LowerDeviceCalls then lowers as usual); a statement it does not know prints
; its text and traps where it stands, and no PTX text is left for the host code generator.
; PASSES: musa-retarget,musa-lower-asm
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: @[[MSG:[0-9]+]] = {{.*}}c"musa-sim: inline PTX the simulator does not implement: asm(\22bfind.shiftamt.u32 $0, $1\22)\0A\00"
; CHECK-LABEL: define void @k(
; CHECK-NOT: asm
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.warpid()
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
; CHECK: call i64 @llvm.nvvm.read.ptx.sreg.clock64()
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.smid()
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.nsmid()
; CHECK: fence seq_cst
; CHECK: fence syncscope("singlethread") seq_cst
; CHECK: call void @llvm.nvvm.barrier0()
; CHECK: call void @__musa_sim_named_barrier(i32 {{%.*}}, i32 64, i32 0)
; CHECK: call void @__musa_sim_named_barrier(i32 1, i32 {{%.*}}, i32 1)
; CHECK: call void @__musa_sim_named_barrier(i32 3, i32 0, i32 0)
; CHECK: call void @llvm.nvvm.barrier0()
; CHECK: [[A:%.*]] = getelementptr i8, ptr %out, i64 8
; CHECK-NEXT: load volatile i32, ptr [[A]], align 4
; CHECK: store atomic i64 {{.*}} release, align 8
; CHECK: load float, ptr
; CHECK: load i32, ptr {{%.*}}, align 8
; CHECK: [[B:%.*]] = getelementptr i8, ptr %out, i64 4
; CHECK-NEXT: load i32, ptr [[B]], align 4
; CHECK: insertvalue { i32, i32 }
; CHECK: call i32 @vprintf(ptr @[[MSG]], ptr null)
; CHECK-NEXT: call void @llvm.trap()
; CHECK-NEXT: store i32 poison
; CHECK: ret void
define void @k(ptr %out) {
  %lane = call i32 asm sideeffect "mov.u32 $0, %laneid;", "=r"()
  store i32 %lane, ptr %out
  %warp = call i32 asm "mov.u32 \09$0, %warpid;", "=r"()
  store i32 %warp, ptr %out
  %mask = call i32 asm "mov.u32 $0, %lanemask_lt;", "=r"()
  store i32 %mask, ptr %out
  %t = call i64 asm sideeffect "mov.u64 $0, %clock64;", "=l"()
  store i64 %t, ptr %out
  %smid = call i32 asm sideeffect "mov.u32 $0, %smid;", "=r"()
  store i32 %smid, ptr %out
  %nsmid = call i32 asm "mov.u32 $0, %nsmid;", "=r"()
  store i32 %nsmid, ptr %out
  call void asm sideeffect "membar.gl;", "~{memory}"()
  call void asm sideeffect "", "~{memory}"()
  call void asm sideeffect "bar.sync 0;", ""()
  call void asm sideeffect "bar.sync $0, 64;", "r,~{memory}"(i32 %lane)
  call void asm sideeffect "bar.cta.arrive 1, $0;", "r"(i32 %warp)
  call void asm sideeffect "barrier.sync.aligned 3;", ""()
  call void asm sideeffect "barrier.cta.sync 0;", ""()
  call void asm sideeffect "prefetch.global.L2 [$0];", "l"(ptr %out)
  %v = call i32 asm sideeffect "ld.volatile.global.cg.u32 $0, [$1+8];", "=r,l"(ptr %out)
  store i32 %v, ptr %out
  %w = zext i32 %v to i64
  call void asm sideeffect "st.release.gpu.global.b64 [$0], $1;", "l,l"(ptr %out, i64 %w)
  %f = call float asm "ld.shared.f32 $0, [$1];", "=f,l"(ptr %out)
  store float %f, ptr %out
  %pair = call { i32, i32 } asm "ld.global.v2.u32 {$0, $1}, [$2];", "=r,=r,l"(ptr %out)
  %p0 = extractvalue { i32, i32 } %pair, 0
  store i32 %p0, ptr %out
  %bits = call i32 asm "bfind.shiftamt.u32 $0, $1;", "=r,r"(i32 %lane)
  store i32 %bits, ptr %out
  ret void
}


!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

; InstrumentTiming: a memory fence holds the warp's dependent chain for its scope's wait, and
; what follows it waits too (tests/hardware/session23/fence_cost.h100.txt): a store, the
; fence, a store is 1 + 158 + 1 = 160 steps for __threadfence() (membar.gl), 1 + 2 + 1 = 4
; for __threadfence_block() (membar.cta) and 1 + 310 + 1 = 312 for __threadfence_system()
; (membar.sys). The chain is the block table's last column.
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-instrument-timing
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @llvm.nvvm.membar.gl()
declare void @llvm.nvvm.membar.cta()
declare void @llvm.nvvm.membar.sys()

define void @gpu(ptr %flag, ptr %value) {
  store i32 1, ptr %value
  call void @llvm.nvvm.membar.gl()
  store i32 1, ptr %flag
  ret void
}

define void @block(ptr %flag, ptr %value) {
  store i32 1, ptr %value
  call void @llvm.nvvm.membar.cta()
  store i32 1, ptr %flag
  ret void
}

define void @system(ptr %flag, ptr %value) {
  store i32 1, ptr %value
  call void @llvm.nvvm.membar.sys()
  store i32 1, ptr %flag
  ret void
}

; CHECK: @__musa_timing_blocks = {{.*}}i32 160]{{.*}}i32 4]{{.*}}i32 312]]
; CHECK: fence seq_cst
; CHECK: fence seq_cst, !musa.fence.scope
; CHECK: fence seq_cst, !musa.fence.scope

; InstrumentTiming: a warp matrix multiply (mma.h's mma_sync, the WarpFn collective op 19 with
; the quarter-local flag: 0x113) counts tensor-core steps, two for a 16x16x16 multiply of half
; inputs (code 0x5500: f16 inputs, f32 accumulators), four dependent-chain steps each; the
; fragments and the operand record that hands them over are registers (their loads and stores
; count nothing, and are no access sites), and the __syncwarp that keeps a fragment load or
; store a warp-wide step (arg 0x6d6d61) is no instruction. Columns: int, fp32, fp64, special,
; branch, barrier, warp, int_mul, tensor, then the chain. The only site is the global store.
; PASSES: musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,musa-instrument-timing
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i64 @__musa_sim_warp(i32, i32, i64, i32, i32)

define void @mma(ptr %out) {
  %a = alloca [8 x half]
  %b = alloca [8 x half]
  %c = alloca [8 x float]
  %ops = alloca { ptr, ptr, ptr, ptr }
  store half 0xH3C00, ptr %a
  store half 0xH3C00, ptr %b
  store float 1.0, ptr %c
  store ptr %a, ptr %ops
  %pb = getelementptr i8, ptr %ops, i64 8
  store ptr %b, ptr %pb
  %pc = getelementptr i8, ptr %ops, i64 16
  store ptr %c, ptr %pc
  %pd = getelementptr i8, ptr %ops, i64 24
  store ptr %c, ptr %pd
  %v = ptrtoint ptr %ops to i64
  %r = call i64 @__musa_sim_warp(i32 275, i32 -1, i64 %v, i32 21760, i32 0)
  %x = load float, ptr %c
  store float %x, ptr %out
  %s = call i64 @__musa_sim_warp(i32 0, i32 -1, i64 0, i32 7171425, i32 0)
  ret void
}

; CHECK: @__musa_timing_sites = constant i32 1
; CHECK: @__musa_timing_blocks = {{.*}}[10 x i32] [i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 2, i32 8]]

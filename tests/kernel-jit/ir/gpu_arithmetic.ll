; GpuArithmetic: a C cast from float to int saturates (fptosi.sat/fptoui.sat, PTX's cvt.rzi), a
; char or short destination through a 32-bit conversion and its low bits, and a double to int
; conversion gives the top bit for NaN (as the H200 does);
; division and remainder by a divisor that may be 0 (or -1, signed) never trap: all ones and x
; for 0, -x and 0 for -1; shifts by an amount that may reach the width give 0 (shl, lshr) or the
; sign (ashr). Constant divisors and amounts in range stay as they are.
; PASSES: musa-gpu-arithmetic
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @casts(float %f, ptr %out) {
  %s = fptosi float %f to i32
  %u = fptoui float %f to i8
  %w = zext i8 %u to i32
  %r = add i32 %s, %w
  ret i32 %r
}
define i32 @dcast(double %d) {
  %s = fptosi double %d to i32
  ret i32 %s
}
; CHECK-LABEL: define i32 @casts(
; CHECK: %s = call i32 @llvm.fptosi.sat.i32.f32(float %f)
; CHECK: [[W:%.*]] = call i32 @llvm.fptoui.sat.i32.f32(float %f)
; CHECK: %u = trunc i32 [[W]] to i8
; CHECK-NOT: fptosi
; CHECK-NOT: fptoui
; CHECK-LABEL: define i32 @dcast(
; CHECK: [[SAT:%.*]] = call i32 @llvm.fptosi.sat.i32.f64(double %d)
; CHECK: [[NAN:%.*]] = fcmp uno double %d, %d
; CHECK: %s = select i1 [[NAN]], i32 -2147483648, i32 [[SAT]]

define i32 @divisions(i32 %x, i32 %d) {
  %q = sdiv i32 %x, %d
  %r = urem i32 %x, %d
  %k = udiv i32 %x, 7
  %s1 = add i32 %q, %r
  %s2 = add i32 %s1, %k
  ret i32 %s2
}
; CHECK-LABEL: define i32 @divisions(
; CHECK: [[ZERO:%.*]] = icmp eq i32 %d, 0
; CHECK: [[M1:%.*]] = icmp eq i32 %d, -1
; CHECK: [[BAD:%.*]] = or i1 [[ZERO]], [[M1]]
; CHECK: [[SAFE:%.*]] = select i1 [[BAD]], i32 1, i32 %d
; CHECK: [[Q:%.*]] = sdiv i32 %x, [[SAFE]]
; CHECK: [[NEG:%.*]] = sub i32 0, %x
; CHECK: [[Q1:%.*]] = select i1 [[M1]], i32 [[NEG]], i32 [[Q]]
; CHECK: %q = select i1 [[ZERO]], i32 -1, i32 [[Q1]]
; CHECK: [[UZERO:%.*]] = icmp eq i32 %d, 0
; CHECK: [[USAFE:%.*]] = select i1 [[UZERO]], i32 1, i32 %d
; CHECK: [[R:%.*]] = urem i32 %x, [[USAFE]]
; CHECK: %r = select i1 [[UZERO]], i32 %x, i32 [[R]]
; CHECK: %k = udiv i32 %x, 7

define i32 @shifts(i32 %x, i32 %n) {
  %a = shl i32 %x, %n
  %b = lshr i32 %x, %n
  %c = ashr i32 %x, %n
  %d = shl i32 %x, 31
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  %s3 = add i32 %s2, %d
  ret i32 %s3
}
; CHECK-LABEL: define i32 @shifts(
; CHECK: [[BIG:%.*]] = icmp uge i32 %n, 32
; CHECK: [[AMT:%.*]] = select i1 [[BIG]], i32 31, i32 %n
; CHECK: [[SHL:%.*]] = shl i32 %x, [[AMT]]
; CHECK: %a = select i1 [[BIG]], i32 0, i32 [[SHL]]
; CHECK: [[BIG2:%.*]] = icmp uge i32 %n, 32
; CHECK: [[AMT2:%.*]] = select i1 [[BIG2]], i32 31, i32 %n
; CHECK: [[LSHR:%.*]] = lshr i32 %x, [[AMT2]]
; CHECK: %b = select i1 [[BIG2]], i32 0, i32 [[LSHR]]
; CHECK: [[BIG3:%.*]] = icmp uge i32 %n, 32
; CHECK: [[AMT3:%.*]] = select i1 [[BIG3]], i32 31, i32 %n
; CHECK: %c = ashr i32 %x, [[AMT3]]
; CHECK: %d = shl i32 %x, 31

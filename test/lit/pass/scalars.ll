; Scalars: the same value for every repeat. A compile-time constant that the
; operand takes exactly becomes a PTX immediate in the text; anything else is
; a register operand, narrowed back from its C-promoted type (trunc of the i32,
; fptrunc of a promoted float) once per call. Constants are found through the
; unoptimized shape a C++ front end leaves before SROA: a local variable with
; one dominating store, read directly or through a reference.
;
; RUN: opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.add.s32 = private unnamed_addr constant [8 x i8] c"add.s32\00"
@.add.f32 = private unnamed_addr constant [8 x i8] c"add.f32\00"
@.add.u16 = private unnamed_addr constant [8 x i8] c"add.u16\00"
@.add.f16x2 = private unnamed_addr constant [13 x i8] c"add.rn.f16x2\00"

; { REGISTER s32 [2, 1] } x 2, { SCALAR s32 }
@layout.s32 = internal addrspace(4) constant { [25 x i32] } { [25 x i32] [i32 1, i32 3,
  i32 1, i32 7, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 7, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 3, i32 7, i32 0, i32 1, i32 0] }
; { REGISTER f32 [2, 1] } x 2, { SCALAR f64 }: a `1.0` literal
@layout.f32.f64 = internal addrspace(4) constant { [25 x i32] } { [25 x i32] [i32 1, i32 3,
  i32 1, i32 12, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 12, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 3, i32 13, i32 0, i32 1, i32 0] }
; { REGISTER f32 [2, 1] } x 2, { SCALAR f32 }
@layout.f32 = internal addrspace(4) constant { [25 x i32] } { [25 x i32] [i32 1, i32 3,
  i32 1, i32 12, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 12, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 3, i32 12, i32 0, i32 1, i32 0] }
; { REGISTER u16 [2, 1] } x 2, { SCALAR u16 }
@layout.u16 = internal addrspace(4) constant { [25 x i32] } { [25 x i32] [i32 1, i32 3,
  i32 1, i32 4, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 4, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 3, i32 4, i32 0, i32 1, i32 0] }
; { REGISTER u32 [2, 1] } x 2, { SCALAR u32 }
@layout.u32 = internal addrspace(4) constant { [25 x i32] } { [25 x i32] [i32 1, i32 3,
  i32 1, i32 6, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 6, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 3, i32 6, i32 0, i32 1, i32 0] }

; `5` for .s32: an immediate.
define void @int_immediate(ptr %d, ptr %a) {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.add.s32, ptr addrspacecast (ptr addrspace(4) @layout.s32 to ptr), ptr %d, ptr %a, i32 5)
  ret void
}
; CHECK-LABEL: define void @int_immediate(
; CHECK:         call i32 asm "add.s32 $0, $1, 5;", "=r,r"(i32
; CHECK:         call i32 asm "add.s32 $0, $1, 5;", "=r,r"(i32

; `-7` stays negative in the text.
define void @negative_immediate(ptr %d, ptr %a) {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.add.s32, ptr addrspacecast (ptr addrspace(4) @layout.s32 to ptr), ptr %d, ptr %a, i32 -7)
  ret void
}
; CHECK-LABEL: define void @negative_immediate(
; CHECK:         call i32 asm "add.s32 $0, $1, -7;", "=r,r"(i32

; The double literal `1.0` for .f32 converts exactly: the f32 immediate.
define void @float_immediate(ptr %d, ptr %a) {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.add.f32, ptr addrspacecast (ptr addrspace(4) @layout.f32.f64 to ptr), ptr %d, ptr %a, double 1.000000e+00)
  ret void
}
; CHECK-LABEL: define void @float_immediate(
; CHECK:         call float asm "add.f32 $0, $1, 0f3F800000;", "=f,f"(float

; -O0 / pre-SROA shape: the opcode sits in the wrapper's parameter slot, the
; constant in a temporary that is passed on by reference (`T &`) twice.
define void @through_locals(ptr %d, ptr %a) {
  %op.addr = alloca ptr, align 8
  %tmp = alloca double, align 8
  %ref1 = alloca ptr, align 8
  %ref2 = alloca ptr, align 8
  store ptr @.add.f32, ptr %op.addr, align 8
  store double 2.000000e+00, ptr %tmp, align 8
  store ptr %tmp, ptr %ref1, align 8
  %r1 = load ptr, ptr %ref1, align 8
  store ptr %r1, ptr %ref2, align 8
  %r2 = load ptr, ptr %ref2, align 8
  %v = load double, ptr %r2, align 8
  %op = load ptr, ptr %op.addr, align 8
  call void (ptr, ptr, ...) @__tileapply_apply(ptr %op, ptr addrspacecast (ptr addrspace(4) @layout.f32.f64 to ptr), ptr %d, ptr %a, double %v)
  ret void
}
; CHECK-LABEL: define void @through_locals(
; CHECK:         call float asm "add.f32 $0, $1, 0f40000000;", "=f,f"(float
; CHECK:         call float asm "add.f32 $0, $1, 0f40000000;", "=f,f"(float

; A uint16_t constant, read back and promoted with a zext: folded through.
define void @through_casts(ptr %d, ptr %a) {
  %t = alloca i16, align 2
  store i16 300, ptr %t, align 2
  %x = load i16, ptr %t, align 2
  %p = zext i16 %x to i32
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.add.u16, ptr addrspacecast (ptr addrspace(4) @layout.u16 to ptr), ptr %d, ptr %a, i32 %p)
  ret void
}
; CHECK-LABEL: define void @through_casts(
; CHECK:         call i16 asm "add.u16 $0, $1, 300;", "=h,h"(i16

; Stored twice: not a constant, so a register (never a guess).
define void @two_stores(ptr %d, ptr %a, i1 %c) {
  %t = alloca i32, align 4
  store i32 1, ptr %t, align 4
  br i1 %c, label %set, label %use
set:
  store i32 2, ptr %t, align 4
  br label %use
use:
  %x = load i32, ptr %t, align 4
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.add.s32, ptr addrspacecast (ptr addrspace(4) @layout.s32 to ptr), ptr %d, ptr %a, i32 %x)
  ret void
}
; CHECK-LABEL: define void @two_stores(
; CHECK:         [[X:%.*]] = load i32, ptr %t, align 4
; CHECK:         call i32 asm "add.s32 $0, $1, $2;", "=r,r,r"(i32 {{%.*}}, i32 [[X]])
; CHECK:         call i32 asm "add.s32 $0, $1, $2;", "=r,r,r"(i32 {{%.*}}, i32 [[X]])

; A float variable arrives promoted to double: one fptrunc back, shared by
; every repeat.
define void @float_register(ptr %d, ptr %a, double %s) {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.add.f32, ptr addrspacecast (ptr addrspace(4) @layout.f32 to ptr), ptr %d, ptr %a, double %s)
  ret void
}
; CHECK-LABEL: define void @float_register(
; CHECK:         [[S:%.*]] = fptrunc double %s to float
; CHECK-NEXT:    call float asm "add.f32 $0, $1, $2;", "=f,f,f"(float {{%.*}}, float [[S]])
; CHECK-NOT:     fptrunc
; CHECK:         call float asm "add.f32 $0, $1, $2;", "=f,f,f"(float {{%.*}}, float [[S]])

; A front end may also pass the carrier type itself.
define void @float_unpromoted(ptr %d, ptr %a, float %s) {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.add.f32, ptr addrspacecast (ptr addrspace(4) @layout.f32 to ptr), ptr %d, ptr %a, float %s)
  ret void
}
; CHECK-LABEL: define void @float_unpromoted(
; CHECK:         call float asm "add.f32 $0, $1, $2;", "=f,f,f"(float {{%.*}}, float %s)

; A uint16_t variable arrives as i32: truncated to the 'h' register.
define void @u16_register(ptr %d, ptr %a, i32 %x) {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.add.u16, ptr addrspacecast (ptr addrspace(4) @layout.u16 to ptr), ptr %d, ptr %a, i32 %x)
  ret void
}
; CHECK-LABEL: define void @u16_register(
; CHECK:         [[X:%.*]] = trunc i32 %x to i16
; CHECK-NEXT:    call i16 asm "add.u16 $0, $1, $2;", "=h,h,h"(i16 {{%.*}}, i16 [[X]])

; PTX has no immediates for packed operands: a packed constant (1.0, 1.0 as
; f16x2 bits) is a register holding exactly those bits.
define void @packed_constant(ptr %d, ptr %a) {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.add.f16x2, ptr addrspacecast (ptr addrspace(4) @layout.u32 to ptr), ptr %d, ptr %a, i32 1006648320)
  ret void
}
; CHECK-LABEL: define void @packed_constant(
; CHECK:         call i32 asm "add.rn.f16x2 $0, $1, $2;", "=r,r,r"(i32 {{%.*}}, i32 1006648320)

declare void @__tileapply_apply(ptr, ptr, ...)

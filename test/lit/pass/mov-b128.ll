; mov.b128 at the IR level, as any front end would emit it: the 128-bit
; carriers are dtypes 17 (unsigned __int128) and 18 (__int128), loaded, stored
; and bound to the asm as i128 with constraint 'q'; a 128-bit scalar arrives
; unpromoted, as an i128. A group of 2 x 64-bit or 4 x 32-bit registers on one
; side packs or unpacks. A constant for a .b128 operand is never an immediate:
; it is materialized as an i128 in a register.
;
; RUN: opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.mov = private unnamed_addr constant [9 x i8] c"mov.b128\00"

; { REGISTER u64 [1, 2] }, { SCALAR u128 }
@layout.unpack = internal addrspace(4) constant [16 x i32] [i32 1, i32 2,
  i32 1, i32 8, i32 0, i32 2, i32 2, i32 1, i32 2, i32 2, i32 1,
  i32 3, i32 17, i32 0, i32 1, i32 0]
; { REGISTER s128 [1, 1] }, { REGISTER s32 [1, 4] }
@layout.pack = internal addrspace(4) constant [20 x i32] [i32 1, i32 2,
  i32 1, i32 18, i32 0, i32 1, i32 2, i32 1, i32 1, i32 1, i32 1,
  i32 1, i32 7, i32 0, i32 4, i32 2, i32 1, i32 4, i32 4, i32 1]
; { REGISTER u128 [2, 1] }, { SCALAR s32 }
@layout.const = internal addrspace(4) constant [16 x i32] [i32 1, i32 2,
  i32 1, i32 17, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 3, i32 7, i32 0, i32 1, i32 0]

; {d0, d1} = s: the low 64 bits go to element 0 (offset 0), the high to element 1.
define void @unpack(ptr %d, i128 %s) {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.mov, ptr addrspacecast (ptr addrspace(4) @layout.unpack to ptr), ptr %d, i128 %s)
  ret void
}
; CHECK-LABEL: define void @unpack(
; CHECK:         [[R:%.*]] = call { i64, i64 } asm "mov.b128 {$0, $1}, $2;", "=l,=l,q"(i128 %s)
; CHECK-NEXT:    [[LO:%.*]] = extractvalue { i64, i64 } [[R]], 0
; CHECK-NEXT:    store i64 [[LO]], ptr %d, align 8
; CHECK-NEXT:    [[HI:%.*]] = extractvalue { i64, i64 } [[R]], 1
; CHECK-NEXT:    [[P1:%.*]] = getelementptr inbounds i8, ptr %d, i64 8
; CHECK-NEXT:    store i64 [[HI]], ptr [[P1]], align 8
; CHECK-NOT:     __tileapply_apply

; d = {a0, a1, a2, a3}: four 32-bit words into one i128 (a signed carrier).
define void @pack(ptr %d, ptr %a) {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.mov, ptr addrspacecast (ptr addrspace(4) @layout.pack to ptr), ptr %d, ptr %a)
  ret void
}
; CHECK-LABEL: define void @pack(
; CHECK:         [[A0:%.*]] = load i32, ptr %a, align 4
; CHECK-NEXT:    [[P1:%.*]] = getelementptr inbounds i8, ptr %a, i64 4
; CHECK-NEXT:    [[A1:%.*]] = load i32, ptr [[P1]], align 4
; CHECK-NEXT:    [[P2:%.*]] = getelementptr inbounds i8, ptr %a, i64 8
; CHECK-NEXT:    [[A2:%.*]] = load i32, ptr [[P2]], align 4
; CHECK-NEXT:    [[P3:%.*]] = getelementptr inbounds i8, ptr %a, i64 12
; CHECK-NEXT:    [[A3:%.*]] = load i32, ptr [[P3]], align 4
; CHECK-NEXT:    [[Q:%.*]] = call i128 asm "mov.b128 $0, {$1, $2, $3, $4};", "=q,r,r,r,r"(i32 [[A0]], i32 [[A1]], i32 [[A2]], i32 [[A3]])
; CHECK-NEXT:    store i128 [[Q]], ptr %d, align 16
; CHECK-NOT:     __tileapply_apply

; The int constant 5 fits a .b128 exactly, but PTX gives .b128 no immediate:
; an i128 5 in a 'q' register, for each of the two repeats.
define void @constant(ptr %d) {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.mov, ptr addrspacecast (ptr addrspace(4) @layout.const to ptr), ptr %d, i32 5)
  ret void
}
; CHECK-LABEL: define void @constant(
; CHECK:         [[C0:%.*]] = call i128 asm "mov.b128 $0, $1;", "=q,q"(i128 5)
; CHECK-NEXT:    store i128 [[C0]], ptr %d, align 16
; CHECK-NEXT:    [[C1:%.*]] = call i128 asm "mov.b128 $0, $1;", "=q,q"(i128 5)
; CHECK-NEXT:    [[P1:%.*]] = getelementptr inbounds i8, ptr %d, i64 16
; CHECK-NEXT:    store i128 [[C1]], ptr [[P1]], align 16
; CHECK-NOT:     __tileapply_apply

declare void @__tileapply_apply(ptr, ptr, ...)

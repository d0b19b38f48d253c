; tile::pred(t) with a register tensor of predicates shaped like the repeat
; axes plus a group axis of 1: repeat r reads predicate element r (bool as i8,
; uint32_t as i32) and guards its instruction with `icmp ne` of it.
;
; RUN: opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.str = private unnamed_addr constant [8 x i8] c"neg.s32\00"
; 2 x { REGISTER s32 [3, 1] }, { PRED_TENSOR bool [3, 1] }
@layout.bool = internal addrspace(4) constant { [29 x i32] } { [29 x i32] [i32 1, i32 3,
  i32 1, i32 7, i32 0, i32 3, i32 2, i32 3, i32 1, i32 1, i32 1,
  i32 1, i32 7, i32 0, i32 3, i32 2, i32 3, i32 1, i32 1, i32 1,
  i32 5, i32 1, i32 0, i32 3, i32 2, i32 3, i32 1, i32 1, i32 1] }
; 2 x { REGISTER s32 [3, 1] }, { PRED_TENSOR u32 [3, 1] }
@layout.u32 = internal addrspace(4) constant { [29 x i32] } { [29 x i32] [i32 1, i32 3,
  i32 1, i32 7, i32 0, i32 3, i32 2, i32 3, i32 1, i32 1, i32 1,
  i32 1, i32 7, i32 0, i32 3, i32 2, i32 3, i32 1, i32 1, i32 1,
  i32 5, i32 6, i32 0, i32 3, i32 2, i32 3, i32 1, i32 1, i32 1] }

define void @bool_mask(ptr %d, ptr %a, ptr %m) {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.str, ptr addrspacecast (ptr addrspace(4) @layout.bool to ptr), ptr %d, ptr %a, ptr %m)
  ret void
}

; CHECK-LABEL: define void @bool_mask(
; CHECK-NEXT:    [[A0:%.*]] = load i32, ptr %a, align 4
; CHECK-NEXT:    [[M0:%.*]] = load i8, ptr %m, align 1
; CHECK-NEXT:    [[P0:%.*]] = icmp ne i8 [[M0]], 0
; CHECK-NEXT:    [[D0:%.*]] = call i32 asm "@$2 neg.s32 $0, $1;", "=r,r,b"(i32 [[A0]], i1 [[P0]])
; CHECK-NEXT:    store i32 [[D0]], ptr %d, align 4
; CHECK-NEXT:    [[PA1:%.*]] = getelementptr inbounds i8, ptr %a, i64 4
; CHECK-NEXT:    [[A1:%.*]] = load i32, ptr [[PA1]], align 4
; CHECK-NEXT:    [[PM1:%.*]] = getelementptr inbounds i8, ptr %m, i64 1
; CHECK-NEXT:    [[M1:%.*]] = load i8, ptr [[PM1]], align 1
; CHECK-NEXT:    [[P1:%.*]] = icmp ne i8 [[M1]], 0
; CHECK-NEXT:    [[D1:%.*]] = call i32 asm "@$2 neg.s32 $0, $1;", "=r,r,b"(i32 [[A1]], i1 [[P1]])
; CHECK:         [[PM2:%.*]] = getelementptr inbounds i8, ptr %m, i64 2
; CHECK-NEXT:    [[M2:%.*]] = load i8, ptr [[PM2]], align 1
; CHECK-NEXT:    [[P2:%.*]] = icmp ne i8 [[M2]], 0
; CHECK-NEXT:    call i32 asm "@$2 neg.s32 $0, $1;", "=r,r,b"(i32 {{%.*}}, i1 [[P2]])
; CHECK-NOT:     asm
; CHECK:         ret void

define void @u32_mask(ptr %d, ptr %a, ptr %m) {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.str, ptr addrspacecast (ptr addrspace(4) @layout.u32 to ptr), ptr %d, ptr %a, ptr %m)
  ret void
}

; CHECK-LABEL: define void @u32_mask(
; CHECK:         [[M0:%.*]] = load i32, ptr %m, align 4
; CHECK-NEXT:    [[P0:%.*]] = icmp ne i32 [[M0]], 0
; CHECK-NEXT:    call i32 asm "@$2 neg.s32 $0, $1;", "=r,r,b"(i32 {{%.*}}, i1 [[P0]])
; CHECK:         [[PM1:%.*]] = getelementptr inbounds i8, ptr %m, i64 4
; CHECK-NEXT:    [[M1:%.*]] = load i32, ptr [[PM1]], align 4
; CHECK-NEXT:    [[P1:%.*]] = icmp ne i32 [[M1]], 0
; CHECK-NEXT:    call i32 asm "@$2 neg.s32 $0, $1;", "=r,r,b"(i32 {{%.*}}, i1 [[P1]])
; CHECK:         [[PM2:%.*]] = getelementptr inbounds i8, ptr %m, i64 8
; CHECK-NEXT:    [[M2:%.*]] = load i32, ptr [[PM2]], align 4

declare void @__tileapply_apply(ptr, ptr, ...)

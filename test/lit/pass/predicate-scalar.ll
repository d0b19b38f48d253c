; tile::pred(p) with a bool: every repeat's instruction is guarded by the same
; predicate, computed once from the promoted i32 (`icmp ne`, the setp) and
; bound with the 'b' constraint.
;
; RUN: opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.str = private unnamed_addr constant [8 x i8] c"add.f32\00"
; 3 x { REGISTER f32 [2, 1] }, { PRED_SCALAR bool }
@layout = internal addrspace(4) constant { [34 x i32] } { [34 x i32] [i32 1, i32 4,
  i32 1, i32 12, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 12, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 12, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 4, i32 1, i32 0, i32 1, i32 0] }

define void @guarded(ptr %d, ptr %a, ptr %b, i32 %p) {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.str, ptr addrspacecast (ptr addrspace(4) @layout to ptr), ptr %d, ptr %a, ptr %b, i32 %p)
  ret void
}

; CHECK-LABEL: define void @guarded(
; CHECK-NEXT:    [[A0:%.*]] = load float, ptr %a, align 4
; CHECK-NEXT:    [[B0:%.*]] = load float, ptr %b, align 4
; CHECK-NEXT:    [[P:%.*]] = icmp ne i32 %p, 0
; CHECK-NEXT:    [[D0:%.*]] = call float asm "@$3 add.f32 $0, $1, $2;", "=f,f,f,b"(float [[A0]], float [[B0]], i1 [[P]])
; CHECK-NEXT:    store float [[D0]], ptr %d, align 4
; CHECK-NEXT:    [[PA1:%.*]] = getelementptr inbounds i8, ptr %a, i64 4
; CHECK-NEXT:    [[A1:%.*]] = load float, ptr [[PA1]], align 4
; CHECK-NEXT:    [[PB1:%.*]] = getelementptr inbounds i8, ptr %b, i64 4
; CHECK-NEXT:    [[B1:%.*]] = load float, ptr [[PB1]], align 4
; CHECK-NEXT:    [[D1:%.*]] = call float asm "@$3 add.f32 $0, $1, $2;", "=f,f,f,b"(float [[A1]], float [[B1]], i1 [[P]])
; CHECK-NEXT:    [[PD1:%.*]] = getelementptr inbounds i8, ptr %d, i64 4
; CHECK-NEXT:    store float [[D1]], ptr [[PD1]], align 4
; CHECK-NEXT:    ret void

declare void @__tileapply_apply(ptr, ptr, ...)

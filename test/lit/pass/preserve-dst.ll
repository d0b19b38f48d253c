; tile::pred(p), tile::preserve_dst: the destination becomes read-write. Its
; current element goes in as an input tied to the output ("0"), so where the
; predicate is off the old value survives the asm.
;
; RUN: opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.str = private unnamed_addr constant [8 x i8] c"abs.f32\00"
; 2 x { REGISTER f32 [2, 1] }, { PRED_SCALAR bool }, { PRESERVE_DST }
@layout = internal addrspace(4) constant { [30 x i32] } { [30 x i32] [i32 1, i32 4,
  i32 1, i32 12, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 12, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 4, i32 1, i32 0, i32 1, i32 0,
  i32 6, i32 0, i32 0, i32 0, i32 0] }

define void @keep(ptr %d, ptr %a, i32 %p) {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.str, ptr addrspacecast (ptr addrspace(4) @layout to ptr), ptr %d, ptr %a, i32 %p, i32 0)
  ret void
}

; CHECK-LABEL: define void @keep(
; CHECK-NEXT:    [[A0:%.*]] = load float, ptr %a, align 4
; CHECK-NEXT:    [[P:%.*]] = icmp ne i32 %p, 0
; CHECK-NEXT:    [[OLD0:%.*]] = load float, ptr %d, align 4
; CHECK-NEXT:    [[D0:%.*]] = call float asm "@$2 abs.f32 $0, $1;", "=f,f,b,0"(float [[A0]], i1 [[P]], float [[OLD0]])
; CHECK-NEXT:    store float [[D0]], ptr %d, align 4
; CHECK-NEXT:    [[PA1:%.*]] = getelementptr inbounds i8, ptr %a, i64 4
; CHECK-NEXT:    [[A1:%.*]] = load float, ptr [[PA1]], align 4
; CHECK-NEXT:    [[PD1:%.*]] = getelementptr inbounds i8, ptr %d, i64 4
; CHECK-NEXT:    [[OLD1:%.*]] = load float, ptr [[PD1]], align 4
; CHECK-NEXT:    [[D1:%.*]] = call float asm "@$2 abs.f32 $0, $1;", "=f,f,b,0"(float [[A1]], i1 [[P]], float [[OLD1]])
; CHECK-NEXT:    [[PD1B:%.*]] = getelementptr inbounds i8, ptr %d, i64 4
; CHECK-NEXT:    store float [[D1]], ptr [[PD1B]], align 4
; CHECK-NEXT:    ret void

declare void @__tileapply_apply(ptr, ptr, ...)

; Strided views address elements by their own strides, from the storage's
; first element: a destination view with stride 2 writes every other element
; of an 8-element array, and an input view with stride 0 on the repeat axis (an
; explicit broadcast) reads element 0 in every repeat.
;
; RUN: opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.str = private unnamed_addr constant [8 x i8] c"add.s32\00"
; d: view [4, 1] strides [2, 1] over 8 elements; a: dense [4, 1];
; b: view [4, 1] strides [0, 1] over 1 element.
@layout = internal addrspace(4) constant { [29 x i32] } { [29 x i32] [i32 1, i32 3,
  i32 1, i32 7, i32 0, i32 8, i32 2, i32 4, i32 1, i32 2, i32 1,
  i32 1, i32 7, i32 0, i32 4, i32 2, i32 4, i32 1, i32 1, i32 1,
  i32 257, i32 7, i32 0, i32 1, i32 2, i32 4, i32 1, i32 0, i32 1] }

define void @strided(ptr %d, ptr %a, ptr %b) {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.str, ptr addrspacecast (ptr addrspace(4) @layout to ptr), ptr %d, ptr %a, ptr %b)
  ret void
}

; CHECK-LABEL: define void @strided(
; CHECK-NEXT:    [[A0:%.*]] = load i32, ptr %a, align 4
; CHECK-NEXT:    [[B0:%.*]] = load i32, ptr %b, align 4
; CHECK-NEXT:    [[D0:%.*]] = call i32 asm "add.s32 $0, $1, $2;", "=r,r,r"(i32 [[A0]], i32 [[B0]])
; CHECK-NEXT:    store i32 [[D0]], ptr %d, align 4
; CHECK-NEXT:    [[PA1:%.*]] = getelementptr inbounds i8, ptr %a, i64 4
; CHECK-NEXT:    [[A1:%.*]] = load i32, ptr [[PA1]], align 4
; CHECK-NEXT:    [[B1:%.*]] = load i32, ptr %b, align 4
; CHECK-NEXT:    [[D1:%.*]] = call i32 asm "add.s32 $0, $1, $2;", "=r,r,r"(i32 [[A1]], i32 [[B1]])
; CHECK-NEXT:    [[PD1:%.*]] = getelementptr inbounds i8, ptr %d, i64 8
; CHECK-NEXT:    store i32 [[D1]], ptr [[PD1]], align 4
; CHECK-NEXT:    [[PA2:%.*]] = getelementptr inbounds i8, ptr %a, i64 8
; CHECK-NEXT:    [[A2:%.*]] = load i32, ptr [[PA2]], align 4
; CHECK-NEXT:    [[B2:%.*]] = load i32, ptr %b, align 4
; CHECK-NEXT:    [[D2:%.*]] = call i32 asm "add.s32 $0, $1, $2;", "=r,r,r"(i32 [[A2]], i32 [[B2]])
; CHECK-NEXT:    [[PD2:%.*]] = getelementptr inbounds i8, ptr %d, i64 16
; CHECK-NEXT:    store i32 [[D2]], ptr [[PD2]], align 4
; CHECK-NEXT:    [[PA3:%.*]] = getelementptr inbounds i8, ptr %a, i64 12
; CHECK-NEXT:    [[A3:%.*]] = load i32, ptr [[PA3]], align 4
; CHECK-NEXT:    [[B3:%.*]] = load i32, ptr %b, align 4
; CHECK-NEXT:    [[D3:%.*]] = call i32 asm "add.s32 $0, $1, $2;", "=r,r,r"(i32 [[A3]], i32 [[B3]])
; CHECK-NEXT:    [[PD3:%.*]] = getelementptr inbounds i8, ptr %d, i64 24
; CHECK-NEXT:    store i32 [[D3]], ptr [[PD3]], align 4
; CHECK-NEXT:    ret void

declare void @__tileapply_apply(ptr, ptr, ...)

; Repeats run in row-major order over the repeat axes (the last varies
; fastest), whatever the operands' strides: with repeat shape [2, 3], repeat r
; is (r / 3, r % 3). `a` is dense (element 3i + j); `b` is a transposed view
; (strides [1, 2], element i + 2j), so b's elements are read in the order
; 0, 2, 4, 1, 3, 5.
;
; RUN: opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.str = private unnamed_addr constant [8 x i8] c"sub.s32\00"
; d, a: [2, 3, 1] strides [3, 1, 1]; b: [2, 3, 1] strides [1, 2, 1]; 6 elements each
@layout = internal addrspace(4) constant { [35 x i32] } { [35 x i32] [i32 1, i32 3,
  i32 1, i32 7, i32 0, i32 6, i32 3, i32 2, i32 3, i32 1, i32 3, i32 1, i32 1,
  i32 1, i32 7, i32 0, i32 6, i32 3, i32 2, i32 3, i32 1, i32 3, i32 1, i32 1,
  i32 1, i32 7, i32 0, i32 6, i32 3, i32 2, i32 3, i32 1, i32 1, i32 2, i32 1] }

define void @order(ptr %d, ptr %a, ptr %b) {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.str, ptr addrspacecast (ptr addrspace(4) @layout to ptr), ptr %d, ptr %a, ptr %b)
  ret void
}

; CHECK-LABEL: define void @order(
; (0, 0)
; CHECK-NEXT:    [[A:%.*]] = load i32, ptr %a, align 4
; CHECK-NEXT:    [[B:%.*]] = load i32, ptr %b, align 4
; CHECK-NEXT:    [[D:%.*]] = call i32 asm "sub.s32 $0, $1, $2;", "=r,r,r"(i32 [[A]], i32 [[B]])
; CHECK-NEXT:    store i32 [[D]], ptr %d, align 4
; (0, 1)
; CHECK-NEXT:    getelementptr inbounds i8, ptr %a, i64 4
; CHECK-NEXT:    load
; CHECK-NEXT:    getelementptr inbounds i8, ptr %b, i64 8
; CHECK-NEXT:    load
; CHECK-NEXT:    call i32 asm "sub.s32
; CHECK-NEXT:    getelementptr inbounds i8, ptr %d, i64 4
; CHECK-NEXT:    store
; (0, 2)
; CHECK-NEXT:    getelementptr inbounds i8, ptr %a, i64 8
; CHECK-NEXT:    load
; CHECK-NEXT:    getelementptr inbounds i8, ptr %b, i64 16
; CHECK-NEXT:    load
; CHECK-NEXT:    call i32 asm "sub.s32
; CHECK-NEXT:    getelementptr inbounds i8, ptr %d, i64 8
; CHECK-NEXT:    store
; (1, 0)
; CHECK-NEXT:    getelementptr inbounds i8, ptr %a, i64 12
; CHECK-NEXT:    load
; CHECK-NEXT:    getelementptr inbounds i8, ptr %b, i64 4
; CHECK-NEXT:    load
; CHECK-NEXT:    call i32 asm "sub.s32
; CHECK-NEXT:    getelementptr inbounds i8, ptr %d, i64 12
; CHECK-NEXT:    store
; (1, 1)
; CHECK-NEXT:    getelementptr inbounds i8, ptr %a, i64 16
; CHECK-NEXT:    load
; CHECK-NEXT:    getelementptr inbounds i8, ptr %b, i64 12
; CHECK-NEXT:    load
; CHECK-NEXT:    call i32 asm "sub.s32
; CHECK-NEXT:    getelementptr inbounds i8, ptr %d, i64 16
; CHECK-NEXT:    store
; (1, 2)
; CHECK-NEXT:    getelementptr inbounds i8, ptr %a, i64 20
; CHECK-NEXT:    load
; CHECK-NEXT:    getelementptr inbounds i8, ptr %b, i64 20
; CHECK-NEXT:    load
; CHECK-NEXT:    call i32 asm "sub.s32
; CHECK-NEXT:    getelementptr inbounds i8, ptr %d, i64 20
; CHECK-NEXT:    store
; CHECK-NEXT:    ret void

declare void @__tileapply_apply(ptr, ptr, ...)

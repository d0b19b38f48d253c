; A call whose destination nothing reads afterwards still expands: the pass's
; clean-up of what fed the marker (the wrapper's parameter slots, which only
; ever see stores once the marker is gone) leaves the call's own register
; tensors alone, so the instruction and its store into the tensor stay, at
; -O0 as at any level; dropping a pure, unread result is the optimizer's
; choice later (the asm is not volatile), never the expansion's.
;
; RUN: opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -S %s | FileCheck %s
; The same call once the optimizer has run: the unread result goes (pure asm).
; RUN: opt -load-pass-plugin=%passplugin -passes='tile-apply-expand,sroa,instcombine' -S %s | FileCheck %s --check-prefix=OPT

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.str = private unnamed_addr constant [8 x i8] c"add.s32\00"
; { version 1, 3 arguments, 3 x { REGISTER, s32, no space, 1 element, rank 2, [1, 1], [1, 1] } }
@layout = internal addrspace(4) constant { [29 x i32] } { [29 x i32] [i32 1, i32 3,
  i32 1, i32 7, i32 0, i32 1, i32 2, i32 1, i32 1, i32 1, i32 1,
  i32 1, i32 7, i32 0, i32 1, i32 2, i32 1, i32 1, i32 1, i32 1,
  i32 1, i32 7, i32 0, i32 1, i32 2, i32 1, i32 1, i32 1, i32 1] }

define void @unread(ptr %a, ptr %b) {
  %d = alloca [1 x i32], align 4
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.str, ptr addrspacecast (ptr addrspace(4) @layout to ptr), ptr %d, ptr %a, ptr %b)
  ret void
}

; CHECK-LABEL: define void @unread(
; CHECK-NEXT:    %d = alloca [1 x i32], align 4, !tileapply.tensor
; CHECK-NEXT:    [[A:%.*]] = load i32, ptr %a, align 4
; CHECK-NEXT:    [[B:%.*]] = load i32, ptr %b, align 4
; CHECK-NEXT:    [[D:%.*]] = call i32 asm "add.s32 $0, $1, $2;", "=r,r,r"(i32 [[A]], i32 [[B]])
; CHECK-NEXT:    store i32 [[D]], ptr %d, align 4
; CHECK-NEXT:    ret void

; OPT-LABEL: define void @unread(
; OPT-NOT:     asm
; OPT:         ret void

declare void @__tileapply_apply(ptr, ptr, ...)

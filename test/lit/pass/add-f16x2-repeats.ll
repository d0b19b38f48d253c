; An arithmetic call over three uint32_t[8][1] register tensors expands to
; exactly eight add.rn.f16x2, one per repeat, in repeat order; each reads its
; operands' elements and writes the destination element, and nothing of the
; marker (declaration, layout, opcode string) survives.
;
; RUN: opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -S %s | FileCheck %s --check-prefix=COUNT

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.str = private unnamed_addr constant [13 x i8] c"add.rn.f16x2\00", align 1
; { version 1, 3 arguments, 3 x { REGISTER, u32, no space, 8 elements, rank 2, [8, 1], [1, 1] } }
@layout = linkonce_odr addrspace(4) externally_initialized constant { [29 x i32] } { [29 x i32] [i32 1, i32 3,
  i32 1, i32 6, i32 0, i32 8, i32 2, i32 8, i32 1, i32 1, i32 1,
  i32 1, i32 6, i32 0, i32 8, i32 2, i32 8, i32 1, i32 1, i32 1,
  i32 1, i32 6, i32 0, i32 8, i32 2, i32 8, i32 1, i32 1, i32 1] }, align 4
@llvm.compiler.used = appending global [1 x ptr] [ptr addrspacecast (ptr addrspace(4) @layout to ptr)], section "llvm.metadata"

; CHECK-NOT: @.str
; CHECK-NOT: @layout
; CHECK-NOT: @llvm.compiler.used

define void @packed_add(ptr %d, ptr %a, ptr %b) {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.str, ptr addrspacecast (ptr addrspace(4) @layout to ptr), ptr %d, ptr %a, ptr %b)
  ret void
}

; CHECK-LABEL: define void @packed_add(
; Repeat 0 reads and writes element 0 of each tensor.
; CHECK-NEXT:    [[A0:%.*]] = load i32, ptr %a, align 4
; CHECK-NEXT:    [[B0:%.*]] = load i32, ptr %b, align 4
; CHECK-NEXT:    [[D0:%.*]] = call i32 asm "add.rn.f16x2 $0, $1, $2;", "=r,r,r"(i32 [[A0]], i32 [[B0]]) #[[PURE:[0-9]+]], !tileapply.opcode [[OP:![0-9]+]]
; CHECK-NEXT:    store i32 [[D0]], ptr %d, align 4
; Repeat 1: element 1, 4 bytes further.
; CHECK-NEXT:    [[PA1:%.*]] = getelementptr inbounds i8, ptr %a, i64 4
; CHECK-NEXT:    [[A1:%.*]] = load i32, ptr [[PA1]], align 4
; CHECK-NEXT:    [[PB1:%.*]] = getelementptr inbounds i8, ptr %b, i64 4
; CHECK-NEXT:    [[B1:%.*]] = load i32, ptr [[PB1]], align 4
; CHECK-NEXT:    [[D1:%.*]] = call i32 asm "add.rn.f16x2 $0, $1, $2;", "=r,r,r"(i32 [[A1]], i32 [[B1]]) #[[PURE]], !tileapply.opcode [[OP]]
; CHECK-NEXT:    [[PD1:%.*]] = getelementptr inbounds i8, ptr %d, i64 4
; CHECK-NEXT:    store i32 [[D1]], ptr [[PD1]], align 4
; CHECK:         getelementptr inbounds i8, ptr %a, i64 8
; CHECK:         getelementptr inbounds i8, ptr %a, i64 12
; CHECK:         getelementptr inbounds i8, ptr %a, i64 16
; CHECK:         getelementptr inbounds i8, ptr %a, i64 20
; CHECK:         getelementptr inbounds i8, ptr %a, i64 24
; Repeat 7, the last one: element 7.
; CHECK:         [[PA7:%.*]] = getelementptr inbounds i8, ptr %a, i64 28
; CHECK-NEXT:    [[A7:%.*]] = load i32, ptr [[PA7]], align 4
; CHECK-NEXT:    [[PB7:%.*]] = getelementptr inbounds i8, ptr %b, i64 28
; CHECK-NEXT:    [[B7:%.*]] = load i32, ptr [[PB7]], align 4
; CHECK-NEXT:    [[D7:%.*]] = call i32 asm "add.rn.f16x2 $0, $1, $2;", "=r,r,r"(i32 [[A7]], i32 [[B7]]) #[[PURE]], !tileapply.opcode [[OP]]
; CHECK-NEXT:    [[PD7:%.*]] = getelementptr inbounds i8, ptr %d, i64 28
; CHECK-NEXT:    store i32 [[D7]], ptr [[PD7]], align 4
; CHECK-NEXT:    ret void

declare void @__tileapply_apply(ptr, ptr, ...)

; CHECK-NOT: __tileapply_apply
; Arithmetic is not volatile: the optimizer may merge or drop it.
; CHECK: attributes #[[PURE]] = { convergent nounwind willreturn memory(none) }
; CHECK: [[OP]] = !{!"add.rn.f16x2"}

; COUNT-COUNT-8: call i32 asm "add.rn.f16x2 $0, $1, $2;"
; COUNT-NOT:     asm

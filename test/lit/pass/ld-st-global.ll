; Memory forms: the tensor's generic pointer is cast once per call to the
; global state space (cvta.to.global) and passed as one i64 'l' operand; each
; repeat's constant byte offset is written into the address, "[$1+4]". The
; asm is volatile and clobbers memory; nothing else (no temporary, no
; conversion, no per-repeat address arithmetic) appears.
;
; RUN: opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.ld = private unnamed_addr constant [14 x i8] c"ld.global.b32\00"
@.st = private unnamed_addr constant [14 x i8] c"st.global.b32\00"
; ld.global.b32 reg, in:  { REGISTER u32 [4, 1] }, { MEMORY|CONST u32 global, 4 elements, [4, 1] }
@layout.ld = internal addrspace(4) constant { [20 x i32] } { [20 x i32] [i32 1, i32 2,
  i32 1, i32 6, i32 0, i32 4, i32 2, i32 4, i32 1, i32 1, i32 1,
  i32 258, i32 6, i32 1, i32 4, i32 2, i32 4, i32 1, i32 1, i32 1] }
; st.global.b32 out, reg: { MEMORY u32 global, 4 elements, [4, 1] }, { REGISTER u32 [4, 1] }
@layout.st = internal addrspace(4) constant { [20 x i32] } { [20 x i32] [i32 1, i32 2,
  i32 2, i32 6, i32 1, i32 4, i32 2, i32 4, i32 1, i32 1, i32 1,
  i32 1, i32 6, i32 0, i32 4, i32 2, i32 4, i32 1, i32 1, i32 1] }

define void @copy(ptr %in, ptr %out) {
  %r = alloca [4 x [1 x i32]], align 4
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.ld, ptr addrspacecast (ptr addrspace(4) @layout.ld to ptr), ptr %r, ptr %in)
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.st, ptr addrspacecast (ptr addrspace(4) @layout.st to ptr), ptr %out, ptr %r)
  ret void
}

; Repeat r of u32 [4, 1] with strides [1, 1] starts at element r, i.e. 4*r
; bytes: 0, 4, 8, 12. The pointer is cast and converted once per call; every
; repeat names the same i64 and carries its offset in the text.
; CHECK-LABEL: define void @copy(
; CHECK-NEXT:    [[R:%.*]] = alloca [4 x [1 x i32]], align 4
; CHECK-NEXT:    [[GIN:%.*]] = addrspacecast ptr %in to ptr addrspace(1)
; CHECK-NEXT:    [[A:%.*]] = ptrtoint ptr addrspace(1) [[GIN]] to i64
; CHECK-NEXT:    [[V0:%.*]] = call i32 asm sideeffect "ld.global.b32 $0, [$1];", "=r,l,~{memory}"(i64 [[A]]) #[[MEM:[0-9]+]], !tileapply.opcode [[LD:![0-9]+]]
; CHECK-NEXT:    store i32 [[V0]], ptr [[R]], align 4
; CHECK-NEXT:    [[V1:%.*]] = call i32 asm sideeffect "ld.global.b32 $0, [$1+4];", "=r,l,~{memory}"(i64 [[A]]) #[[MEM]], !tileapply.opcode [[LD]]
; CHECK-NEXT:    [[R1:%.*]] = getelementptr inbounds i8, ptr [[R]], i64 4
; CHECK-NEXT:    store i32 [[V1]], ptr [[R1]], align 4
; CHECK-NEXT:    [[V2:%.*]] = call i32 asm sideeffect "ld.global.b32 $0, [$1+8];", "=r,l,~{memory}"(i64 [[A]]) #[[MEM]], !tileapply.opcode [[LD]]
; CHECK-NEXT:    [[R2:%.*]] = getelementptr inbounds i8, ptr [[R]], i64 8
; CHECK-NEXT:    store i32 [[V2]], ptr [[R2]], align 4
; CHECK-NEXT:    [[V3:%.*]] = call i32 asm sideeffect "ld.global.b32 $0, [$1+12];", "=r,l,~{memory}"(i64 [[A]]) #[[MEM]], !tileapply.opcode [[LD]]
; CHECK-NEXT:    [[R3:%.*]] = getelementptr inbounds i8, ptr [[R]], i64 12
; CHECK-NEXT:    store i32 [[V3]], ptr [[R3]], align 4

; The store: address first, then the register it stores; same offsets.
; CHECK-NEXT:    [[GOUT:%.*]] = addrspacecast ptr %out to ptr addrspace(1)
; CHECK-NEXT:    [[O:%.*]] = ptrtoint ptr addrspace(1) [[GOUT]] to i64
; CHECK-NEXT:    [[X0:%.*]] = load i32, ptr [[R]], align 4
; CHECK-NEXT:    call void asm sideeffect "st.global.b32 [$0], $1;", "l,r,~{memory}"(i64 [[O]], i32 [[X0]]) #[[MEM]], !tileapply.opcode [[ST:![0-9]+]]
; CHECK-NEXT:    [[Y1:%.*]] = getelementptr inbounds i8, ptr [[R]], i64 4
; CHECK-NEXT:    [[X1:%.*]] = load i32, ptr [[Y1]], align 4
; CHECK-NEXT:    call void asm sideeffect "st.global.b32 [$0+4], $1;", "l,r,~{memory}"(i64 [[O]], i32 [[X1]]) #[[MEM]], !tileapply.opcode [[ST]]
; CHECK-NEXT:    [[Y2:%.*]] = getelementptr inbounds i8, ptr [[R]], i64 8
; CHECK-NEXT:    [[X2:%.*]] = load i32, ptr [[Y2]], align 4
; CHECK-NEXT:    call void asm sideeffect "st.global.b32 [$0+8], $1;", "l,r,~{memory}"(i64 [[O]], i32 [[X2]]) #[[MEM]], !tileapply.opcode [[ST]]
; CHECK-NEXT:    [[Y3:%.*]] = getelementptr inbounds i8, ptr [[R]], i64 12
; CHECK-NEXT:    [[X3:%.*]] = load i32, ptr [[Y3]], align 4
; CHECK-NEXT:    call void asm sideeffect "st.global.b32 [$0+12], $1;", "l,r,~{memory}"(i64 [[O]], i32 [[X3]]) #[[MEM]], !tileapply.opcode [[ST]]
; CHECK-NEXT:    ret void

declare void @__tileapply_apply(ptr, ptr, ...)

; Memory forms are volatile and may touch any memory.
; CHECK: attributes #[[MEM]] = { convergent nounwind }
; CHECK-DAG: [[LD]] = !{!"ld.global.b32"}
; CHECK-DAG: [[ST]] = !{!"st.global.b32"}

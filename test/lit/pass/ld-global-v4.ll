; A .v4 group: the register-group axis (4) becomes the four registers of one
; instruction; the repeat axis (2) gives two instructions. The address is that
; of the group's first element: one i64 base per call, and "[$4+16]" for
; repeat 1; the four outputs come back as a struct and are stored to
; consecutive elements.
;
; RUN: opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.ld = private unnamed_addr constant [17 x i8] c"ld.global.v4.f32\00"
@.st = private unnamed_addr constant [20 x i8] c"st.global.cs.v4.f32\00"
; { REGISTER f32 [2, 4] }, { MEMORY|CONST f32 global, 8 elements, [2, 4] }
@layout.ld = internal addrspace(4) constant { [20 x i32] } { [20 x i32] [i32 1, i32 2,
  i32 1, i32 12, i32 0, i32 8, i32 2, i32 2, i32 4, i32 4, i32 1,
  i32 258, i32 12, i32 1, i32 8, i32 2, i32 2, i32 4, i32 4, i32 1] }
; { MEMORY f32 global, 8 elements, [2, 4] }, { REGISTER f32 [2, 4] }
@layout.st = internal addrspace(4) constant { [20 x i32] } { [20 x i32] [i32 1, i32 2,
  i32 2, i32 12, i32 1, i32 8, i32 2, i32 2, i32 4, i32 4, i32 1,
  i32 1, i32 12, i32 0, i32 8, i32 2, i32 2, i32 4, i32 4, i32 1] }

define void @vec(ptr %in, ptr %out, ptr %r) {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.ld, ptr addrspacecast (ptr addrspace(4) @layout.ld to ptr), ptr %r, ptr %in)
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.st, ptr addrspacecast (ptr addrspace(4) @layout.st to ptr), ptr %out, ptr %r)
  ret void
}

; CHECK-LABEL: define void @vec(
; CHECK-NEXT:    [[G:%.*]] = addrspacecast ptr %in to ptr addrspace(1)
; CHECK-NEXT:    [[A0:%.*]] = ptrtoint ptr addrspace(1) [[G]] to i64
; CHECK-NEXT:    [[V:%.*]] = call { float, float, float, float } asm sideeffect "ld.global.v4.f32 {$0, $1, $2, $3}, [$4];", "=f,=f,=f,=f,l,~{memory}"(i64 [[A0]])
; CHECK-NEXT:    [[E0:%.*]] = extractvalue { float, float, float, float } [[V]], 0
; CHECK-NEXT:    store float [[E0]], ptr %r, align 4
; CHECK-NEXT:    [[E1:%.*]] = extractvalue { float, float, float, float } [[V]], 1
; CHECK-NEXT:    [[P1:%.*]] = getelementptr inbounds i8, ptr %r, i64 4
; CHECK-NEXT:    store float [[E1]], ptr [[P1]], align 4
; CHECK-NEXT:    [[E2:%.*]] = extractvalue { float, float, float, float } [[V]], 2
; CHECK-NEXT:    [[P2:%.*]] = getelementptr inbounds i8, ptr %r, i64 8
; CHECK-NEXT:    store float [[E2]], ptr [[P2]], align 4
; CHECK-NEXT:    [[E3:%.*]] = extractvalue { float, float, float, float } [[V]], 3
; CHECK-NEXT:    [[P3:%.*]] = getelementptr inbounds i8, ptr %r, i64 12
; CHECK-NEXT:    store float [[E3]], ptr [[P3]], align 4
; Repeat 1 starts at element 4 (stride 4 x 4 bytes = 16) on both sides: the
; same i64 base, the offset in the address.
; CHECK-NEXT:    [[W:%.*]] = call { float, float, float, float } asm sideeffect "ld.global.v4.f32 {$0, $1, $2, $3}, [$4+16];", "=f,=f,=f,=f,l,~{memory}"(i64 [[A0]])
; CHECK-NEXT:    [[F0:%.*]] = extractvalue { float, float, float, float } [[W]], 0
; CHECK-NEXT:    [[S0:%.*]] = getelementptr inbounds i8, ptr %r, i64 16
; CHECK-NEXT:    store float [[F0]], ptr [[S0]], align 4
; CHECK-NOT:     {{ptrtoint|addrspacecast|asm}}
; CHECK:         [[S3:%.*]] = getelementptr inbounds i8, ptr %r, i64 28
; CHECK-NEXT:    store float {{%.*}}, ptr [[S3]], align 4

; CHECK-NEXT:    [[GO:%.*]] = addrspacecast ptr %out to ptr addrspace(1)
; CHECK-NEXT:    [[O0:%.*]] = ptrtoint ptr addrspace(1) [[GO]] to i64
; CHECK-NEXT:    [[X0:%.*]] = load float, ptr %r, align 4
; CHECK-NEXT:    [[Y1:%.*]] = getelementptr inbounds i8, ptr %r, i64 4
; CHECK-NEXT:    [[X1:%.*]] = load float, ptr [[Y1]], align 4
; CHECK-NEXT:    [[Y2:%.*]] = getelementptr inbounds i8, ptr %r, i64 8
; CHECK-NEXT:    [[X2:%.*]] = load float, ptr [[Y2]], align 4
; CHECK-NEXT:    [[Y3:%.*]] = getelementptr inbounds i8, ptr %r, i64 12
; CHECK-NEXT:    [[X3:%.*]] = load float, ptr [[Y3]], align 4
; CHECK-NEXT:    call void asm sideeffect "st.global.cs.v4.f32 [$0], {$1, $2, $3, $4};", "l,f,f,f,f,~{memory}"(i64 [[O0]], float [[X0]], float [[X1]], float [[X2]], float [[X3]])
; CHECK-NEXT:    [[Z0:%.*]] = getelementptr inbounds i8, ptr %r, i64 16
; CHECK-NEXT:    [[X4:%.*]] = load float, ptr [[Z0]], align 4
; CHECK-NOT:     {{ptrtoint|addrspacecast|asm}}
; CHECK:         [[Z3:%.*]] = getelementptr inbounds i8, ptr %r, i64 28
; CHECK-NEXT:    [[X7:%.*]] = load float, ptr [[Z3]], align 4
; CHECK-NEXT:    call void asm sideeffect "st.global.cs.v4.f32 [$0+16], {$1, $2, $3, $4};", "l,f,f,f,f,~{memory}"(i64 [[O0]], float [[X4]], float {{%.*}}, float {{%.*}}, float [[X7]])
; CHECK-NEXT:    ret void

declare void @__tileapply_apply(ptr, ptr, ...)

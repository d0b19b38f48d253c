; Memory operands: the pointer is cast to the state space and converted to an
; i64 once per call (one addrspacecast, unless it is already in that space,
; and one ptrtoint per memory operand), and every repeat names that same i64
; with the 'l' constraint. Where the repeat's group starts is a constant byte
; offset, elementOffset * sizeof(element), written into the address:
; "[$1]" for 0, "[$1+8]" otherwise. Repeats run row-major. ptxas must take the
; "[%rdN+16]" forms that llc passes through.
;
; RUN: opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%passplugin -passes='default<O2>' %s | llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -o %t.ptx
; RUN: FileCheck %s --check-prefix=PTX < %t.ptx
; RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.ld = private unnamed_addr constant [14 x i8] c"ld.global.b32\00"
@.ld.v4 = private unnamed_addr constant [17 x i8] c"ld.global.v4.b32\00"
@.st.v4 = private unnamed_addr constant [17 x i8] c"st.global.v4.b32\00"
@.ld.sh = private unnamed_addr constant [14 x i8] c"ld.shared.b32\00"
@.st.sh = private unnamed_addr constant [14 x i8] c"st.shared.b32\00"

; r: REGISTER u32, dense [4, 1];
; in: MEMORY|CONST u32 global, a view [4, 1] with strides [2, 1] over 8 elements.
@l.strided = internal addrspace(4) constant [20 x i32] [i32 1, i32 2,
  i32 1, i32 6, i32 0, i32 4, i32 2, i32 4, i32 1, i32 1, i32 1,
  i32 258, i32 6, i32 1, i32 8, i32 2, i32 4, i32 1, i32 2, i32 1]

; r: REGISTER u32, dense [2, 3, 1] (strides [3, 1, 1]);
; in: MEMORY|CONST u32 global, a view [2, 3, 1] with strides [4, 1, 1] over 8
; elements (rows 4 apart, the last element of each row skipped).
@l.grid = internal addrspace(4) constant [24 x i32] [i32 1, i32 2,
  i32 1, i32 6, i32 0, i32 6, i32 3, i32 2, i32 3, i32 1, i32 3, i32 1, i32 1,
  i32 258, i32 6, i32 1, i32 8, i32 3, i32 2, i32 3, i32 1, i32 4, i32 1, i32 1]

; r: REGISTER u32 [3, 4]; in: MEMORY|CONST u32 global [3, 4], both dense.
@l.ld.v4 = internal addrspace(4) constant [20 x i32] [i32 1, i32 2,
  i32 1, i32 6, i32 0, i32 12, i32 2, i32 3, i32 4, i32 4, i32 1,
  i32 258, i32 6, i32 1, i32 12, i32 2, i32 3, i32 4, i32 4, i32 1]
; out: MEMORY u32 global [3, 4]; r: REGISTER u32 [3, 4], both dense.
@l.st.v4 = internal addrspace(4) constant [20 x i32] [i32 1, i32 2,
  i32 2, i32 6, i32 1, i32 12, i32 2, i32 3, i32 4, i32 4, i32 1,
  i32 1, i32 6, i32 0, i32 12, i32 2, i32 3, i32 4, i32 4, i32 1]

; r: REGISTER u32, dense [4, 1];
; s: MEMORY|CONST u32 shared, a view [4, 1] with strides [3, 1] over 12 elements.
@l.ld.sh = internal addrspace(4) constant [20 x i32] [i32 1, i32 2,
  i32 1, i32 6, i32 0, i32 4, i32 2, i32 4, i32 1, i32 1, i32 1,
  i32 258, i32 6, i32 2, i32 12, i32 2, i32 4, i32 1, i32 3, i32 1]
; t: MEMORY u32 shared, dense [4, 1]; r: REGISTER u32, dense [4, 1].
@l.st.sh = internal addrspace(4) constant [20 x i32] [i32 1, i32 2,
  i32 2, i32 6, i32 2, i32 4, i32 2, i32 4, i32 1, i32 1, i32 1,
  i32 1, i32 6, i32 0, i32 4, i32 2, i32 4, i32 1, i32 1, i32 1]

; ---------------------------------------------------------------------------
; Stride 2 over b32: element 2r, 8r bytes: 0, 8, 16, 24.

define ptx_kernel void @strided(ptr %in, ptr %out) #0 {
  %r = alloca [4 x [1 x i32]], align 4
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.ld, ptr addrspacecast (ptr addrspace(4) @l.strided to ptr), ptr %r, ptr %in)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %out, ptr align 4 %r, i64 16, i1 false)
  ret void
}

; CHECK-LABEL: define ptx_kernel void @strided(
; CHECK-NEXT:    %r = alloca [4 x [1 x i32]], align 4
; CHECK-NEXT:    [[G:%.*]] = addrspacecast ptr %in to ptr addrspace(1)
; CHECK-NEXT:    [[A:%.*]] = ptrtoint ptr addrspace(1) [[G]] to i64
; CHECK-NEXT:    [[V0:%.*]] = call i32 asm sideeffect "ld.global.b32 $0, [$1];", "=r,l,~{memory}"(i64 [[A]])
; CHECK-NEXT:    store i32 [[V0]], ptr %r, align 4
; CHECK-NEXT:    [[V1:%.*]] = call i32 asm sideeffect "ld.global.b32 $0, [$1+8];", "=r,l,~{memory}"(i64 [[A]])
; CHECK-NEXT:    [[R1:%.*]] = getelementptr inbounds i8, ptr %r, i64 4
; CHECK-NEXT:    store i32 [[V1]], ptr [[R1]], align 4
; CHECK-NEXT:    [[V2:%.*]] = call i32 asm sideeffect "ld.global.b32 $0, [$1+16];", "=r,l,~{memory}"(i64 [[A]])
; CHECK-NEXT:    [[R2:%.*]] = getelementptr inbounds i8, ptr %r, i64 8
; CHECK-NEXT:    store i32 [[V2]], ptr [[R2]], align 4
; CHECK-NEXT:    [[V3:%.*]] = call i32 asm sideeffect "ld.global.b32 $0, [$1+24];", "=r,l,~{memory}"(i64 [[A]])
; CHECK-NEXT:    [[R3:%.*]] = getelementptr inbounds i8, ptr %r, i64 12
; CHECK-NEXT:    store i32 [[V3]], ptr [[R3]], align 4
; CHECK-NEXT:    call void @llvm.memcpy

; PTX-LABEL: .entry strided(
; PTX:           cvta.to.global.u64 %rd[[S:[0-9]+]],
; PTX-NOT:       add.s64
; PTX:           ld.global.b32 %r{{[0-9]+}}, [%rd[[S]]];
; PTX-NEXT:      // end inline asm
; PTX-NEXT:      // begin inline asm
; PTX-NEXT:      ld.global.b32 %r{{[0-9]+}}, [%rd[[S]]+8];
; PTX-NEXT:      // end inline asm
; PTX-NEXT:      // begin inline asm
; PTX-NEXT:      ld.global.b32 %r{{[0-9]+}}, [%rd[[S]]+16];
; PTX-NEXT:      // end inline asm
; PTX-NEXT:      // begin inline asm
; PTX-NEXT:      ld.global.b32 %r{{[0-9]+}}, [%rd[[S]]+24];
; PTX:           ret;

; ---------------------------------------------------------------------------
; Repeat shape [2, 3], row-major: repeat r is (i, j) = (r / 3, r % 3), the
; memory element 4i + j, at 4 * (4i + j) bytes: 0, 4, 8, then 16, 20, 24.
; The registers are dense: element 3i + j, 4 * r bytes.

define ptx_kernel void @grid(ptr %in, ptr %out) #0 {
  %r = alloca [2 x [3 x [1 x i32]]], align 4
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.ld, ptr addrspacecast (ptr addrspace(4) @l.grid to ptr), ptr %r, ptr %in)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %out, ptr align 4 %r, i64 24, i1 false)
  ret void
}

; CHECK-LABEL: define ptx_kernel void @grid(
; CHECK-NEXT:    %r = alloca [2 x [3 x [1 x i32]]], align 4
; CHECK-NEXT:    [[G:%.*]] = addrspacecast ptr %in to ptr addrspace(1)
; CHECK-NEXT:    [[A:%.*]] = ptrtoint ptr addrspace(1) [[G]] to i64
; (0, 0)
; CHECK-NEXT:    [[V0:%.*]] = call i32 asm sideeffect "ld.global.b32 $0, [$1];", "=r,l,~{memory}"(i64 [[A]])
; CHECK-NEXT:    store i32 [[V0]], ptr %r, align 4
; (0, 1)
; CHECK-NEXT:    [[V1:%.*]] = call i32 asm sideeffect "ld.global.b32 $0, [$1+4];", "=r,l,~{memory}"(i64 [[A]])
; CHECK-NEXT:    [[R1:%.*]] = getelementptr inbounds i8, ptr %r, i64 4
; CHECK-NEXT:    store i32 [[V1]], ptr [[R1]], align 4
; (0, 2)
; CHECK-NEXT:    [[V2:%.*]] = call i32 asm sideeffect "ld.global.b32 $0, [$1+8];", "=r,l,~{memory}"(i64 [[A]])
; CHECK-NEXT:    [[R2:%.*]] = getelementptr inbounds i8, ptr %r, i64 8
; CHECK-NEXT:    store i32 [[V2]], ptr [[R2]], align 4
; (1, 0): the next row, 4 elements on
; CHECK-NEXT:    [[V3:%.*]] = call i32 asm sideeffect "ld.global.b32 $0, [$1+16];", "=r,l,~{memory}"(i64 [[A]])
; CHECK-NEXT:    [[R3:%.*]] = getelementptr inbounds i8, ptr %r, i64 12
; CHECK-NEXT:    store i32 [[V3]], ptr [[R3]], align 4
; (1, 1)
; CHECK-NEXT:    [[V4:%.*]] = call i32 asm sideeffect "ld.global.b32 $0, [$1+20];", "=r,l,~{memory}"(i64 [[A]])
; CHECK-NEXT:    [[R4:%.*]] = getelementptr inbounds i8, ptr %r, i64 16
; CHECK-NEXT:    store i32 [[V4]], ptr [[R4]], align 4
; (1, 2)
; CHECK-NEXT:    [[V5:%.*]] = call i32 asm sideeffect "ld.global.b32 $0, [$1+24];", "=r,l,~{memory}"(i64 [[A]])
; CHECK-NEXT:    [[R5:%.*]] = getelementptr inbounds i8, ptr %r, i64 20
; CHECK-NEXT:    store i32 [[V5]], ptr [[R5]], align 4
; CHECK-NEXT:    call void @llvm.memcpy

; PTX-LABEL: .entry grid(
; PTX:           cvta.to.global.u64 %rd[[S:[0-9]+]],
; PTX-NOT:       add.s64
; PTX:           ld.global.b32 %r{{[0-9]+}}, [%rd[[S]]];
; PTX-NOT:       ld.global
; PTX:           ld.global.b32 %r{{[0-9]+}}, [%rd[[S]]+4];
; PTX-NOT:       ld.global
; PTX:           ld.global.b32 %r{{[0-9]+}}, [%rd[[S]]+8];
; PTX-NOT:       ld.global
; PTX:           ld.global.b32 %r{{[0-9]+}}, [%rd[[S]]+16];
; PTX-NOT:       ld.global
; PTX:           ld.global.b32 %r{{[0-9]+}}, [%rd[[S]]+20];
; PTX-NOT:       ld.global
; PTX:           ld.global.b32 %r{{[0-9]+}}, [%rd[[S]]+24];
; PTX:           ret;

; ---------------------------------------------------------------------------
; A .v4 group: repeat r starts at element 4r, 16r bytes: 0, 16, 32, for the
; load and the store alike.

define ptx_kernel void @vec4(ptr %in, ptr %out) #0 {
  %r = alloca [3 x [4 x i32]], align 4
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.ld.v4, ptr addrspacecast (ptr addrspace(4) @l.ld.v4 to ptr), ptr %r, ptr %in)
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.st.v4, ptr addrspacecast (ptr addrspace(4) @l.st.v4 to ptr), ptr %out, ptr %r)
  ret void
}

; CHECK-LABEL: define ptx_kernel void @vec4(
; CHECK-NEXT:    %r = alloca [3 x [4 x i32]], align 4
; CHECK-NEXT:    [[G:%.*]] = addrspacecast ptr %in to ptr addrspace(1)
; CHECK-NEXT:    [[A:%.*]] = ptrtoint ptr addrspace(1) [[G]] to i64
; CHECK-NEXT:    call { i32, i32, i32, i32 } asm sideeffect "ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,~{memory}"(i64 [[A]])
; CHECK-NOT:     {{addrspacecast|ptrtoint|asm}}
; CHECK:         call { i32, i32, i32, i32 } asm sideeffect "ld.global.v4.b32 {$0, $1, $2, $3}, [$4+16];", "=r,=r,=r,=r,l,~{memory}"(i64 [[A]])
; CHECK-NOT:     {{addrspacecast|ptrtoint|asm}}
; CHECK:         call { i32, i32, i32, i32 } asm sideeffect "ld.global.v4.b32 {$0, $1, $2, $3}, [$4+32];", "=r,=r,=r,=r,l,~{memory}"(i64 [[A]])
; CHECK-NOT:     asm
; CHECK:         [[GO:%.*]] = addrspacecast ptr %out to ptr addrspace(1)
; CHECK-NEXT:    [[O:%.*]] = ptrtoint ptr addrspace(1) [[GO]] to i64
; CHECK-NOT:     {{addrspacecast|ptrtoint|asm}}
; CHECK:         call void asm sideeffect "st.global.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r,~{memory}"(i64 [[O]],
; CHECK-NOT:     {{addrspacecast|ptrtoint|asm}}
; CHECK:         call void asm sideeffect "st.global.v4.b32 [$0+16], {$1, $2, $3, $4};", "l,r,r,r,r,~{memory}"(i64 [[O]],
; CHECK-NOT:     {{addrspacecast|ptrtoint|asm}}
; CHECK:         call void asm sideeffect "st.global.v4.b32 [$0+32], {$1, $2, $3, $4};", "l,r,r,r,r,~{memory}"(i64 [[O]],
; CHECK-NEXT:    ret void

; PTX-LABEL: .entry vec4(
; PTX-NOT:       add.s64
; PTX:           ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd[[I:[0-9]+]]];
; PTX-NOT:       add.s64
; PTX:           ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd[[I]]+16];
; PTX-NOT:       add.s64
; PTX:           ld.global.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd[[I]]+32];
; PTX-NOT:       add.s64
; PTX:           st.global.v4.b32 [%rd[[O:[0-9]+]]], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
; PTX-NOT:       add.s64
; PTX:           st.global.v4.b32 [%rd[[O]]+16], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
; PTX-NOT:       add.s64
; PTX:           st.global.v4.b32 [%rd[[O]]+32], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
; PTX:           ret;

; ---------------------------------------------------------------------------
; Shared memory. A generic pointer is cast to addrspace(3) (cvta.to.shared);
; the view has stride 3, so repeat r is element 3r, 12r bytes: 0, 12, 24, 36.
; A pointer already in addrspace(3) is not cast again, only converted; dense,
; its repeats are 0, 4, 8, 12 bytes on.

define ptx_kernel void @shared(ptr %s, ptr addrspace(3) %t) #0 {
  %r = alloca [4 x [1 x i32]], align 4
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.ld.sh, ptr addrspacecast (ptr addrspace(4) @l.ld.sh to ptr), ptr %r, ptr %s)
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.st.sh, ptr addrspacecast (ptr addrspace(4) @l.st.sh to ptr), ptr addrspace(3) %t, ptr %r)
  ret void
}

; CHECK-LABEL: define ptx_kernel void @shared(
; CHECK-NEXT:    %r = alloca [4 x [1 x i32]], align 4
; CHECK-NEXT:    [[SH:%.*]] = addrspacecast ptr %s to ptr addrspace(3)
; CHECK-NEXT:    [[A:%.*]] = ptrtoint ptr addrspace(3) [[SH]] to i64
; CHECK-NEXT:    [[V0:%.*]] = call i32 asm sideeffect "ld.shared.b32 $0, [$1];", "=r,l,~{memory}"(i64 [[A]])
; CHECK-NEXT:    store i32 [[V0]], ptr %r, align 4
; CHECK-NEXT:    [[V1:%.*]] = call i32 asm sideeffect "ld.shared.b32 $0, [$1+12];", "=r,l,~{memory}"(i64 [[A]])
; CHECK-NEXT:    [[R1:%.*]] = getelementptr inbounds i8, ptr %r, i64 4
; CHECK-NEXT:    store i32 [[V1]], ptr [[R1]], align 4
; CHECK-NEXT:    [[V2:%.*]] = call i32 asm sideeffect "ld.shared.b32 $0, [$1+24];", "=r,l,~{memory}"(i64 [[A]])
; CHECK-NEXT:    [[R2:%.*]] = getelementptr inbounds i8, ptr %r, i64 8
; CHECK-NEXT:    store i32 [[V2]], ptr [[R2]], align 4
; CHECK-NEXT:    [[V3:%.*]] = call i32 asm sideeffect "ld.shared.b32 $0, [$1+36];", "=r,l,~{memory}"(i64 [[A]])
; CHECK-NEXT:    [[R3:%.*]] = getelementptr inbounds i8, ptr %r, i64 12
; CHECK-NEXT:    store i32 [[V3]], ptr [[R3]], align 4
; CHECK-NEXT:    [[T:%.*]] = ptrtoint ptr addrspace(3) %t to i64
; CHECK-NEXT:    [[X0:%.*]] = load i32, ptr %r, align 4
; CHECK-NEXT:    call void asm sideeffect "st.shared.b32 [$0], $1;", "l,r,~{memory}"(i64 [[T]], i32 [[X0]])
; CHECK-NEXT:    [[Y1:%.*]] = getelementptr inbounds i8, ptr %r, i64 4
; CHECK-NEXT:    [[X1:%.*]] = load i32, ptr [[Y1]], align 4
; CHECK-NEXT:    call void asm sideeffect "st.shared.b32 [$0+4], $1;", "l,r,~{memory}"(i64 [[T]], i32 [[X1]])
; CHECK-NEXT:    [[Y2:%.*]] = getelementptr inbounds i8, ptr %r, i64 8
; CHECK-NEXT:    [[X2:%.*]] = load i32, ptr [[Y2]], align 4
; CHECK-NEXT:    call void asm sideeffect "st.shared.b32 [$0+8], $1;", "l,r,~{memory}"(i64 [[T]], i32 [[X2]])
; CHECK-NEXT:    [[Y3:%.*]] = getelementptr inbounds i8, ptr %r, i64 12
; CHECK-NEXT:    [[X3:%.*]] = load i32, ptr [[Y3]], align 4
; CHECK-NEXT:    call void asm sideeffect "st.shared.b32 [$0+12], $1;", "l,r,~{memory}"(i64 [[T]], i32 [[X3]])
; CHECK-NEXT:    ret void

; PTX-LABEL: .entry shared(
; PTX:           cvta.to.shared.u64 %rd[[S:[0-9]+]],
; PTX-NOT:       add.s64
; PTX:           ld.shared.b32 %r{{[0-9]+}}, [%rd[[S]]];
; PTX-NOT:       add.s64
; PTX:           ld.shared.b32 %r{{[0-9]+}}, [%rd[[S]]+12];
; PTX-NOT:       add.s64
; PTX:           ld.shared.b32 %r{{[0-9]+}}, [%rd[[S]]+24];
; PTX-NOT:       add.s64
; PTX:           ld.shared.b32 %r{{[0-9]+}}, [%rd[[S]]+36];
; PTX-NOT:       add.s64
; PTX:           st.shared.b32 [%rd[[T:[0-9]+]]], %r{{[0-9]+}};
; PTX-NOT:       add.s64
; PTX:           st.shared.b32 [%rd[[T]]+4], %r{{[0-9]+}};
; PTX-NOT:       add.s64
; PTX:           st.shared.b32 [%rd[[T]]+8], %r{{[0-9]+}};
; PTX-NOT:       add.s64
; PTX:           st.shared.b32 [%rd[[T]]+12], %r{{[0-9]+}};
; PTX:           ret;

declare void @__tileapply_apply(ptr, ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly, ptr noalias readonly, i64, i1 immarg)

attributes #0 = { convergent nounwind "target-cpu"="sm_90a" "target-features"="+ptx88,+sm_90a" }

; The worked example of docs/ir-form.md: keep the two in step.
;
; What a front end emits for
;
;   __global__ void example(tile::global<const float, 2, 2> in,
;                           tile::global<float, 2, 2> out, bool p) {
;     float r[2][2];
;     __tile_apply("ld.global.v2.f32", r, in);
;     __tile_apply("add.f32", tile::view<tile::shape<4, 1>, tile::stride<1, 1>>(r),
;                  tile::view<tile::shape<4, 1>, tile::stride<1, 1>>(r), 1.0,
;                  tile::pred(p));
;     __tile_apply("st.global.v2.f32", out, r);
;   }
;
; RUN: opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%passplugin -passes='default<O2>' %s | llc -mcpu=sm_90a -o %t.ptx
; RUN: FileCheck %s --check-prefix=PTX < %t.ptx
; RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@op.ld = private unnamed_addr constant [17 x i8] c"ld.global.v2.f32\00"
@op.add = private unnamed_addr constant [8 x i8] c"add.f32\00"
@op.st = private unnamed_addr constant [17 x i8] c"st.global.v2.f32\00"

; version 1, 2 arguments:
;   r   REGISTER        f32  -       4 elements, shape [2, 2], strides [2, 1]
;   in  MEMORY | CONST  f32  global  4 elements, shape [2, 2], strides [2, 1]
@layout.ld = internal addrspace(4) constant [20 x i32] [i32 1, i32 2,
  i32 1,   i32 12, i32 0, i32 4, i32 2, i32 2, i32 2, i32 2, i32 1,
  i32 258, i32 12, i32 1, i32 4, i32 2, i32 2, i32 2, i32 2, i32 1]

; version 1, 4 arguments:
;   view of r  REGISTER     f32  -  4 elements, shape [4, 1], strides [1, 1]
;   view of r  REGISTER     f32  -  4 elements, shape [4, 1], strides [1, 1]
;   1.0        SCALAR       f64 (a double literal)
;   pred(p)    PRED_SCALAR  bool
@layout.add = internal addrspace(4) constant [30 x i32] [i32 1, i32 4,
  i32 1, i32 12, i32 0, i32 4, i32 2, i32 4, i32 1, i32 1, i32 1,
  i32 1, i32 12, i32 0, i32 4, i32 2, i32 4, i32 1, i32 1, i32 1,
  i32 3, i32 13, i32 0, i32 1, i32 0,
  i32 4, i32 1,  i32 0, i32 1, i32 0]

; version 1, 2 arguments:
;   out  MEMORY    f32  global  4 elements, shape [2, 2], strides [2, 1]
;   r    REGISTER  f32  -       4 elements, shape [2, 2], strides [2, 1]
@layout.st = internal addrspace(4) constant [20 x i32] [i32 1, i32 2,
  i32 2, i32 12, i32 1, i32 4, i32 2, i32 2, i32 2, i32 2, i32 1,
  i32 1, i32 12, i32 0, i32 4, i32 2, i32 2, i32 2, i32 2, i32 1]

define ptx_kernel void @example(ptr %in, ptr %out, i1 %p) #0 {
  %r = alloca [2 x [2 x float]], align 4
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @op.ld, ptr addrspacecast (ptr addrspace(4) @layout.ld to ptr), ptr %r, ptr %in)
  %on = zext i1 %p to i32
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @op.add, ptr addrspacecast (ptr addrspace(4) @layout.add to ptr), ptr %r, ptr %r, double 1.000000e+00, i32 %on)
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @op.st, ptr addrspacecast (ptr addrspace(4) @layout.st to ptr), ptr %out, ptr %r)
  ret void
}

declare void @__tileapply_apply(ptr, ptr, ...)

attributes #0 = { "target-cpu"="sm_90a" "target-features"="+ptx88,+sm_90a" }

; CHECK-LABEL: define ptx_kernel void @example(
; CHECK-NEXT:    %r = alloca [2 x [2 x float]], align 4
; Two ld.global.v2.f32, one per repeat, each filling one row of r.
; CHECK-NEXT:    [[IN:%.*]] = addrspacecast ptr %in to ptr addrspace(1)
; CHECK-NEXT:    [[A0:%.*]] = ptrtoint ptr addrspace(1) [[IN]] to i64
; CHECK-NEXT:    [[V0:%.*]] = call { float, float } asm sideeffect "ld.global.v2.f32 {$0, $1}, [$2];", "=f,=f,l,~{memory}"(i64 [[A0]]) #[[MEM:[0-9]+]], !tileapply.opcode [[LD:![0-9]+]]
; CHECK-NEXT:    [[X00:%.*]] = extractvalue { float, float } [[V0]], 0
; CHECK-NEXT:    store float [[X00]], ptr %r, align 4
; CHECK-NEXT:    [[X01:%.*]] = extractvalue { float, float } [[V0]], 1
; CHECK-NEXT:    [[R01:%.*]] = getelementptr inbounds i8, ptr %r, i64 4
; CHECK-NEXT:    store float [[X01]], ptr [[R01]], align 4
; Repeat 1 is row 1: element 2 (stride 2), 8 bytes past the same base.
; CHECK-NEXT:    [[V1:%.*]] = call { float, float } asm sideeffect "ld.global.v2.f32 {$0, $1}, [$2+8];", "=f,=f,l,~{memory}"(i64 [[A0]]) #[[MEM]], !tileapply.opcode [[LD]]
; CHECK-NEXT:    [[X10:%.*]] = extractvalue { float, float } [[V1]], 0
; CHECK-NEXT:    [[R10:%.*]] = getelementptr inbounds i8, ptr %r, i64 8
; CHECK-NEXT:    store float [[X10]], ptr [[R10]], align 4
; CHECK-NEXT:    [[X11:%.*]] = extractvalue { float, float } [[V1]], 1
; CHECK-NEXT:    [[R11:%.*]] = getelementptr inbounds i8, ptr %r, i64 12
; CHECK-NEXT:    store float [[X11]], ptr [[R11]], align 4
; Four predicated add.f32 over the [4, 1] view; 1.0 is the immediate 0f3F800000.
; CHECK-NEXT:    %on = zext i1 %p to i32
; CHECK-NEXT:    [[E0:%.*]] = load float, ptr %r, align 4
; CHECK-NEXT:    [[ON:%.*]] = icmp ne i32 %on, 0
; CHECK-NEXT:    [[S0:%.*]] = call float asm "@$2 add.f32 $0, $1, 0f3F800000;", "=f,f,b"(float [[E0]], i1 [[ON]]) #[[PURE:[0-9]+]], !tileapply.opcode [[ADD:![0-9]+]]
; CHECK-NEXT:    store float [[S0]], ptr %r, align 4
; CHECK-COUNT-3: call float asm "@$2 add.f32 $0, $1, 0f3F800000;", "=f,f,b"(float {{%.*}}, i1 [[ON]])
; CHECK-NOT:     {{addrspacecast|ptrtoint|asm}}
; Two st.global.v2.f32.
; CHECK:         [[OUT:%.*]] = addrspacecast ptr %out to ptr addrspace(1)
; CHECK-NEXT:    [[B0:%.*]] = ptrtoint ptr addrspace(1) [[OUT]] to i64
; CHECK-NEXT:    [[Y00:%.*]] = load float, ptr %r, align 4
; CHECK-NEXT:    [[Q01:%.*]] = getelementptr inbounds i8, ptr %r, i64 4
; CHECK-NEXT:    [[Y01:%.*]] = load float, ptr [[Q01]], align 4
; CHECK-NEXT:    call void asm sideeffect "st.global.v2.f32 [$0], {$1, $2};", "l,f,f,~{memory}"(i64 [[B0]], float [[Y00]], float [[Y01]]) #[[MEM]], !tileapply.opcode [[ST:![0-9]+]]
; CHECK-NEXT:    [[Q10:%.*]] = getelementptr inbounds i8, ptr %r, i64 8
; CHECK-NEXT:    [[Y10:%.*]] = load float, ptr [[Q10]], align 4
; CHECK-NEXT:    [[Q11:%.*]] = getelementptr inbounds i8, ptr %r, i64 12
; CHECK-NEXT:    [[Y11:%.*]] = load float, ptr [[Q11]], align 4
; CHECK-NEXT:    call void asm sideeffect "st.global.v2.f32 [$0+8], {$1, $2};", "l,f,f,~{memory}"(i64 [[B0]], float [[Y10]], float [[Y11]]) #[[MEM]], !tileapply.opcode [[ST]]
; CHECK-NEXT:    ret void
; CHECK-NOT:     __tileapply_apply
; CHECK-DAG:     attributes #[[MEM]] = { convergent nounwind }
; CHECK-DAG:     attributes #[[PURE]] = { convergent nounwind willreturn memory(none) }
; CHECK-DAG:     [[LD]] = !{!"ld.global.v2.f32"}
; CHECK-DAG:     [[ADD]] = !{!"add.f32"}
; CHECK-DAG:     [[ST]] = !{!"st.global.v2.f32"}

; PTX-LABEL: .entry example(
; PTX-NOT:       .local
; PTX:           setp.{{.*}} %p[[P:[0-9]+]],
; One base register per memory operand; the second row is [base+8], with no
; add.s64 in between.
; PTX:           ld.global.v2.f32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd[[IN:[0-9]+]]];
; PTX-NOT:       add.s64
; PTX:           ld.global.v2.f32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd[[IN]]+8];
; PTX-COUNT-4:   @%p[[P]] add.f32 %r{{[0-9]+}}, %r{{[0-9]+}}, 0f3F800000;
; PTX:           st.global.v2.f32 [%rd[[OUT:[0-9]+]]], {%r{{[0-9]+}}, %r{{[0-9]+}}};
; PTX-NOT:       add.s64
; PTX:           st.global.v2.f32 [%rd[[OUT]]+8], {%r{{[0-9]+}}, %r{{[0-9]+}}};

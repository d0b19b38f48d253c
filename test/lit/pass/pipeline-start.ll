; The pipeline-start sequence that clang runs (through -fplugin or
; -fpass-plugin): always-inline first, so the marker leaves the header's
; always-inline `__tile_apply` wrapper while the register array is still an
; alloca, then the expansion. It runs at every level, -O0 (optnone functions)
; included, and sees the constant through the wrapper's parameter slots.
;
; RUN: opt -load-pass-plugin=%passplugin -passes=tile-apply-pipeline-start -S %s | FileCheck %s --check-prefixes=CHECK,NOSROA
; RUN: opt -load-pass-plugin=%passplugin -passes='default<O0>' -S %s | FileCheck %s --check-prefixes=CHECK,NOSROA
; RUN: opt -load-pass-plugin=%passplugin -passes='default<O2>' -S %s | FileCheck %s --check-prefixes=CHECK,O2
;
; Loading the plugin puts the sequence at the start of every default pipeline,
; before the first SROA.
; RUN: opt -load-pass-plugin=%passplugin -passes='default<O0>' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=PIPE-O0
; RUN: opt -load-pass-plugin=%passplugin -passes='default<O2>' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=PIPE-O2
; PIPE-O0:     tile-apply-pipeline-start
; PIPE-O2-NOT: sroa
; PIPE-O2:     tile-apply-pipeline-start
; PIPE-O2:     sroa

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.add = private unnamed_addr constant [8 x i8] c"add.f32\00"
@.st = private unnamed_addr constant [14 x i8] c"st.global.f32\00"
; 2 x { REGISTER f32 [4, 1] }, { SCALAR f64 }
@layout.add = linkonce_odr addrspace(4) externally_initialized constant { [25 x i32] } { [25 x i32] [i32 1, i32 3,
  i32 1, i32 12, i32 0, i32 4, i32 2, i32 4, i32 1, i32 1, i32 1,
  i32 1, i32 12, i32 0, i32 4, i32 2, i32 4, i32 1, i32 1, i32 1,
  i32 3, i32 13, i32 0, i32 1, i32 0] }
; { MEMORY f32 global [4, 1] }, { REGISTER f32 [4, 1] }
@layout.st = linkonce_odr addrspace(4) externally_initialized constant { [20 x i32] } { [20 x i32] [i32 1, i32 2,
  i32 2, i32 12, i32 1, i32 4, i32 2, i32 4, i32 1, i32 1, i32 1,
  i32 1, i32 12, i32 0, i32 4, i32 2, i32 4, i32 1, i32 1, i32 1] }
@llvm.compiler.used = appending global [2 x ptr] [ptr addrspacecast (ptr addrspace(4) @layout.add to ptr), ptr addrspacecast (ptr addrspace(4) @layout.st to ptr)], section "llvm.metadata"

; What tile.h's `__tile_apply(op, float (&)[4][1], float (&)[4][1], double)`
; looks like before optimization.
define linkonce_odr void @__tile_apply_add(ptr %op, ptr %d, ptr %a, ptr %s) #0 {
  %op.addr = alloca ptr, align 8
  %d.addr = alloca ptr, align 8
  %a.addr = alloca ptr, align 8
  %s.addr = alloca ptr, align 8
  store ptr %op, ptr %op.addr, align 8
  store ptr %d, ptr %d.addr, align 8
  store ptr %a, ptr %a.addr, align 8
  store ptr %s, ptr %s.addr, align 8
  %1 = load ptr, ptr %op.addr, align 8
  %2 = load ptr, ptr %d.addr, align 8
  %3 = load ptr, ptr %a.addr, align 8
  %4 = load ptr, ptr %s.addr, align 8
  %5 = load double, ptr %4, align 8
  call void (ptr, ptr, ...) @__tileapply_apply(ptr %1, ptr addrspacecast (ptr addrspace(4) @layout.add to ptr), ptr %2, ptr %3, double %5)
  ret void
}

define linkonce_odr void @__tile_apply_st(ptr %op, ptr %out, ptr %r) #0 {
  %op.addr = alloca ptr, align 8
  %out.addr = alloca ptr, align 8
  %r.addr = alloca ptr, align 8
  store ptr %op, ptr %op.addr, align 8
  store ptr %out, ptr %out.addr, align 8
  store ptr %r, ptr %r.addr, align 8
  %1 = load ptr, ptr %op.addr, align 8
  %2 = load ptr, ptr %out.addr, align 8
  %3 = load ptr, ptr %r.addr, align 8
  call void (ptr, ptr, ...) @__tileapply_apply(ptr %1, ptr addrspacecast (ptr addrspace(4) @layout.st to ptr), ptr %2, ptr %3)
  ret void
}

define ptx_kernel void @kernel(ptr %out) #1 {
  %r = alloca [4 x [1 x float]], align 4
  %one = alloca double, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %r, ptr align 4 %out, i64 16, i1 false)
  store double 1.000000e+00, ptr %one, align 8
  call void @__tile_apply_add(ptr @.add, ptr %r, ptr %r, ptr %one)
  call void @__tile_apply_st(ptr @.st, ptr %out, ptr %r)
  ret void
}

; CHECK-LABEL: define ptx_kernel void @kernel(
; CHECK-NOT:     call void @__tile_apply
; f32 [4, 1], strides [1, 1]: store r goes to element r, 4*r bytes past one
; base converted once.
; NOSROA-COUNT-4: call float asm "add.f32 $0, $1, 0f3F800000;", "=f,f"(float
; NOSROA-NOT:     asm
; NOSROA:         [[A:%.*]] = ptrtoint ptr addrspace(1) {{%.*}} to i64
; NOSROA-NOT:     ptrtoint
; NOSROA:         call void asm sideeffect "st.global.f32 [$0], $1;", "l,f,~{memory}"(i64 [[A]], float
; NOSROA-NOT:     ptrtoint
; NOSROA:         call void asm sideeffect "st.global.f32 [$0+4], $1;", "l,f,~{memory}"(i64 [[A]], float
; NOSROA-NOT:     ptrtoint
; NOSROA:         call void asm sideeffect "st.global.f32 [$0+8], $1;", "l,f,~{memory}"(i64 [[A]], float
; NOSROA-NOT:     ptrtoint
; NOSROA:         call void asm sideeffect "st.global.f32 [$0+12], $1;", "l,f,~{memory}"(i64 [[A]], float
; At -O2 SROA then takes the array apart: no memory is left between the
; instructions, and the add results flow straight into the stores.
; O2-NOT:        alloca
; O2:            [[V0:%.*]] = {{.*}}call float asm "add.f32 $0, $1, 0f3F800000;", "=f,f"(float
; O2:            [[V1:%.*]] = {{.*}}call float asm "add.f32 $0, $1, 0f3F800000;", "=f,f"(float
; O2:            [[V2:%.*]] = {{.*}}call float asm "add.f32 $0, $1, 0f3F800000;", "=f,f"(float
; O2:            [[V3:%.*]] = {{.*}}call float asm "add.f32 $0, $1, 0f3F800000;", "=f,f"(float
; O2:            [[B:%.*]] = ptrtoint ptr addrspace(1) {{%.*}} to i64
; O2-NEXT:       call void asm sideeffect "st.global.f32 [$0], $1;", "l,f,~{memory}"(i64 [[B]], float [[V0]])
; O2-NEXT:       call void asm sideeffect "st.global.f32 [$0+4], $1;", "l,f,~{memory}"(i64 [[B]], float [[V1]])
; O2-NEXT:       call void asm sideeffect "st.global.f32 [$0+8], $1;", "l,f,~{memory}"(i64 [[B]], float [[V2]])
; O2-NEXT:       call void asm sideeffect "st.global.f32 [$0+12], $1;", "l,f,~{memory}"(i64 [[B]], float [[V3]])
; CHECK:         ret void

; The same kernel as clang emits it at -O0: optnone does not skip the
; expansion (an unexpanded marker could not be compiled).
define ptx_kernel void @kernel_O0(ptr %out) #2 {
  %r = alloca [4 x [1 x float]], align 4
  %one = alloca double, align 8
  store double 1.000000e+00, ptr %one, align 8
  call void @__tile_apply_add(ptr @.add, ptr %r, ptr %r, ptr %one)
  call void @__tile_apply_st(ptr @.st, ptr %out, ptr %r)
  ret void
}

; CHECK-LABEL: define ptx_kernel void @kernel_O0(
; CHECK-NOT:     call void @__tile_apply
; CHECK-COUNT-4: call float asm "add.f32 $0, $1, 0f3F800000;", "=f,f"(float
; CHECK-NOT:     asm
; CHECK:         [[C:%.*]] = ptrtoint ptr addrspace(1) {{%.*}} to i64
; CHECK-NOT:     ptrtoint
; CHECK:         call void asm sideeffect "st.global.f32 [$0], $1;", "l,f,~{memory}"(i64 [[C]], float
; CHECK-NOT:     ptrtoint
; CHECK:         call void asm sideeffect "st.global.f32 [$0+4], $1;", "l,f,~{memory}"(i64 [[C]], float
; CHECK-NOT:     ptrtoint
; CHECK:         call void asm sideeffect "st.global.f32 [$0+8], $1;", "l,f,~{memory}"(i64 [[C]], float
; CHECK-NOT:     ptrtoint
; CHECK:         call void asm sideeffect "st.global.f32 [$0+12], $1;", "l,f,~{memory}"(i64 [[C]], float
; CHECK:         ret void
; CHECK-NOT:     @__tileapply_apply(

declare void @__tileapply_apply(ptr, ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly, ptr noalias readonly, i64, i1 immarg)

attributes #0 = { alwaysinline convergent nounwind }
attributes #1 = { convergent nounwind }
attributes #2 = { convergent noinline nounwind optnone }

; Every register carrier through llc and ptxas: 8-bit ('c', i8), 16-bit ('h',
; i16), 32-bit float ('f'), 64-bit integer ('l', i64), double ('d'), 128-bit
; integer ('q', i128, a .b128 register) and the predicate ('b', i1, with a tied
; old value). Each instruction must reach the
; PTX spelled as the opcode, and ptxas must accept the result.
;
; RUN: opt -load-pass-plugin=%passplugin -passes='default<O2>' -S %s -o %t.ll
; RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx88 %t.ll -o %t.ptx
; RUN: FileCheck %s < %t.ptx
; RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.ld.u8 = private unnamed_addr constant [13 x i8] c"ld.global.u8\00"
@.st.u8 = private unnamed_addr constant [13 x i8] c"st.global.u8\00"
@.neg.f16 = private unnamed_addr constant [8 x i8] c"neg.f16\00"
@.add.u64 = private unnamed_addr constant [8 x i8] c"add.u64\00"
@.mul.f64 = private unnamed_addr constant [11 x i8] c"mul.rn.f64\00"
@.abs.f32 = private unnamed_addr constant [8 x i8] c"abs.f32\00"
@.mov.b128 = private unnamed_addr constant [9 x i8] c"mov.b128\00"

; { REGISTER u8 [2, 1] }, { MEMORY|CONST u8 global [2, 1] }
@l.ld.u8 = internal addrspace(4) constant [20 x i32] [i32 1, i32 2,
  i32 1, i32 2, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 258, i32 2, i32 1, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1]
; { MEMORY u8 global [2, 1] }, { REGISTER u8 [2, 1] }
@l.st.u8 = internal addrspace(4) constant [20 x i32] [i32 1, i32 2,
  i32 2, i32 2, i32 1, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 2, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1]
; 2 x { REGISTER f16 (__half) [2, 1] }
@l.f16 = internal addrspace(4) constant [20 x i32] [i32 1, i32 2,
  i32 1, i32 10, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 10, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1]
; 2 x { REGISTER u64 [2, 1] }, { SCALAR u64 }
@l.u64 = internal addrspace(4) constant [25 x i32] [i32 1, i32 3,
  i32 1, i32 8, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 8, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 3, i32 8, i32 0, i32 1, i32 0]
; 3 x { REGISTER f64 [2, 1] }
@l.f64 = internal addrspace(4) constant [29 x i32] [i32 1, i32 3,
  i32 1, i32 13, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 13, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 13, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1]
; 2 x { REGISTER f32 [2, 1] }, { PRED_TENSOR bool [2, 1] }, { PRESERVE_DST }
@l.f32 = internal addrspace(4) constant [34 x i32] [i32 1, i32 4,
  i32 1, i32 12, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 12, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 5, i32 1, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 6, i32 0, i32 0, i32 0, i32 0]
; { REGISTER u128 [2, 1] }, { REGISTER s128 [2, 1] }
@l.b128 = internal addrspace(4) constant [20 x i32] [i32 1, i32 2,
  i32 1, i32 17, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 18, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1]

define ptx_kernel void @carriers(ptr %bytes, ptr align 2 %halves, ptr align 8 %longs, i64 %x, ptr align 8 %doubles, ptr align 4 %floats, ptr %mask, ptr align 16 %wides) #0 {
  %c = alloca [2 x [1 x i8]], align 1
  %h = alloca [2 x [1 x i16]], align 2
  %l = alloca [2 x [1 x i64]], align 8
  %d = alloca [2 x [1 x double]], align 8
  %f = alloca [2 x [1 x float]], align 4
  %m = alloca [2 x [1 x i8]], align 1
  %q = alloca [2 x [1 x i128]], align 16
  %s = alloca [2 x [1 x i128]], align 16
  call void @llvm.memcpy.p0.p0.i64(ptr align 2 %h, ptr align 2 %halves, i64 4, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %l, ptr align 8 %longs, i64 16, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %d, ptr align 8 %doubles, i64 16, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %f, ptr align 4 %floats, i64 8, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 1 %m, ptr align 1 %mask, i64 2, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %s, ptr align 16 %wides, i64 32, i1 false)
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.ld.u8, ptr addrspacecast (ptr addrspace(4) @l.ld.u8 to ptr), ptr %c, ptr %bytes)
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.st.u8, ptr addrspacecast (ptr addrspace(4) @l.st.u8 to ptr), ptr %bytes, ptr %c)
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.neg.f16, ptr addrspacecast (ptr addrspace(4) @l.f16 to ptr), ptr %h, ptr %h)
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.add.u64, ptr addrspacecast (ptr addrspace(4) @l.u64 to ptr), ptr %l, ptr %l, i64 %x)
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.mul.f64, ptr addrspacecast (ptr addrspace(4) @l.f64 to ptr), ptr %d, ptr %d, ptr %d)
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.abs.f32, ptr addrspacecast (ptr addrspace(4) @l.f32 to ptr), ptr %f, ptr %f, ptr %m, i32 0)
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.mov.b128, ptr addrspacecast (ptr addrspace(4) @l.b128 to ptr), ptr %q, ptr %s)
  call void @llvm.memcpy.p0.p0.i64(ptr align 2 %halves, ptr align 2 %h, i64 4, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %longs, ptr align 8 %l, i64 16, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %doubles, ptr align 8 %d, i64 16, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %floats, ptr align 4 %f, i64 8, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %wides, ptr align 16 %q, i64 32, i1 false)
  ret void
}

declare void @__tileapply_apply(ptr, ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly, ptr noalias readonly, i64, i1 immarg)

attributes #0 = { convergent nounwind "target-cpu"="sm_90a" "target-features"="+ptx88,+sm_90a" }

; CHECK-LABEL: .entry carriers(
; CHECK-NOT:     .local
; u8 [2, 1] with strides [1, 1]: repeat 1 is element 1, one byte past the
; base, which both repeats share.
; CHECK:         ld.global.u8 %rs{{[0-9]+}}, [%rd[[LB:[0-9]+]]];
; CHECK-NEXT:    // end inline asm
; CHECK-NEXT:    // begin inline asm
; CHECK-NEXT:    ld.global.u8 %rs{{[0-9]+}}, [%rd[[LB]]+1];
; CHECK:         st.global.u8 [%rd[[SB:[0-9]+]]], %rs{{[0-9]+}};
; CHECK-NEXT:    // end inline asm
; CHECK-NEXT:    // begin inline asm
; CHECK-NEXT:    st.global.u8 [%rd[[SB]]+1], %rs{{[0-9]+}};
; CHECK-COUNT-2: neg.f16 %rs{{[0-9]+}}, %rs{{[0-9]+}};
; CHECK-COUNT-2: add.u64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}};
; CHECK-COUNT-2: mul.rn.f64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}};
; CHECK:         setp.{{.*}} %p[[P0:[0-9]+]],
; CHECK:         @%p[[P0]] abs.f32 %r{{[0-9]+}}, %r{{[0-9]+}};
; CHECK:         setp.{{.*}} %p[[P1:[0-9]+]],
; CHECK:         @%p[[P1]] abs.f32 %r{{[0-9]+}}, %r{{[0-9]+}};
; i128 through 'q': a .b128 register on each side, per repeat. (LLVM packs and
; unpacks the %rq registers with mov.b128s of its own, outside the inline-asm
; markers.)
; CHECK:         // begin inline asm
; CHECK-NEXT:    mov.b128 %rq{{[0-9]+}}, %rq{{[0-9]+}};
; CHECK-NEXT:    // end inline asm
; CHECK:         // begin inline asm
; CHECK-NEXT:    mov.b128 %rq{{[0-9]+}}, %rq{{[0-9]+}};
; CHECK-NEXT:    // end inline asm
; CHECK-NOT:     {{ld|st}}.local
; CHECK:         ret;

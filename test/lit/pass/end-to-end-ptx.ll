; The whole road from a marker to a cubin: the default -O2 pipeline (whose
; pipeline-start extension point runs the expansion), then llc and ptxas. The
; register tensors are allocas, as clang leaves them; after the expansion SROA
; keeps them in registers, so the PTX has the 8 + 8 + 8 + 8 instructions and
; no local memory.
;
; RUN: opt -load-pass-plugin=%passplugin -passes='default<O2>' -S %s -o %t.ll
; RUN: FileCheck %s --check-prefix=IR < %t.ll
; RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx88 %t.ll -o %t.ptx
; RUN: FileCheck %s --check-prefix=PTX < %t.ptx
; RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.ld = private unnamed_addr constant [14 x i8] c"ld.global.b32\00"
@.add = private unnamed_addr constant [13 x i8] c"add.rn.f16x2\00"
@.st = private unnamed_addr constant [14 x i8] c"st.global.b32\00"
; { REGISTER u32 [8, 1] }, { MEMORY|CONST u32 global [8, 1] }
@layout.ld = linkonce_odr addrspace(4) externally_initialized constant { [20 x i32] } { [20 x i32] [i32 1, i32 2,
  i32 1, i32 6, i32 0, i32 8, i32 2, i32 8, i32 1, i32 1, i32 1,
  i32 258, i32 6, i32 1, i32 8, i32 2, i32 8, i32 1, i32 1, i32 1] }
; 3 x { REGISTER u32 [8, 1] }
@layout.add = linkonce_odr addrspace(4) externally_initialized constant { [29 x i32] } { [29 x i32] [i32 1, i32 3,
  i32 1, i32 6, i32 0, i32 8, i32 2, i32 8, i32 1, i32 1, i32 1,
  i32 1, i32 6, i32 0, i32 8, i32 2, i32 8, i32 1, i32 1, i32 1,
  i32 1, i32 6, i32 0, i32 8, i32 2, i32 8, i32 1, i32 1, i32 1] }
; { MEMORY u32 global [8, 1] }, { REGISTER u32 [8, 1] }
@layout.st = linkonce_odr addrspace(4) externally_initialized constant { [20 x i32] } { [20 x i32] [i32 1, i32 2,
  i32 2, i32 6, i32 1, i32 8, i32 2, i32 8, i32 1, i32 1, i32 1,
  i32 1, i32 6, i32 0, i32 8, i32 2, i32 8, i32 1, i32 1, i32 1] }
@llvm.compiler.used = appending global [3 x ptr] [ptr addrspacecast (ptr addrspace(4) @layout.ld to ptr), ptr addrspacecast (ptr addrspace(4) @layout.add to ptr), ptr addrspacecast (ptr addrspace(4) @layout.st to ptr)], section "llvm.metadata"

define ptx_kernel void @packed_add(ptr %A, ptr %B, ptr %Out) #0 {
  %a = alloca [8 x [1 x i32]], align 4
  %b = alloca [8 x [1 x i32]], align 4
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.ld, ptr addrspacecast (ptr addrspace(4) @layout.ld to ptr), ptr %a, ptr %A)
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.ld, ptr addrspacecast (ptr addrspace(4) @layout.ld to ptr), ptr %b, ptr %B)
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.add, ptr addrspacecast (ptr addrspace(4) @layout.add to ptr), ptr %a, ptr %a, ptr %b)
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.st, ptr addrspacecast (ptr addrspace(4) @layout.st to ptr), ptr %Out, ptr %a)
  ret void
}

declare void @__tileapply_apply(ptr, ptr, ...)

attributes #0 = { convergent mustprogress norecurse nounwind "target-cpu"="sm_90a" "target-features"="+ptx88,+sm_90a" }

; IR-LABEL: define ptx_kernel void @packed_add(
; IR-NOT:   alloca
; IR-NOT:   @__tileapply_apply
; IR:       ret void

; PTX-LABEL: .entry packed_add(
; PTX-NOT:   .local
; PTX-COUNT-16: ld.global.b32
; PTX-COUNT-8:  add.rn.f16x2
; PTX-COUNT-8:  st.global.b32
; PTX-NOT:   {{ld|st}}.local
; PTX:       ret;

; Issue 17 (3, 4): the pass alone finds the variable behind each operand's
; pointer (through GEPs, addrspacecasts, phis and selects whose sources agree)
; and refuses an NVPTX shared global under a .global view, a global under a
; .shared one and a global as a register tensor, at the call's location; a
; pointer whose variable is not known (a parameter, a phi of two variables) is
; accepted and expanded.
;
; opt stops at the first error; clang reading the IR reports every call.
; RUN: not %clangxx --target=nvptx64-nvidia-cuda -march=sm_90a -Wno-override-module -O2 -S -x ir %s -fpass-plugin=%passplugin -o /dev/null 2>&1 | FileCheck %s
; CHECK: error: kernel.cu:10:3: operand 2 of 'ld.global.b32' is a tile::global view of 'buf', which is a __shared__ variable; use tile::shared<...>(buf) with an opcode for shared memory (such as ld.shared), or tile::generic<...>(buf) with one that names no state space
; CHECK: error: kernel.cu:11:3: operand 2 of 'ld.shared.b32' is a tile::shared view of 'gtab', which is a __device__ variable; use tile::global<...>(gtab) with an opcode for global memory (such as ld.global)
; CHECK: error: kernel.cu:12:3: operand 1 of 'mov.b32' is a register tensor, but 'gtab' is a __device__ variable; {{.*}}; declare a local register tensor, load it from 'gtab' with ld.global through tile::global<...>(gtab), and store results back with st.global
; CHECK: error: kernel.cu:13:3: operand 2 of 'mov.b32' is a register tensor, but 'cst' is a __constant__ variable
; CHECK-NOT: error:
; CHECK: 4 errors generated.
; And the accepted calls are expanded:
; RUN: sed -e '/BAD/d' %s | opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -S | FileCheck %s --check-prefix=OK
; OK-COUNT-4: call i32 asm sideeffect "ld.global.b32
; OK-COUNT-2: call i32 asm sideeffect "ld.shared.b32
; OK-NOT: __tileapply_apply(

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ6kernelPjbE3buf = internal addrspace(3) global [4 x i32] undef, align 4
@gtab = addrspace(1) externally_initialized global [4 x i32] zeroinitializer, align 4
@cst = addrspace(4) externally_initialized constant [2 x [1 x i32]] zeroinitializer, align 4

@.ldg = private unnamed_addr constant [14 x i8] c"ld.global.b32\00"
@.lds = private unnamed_addr constant [14 x i8] c"ld.shared.b32\00"
@.mov = private unnamed_addr constant [8 x i8] c"mov.b32\00"
; ld.<space>.b32 reg, in: { REGISTER u32 [2, 1] }, { MEMORY|CONST u32 <space>, 2 elements, [2, 1] }
@layout.ldg = internal addrspace(4) constant { [20 x i32] } { [20 x i32] [i32 1, i32 2,
  i32 1, i32 6, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 258, i32 6, i32 1, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1] }
@layout.lds = internal addrspace(4) constant { [20 x i32] } { [20 x i32] [i32 1, i32 2,
  i32 1, i32 6, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 258, i32 6, i32 2, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1] }
; mov.b32 d, a: { REGISTER u32 [2, 1] } twice
@layout.mov = internal addrspace(4) constant { [20 x i32] } { [20 x i32] [i32 1, i32 2,
  i32 1, i32 6, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 6, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1] }

define void @kernel(ptr %p, i1 %c) !dbg !10 {
entry:
  %r = alloca [2 x [1 x i32]], align 4
  %sh = getelementptr inbounds [4 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ6kernelPjbE3buf to ptr), i64 0, i64 1
  br i1 %c, label %then, label %join
then:
  %sh2 = getelementptr inbounds i32, ptr addrspacecast (ptr addrspace(3) @_ZZ6kernelPjbE3buf to ptr), i64 2
  br label %join
join:
  ; Two pointers into one variable: still that variable.
  %one = phi ptr [ %sh, %entry ], [ %sh2, %then ]
  ; A pointer into the shared variable or the parameter: not known.
  %two = phi ptr [ %sh, %entry ], [ %p, %then ]
  %g = getelementptr inbounds i8, ptr addrspacecast (ptr addrspace(1) @gtab to ptr), i64 4
  %gsel = select i1 %c, ptr %g, ptr addrspacecast (ptr addrspace(1) @gtab to ptr)
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.ldg, ptr addrspacecast (ptr addrspace(4) @layout.ldg to ptr), ptr %r, ptr %one), !dbg !20 ; BAD
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.lds, ptr addrspacecast (ptr addrspace(4) @layout.lds to ptr), ptr %r, ptr %gsel), !dbg !21 ; BAD
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.mov, ptr addrspacecast (ptr addrspace(4) @layout.mov to ptr), ptr addrspacecast (ptr addrspace(1) @gtab to ptr), ptr %r), !dbg !22 ; BAD
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.mov, ptr addrspacecast (ptr addrspace(4) @layout.mov to ptr), ptr %r, ptr addrspacecast (ptr addrspace(4) @cst to ptr)), !dbg !23 ; BAD
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.ldg, ptr addrspacecast (ptr addrspace(4) @layout.ldg to ptr), ptr %r, ptr %p), !dbg !24
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.ldg, ptr addrspacecast (ptr addrspace(4) @layout.ldg to ptr), ptr %r, ptr %two), !dbg !25
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.lds, ptr addrspacecast (ptr addrspace(4) @layout.lds to ptr), ptr %r, ptr %one), !dbg !26
  ret void
}

declare void @__tileapply_apply(ptr, ptr, ...)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "kernel.cu", directory: "/work")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!5 = !DISubroutineType(types: !{})
!10 = distinct !DISubprogram(name: "kernel", scope: !1, file: !1, line: 5, type: !5, spFlags: DISPFlagDefinition, unit: !0)
!20 = !DILocation(line: 10, column: 3, scope: !10)
!21 = !DILocation(line: 11, column: 3, scope: !10)
!22 = !DILocation(line: 12, column: 3, scope: !10)
!23 = !DILocation(line: 13, column: 3, scope: !10)
!24 = !DILocation(line: 14, column: 3, scope: !10)
!25 = !DILocation(line: 15, column: 3, scope: !10)
!26 = !DILocation(line: 16, column: 3, scope: !10)

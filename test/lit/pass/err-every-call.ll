; Under a front end whose diagnostic handler does not stop at the first error
; (clang here, reading IR), every refused call is reported, each at its own
; line, and the module stays valid: a refused marker is erased, not left for
; the back end, and the IR verifier that runs after the pass is satisfied.
;
; RUN: not %clangxx --target=nvptx64-nvidia-cuda -march=sm_90a -Wno-override-module -O2 -S -x ir %s -fpass-plugin=%passplugin -o /dev/null 2>&1 | FileCheck %s
; CHECK-DAG: kernel.cu:7:3: malformed '__tileapply_apply' call: layout array: version 7, expected 1
; CHECK-DAG: kernel.cu:8:3: destination 'd' of 'neg.f32' must be float (PTX .f32), found uint32_t
; CHECK-DAG: kernel.cu:8:3: operand 'a' of 'neg.f32' must be float (PTX .f32), found uint32_t
; CHECK-DAG: kernel.cu:9:3: 'frobnicate' is not a PTX instruction tileapply knows
; CHECK-NOT: error:
; CHECK: 4 errors generated.

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.neg = private unnamed_addr constant [8 x i8] c"neg.f32\00"
@.frob = private unnamed_addr constant [15 x i8] c"frobnicate.s32\00"
; 2 x { REGISTER u32 [2, 1] }
@layout = internal addrspace(4) constant [20 x i32] [i32 1, i32 2,
  i32 1, i32 6, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 6, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1]
@layout.v7 = internal addrspace(4) constant [2 x i32] [i32 7, i32 0]

define ptx_kernel void @kernel(ptr %d) !dbg !10 {
  %v = call i32 (ptr, ptr, ...) @__tileapply_apply(ptr @.neg, ptr addrspacecast (ptr addrspace(4) @layout.v7 to ptr)), !dbg !20
  store i32 %v, ptr %d, align 4
  call i32 (ptr, ptr, ...) @__tileapply_apply(ptr @.neg, ptr addrspacecast (ptr addrspace(4) @layout to ptr), ptr %d, ptr %d), !dbg !21
  call i32 (ptr, ptr, ...) @__tileapply_apply(ptr @.frob, ptr addrspacecast (ptr addrspace(4) @layout to ptr), ptr %d, ptr %d), !dbg !22
  ret void
}

; Declared returning i32, with a use: the use is replaced before the call goes.
declare i32 @__tileapply_apply(ptr, ptr, ...)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "kernel.cu", directory: "/work")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!5 = !DISubroutineType(types: !{})
!10 = distinct !DISubprogram(name: "kernel", scope: !1, file: !1, line: 5, type: !5, spFlags: DISPFlagDefinition, unit: !0)
!20 = !DILocation(line: 7, column: 3, scope: !10)
!21 = !DILocation(line: 8, column: 3, scope: !10)
!22 = !DILocation(line: 9, column: 3, scope: !10)

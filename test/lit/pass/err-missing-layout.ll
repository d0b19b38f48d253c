; A call with the opcode alone.
;
; RUN: not opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: kernel.cu:7:3: malformed '__tileapply_apply' call: it has 1 operand; the opcode and the layout come first
; CHECK-NOT: error:

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.str = private unnamed_addr constant [8 x i8] c"neg.s32\00"

define void @kernel(ptr %d, ptr %a) !dbg !10 {
  call void (ptr, ...) @__tileapply_apply(ptr @.str), !dbg !20
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
!20 = !DILocation(line: 7, column: 3, scope: !10)

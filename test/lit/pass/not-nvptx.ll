; tileapply expands only NVPTX device code. The pipeline-start hook leaves any
; other module alone (host compilations never contain the marker); asked
; explicitly, the pass refuses.
;
; RUN: opt -load-pass-plugin=%passplugin -passes='default<O2>' -S %s | FileCheck %s --check-prefix=HOOK
; RUN: not opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

@.str = private unnamed_addr constant [8 x i8] c"neg.s32\00"
@layout = internal constant [20 x i32] [i32 1, i32 2,
  i32 1, i32 7, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 7, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1]

define void @host(ptr %d, ptr %a) !dbg !10 {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.str, ptr @layout, ptr %d, ptr %a), !dbg !20
  ret void
}

; HOOK: call void (ptr, ptr, ...) @__tileapply_apply(ptr nonnull @.str, ptr nonnull @layout, ptr %d, ptr %a)

; CHECK: error: kernel.cu:7:3: '__tileapply_apply' in a module for x86_64-unknown-linux-gnu: tileapply expands calls only in NVPTX device code

declare void @__tileapply_apply(ptr, ptr, ...)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "kernel.cu", directory: "/work")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!5 = !DISubroutineType(types: !{})
!10 = distinct !DISubprogram(name: "host", scope: !1, file: !1, line: 5, type: !5, spFlags: DISPFlagDefinition, unit: !0)
!20 = !DILocation(line: 7, column: 3, scope: !10)

; A promoted scalar constant that no value of its carrier promotes to: the
; layout says u16, the i32 holds 262144. Narrowing it to 16 bits would give
; 0 silently, so the pass refuses it (the fuzzer's input that showed it:
; test/fuzz/corpus/pass/unread-destination-2). Values that fit, zero- or
; sign-extended, pass: 65535 and -1 below.
;
; RUN: not opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: kernel.cu:7:3: malformed '__tileapply_apply' call: argument 2 is a uint16_t scalar in the layout, but its promoted value 262144 does not fit in 16 bits: no uint16_t promotes to it
; CHECK-NOT: error:

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.str = private unnamed_addr constant [8 x i8] c"add.u16\00"
; 2 x { REGISTER u16 [1, 1] }, { SCALAR u16 }
@layout = internal addrspace(4) constant [25 x i32] [i32 1, i32 3,
  i32 1, i32 4, i32 0, i32 1, i32 2, i32 1, i32 1, i32 1, i32 1,
  i32 1, i32 4, i32 0, i32 1, i32 2, i32 1, i32 1, i32 1, i32 1,
  i32 3, i32 4, i32 0, i32 1, i32 0]

define void @kernel(ptr %d, ptr %a) !dbg !10 {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.str, ptr addrspacecast (ptr addrspace(4) @layout to ptr), ptr %d, ptr %a, i32 262144), !dbg !20
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.str, ptr addrspacecast (ptr addrspace(4) @layout to ptr), ptr %d, ptr %a, i32 65535), !dbg !21
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.str, ptr addrspacecast (ptr addrspace(4) @layout to ptr), ptr %d, ptr %a, i32 -1), !dbg !22
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
!21 = !DILocation(line: 8, column: 3, scope: !10)
!22 = !DILocation(line: 9, column: 3, scope: !10)

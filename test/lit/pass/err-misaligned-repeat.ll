; Issue 17 item 6: the pass's re-check of MisalignedRepeat on IR alone.
; ld.global.v4.f32 into a [2, 4] register tensor from a [2, 4] global view
; with strides [1, 1]: repeat 1 is 4 bytes past repeat 0.
;
; RUN: not opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: kernel.cu:7:3: operand 'a' of 'ld.global.v4.f32': repeat 1 is 4 bytes past repeat 0, but each repeat accesses 16 bytes, which must be 16-byte aligned
; CHECK-NOT: error:

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.str = private unnamed_addr constant [17 x i8] c"ld.global.v4.f32\00"
@layout = internal addrspace(4) constant { [20 x i32] } { [20 x i32] [i32 1, i32 2,
  i32 1, i32 12, i32 0, i32 8, i32 2, i32 2, i32 4, i32 4, i32 1,
  i32 2, i32 12, i32 1, i32 8, i32 2, i32 2, i32 4, i32 1, i32 1] }

define void @kernel(ptr %d, ptr %a) !dbg !10 {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.str, ptr addrspacecast (ptr addrspace(4) @layout to ptr), ptr %d, ptr %a), !dbg !20
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

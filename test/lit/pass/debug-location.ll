; Every instruction of an expansion carries the debug location of its
; `__tile_apply`. After always-inline the marker's own location is a line of
; tile.h inlined at the user's call; the expansion takes the user's call
; (line 9), not the header's line. A marker emitted directly by another front
; end keeps its own location (line 11).
;
; RUN: opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%passplugin -passes='default<O2>' %s | llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.str = private unnamed_addr constant [13 x i8] c"add.rn.f16x2\00"
@.ld = private unnamed_addr constant [14 x i8] c"ld.global.b32\00"
; 3 x { REGISTER u32 [2, 1] }
@layout = internal addrspace(4) constant { [29 x i32] } { [29 x i32] [i32 1, i32 3,
  i32 1, i32 6, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 6, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 6, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1] }
; { REGISTER u32 [2, 1] }, { MEMORY u32 global [2, 1] }
@layout.ld = internal addrspace(4) constant { [20 x i32] } { [20 x i32] [i32 1, i32 2,
  i32 1, i32 6, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 2, i32 6, i32 1, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1] }

define void @user(ptr %d, ptr %a, ptr %b, ptr %g) !dbg !10 {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.str, ptr addrspacecast (ptr addrspace(4) @layout to ptr), ptr %d, ptr %a, ptr %b), !dbg !20
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.ld, ptr addrspacecast (ptr addrspace(4) @layout.ld to ptr), ptr %d, ptr %g), !dbg !22
  ret void, !dbg !23
}

; CHECK-LABEL: define void @user(
; CHECK-NEXT:    load i32, ptr %a, align 4, !dbg [[CALL:![0-9]+]]
; CHECK-NEXT:    load i32, ptr %b, align 4, !dbg [[CALL]]
; CHECK-NEXT:    call i32 asm "add.rn.f16x2 {{.*}}, !dbg [[CALL]], !tileapply.opcode
; CHECK-NEXT:    store i32 {{.*}}, !dbg [[CALL]]
; CHECK-NEXT:    getelementptr inbounds i8, ptr %a, i64 4, !dbg [[CALL]]
; CHECK-NEXT:    load {{.*}}, !dbg [[CALL]]
; CHECK-NEXT:    getelementptr inbounds i8, ptr %b, i64 4, !dbg [[CALL]]
; CHECK-NEXT:    load {{.*}}, !dbg [[CALL]]
; CHECK-NEXT:    call i32 asm "add.rn.f16x2 {{.*}}, !dbg [[CALL]], !tileapply.opcode
; CHECK-NEXT:    getelementptr inbounds i8, ptr %d, i64 4, !dbg [[CALL]]
; CHECK-NEXT:    store {{.*}}, !dbg [[CALL]]
; CHECK-NEXT:    addrspacecast ptr %g to ptr addrspace(1), !dbg [[DIRECT:![0-9]+]]
; CHECK-NEXT:    ptrtoint {{.*}}, !dbg [[DIRECT]]
; CHECK-NEXT:    call i32 asm sideeffect "ld.global.b32 $0, [$1];"{{.*}}, !dbg [[DIRECT]], !tileapply.opcode
; CHECK-NEXT:    store {{.*}}, !dbg [[DIRECT]]
; CHECK-NEXT:    call i32 asm sideeffect "ld.global.b32 $0, [$1+4];"{{.*}}, !dbg [[DIRECT]], !tileapply.opcode
; CHECK-NEXT:    getelementptr inbounds i8, {{.*}}, !dbg [[DIRECT]]
; CHECK-NEXT:    store {{.*}}, !dbg [[DIRECT]]
; CHECK-NEXT:    ret void

; CHECK: [[CALL]] = distinct !DILocation(line: 9, column: 3, scope: [[USER:![0-9]+]])
; CHECK: [[DIRECT]] = !DILocation(line: 11, column: 5, scope: [[USER]])

; The PTX line table points the instructions at the user's lines.
; PTX:      .loc [[F:[0-9]+]] 9 3
; PTX-NOT:  .loc
; PTX:      add.rn.f16x2
; PTX-NOT:  .loc
; PTX:      add.rn.f16x2
; PTX:      .loc [[F]] 11 5
; PTX-NOT:  .loc
; PTX:      ld.global.b32
; PTX-NOT:  .loc
; PTX:      ld.global.b32
; PTX:      .file [[F]] "/work/kernel.cu"

declare void @__tileapply_apply(ptr, ptr, ...)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "hand-written", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "kernel.cu", directory: "/work")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 2}
!4 = !DIFile(filename: "tile.h", directory: "/work/include/tileapply")
!5 = !DISubroutineType(types: !{})
!10 = distinct !DISubprogram(name: "user", scope: !1, file: !1, line: 5, type: !5, scopeLine: 5, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!12 = distinct !DISubprogram(name: "__tile_apply<unsigned int (&)[2][1], unsigned int (&)[2][1], unsigned int (&)[2][1]>", scope: !4, file: !4, line: 418, type: !5, scopeLine: 418, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!20 = !DILocation(line: 420, column: 3, scope: !12, inlinedAt: !21)
!21 = distinct !DILocation(line: 9, column: 3, scope: !10)
!22 = !DILocation(line: 11, column: 5, scope: !10)
!23 = !DILocation(line: 12, column: 1, scope: !10)

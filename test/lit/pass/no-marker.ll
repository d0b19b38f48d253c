; A module that never calls the marker is left exactly as it was, by the pass
; itself and by the pipeline-start hook in a full -O2 pipeline.
;
; RUN: opt -passes=verify -S %s -o %t.plain.ll
; RUN: opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -S %s -o %t.expand.ll
; RUN: diff %t.plain.ll %t.expand.ll
; RUN: opt -passes='default<O2>' -S %s -o %t.o2.ll
; RUN: opt -load-pass-plugin=%passplugin -passes='default<O2>' -S %s -o %t.o2.plugin.ll
; RUN: diff %t.o2.ll %t.o2.plugin.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@table = internal addrspace(4) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]

define linkonce_odr void @helper(ptr %p) alwaysinline {
  store i32 1, ptr %p, align 4
  ret void
}

define ptx_kernel void @kernel(ptr %out, i32 %i) {
  %r = alloca [4 x i32], align 4
  call void @helper(ptr %r)
  %q = getelementptr [4 x i32], ptr addrspace(4) @table, i32 0, i32 %i
  %v = load i32, ptr addrspace(4) %q, align 4
  store i32 %v, ptr %out, align 4
  ret void
}

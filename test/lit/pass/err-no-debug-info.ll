; Without debug info there is no source line to point at: the diagnostic names
; the (demangled) function instead.
;
; RUN: not opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: in function 'kernel(unsigned int*)': destination 'd' of 'neg.f32' must be float (PTX .f32), found uint32_t

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@.str = private unnamed_addr constant [8 x i8] c"neg.f32\00"
; 2 x { REGISTER u32 [2, 1] }
@layout = internal addrspace(4) constant [20 x i32] [i32 1, i32 2,
  i32 1, i32 6, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1,
  i32 1, i32 6, i32 0, i32 2, i32 2, i32 2, i32 1, i32 1, i32 1]

define void @_Z6kernelPj(ptr %d) {
  call void (ptr, ptr, ...) @__tileapply_apply(ptr @.str, ptr addrspacecast (ptr addrspace(4) @layout to ptr), ptr %d, ptr %d)
  ret void
}

declare void @__tileapply_apply(ptr, ptr, ...)

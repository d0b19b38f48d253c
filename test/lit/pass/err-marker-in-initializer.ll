; A constant holding the marker's address is refused (without a location: it
; is in no function); being listed in llvm.used is not.
;
; RUN: not opt -load-pass-plugin=%passplugin -passes=tile-apply-expand -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: '__tileapply_apply' is referenced by a constant; it may only be called directly
; CHECK-NOT: error:

target triple = "nvptx64-nvidia-cuda"

@llvm.used = appending global [1 x ptr] [ptr @__tileapply_apply], section "llvm.metadata"
@fp = global ptr @__tileapply_apply

declare void @__tileapply_apply(ptr, ptr, ...)

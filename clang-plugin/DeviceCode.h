//===- DeviceCode.h - Whether a function's code runs on the GPU -*- C++ -*-===//
//
// A CUDA build runs two cc1 jobs over one source, host and device. Each
// `__tile_apply` call is reported by exactly one of them: the job that
// compiles the code holding the call. This says which one that is.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CLANGPLUGIN_DEVICECODE_H
#define TILEAPPLY_CLANGPLUGIN_DEVICECODE_H

namespace clang {
class FunctionDecl;
} // namespace clang

namespace tileapply {
namespace plugin {

/// Whether code in `F` is compiled for the GPU: a `__global__` or
/// `__device__` (including `__host__ __device__`) function. Clang makes
/// lambdas implicitly `__host__ __device__`; such a lambda runs where the
/// function it is written in runs. Null (namespace scope) is host code.
bool runsOnDevice(const clang::FunctionDecl *F);

} // namespace plugin
} // namespace tileapply

#endif

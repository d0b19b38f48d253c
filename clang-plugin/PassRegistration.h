//===- PassRegistration.h - Where the expansion runs in a device job -*- C++ -*-===//
//
// Every device compilation that produces code or IR from a __tile_apply call
// must expand it, whether or not that job runs an optimization pipeline. A
// split compile (`-save-temps`, `-fgpu-rdc -foffload-lto -save-temps`) runs
// the AST and the optimizer in two cc1 jobs: the first emits bitcode with
// `-disable-llvm-passes`, the second optimizes that bitcode with no AST and so
// with no plugin action at all. This header says which job expands.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CLANGPLUGIN_PASSREGISTRATION_H
#define TILEAPPLY_CLANGPLUGIN_PASSREGISTRATION_H

namespace clang {
class CompilerInstance;
} // namespace clang

namespace tileapply {
namespace plugin {

/// Arranges for this NVPTX device job to expand every marker: through the
/// pipeline-start extension point when the job runs the optimizer, and
/// otherwise on the module itself before its first (output) pass runs, so
/// the bitcode a later job optimizes holds no marker. Reports an error when
/// the job runs neither a pipeline nor an IR output pass (`-disable-llvm-passes`
/// straight to PTX), which nothing could expand.
void registerExpansion(clang::CompilerInstance &CI);

} // namespace plugin
} // namespace tileapply

#endif

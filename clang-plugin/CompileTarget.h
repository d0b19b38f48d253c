//===- CompileTarget.h - The GPU a cc1 job compiles for ---------*- C++ -*-===//
//
// The call checker and the asm checker both check against the target of the
// device compilation. Its own file because tileapply-migrate compiles the asm
// checker without the call checker, and needs the target too.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CLANGPLUGIN_COMPILETARGET_H
#define TILEAPPLY_CLANGPLUGIN_COMPILETARGET_H

#include "tileapply/core/Target.h"
#include <optional>

namespace clang {
class TargetInfo;
} // namespace clang

namespace tileapply {
namespace plugin {

/// The target being compiled for, read from the cc1 target options
/// (`-target-cpu sm_90a`, `-target-feature +ptx88`); nullopt if the CPU is
/// not an `sm_XX` name.
std::optional<Target> targetOf(const clang::TargetInfo &TI);

} // namespace plugin
} // namespace tileapply

#endif

//===- CompileTarget.cpp - The GPU a cc1 job compiles for -----------------===//
#include "CompileTarget.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Basic/TargetOptions.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace tileapply {
namespace plugin {

std::optional<Target> targetOf(const TargetInfo &TI) {
  const TargetOptions &TO = TI.getTargetOpts();
  std::optional<Target> T = parseTarget(TO.CPU);
  if (T)
    T->PtxVersion = parsePtxFeature(llvm::join(TO.Features, ","));
  return T;
}

} // namespace plugin
} // namespace tileapply

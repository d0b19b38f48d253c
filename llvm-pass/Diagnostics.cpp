//===- Diagnostics.cpp - How the pass reports problems --------------------===//
#include "Diagnostics.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"

using namespace llvm;

namespace tileapply {

DiagnosticInfoTileApply::DiagnosticInfoTileApply(DiagnosticSeverity Severity,
                                                 const Function &Fn,
                                                 const DebugLoc &Loc,
                                                 const Twine &Msg)
    : DiagnosticInfoUnsupported(
          Fn, Msg, Loc ? DiagnosticLocation(Loc) : DiagnosticLocation(),
          Severity) {}

void DiagnosticInfoTileApply::print(DiagnosticPrinter &DP) const {
  // Without debug info the function is the best place we can name.
  if (isLocationAvailable())
    DP << getLocationStr() << ": ";
  else
    DP << "in function '" << demangle(getFunction().getName()) << "': ";
  DP << getMessage();
}

/// Whether \p Loc lies in the body of the header's `__tile_apply` template.
static bool isInTileApplyWrapper(const DILocation *Loc) {
  const DISubprogram *SP =
      Loc->getScope() ? Loc->getScope()->getSubprogram() : nullptr;
  if (!SP)
    return false;
  // Debug info names a template instance with its arguments:
  // "__tile_apply<float (&)[8][1], ...>".
  StringRef Name = SP->getName();
  return Name == "__tile_apply" || Name.starts_with("__tile_apply<");
}

DebugLoc userCallLocation(const DebugLoc &MarkerLoc) {
  const DILocation *Loc = MarkerLoc.get();
  // After always-inline the marker's location is a line of tile.h, inlined at
  // the user's call; users want the latter. Other front ends that emit the
  // marker directly keep their own location.
  while (Loc && Loc->getInlinedAt() && isInTileApplyWrapper(Loc))
    Loc = Loc->getInlinedAt();
  return DebugLoc(const_cast<DILocation *>(Loc));
}

void report(const Function &Fn, const DebugLoc &Loc,
            DiagnosticSeverity Severity, const Twine &Msg) {
  Fn.getContext().diagnose(DiagnosticInfoTileApply(Severity, Fn, Loc, Msg));
}

} // namespace tileapply

//===- PassDiagnostics.cpp - How the pass reports problems ----------------===//
#include "PassDiagnostics.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace tileapply {

DiagnosticInfoTileApply::DiagnosticInfoTileApply(DiagnosticSeverity Severity, const Function &Fn,
                                                 const DebugLoc &Loc, const Twine &Msg)
    : DiagnosticInfoUnsupported(Fn, Msg, Loc ? DiagnosticLocation(Loc) : DiagnosticLocation(),
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
  const DISubprogram *SP = Loc->getScope() ? Loc->getScope()->getSubprogram() : nullptr;
  if (!SP)
    return false;
  // Debug info names a template instance with its arguments:
  // "__tile_apply<float (&)[8][1], ...>".
  StringRef Name = SP->getName();
  return Name == "__tile_apply" || Name.starts_with("__tile_apply<");
}

/// The user's call that \p MarkerLoc lies in: after always-inline the
/// marker's location is a line of tile.h, inlined at the user's call; users
/// want the latter. Other front ends that emit the marker directly keep their
/// own location.
static DebugLoc userCallLocation(const DebugLoc &MarkerLoc) {
  const DILocation *Loc = MarkerLoc.get();
  while (Loc && Loc->getInlinedAt() && isInTileApplyWrapper(Loc))
    Loc = Loc->getInlinedAt();
  return DebugLoc(const_cast<DILocation *>(Loc));
}

CallLocation callLocation(const Instruction &Marker) {
  CallLocation At;
  At.Loc = userCallLocation(Marker.getDebugLoc());
  if (const MDNode *MD = Marker.getMetadata(SrcLocMDName))
    if (MD->getNumOperands() > 0)
      if (auto *C = mdconst::dyn_extract<ConstantInt>(MD->getOperand(0)))
        At.SrcLoc = C->getZExtValue();
  return At;
}

void report(const Function &Fn, const CallLocation &At, DiagnosticSeverity Severity,
            const Twine &Msg) {
  LLVMContext &Ctx = Fn.getContext();
  if (!At.Loc && At.SrcLoc) {
    // Clang maps the cookie back to the call's line and column, and prints
    // the message as it is.
    Ctx.diagnose(DiagnosticInfoInlineAsm(At.SrcLoc, Msg, Severity));
    return;
  }
  Ctx.diagnose(DiagnosticInfoTileApply(Severity, Fn, At.Loc, Msg));
}

} // namespace tileapply

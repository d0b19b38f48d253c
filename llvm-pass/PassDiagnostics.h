//===- PassDiagnostics.h - How the pass reports problems --------*- C++ -*-===//
//
// The pass never asserts on its input: every malformed marker and every rule a
// call breaks becomes an LLVM diagnostic at the source location of the user's
// `__tile_apply`, delivered through LLVMContext::diagnose. Under `opt` an error
// ends the run with a non-zero exit; under clang it becomes a compiler error.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_LLVMPASS_PASSDIAGNOSTICS_H
#define TILEAPPLY_LLVMPASS_PASSDIAGNOSTICS_H

#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/DiagnosticInfo.h"

namespace llvm {
class DILocation;
class Function;
class Twine;
} // namespace llvm

namespace tileapply {

/// A tileapply problem in a function, at a source location when one is known.
///
/// It is a DiagnosticInfoUnsupported so that clang's back-end consumer maps
/// the debug location back to a source location (or, without debug info, to
/// the function's declaration) and prints a regular clang diagnostic; print()
/// is overridden for tools without a front end, such as opt, to read
/// "file:line:col: message".
class DiagnosticInfoTileApply : public llvm::DiagnosticInfoUnsupported {
public:
  /// \p Msg is not copied: it must outlive the diagnostic.
  DiagnosticInfoTileApply(llvm::DiagnosticSeverity Severity, const llvm::Function &Fn,
                          const llvm::DebugLoc &Loc, const llvm::Twine &Msg);

  void print(llvm::DiagnosticPrinter &DP) const override;
};

/// Where a user reads "the `__tile_apply` call", as far as the IR knows it.
struct CallLocation {
  /// The call's debug location: the marker's own, or, when that lies inside
  /// the header's always-inline `__tile_apply` wrapper, the call site the
  /// wrapper was inlined into. Empty without debug information.
  llvm::DebugLoc Loc;
  /// Without debug information: Clang's encoding of the call's source
  /// location, which clang attaches to calls of a function declared with
  /// `__attribute__((warning))` (as `__tile_apply` is) and the pipeline-start
  /// pass carries over to the marker (`!srcloc`). 0 when unknown.
  uint64_t SrcLoc = 0;
};

/// The metadata that carries CallLocation::SrcLoc on a marker call.
inline constexpr const char *SrcLocMDName = "srcloc";

/// The location of the user's call that marker call \p Marker stands for.
CallLocation callLocation(const llvm::Instruction &Marker);

/// Reports \p Msg with \p Severity in \p Fn at \p At: at the debug location
/// when there is one, else (under clang) at the source location, else naming
/// the function.
void report(const llvm::Function &Fn, const CallLocation &At, llvm::DiagnosticSeverity Severity,
            const llvm::Twine &Msg);

} // namespace tileapply

#endif

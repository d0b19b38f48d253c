//===- PluginDiagnostics.h - tileapply problems as Clang diagnostics -*- C++ -*-===//
//
// The one place where a core `tileapply::Problem` becomes a Clang diagnostic:
// which diagnostic ID (errors, warnings in an existing Clang warning group,
// notes), where it points (the argument of the user's call, never the
// header), what it highlights, the opcode fix-it, the "declared here" note and
// the "in instantiation of" note. The wording itself comes from core, so the
// plugin and the LLVM pass say the same thing.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CLANGPLUGIN_PLUGINDIAGNOSTICS_H
#define TILEAPPLY_CLANGPLUGIN_PLUGINDIAGNOSTICS_H

#include "tileapply/core/CallRules.h"
#include "clang/Basic/PartialDiagnostic.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <set>
#include <string>
#include <utility>

namespace clang {
class CallExpr;
class CompilerInstance;
class DiagnosticsEngine;
class Expr;
class FunctionDecl;
class LangOptions;
class SourceLocation;
} // namespace clang

namespace tileapply {
namespace plugin {

/// What the command line (`-fplugin-arg-tileapply-...`) changed.
struct PluginOptions {
  /// Report PackedIntegerLiteral. `-fplugin-arg-tileapply-no-packed-literal`
  /// turns it off without touching Clang's own -Wliteral-conversion.
  bool WarnPackedLiteral = true;
  // The inline-asm checker (issue 22): `no-asm-check` turns it off,
  // `asm-stats` prints one line per checked statement.
  bool AsmCheck = true;
  bool AsmStats = false;
  bool AsmMigrate = false; // a fix-it note per asm statement that is one call
  /// `no-asm-warnings`: the checker's warnings off, its errors on.
  bool AsmWarnings = true;
  /// `no-local-memory-warning`: LocalMemoryTensor off.
  bool LocalMemoryWarning = true;
};

/// The Clang warning group tileapply's warnings belong to: `-Wno-<group>`,
/// `-Werror=<group>`, `-Werror` and `-w` act on them like on Clang's own.
/// (Clang 22 plugins cannot create a group of their own.)
inline constexpr llvm::StringLiteral WarningGroup = "literal-conversion";
/// The group of LocalMemoryTensor: a register tensor that makes a stack frame
/// (local memory is the thread's stack). No other tileapply diagnostic is in it.
inline constexpr llvm::StringLiteral LocalMemoryGroup = "frame-larger-than";

/// One `__tile_apply` call being reported on.
struct CallSite {
  const clang::CallExpr *Call = nullptr;
  /// The function whose body holds the call (a lambda's call operator for a
  /// call in a lambda), or null at namespace scope.
  const clang::FunctionDecl *Enclosing = nullptr;
  /// A `tile::ewise(dst, f, srcs...)` call: argument 0 is the destination and
  /// the function `f` sits between it and the sources.
  bool Ewise = false;

  /// The expression problem index `Arg` is about: the argument after the
  /// opcode with that index, or the opcode literal for -1 (and for an index
  /// that the call does not have).
  const clang::Expr *exprFor(int Arg) const;
};

/// Reports problems through Clang's DiagnosticsEngine.
class Reporter {
public:
  /// Create it before parsing starts (in CreateASTConsumer): the warning has
  /// to exist while `#pragma clang diagnostic` lines are read, and the
  /// command-line warning options are applied to it once more (see the .cpp).
  Reporter(clang::CompilerInstance &CI, const PluginOptions &Opts);

  /// Reports `P` at the argument it is about. A problem already reported at
  /// the same place with the same text (the same call in two instantiations
  /// of a template) is not repeated. `Evaluator`: Clang's own notes to add
  /// after P's (why an expression is not a constant), each at its place.
  void report(const CallSite &Site, const Problem &P,
              llvm::ArrayRef<clang::PartialDiagnosticAt> Evaluator = {});

  /// An internal inconsistency (e.g. a tile.h from another tileapply version):
  /// reported as an error at the call, so the call is never silently unchecked.
  void reportInternal(const CallSite &Site, llvm::StringRef Message);

  /// Reports `P` (a call-level problem) at `At`, an expression that is not a
  /// call (a mention of __tile_apply); `Enclosing` as in CallSite.
  void reportAt(const clang::Expr *At, const clang::FunctionDecl *Enclosing, const Problem &P);

  /// LocalMemoryTensor at a declaration, with its note at the use that keeps
  /// it in memory (when known).
  void reportLocalMemory(clang::SourceLocation Decl, llvm::StringRef Message,
                         clang::SourceLocation Use, llvm::StringRef Note);

private:
  bool isEnabled(const Problem &P) const;
  void addInstantiationNote(const CallSite &Site);
  void addInstantiationNote(const clang::FunctionDecl *Enclosing);

  clang::DiagnosticsEngine &Diags;
  const clang::LangOptions &LangOpts;
  PluginOptions Opts;
  unsigned ErrorID, ErrorWithTypeID, WarningID, LocalMemoryID, NoteID, DeclaredHereID,
      InstantiationID;
  std::set<std::pair<unsigned, std::string>> Reported;
};

} // namespace plugin
} // namespace tileapply

#endif

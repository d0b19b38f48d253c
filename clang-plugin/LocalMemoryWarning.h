//===- LocalMemoryWarning.h - LocalMemoryTensor, at the declaration -*- C++ -*-===//
//
// The pass finds, at the end of the optimizer, the register tensors that stay
// in local memory and why (llvm-pass/LocalMemory.h); it knows the call that
// touched each one (by its source location) and the argument, but without
// debug information no line of the declaration or of the offending use. The
// plugin remembers, for each device call it checked, the variable behind each
// register tensor argument, and reports the pass's findings through Clang:
// the warning at the declaration, a note at the use in the source that
// matches the reason (a subscript that is not a constant, a call the tensor
// is passed to, an address taken).
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CLANGPLUGIN_LOCALMEMORYWARNING_H
#define TILEAPPLY_CLANGPLUGIN_LOCALMEMORYWARNING_H

#include <cstdint>
#include <map>
#include <utility>

#include "clang/Basic/SourceLocation.h"
#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class SourceManager;
class VarDecl;
} // namespace clang

namespace tileapply {
struct LocalMemoryFinding;
namespace plugin {
class Reporter;

class LocalMemoryWarnings {
public:
  /// Installs the pass's hook for the lifetime of this object. Not
  /// `Enabled` (`-fplugin-arg-tileapply-no-local-memory-warning`): the hook
  /// swallows every finding, so the pass reports none either.
  LocalMemoryWarnings(Reporter &R, bool Enabled);
  ~LocalMemoryWarnings();
  LocalMemoryWarnings(const LocalMemoryWarnings &) = delete;
  LocalMemoryWarnings &operator=(const LocalMemoryWarnings &) = delete;

  /// Remembers the variables behind the register tensor arguments of a
  /// device call.
  void record(const clang::CallExpr *Call, clang::ASTContext &Ctx);

private:
  bool report(const LocalMemoryFinding &F);
  Reporter &R;
  bool Enabled;
  const clang::SourceManager *SM = nullptr;
  /// The variable behind each register tensor argument, by (call, argument).
  /// The pointers are keys only: the AST may be gone when the pass reports.
  std::map<std::pair<uint64_t, unsigned>, const clang::VarDecl *> Tensors;
  /// What a warning says about each variable, taken from the AST in time.
  struct TensorFacts {
    std::string Name;
    clang::SourceLocation Decl;
    clang::SourceLocation FirstUse[3]; // by LocalMemoryReason
  };
  std::map<const clang::VarDecl *, TensorFacts> Vars;
};

} // namespace plugin
} // namespace tileapply

#endif

//===- CallChecker.h - One __tile_apply call, from AST to core --*- C++ -*-===//
//
// Turns one call into what core/ checks: the opcode spelling (which must be a
// string literal), the argument descriptions decoded from the
// `tile::detail::call_layout<A...>` constant that the header instantiates for
// the call (the same array the LLVM pass reads), the values of constant
// scalars, and the target being compiled for. Then runs core's lookup and
// checkCall and reports every problem through the Reporter.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CLANGPLUGIN_CALLCHECKER_H
#define TILEAPPLY_CLANGPLUGIN_CALLCHECKER_H

#include "PluginDiagnostics.h"
#include "tileapply/core/CallRules.h"
#include "tileapply/core/Target.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class DeclRefExpr;
class Expr;
class FunctionDecl;
} // namespace clang

namespace tileapply {
namespace plugin {

class CallChecker {
public:
  /// `IsDeviceCompilation`: this cc1 compiles for the GPU (device calls are
  /// checked, host calls skipped); otherwise only host calls are reported.
  CallChecker(clang::ASTContext &Ctx, Reporter &R, bool IsDeviceCompilation,
              std::optional<Target> T);

  void check(const CallSite &Site);
  /// A mention of `__tile_apply` that is not a direct call: refused there.
  void checkUse(const clang::DeclRefExpr *Ref, const clang::FunctionDecl *Enclosing);

private:
  void checkDeviceCall(const CallSite &Site);
  void checkEwise(const CallSite &Site);
  /// Fills what only the AST knows (constants, the variables behind register
  /// tensors) into `Args`, the arguments after the opcode (or the function);
  /// `First` is the call argument of Args[0].
  void describeArguments(const clang::CallExpr *Call, unsigned First,
                         std::vector<ArgDesc> &Args) const;
  /// The arguments of a `__tile_apply` specialization, decoded from the
  /// `call_layout` constant its body refers to.
  struct DecodedLayout {
    std::optional<std::vector<ArgDesc>> Args;
    std::string Why; // when !Args: why not ("" = nothing to check)
  };
  const DecodedLayout &layoutOf(const clang::FunctionDecl *Callee);
  /// The call's layout decoded, or nothing after reporting why not.
  std::optional<std::vector<ArgDesc>> describedArguments(const CallSite &Site);

  clang::ASTContext &Ctx;
  Reporter &R;
  bool IsDevice;
  std::optional<Target> T;
  std::map<const clang::FunctionDecl *, DecodedLayout> Layouts;
  bool HeaderChecked = false;
  std::optional<std::string> HeaderProblem; // the tile.h is another version
};

} // namespace plugin
} // namespace tileapply

#endif

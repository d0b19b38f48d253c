//===- AsmMigration.h - The AST side of the asm-to-__tile_apply migration -*- C++ -*-===//
//
// Shared by the plugin (its fix-it note, -fplugin-arg-tileapply-asm-migrate)
// and tileapply-migrate: describes each operand expression of an asm
// statement for core/lib/AsmMigrate.cpp and turns its call into an edit of
// the source (the statement replaced, the include added).
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CLANGPLUGIN_ASMMIGRATION_H
#define TILEAPPLY_CLANGPLUGIN_ASMMIGRATION_H

#include "tileapply/core/AsmMigrate.h"
#include "clang/Basic/SourceLocation.h"
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class GCCAsmStmt;
} // namespace clang

namespace tileapply {
namespace plugin {

/// One statement's verdict, as the plugin reports it and the tool applies it.
struct MigrationResult {
  clang::SourceLocation AsmLoc; // the `asm` keyword
  std::string Where;            // file:line:col
  bool SingleInstruction = false; // one instruction in the template
  std::string Call, Why, Category; // as AsmMigration
  /// The edit, when Call is not empty: [Offset, Offset+Length) of File
  /// becomes Call; and the include, when IncludeFile lacks it, at
  /// IncludeOffset. IncludeFile is File, or the file that includes File from
  /// inside a namespace (CCCL's generated headers): the include goes where
  /// that namespace opens, at global scope.
  std::string File;
  unsigned Offset = 0, Length = 0;
  bool NeedsInclude = false;
  std::string IncludeFile;
  unsigned IncludeOffset = 0;
};

/// The operand expressions of `S`, in %N order.
std::vector<AsmOperandSource> describeAsmOperands(const clang::GCCAsmStmt &S,
                                                  clang::ASTContext &Ctx);

/// The edit for a statement whose call is `M` (fills File .. IncludeOffset),
/// or false with `R.Why` set when the statement cannot be rewritten in place
/// (written in a macro).
/// `Fn`: the function the statement is in (for its namespaces), or null.
bool migrationEdit(const clang::GCCAsmStmt &S, const clang::FunctionDecl *Fn,
                   clang::ASTContext &Ctx, MigrationResult &R);

} // namespace plugin
} // namespace tileapply

#endif

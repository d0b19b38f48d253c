//===- AsmChecker.h - Every inline asm statement of device code -*- C++ -*-===//
//
// The AST side of the inline-asm checker (docs/spec.md section 7): finds each
// GCC-style `asm` statement that the device compilation emits, hands its
// template, constraints and clobbers to core (AsmTemplate, AsmMatch), and
// reports what core found at the byte of the string literal where the
// instruction or operand is written.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CLANGPLUGIN_ASMCHECKER_H
#define TILEAPPLY_CLANGPLUGIN_ASMCHECKER_H

#include "AsmMigration.h"
#include "tileapply/core/Target.h"
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace clang {
class ASTContext;
class CompilerInstance;
class DiagnosticsEngine;
} // namespace clang

namespace tileapply {
namespace plugin {

/// The Clang warning group of the asm checker's warnings: `-Wno-inline-asm`,
/// `-Werror=inline-asm` act on them (Clang 22 plugins cannot create a group).
inline constexpr const char *AsmWarningGroup = "inline-asm";

class AsmChecker {
public:
  /// Create it before parsing starts (the warning must exist while
  /// `#pragma clang diagnostic` lines are read). `Stats`: print one line per
  /// checked statement to stderr (`-fplugin-arg-tileapply-asm-stats`).
  AsmChecker(clang::CompilerInstance &CI, bool Stats);

  /// Migration (docs/asm-check.md#migration): with `Note`, a statement that is
  /// one __tile_apply call gets a note carrying the call as a fix-it
  /// (-fplugin-arg-tileapply-asm-migrate); `Sink`, if set, receives every
  /// statement's verdict (tileapply-migrate).
  void setMigration(bool Note, std::function<void(const MigrationResult &)> Sink = {}) {
    MigrateNote = Note;
    MigrateSink = std::move(Sink);
  }

  /// Without `On` (-fplugin-arg-tileapply-no-asm-warnings) the checker's
  /// warnings are dropped; its errors stay.
  void setWarnings(bool On) { Warnings = On; }

  /// Checks every asm statement of device code in the translation unit.
  void checkTranslationUnit(clang::ASTContext &Ctx, const std::optional<Target> &GPU);

private:
  bool Stats;
  bool MigrateNote = false;
  bool Warnings = true;
  std::function<void(const MigrationResult &)> MigrateSink;
  unsigned ErrorID, WarningID, NoteID, InstantiationID, MigrateID;
  std::set<std::pair<unsigned, std::string>> Reported;
  friend class AsmStatementVisitor;
};

} // namespace plugin
} // namespace tileapply

#endif

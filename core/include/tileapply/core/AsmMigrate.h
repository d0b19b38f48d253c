//===- AsmMigrate.h - An asm statement rewritten as one __tile_apply call -*- C++ -*-===//
//
// The migration half of issue 22 (docs/asm-check.md#migration). Given what
// the checker found (AsmMatch: instruction -> form -> written operands) and
// what the front end knows of each operand's C++ expression, builds the one
// `__tile_apply` call that emits the same instruction with the same operands,
// or says why there is none. The call is then checked with the same rules as
// a call the user wrote (checkCall): a proposal the plugin would refuse is
// never made. No Clang here: the plugin's note and tileapply-migrate share it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CORE_ASMMIGRATE_H
#define TILEAPPLY_CORE_ASMMIGRATE_H

#include "tileapply/core/Arguments.h"
#include "tileapply/core/AsmMatch.h"
#include "tileapply/core/AsmTemplate.h"
#include <optional>
#include <string>
#include <vector>

namespace tileapply {

/// What the front end knows of the C++ expression of one asm operand.
struct AsmOperandSource {
  std::string Text;        // as written in the source
  DType Elem = TILEAPPLY_DT_UNKNOWN; // its type as a carrier (UNKNOWN: none)
  std::string TypeName;    // its type, for a message
  bool Modifiable = false; // a modifiable lvalue (variable, element, *p)
  bool SideEffects = false;
  std::optional<ScalarConst> Constant; // its value, when a constant
  /// An element `Base[Index]` of a C array of `Extent` elements of carrier
  /// ArrayElem, Index constant; also its bits read as another type of the
  /// same width, `*reinterpret_cast<const int32_t *>(&Base[Index])`.
  std::string ArrayBase;
  int64_t ArrayIndex = -1, ArrayExtent = 0;
  DType ArrayElem = TILEAPPLY_DT_UNKNOWN;
  /// The pointer an address operand comes from: the expression itself, or the
  /// argument of a known conversion into a state space (CCCL's
  /// __as_ptr_smem(p), __cvta_generic_to_global(p), ...).
  struct PointerSource {
    std::string Text;
    DType Pointee = TILEAPPLY_DT_UNKNOWN;
    bool PointeeConst = false;
    Space ConvertedTo = TILEAPPLY_SPACE_NONE; // NONE: the operand is the pointer
  };
  std::optional<PointerSource> Pointer;
  /// The operand's value is an integer of this many bits (0: not an integer).
  unsigned IntegerBits = 0;
  /// An input tied to an output ("0"): that output's index; otherwise -1.
  int TiedTo = -1;
};

/// The migration of one statement: the call, or why not.
struct AsmMigration {
  std::string Call; // `__tile_apply("add.u32", tile::reg_at(d), a, b)`; empty if none
  std::string Why;  // when Call is empty: the reason
  /// The reason's category, for a report that counts them: Why without its
  /// particulars (the rules' refusal by its code: "... refused: CarrierMismatch").
  std::string Category;
  explicit operator bool() const { return !Call.empty(); }
};

/// Builds the call for a statement the checker has read (`T`, `R`, `St`) whose
/// operands (%N order: outputs, then inputs) are `Ops`. `Tgt`: the target the
/// call is checked for (null: none).
AsmMigration migrateAsmStatement(const AsmTemplate &T, const AsmCheckResult &R,
                                 const AsmStatementInfo &St, llvm::ArrayRef<AsmOperandSource> Ops,
                                 const Target *Tgt);

/// The include a migrated file needs.
inline constexpr const char *MigrationInclude = "#include <tileapply/tile.h>\n";

} // namespace tileapply

#endif

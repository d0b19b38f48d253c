//===- Target.h - The GPU architecture being compiled for -------*- C++ -*-===//
#ifndef TILEAPPLY_CORE_TARGET_H
#define TILEAPPLY_CORE_TARGET_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace tileapply {

/// `sm_90a` is {90, 'a'}. PtxVersion is ISA * 10 (88 for PTX 8.8), 0 if unknown.
struct Target {
  unsigned Sm = 0;
  char Suffix = 0; // 0, 'a' (arch-specific) or 'f' (family-specific)
  unsigned PtxVersion = 0;

  std::string name() const; // "sm_90a"
};

/// Whether target `T` has the features of `Need`: a plain sm_XX needs T.Sm >=
/// XX; sm_XXa only sm_XXa itself; sm_XXf any 'f' or 'a' target of the same
/// family (same major version) from XX on (ptxas: "PTX for sm_XYf can be
/// compiled to sm_XZ, sm_XZf, sm_XZa where Z >= Y").
bool targetHas(const Target &T, const Target &Need);

/// Parses "sm_90a" / "sm_100f" / "sm_75".
std::optional<Target> parseTarget(llvm::StringRef Cpu);
/// Reads "+ptx88" out of a target-features string ("+ptx88,+sm_90a").
unsigned parsePtxFeature(llvm::StringRef Features);
std::string smName(unsigned Sm);          // 90 -> "sm_90"
std::string ptxVersionName(unsigned Ptx); // 78 -> "7.8"

} // namespace tileapply

#endif

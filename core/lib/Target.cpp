//===- Target.cpp - sm_XX names and PTX ISA versions ----------------------===//
#include "tileapply/core/Target.h"
#include "llvm/ADT/SmallVector.h"

using namespace llvm;

namespace tileapply {

std::string smName(unsigned Sm) { return "sm_" + std::to_string(Sm); }

std::string ptxVersionName(unsigned Ptx) {
  return std::to_string(Ptx / 10) + "." + std::to_string(Ptx % 10);
}

std::string Target::name() const {
  std::string S = smName(Sm);
  if (Suffix)
    S += Suffix;
  return S;
}

bool targetHas(const Target &T, const Target &Need) {
  switch (Need.Suffix) {
  case 'a': return T.Suffix == 'a' && T.Sm == Need.Sm;
  case 'f':
    return (T.Suffix == 'a' || T.Suffix == 'f') && T.Sm / 10 == Need.Sm / 10 && T.Sm >= Need.Sm;
  default: return T.Sm >= Need.Sm;
  }
}

std::optional<Target> parseTarget(StringRef Cpu) {
  if (!Cpu.consume_front("sm_"))
    return std::nullopt;
  Target T;
  if (Cpu.ends_with("a") || Cpu.ends_with("f")) {
    T.Suffix = Cpu.back();
    Cpu = Cpu.drop_back();
  }
  if (Cpu.getAsInteger(10, T.Sm) || T.Sm == 0)
    return std::nullopt;
  return T;
}

unsigned parsePtxFeature(StringRef Features) {
  SmallVector<StringRef, 8> Parts;
  Features.split(Parts, ',');
  unsigned Best = 0;
  for (StringRef P : Parts) {
    unsigned V;
    if (P.consume_front("+ptx") && !P.getAsInteger(10, V) && V > Best)
      Best = V;
  }
  return Best;
}

} // namespace tileapply

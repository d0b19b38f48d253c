//===- FunctionTarget.cpp - The GPU a function is compiled for ------------===//
#include "FunctionTarget.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/Function.h"

using namespace llvm;

namespace tileapply {

std::optional<Target> functionTarget(const Function &F) {
  Attribute Cpu = F.getFnAttribute("target-cpu");
  if (!Cpu.isStringAttribute())
    return std::nullopt;
  std::optional<Target> T = parseTarget(Cpu.getValueAsString());
  if (!T)
    return std::nullopt;
  Attribute Features = F.getFnAttribute("target-features");
  if (Features.isStringAttribute())
    T->PtxVersion = parsePtxFeature(Features.getValueAsString());
  return T;
}

} // namespace tileapply

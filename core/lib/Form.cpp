//===- Form.cpp - What a form and its operands answer ---------------------===//
//
// The methods of Form and OperandSpec (core/include/tileapply/core/Form.h):
// operand counts, floors and targets, immediate ranges, the spelling
// templates of multi-instruction forms; and splitSpelling, the tokens of a
// spelling, which they and every matcher use.
//
//===----------------------------------------------------------------------===//
#include "tileapply/core/Form.h"
#include "tileapply/core/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>

using namespace llvm;

namespace tileapply {

StringRef dirName(Dir D) {
  switch (D) {
  case Dir::Read: return "r";
  case Dir::Write: return "w";
  case Dir::ReadWrite: return "rw";
  case Dir::Addr: return "addr";
  case Dir::Imm: return "imm";
  case Dir::Sink: return "sink";
  }
  return "?";
}

bool Form::hasDestination() const { return destinationIndex() >= 0; }
unsigned Form::numRequiredOperands() const {
  unsigned N = 0;
  for (const OperandSpec &O : Operands)
    N += !O.Optional && O.Direction != Dir::Sink;
  return N;
}
bool Form::isAligned() const {
  SmallVector<StringRef, 8> T = splitSpelling(Spelling);
  // `bar{.cta}` is the ISA's `barrier{.cta}.aligned` written short (all but
  // bar.warp.sync, which is warp-synchronous, not .aligned).
  if (T[0] == "bar" && !(T.size() > 1 && T[1] == "warp"))
    return true;
  return llvm::is_contained(T, "aligned");
}

bool OperandSpec::immAllows(int64_t V) const {
  if (!ImmValues.empty())
    return llvm::is_contained(ImmValues, V);
  return V >= ImmLo && V <= ImmHi && (V - ImmLo) % ImmStep == 0;
}

std::string OperandSpec::immText() const {
  auto Listed = [](auto &&Values) {
    std::string S;
    for (int64_t V : Values)
      S += (S.empty() ? "{" : ", ") + std::to_string(V);
    return S + "}";
  };
  if (!ImmValues.empty())
    return Listed(ImmValues);
  // A stepped range of a few values reads better as the values: {-1, 1}.
  if (ImmStep > 1 && (ImmHi - ImmLo) / ImmStep < 4) {
    std::vector<int64_t> Values;
    for (int64_t V = ImmLo; V <= ImmHi; V += ImmStep)
      Values.push_back(V);
    return Listed(Values);
  }
  std::string S = "[" + std::to_string(ImmLo) + ".." + std::to_string(ImmHi) + "]";
  if (ImmStep > 1)
    S += text(Text::InSteps, {std::to_string(ImmStep), std::to_string(ImmLo)});
  return S;
}
unsigned Form::numArgumentOperands() const {
  unsigned N = 0;
  for (const OperandSpec &O : Operands)
    N += O.Direction != Dir::Sink;
  return N;
}
unsigned Form::minSm(bool WithOptional) const {
  return WithOptional ? std::max(MinSm, OptionalMinSm) : MinSm;
}
unsigned Form::minPtx(bool WithOptional) const {
  return WithOptional ? std::max(MinPtx, OptionalMinPtx) : MinPtx;
}
const std::vector<Target> &Form::targets(bool WithOptional) const {
  return WithOptional && !OptionalOnlyOn.empty() ? OptionalOnlyOn : OnlyOn;
}
bool Form::runsOn(const Target &T, bool WithOptional) const {
  const std::vector<Target> &Only = targets(WithOptional);
  if (Only.empty())
    return T.Sm >= minSm(WithOptional);
  return llvm::any_of(Only, [&](const Target &Need) { return targetHas(T, Need); });
}
std::string Form::targetsText(bool WithOptional) const {
  const std::vector<Target> &Only = targets(WithOptional);
  if (Only.empty())
    return smName(minSm(WithOptional));
  std::string S;
  for (size_t I = 0; I < Only.size(); ++I)
    S += (I == 0 ? "" : I + 1 == Only.size() ? " or " : ", ") + Only[I].name();
  return S;
}
std::string Form::expandSpelling(StringRef Template) const {
  std::string Out;
  StringRef Quals = StringRef(Spelling).drop_until([](char C) { return C == '.'; });
  while (!Template.empty()) {
    size_t Open = Template.find('{');
    Out += Template.substr(0, Open).str();
    if (Open == StringRef::npos)
      break;
    size_t Close = Template.find('}', Open);
    StringRef Name = Template.slice(Open + 1, Close);
    if (Name == "op") {
      Out += Spelling;
    } else if (Name == "q") {
      Out += Quals.str();
    } else if (Name.consume_front("q-")) {
      auto Tokens = splitSpelling(Spelling); // drop_begin of a temporary dangles
      for (StringRef Tok : llvm::drop_begin(Tokens))
        if (Tok != Name)
          Out += "." + Tok.str();
    } else {
      Out += Template.slice(Open, Close + 1).str(); // an operand: the renderer's
    }
    Template = Template.substr(Close + 1);
  }
  return Out;
}

int Form::destinationIndex() const {
  for (unsigned I = 0; I < Operands.size(); ++I)
    if (Operands[I].Direction == Dir::Write || Operands[I].Direction == Dir::ReadWrite)
      return static_cast<int>(I);
  return -1;
}

SmallVector<StringRef, 8> splitSpelling(StringRef Spelling) {
  SmallVector<StringRef, 8> Tokens;
  Spelling.split(Tokens, '.', -1, /*KeepEmpty=*/true);
  return Tokens;
}

} // namespace tileapply

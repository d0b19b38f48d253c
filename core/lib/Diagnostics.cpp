//===- Diagnostics.cpp - Every problem tileapply reports ------------------===//
#include "tileapply/core/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace tileapply {

namespace {
struct DiagInfo {
  const char *Name;
  Severity Sev;
  const char *Summary;
};
constexpr DiagInfo DiagInfos[] = {
#define TA_DIAG(Code, Sev, Summary) {#Code, Severity::Sev, Summary},
#include "tileapply/core/Diagnostics.def"
};
constexpr const char *Templates[] = {
#define TA_TEXT(Id, Template) Template,
#include "tileapply/core/Diagnostics.def"
};
} // namespace

Severity diagSeverity(DiagCode C) { return DiagInfos[static_cast<unsigned>(C)].Sev; }
StringRef diagName(DiagCode C) { return DiagInfos[static_cast<unsigned>(C)].Name; }
StringRef diagSummary(DiagCode C) { return DiagInfos[static_cast<unsigned>(C)].Summary; }

std::string text(Text T, ArrayRef<std::string> Args) {
  StringRef Tpl = Templates[static_cast<unsigned>(T)];
  std::string Out;
  for (size_t I = 0; I < Tpl.size(); ++I) {
    if (Tpl[I] == '%' && I + 1 < Tpl.size() && isDigit(Tpl[I + 1])) {
      unsigned N = Tpl[++I] - '0';
      if (N < Args.size())
        Out += Args[N];
      continue;
    }
    Out += Tpl[I];
  }
  return Out;
}

Problem spellingProblem(const SpellingProblem &SP) {
  DiagCode C = DiagCode::InvalidForm;
  switch (SP.K) {
  case SpellingProblem::UnknownInstruction: C = DiagCode::UnknownInstruction; break;
  case SpellingProblem::Unsupported: C = DiagCode::UnsupportedOpcode; break;
  case SpellingProblem::UnknownQualifier: C = DiagCode::UnknownQualifier; break;
  case SpellingProblem::WrongOrder: C = DiagCode::QualifierOrder; break;
  case SpellingProblem::MissingType: C = DiagCode::MissingType; break;
  case SpellingProblem::InvalidForm: C = DiagCode::InvalidForm; break;
  }
  return Problem{C, -1, SP.Message, {}, SP.Suggestion, false};
}

} // namespace tileapply

//===- TableParser.cpp - The PTX table's rows, parsed ---------------------===//
//
// The row language this parser reads: core/ptx/GRAMMAR.md (the one description).
//
//===----------------------------------------------------------------------===//
#include "TableParser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include <functional>

using namespace llvm;

namespace tileapply {
namespace table {

namespace {

struct RawRow {
  FormKind Kind;
  const char *Pattern;
  const char *Operands;
  unsigned Sm, Ptx;
  const char *OnlyOn; // "" or "sm_100a sm_103a"
  const char *Body = "";                         // TA_MULTI, TA_MULTI_ON
  const char *ChainMiddle = "", *ChainLast = ""; // TA_CHAIN
};
const RawRow RawRows[] = {
#define TA_FORM(Kind, Pat, Ops, Sm, Ptx) {FormKind::Kind, Pat, Ops, Sm, Ptx, ""},
#define TA_FORM_ON(Kind, Pat, Ops, Targets, Ptx) {FormKind::Kind, Pat, Ops, 0, Ptx, Targets},
#define TA_MULTI(Kind, Pat, Ops, Sm, Ptx, Body) {FormKind::Kind, Pat, Ops, Sm, Ptx, "", Body},
#define TA_MULTI_ON(Kind, Pat, Ops, Targets, Ptx, Body)                                            \
  {FormKind::Kind, Pat, Ops, 0, Ptx, Targets, Body},
#define TA_CHAIN(Kind, Pat, Ops, Sm, Ptx, Middle, Last)                                            \
  {FormKind::Kind, Pat, Ops, Sm, Ptx, "", "", Middle, Last},
#include "Opcodes.def"
};
struct RawSet {
  const char *Name;
  const char *Alternatives;
};
const RawSet RawSets[] = {
#define TA_SET(Name, Alts) {#Name, Alts},
#include "Opcodes.def"
};
struct RawUnsupported {
  const char *Prefix;
  const char *Reason;
};
const RawUnsupported RawUnsupportedRows[] = {
#define TA_UNSUPPORTED(Prefix, Reason) {Prefix, Reason},
#include "Opcodes.def"
};
const char *const RawNames[] = {
#define TA_NAME(Name) Name,
#include "Opcodes.def"
};
const RawSet RawPositional[] = {
#define TA_POSITIONAL(Class, Tokens) {#Class, Tokens},
#include "Opcodes.def"
};

/// Splits `S` at `Sep` where it is not inside <...> or (...).
SmallVector<StringRef, 8> splitTopLevel(StringRef S, char Sep) {
  SmallVector<StringRef, 8> Out;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if (C == '<' || C == '(')
      ++Depth;
    else if (C == '>' || C == ')')
      --Depth;
    else if (C == Sep && Depth == 0) {
      Out.push_back(S.slice(Start, I));
      Start = I + 1;
    }
  }
  Out.push_back(S.substr(Start));
  return Out;
}

class RowParser {
public:
  RowParser(const StringMap<std::string> &Sets, StringSet<> &UsedSets,
            std::vector<std::string> &Errors)
      : Sets(Sets), UsedSets(UsedSets), Errors(Errors) {}

  /// Parses one row into `P`; false (with an error recorded) if malformed.
  bool parse(const RawRow &Raw, Pattern &P);
  /// The alternatives of set `Name`, nested sets spliced in; false (with an
  /// error recorded) if malformed.
  bool expandSet(StringRef Name, std::vector<Choice> &Out);

private:
  const StringMap<std::string> &Sets;
  StringSet<> &UsedSets; // every set a parsed row (or set) named
  std::vector<std::string> &Errors;
  Pattern *P = nullptr;
  bool Failed = false;

  void error(const Twine &Why) {
    Errors.push_back(("'" + P->Text + "': " + Why).str());
    Failed = true;
  }
  bool parseFloor(StringRef Text, unsigned &Sm, unsigned &Ptx);
  void parseAlternative(StringRef Alt, std::vector<Choice> &Out, unsigned Depth);
  void expandParams(StringRef Tok, Choice &Base, std::vector<Choice> &Out);
  void parseItems(StringRef S);
  void parseOperand(StringRef Op);
  void checkTemplate(llvm::StringRef T, bool Operands);
  std::optional<Expr> parseExpr(StringRef S);
  Ref parseRef(StringRef S, int NumGroups);
};

bool RowParser::parseFloor(StringRef Text, unsigned &Sm, unsigned &Ptx) {
  auto [SmText, PtxText] = Text.split(',');
  if (SmText.trim().getAsInteger(10, Sm) || PtxText.trim().getAsInteger(10, Ptx)) {
    error("'(" + Text + ")' is not a floor (SM,PTX)");
    return false;
  }
  return true;
}

/// `Tok` is one token that may hold parameters: "m64n<N:8..256:8>k16".
/// Appends to Out a copy of Base whose last token is extended with each
/// concrete spelling of Tok, binding the parameters it names.
void RowParser::expandParams(StringRef Tok, Choice &Base, std::vector<Choice> &Out) {
  std::vector<Choice> Partial{Base};
  while (!Tok.empty()) {
    size_t Open = Tok.find('<');
    if (Open == StringRef::npos)
      Open = Tok.size();
    for (Choice &C : Partial)
      C.Tokens.back() += Tok.substr(0, Open).str();
    if (Open == Tok.size())
      break;
    size_t Close = Tok.find('>', Open);
    if (Close == StringRef::npos) {
      error("unclosed '<' in '" + Tok + "'");
      return;
    }
    auto [Name, Spec] = Tok.slice(Open + 1, Close).split(':');
    if (Name.empty() || Spec.empty() || !isAlpha(Name.front())) {
      error("'" + Tok.slice(Open, Close + 1) + "' is not a parameter <NAME:values>");
      return;
    }
    SmallVector<int64_t, 32> Values;
    if (Spec.contains("..")) {
      auto [Range, StepText] = Spec.split(':');
      auto [Lo, Hi] = Range.split("..");
      int64_t L = 0, H = 0, Step = 1;
      if (Lo.getAsInteger(10, L) || Hi.getAsInteger(10, H) ||
          (!StepText.empty() && StepText.getAsInteger(10, Step)) || Step <= 0 || L > H) {
        error("'" + Spec + "' is not a range lo..hi[:step]");
        return;
      }
      for (int64_t V = L; V <= H; V += Step)
        Values.push_back(V);
    } else {
      SmallVector<StringRef, 8> List;
      Spec.split(List, '|');
      for (StringRef V : List) {
        int64_t X = 0;
        if (V.getAsInteger(10, X)) {
          error("'" + Spec + "' is not a list of integers a|b|c");
          return;
        }
        Values.push_back(X);
      }
    }
    // A parameter is named once per pattern (an alternative list may spell
    // it in several alternatives: they share it).
    auto Known = llvm::find(P->ParamNames, Name);
    unsigned Index = Known - P->ParamNames.begin();
    if (Known == P->ParamNames.end())
      P->ParamNames.push_back(Name.str());
    std::vector<Choice> Next;
    for (const Choice &C : Partial)
      for (int64_t V : Values) {
        Choice N = C;
        N.Tokens.back() += std::to_string(V);
        N.Params.push_back({Index, V});
        Next.push_back(std::move(N));
      }
    Partial = std::move(Next);
    Tok = Tok.substr(Close + 1);
  }
  for (Choice &C : Partial)
    Out.push_back(std::move(C));
}

/// One alternative of a group, "@set" or ".a.b(SM,PTX)", expanded into
/// choices (a parameter makes several).
void RowParser::parseAlternative(StringRef Alt, std::vector<Choice> &Out, unsigned Depth) {
  if (Alt.consume_front("@")) {
    auto It = Sets.find(Alt);
    if (It == Sets.end()) {
      error("no set named '" + Alt + "'");
      return;
    }
    UsedSets.insert(Alt);
    if (Depth > 8) {
      error("set '" + Alt + "' refers to itself");
      return;
    }
    for (StringRef Inner : splitTopLevel(It->second, '|'))
      parseAlternative(Inner.trim(), Out, Depth + 1);
    return;
  }
  Choice Base;
  if (Alt.ends_with(")")) {
    size_t Open = Alt.rfind('(');
    if (Open == StringRef::npos ||
        !parseFloor(Alt.slice(Open + 1, Alt.size() - 1), Base.Sm, Base.Ptx))
      return;
    Alt = Alt.substr(0, Open);
  }
  if (!Alt.consume_front(".") || Alt.empty()) {
    error("alternative '" + Alt + "' must start with '.'");
    return;
  }
  // Tokens, each possibly with parameters: expand left to right.
  std::vector<Choice> Partial{Base};
  for (StringRef Tok : splitTopLevel(Alt, '.')) {
    if (Tok.empty()) {
      error("empty qualifier in '" + Alt + "'");
      return;
    }
    std::vector<Choice> Next;
    for (Choice &C : Partial) {
      C.Tokens.push_back("");
      expandParams(Tok, C, Next);
    }
    Partial = std::move(Next);
  }
  for (Choice &C : Partial)
    Out.push_back(std::move(C));
}

void RowParser::parseItems(StringRef S) {
  int NextGroup = 0;
  while (!S.empty() && !Failed) {
    Item It;
    if (S.front() == '.') {
      // A literal: up to the next '.' or '{' outside <...> and (...).
      size_t End = 1;
      for (int Depth = 0; End < S.size(); ++End) {
        char C = S[End];
        if (C == '<' || C == '(')
          ++Depth;
        else if (C == '>' || C == ')')
          --Depth;
        else if ((C == '.' || C == '{') && Depth == 0)
          break;
      }
      parseAlternative(S.substr(0, End), It.Choices, 0);
      S = S.substr(End);
    } else if (S.front() == '{') {
      size_t Close = S.find('}');
      if (Close == StringRef::npos) {
        error("unclosed '{'");
        return;
      }
      for (StringRef Alt : splitTopLevel(S.substr(1, Close - 1), '|'))
        parseAlternative(Alt, It.Choices, 0);
      S = S.substr(Close + 1);
      It.Optional = S.consume_front("?");
      It.Group = NextGroup++;
      P->GroupItem.push_back(static_cast<int>(P->Items.size()));
    } else {
      error("unexpected character '" + S.take_front(1) + "'");
      return;
    }
    if (It.Choices.empty() && !Failed)
      error("an item without alternatives");
    P->Items.push_back(std::move(It));
  }
}

Ref RowParser::parseRef(StringRef S, int NumGroups) {
  Ref R;
  if (S.consume_front("$")) {
    if (S.getAsInteger(10, R.Group) || R.Group >= NumGroups)
      error("'$" + S + "' refers to a group that does not exist");
  } else {
    R.Literal = S.str();
  }
  return R;
}

/// "N/2", "$1", "4", "(M*N)/128".
std::optional<Expr> RowParser::parseExpr(StringRef S) {
  Expr E;
  std::vector<char> OpStack; // operators and '('
  auto Prec = [](char C) { return C == '+' || C == '-' ? 1 : C == '*' || C == '/' ? 2 : 0; };
  auto Emit = [&](char C) {
    E.Ops.push_back({C == '+'   ? Expr::Add
                     : C == '-' ? Expr::Sub
                     : C == '*' ? Expr::Mul
                                : Expr::Div});
  };
  int NumGroups = static_cast<int>(P->GroupItem.size());
  size_t I = 0;
  while (I < S.size()) {
    char C = S[I];
    if (isSpace(C)) {
      ++I;
    } else if (isDigit(C)) {
      size_t J = I;
      while (J < S.size() && isDigit(S[J]))
        ++J;
      int64_t V = 0;
      S.slice(I, J).getAsInteger(10, V);
      E.Ops.push_back({Expr::Number, V});
      I = J;
    } else if (C == '$') {
      size_t J = I + 1;
      while (J < S.size() && isDigit(S[J]))
        ++J;
      int G = -1;
      if (S.slice(I + 1, J).getAsInteger(10, G) || G >= NumGroups) {
        error("'" + S.slice(I, J) + "' in '" + S + "' refers to no group");
        return std::nullopt;
      }
      // $k in a count is group k's .vN: some alternative must have one.
      const Item &Group = P->Items[P->GroupItem[G]];
      if (llvm::none_of(Group.Choices,
                        [](const Choice &Ch) { return vectorSize(Ch).has_value(); })) {
        error("'" + S.slice(I, J) + "' in '" + S + "' names a group without a .vN alternative");
        return std::nullopt;
      }
      E.Ops.push_back({Expr::GroupVector, G});
      I = J;
    } else if (isAlpha(C)) {
      size_t J = I;
      while (J < S.size() && isAlnum(S[J]))
        ++J;
      auto It = llvm::find(P->ParamNames, S.slice(I, J));
      if (It == P->ParamNames.end()) {
        error("'" + S.slice(I, J) + "' in '" + S + "' is not a parameter of the pattern");
        return std::nullopt;
      }
      E.Ops.push_back({Expr::Param, It - P->ParamNames.begin()});
      I = J;
    } else if (C == '(') {
      OpStack.push_back(C);
      ++I;
    } else if (C == ')') {
      while (!OpStack.empty() && OpStack.back() != '(') {
        Emit(OpStack.back());
        OpStack.pop_back();
      }
      if (OpStack.empty()) {
        error("unbalanced ')' in '" + S + "'");
        return std::nullopt;
      }
      OpStack.pop_back();
      ++I;
    } else if (Prec(C)) {
      while (!OpStack.empty() && Prec(OpStack.back()) >= Prec(C)) {
        Emit(OpStack.back());
        OpStack.pop_back();
      }
      OpStack.push_back(C);
      ++I;
    } else {
      error("unexpected '" + S.substr(I, 1) + "' in '" + S + "'");
      return std::nullopt;
    }
  }
  while (!OpStack.empty()) {
    if (OpStack.back() == '(') {
      error("unbalanced '(' in '" + S + "'");
      return std::nullopt;
    }
    Emit(OpStack.back());
    OpStack.pop_back();
  }
  // The stack depth of a well-formed expression ends at exactly one value.
  int Depth = 0;
  for (const Expr::Op &O : E.Ops) {
    Depth += O.K <= Expr::GroupVector ? 1 : -1;
    if (Depth < 1) {
      error("'" + S + "' is not an expression");
      return std::nullopt;
    }
  }
  if (Depth != 1) {
    error("'" + S + "' is not an expression");
    return std::nullopt;
  }
  return E;
}

void RowParser::parseOperand(StringRef Op) {
  OperandPattern O;
  int NumGroups = static_cast<int>(P->GroupItem.size());
  // "_": PTX's sink, a result nobody reads; no argument of the call.
  if (Op == "_") {
    O.Spec.Name = "_";
    O.Spec.Direction = Dir::Sink;
    O.Type.Literal = "b64";
    O.Regs = *parseExpr("1");
    P->Operands.push_back(std::move(O));
    return;
  }
  // "&c:r:s32x2": inside the previous address's brackets, `[tmap, {x, y}]`.
  if (Op.consume_front("&")) {
    if (P->Operands.empty() || P->Operands.back().Spec.Direction != Dir::Addr)
      error("'&' operand '" + Op + "' does not follow an address");
    O.Spec.InBrackets = true;
  }
  // "{}off:r:b16x2": in braces even as one register.
  if (Op.consume_front("{}"))
    O.Spec.Braced = true;
  // "[]taddr:r:b32": a register written in brackets (a Tensor Memory address).
  if (Op.consume_front("[]"))
    O.Spec.Bracketed = true;
  // "%e:r:b32": a register even when the call passes a constant.
  if (Op.consume_front("%"))
    O.Spec.RegisterOnly = true;
  // "|q:w:pred?": joined to the previous operand by '|'.
  if (Op.consume_front("|")) {
    if (P->Operands.empty())
      error("'|' before the first operand");
    O.Spec.JoinedByBar = true;
  }
  // "!c:r:pred": PTX's `{!}c`, the call may pass it negated.
  if (Op.consume_front("!"))
    O.Spec.Negatable = true;
  // "c:r:f32?(100,88)": optional, and PTX added it later than the form.
  // "s:imm:u32[0..15]?(sm_100f,86)": optional, and only these arch- or
  // family-specific targets (of the row's) have it.
  if (Op.ends_with(")") && Op.contains("?(")) {
    size_t Open = Op.rfind("?(");
    StringRef Floor = Op.slice(Open + 2, Op.size() - 1);
    if (Floor.trim().starts_with("sm_")) {
      auto [Targets, PtxText] = Floor.rsplit(',');
      unsigned Ptx = 0;
      if (PtxText.trim().getAsInteger(10, Ptx)) {
        error("'(" + Floor + ")' is not a floor (TARGETS,PTX)");
        return;
      }
      SmallVector<StringRef, 4> Names;
      Targets.split(Names, ' ', -1, /*KeepEmpty=*/false);
      for (StringRef Name : Names) {
        std::optional<Target> T = parseTarget(Name);
        if (!T || !T->Suffix) {
          error("'" + Name + "' is not an arch- or family-specific target");
          return;
        }
        P->OptionalOnlyOn.push_back(*T);
      }
      P->OptionalMinPtx = std::max(P->OptionalMinPtx, Ptx);
    } else {
      unsigned Sm = 0, Ptx = 0;
      if (!parseFloor(Floor, Sm, Ptx))
        return;
      P->OptionalMinSm = std::max(P->OptionalMinSm, Sm);
      P->OptionalMinPtx = std::max(P->OptionalMinPtx, Ptx);
    }
    Op = Op.substr(0, Open + 1);
  }
  O.Spec.Optional = Op.consume_back("?");
  // "[0..15]!": ptxas refuses an immediate outside the range.
  O.Spec.ImmRangeChecked = Op.consume_back("!");
  // "n:imm:b32[0..255]": an immediate and its allowed range.
  bool HasRange = Op.ends_with("]");
  if (O.Spec.ImmRangeChecked && !HasRange) {
    error("operand '" + Op + "': '!' follows a range [LO..HI]");
    return;
  }
  if (HasRange) {
    size_t Open = Op.rfind('[');
    auto [Range, Step] = Open == StringRef::npos ? std::pair<StringRef, StringRef>()
                                                 : Op.slice(Open + 1, Op.size() - 1).split(':');
    // "[4|8|16]": only the values listed, ascending.
    if (Open != StringRef::npos && Range.contains('|') && Step.empty()) {
      SmallVector<StringRef, 8> Vals;
      Range.split(Vals, '|');
      for (StringRef V : Vals) {
        int64_t N;
        if (V.getAsInteger(0, N) || (!O.Spec.ImmValues.empty() && N <= O.Spec.ImmValues.back())) {
          error("operand '" + Op + "' has a bad value list [A|B|...] (integers, ascending)");
          return;
        }
        O.Spec.ImmValues.push_back(N);
      }
      O.Spec.ImmLo = O.Spec.ImmValues.front();
      O.Spec.ImmHi = O.Spec.ImmValues.back();
      Range = StringRef(); // parsed
    }
    auto [Lo, Hi] = Range.split("..");
    if (!O.Spec.ImmValues.empty()) {
      // the list above
    } else if (Open == StringRef::npos || Lo.getAsInteger(0, O.Spec.ImmLo) ||
               Hi.getAsInteger(0, O.Spec.ImmHi) || O.Spec.ImmLo > O.Spec.ImmHi ||
               (!Step.empty() && (Step.getAsInteger(0, O.Spec.ImmStep) || O.Spec.ImmStep < 1))) {
      error("operand '" + Op + "' has a bad range [LO..HI] or [LO..HI:STEP]");
      return;
    }
    Op = Op.substr(0, Open);
  }
  SmallVector<StringRef, 3> F;
  Op.split(F, ':', 2);
  if (F.size() != 3) {
    error("operand '" + Op + "' is not NAME:DIR:TYPE");
    return;
  }
  O.Spec.Name = F[0].str();
  if (F[1] == "r")
    O.Spec.Direction = Dir::Read;
  else if (F[1] == "w")
    O.Spec.Direction = Dir::Write;
  else if (F[1] == "rw")
    O.Spec.Direction = Dir::ReadWrite;
  else if (F[1] == "addr")
    O.Spec.Direction = Dir::Addr;
  else if (F[1] == "waddr" || F[1] == "rwaddr") { // written (or read and written) memory
    O.Spec.Direction = Dir::Addr;
    O.Spec.WritesMemory = true;
    O.Spec.ReadModifyWrite = F[1] == "rwaddr";
  } else if (F[1] == "imm")
    O.Spec.Direction = Dir::Imm;
  else {
    error("bad direction '" + F[1] + "'");
    return;
  }
  auto [TypeAndRegs, SpacePart] = F[2].split('@');
  if (TypeAndRegs.consume_back("~"))
    O.Spec.Splittable = true;
  // TYPE, TYPExN, TYPEx$k, TYPEx(EXPR); "f16x2" is a type, not "f16" x 2.
  StringRef TypePart = TypeAndRegs, RegsPart;
  if (size_t X = TypeAndRegs.find("x("); X != StringRef::npos && TypeAndRegs.ends_with(")")) {
    TypePart = TypeAndRegs.substr(0, X);
    RegsPart = TypeAndRegs.slice(X + 2, TypeAndRegs.size() - 1);
  } else if (size_t X = TypeAndRegs.rfind("x$"); X != StringRef::npos) {
    TypePart = TypeAndRegs.substr(0, X);
    RegsPart = TypeAndRegs.substr(X + 1);
  } else if (!TypePart.starts_with("$") && !parsePtxType(TypeAndRegs)) {
    size_t X = TypeAndRegs.rfind('x');
    if (X != StringRef::npos) {
      TypePart = TypeAndRegs.substr(0, X);
      RegsPart = TypeAndRegs.substr(X + 1);
    }
  } else if (TypePart.starts_with("$") && TypePart.contains('x')) {
    std::tie(TypePart, RegsPart) = TypeAndRegs.split('x');
  }
  O.Type = parseRef(TypePart, NumGroups);
  if (O.Type.Group < 0 && !parsePtxType(O.Type.Literal))
    error("'" + O.Type.Literal + "' is not a PTX type");
  std::optional<Expr> Regs = parseExpr(RegsPart.empty() ? "1" : RegsPart);
  if (!Regs)
    return;
  O.Regs = std::move(*Regs);
  if (!SpacePart.empty()) {
    O.Space = parseRef(SpacePart, NumGroups);
    if (O.Space.Group < 0 && !parseSpace(O.Space.Literal))
      error("'" + O.Space.Literal + "' is not a state space");
  }
  if (O.Spec.Direction == Dir::Addr && O.Space.Group < 0 && O.Space.Literal.empty())
    error("address operand '" + O.Spec.Name + "' without a state space");
  // A source register with a range: PTX takes a constant there as an
  // immediate only in [LO..HI] (bfe's position and length: 0..255); a
  // constant outside it is passed in a register.
  if (O.Spec.Direction == Dir::Read && HasRange) {
    if (!O.Spec.ImmValues.empty() || O.Spec.ImmStep != 1)
      error("a source operand's immediate range is a plain [LO..HI]");
    O.Spec.ImmRangeOnRegister = true;
  } else if ((O.Spec.Direction == Dir::Imm) != HasRange)
    error("an immediate operand, and a source whose immediates PTX limits, have a range "
          "[LO..HI]; no other operand has one");
  if (O.Spec.Optional && O.Spec.Direction == Dir::Addr)
    error("only register and immediate operands can be optional");
  if (O.Spec.Negatable && (O.Spec.Direction != Dir::Read || O.Type.Literal != "pred"))
    error("only predicate sources can be negated");
  P->Operands.push_back(std::move(O));
}

bool RowParser::parse(const RawRow &Raw, Pattern &Out) {
  P = &Out;
  Failed = false;
  P->Text = Raw.Pattern;
  P->Kind = Raw.Kind;
  P->MinSm = Raw.Sm;
  P->MinPtx = Raw.Ptx;
  SmallVector<StringRef, 4> Only;
  StringRef(Raw.OnlyOn).split(Only, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef Name : Only) {
    std::optional<Target> T = parseTarget(Name);
    if (!T || !T->Suffix) {
      error("'" + Name + "' is not an arch- or family-specific target");
      continue;
    }
    P->OnlyOn.push_back(*T);
    P->MinSm = P->MinSm ? std::min(P->MinSm, T->Sm) : T->Sm;
  }
  StringRef S(Raw.Pattern);
  size_t FamEnd = S.find_first_of(".{");
  P->Family = S.substr(0, FamEnd).str();
  if (P->Family.empty())
    error("no family name");
  parseItems(S.substr(std::min(FamEnd, S.size())));
  SmallVector<StringRef, 8> Ops;
  StringRef(Raw.Operands).split(Ops, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef Op : Ops)
    if (!Failed)
      parseOperand(Op);
  P->Body = Raw.Body;
  P->ChainMiddle = Raw.ChainMiddle;
  P->ChainLast = Raw.ChainLast;
  if (!Failed && !P->Body.empty())
    checkTemplate(P->Body, /*Operands=*/true);
  if (!Failed && (!P->ChainMiddle.empty() || !P->ChainLast.empty())) {
    if (P->ChainMiddle.empty() || P->ChainLast.empty())
      error("a carry chain needs both its middle and its last spelling");
    checkTemplate(P->ChainMiddle, /*Operands=*/false);
    checkTemplate(P->ChainLast, /*Operands=*/false);
    if (llvm::any_of(P->Operands, [](const OperandPattern &O) {
          return O.Spec.Direction == Dir::Addr || O.Spec.Optional;
        }))
      error("a carry chain takes register operands, none optional");
  }
  return !Failed;
}

/// A multi-instruction template: `{op}` (the spelling as written), `{q}` (its
/// qualifiers), `{q-TOK}` (its qualifiers but .TOK) and, in a body, `{NAME}`
/// for each operand, each operand at least once.
void RowParser::checkTemplate(StringRef T, bool Operands) {
  StringSet<> Used;
  for (size_t Open = T.find('{'); Open != StringRef::npos; Open = T.find('{', Open + 1)) {
    size_t Close = T.find('}', Open);
    if (Close == StringRef::npos) {
      error("unclosed '{' in '" + T + "'");
      return;
    }
    StringRef Name = T.slice(Open + 1, Close);
    if (Name == "op" || Name == "q" || Name.starts_with("q-"))
      continue;
    bool IsOperand = llvm::any_of(P->Operands, [&](const OperandPattern &O) {
      return O.Spec.Name == Name && O.Spec.Direction != Dir::Sink;
    });
    if (!Operands || !IsOperand) {
      error("'{" + Name + "}' in '" + T + "' is no " +
            (Operands ? "operand or spelling" : "spelling") + " placeholder");
      return;
    }
    Used.insert(Name);
  }
  if (Operands)
    for (const OperandPattern &O : P->Operands)
      if (O.Spec.Direction != Dir::Sink && !Used.contains(O.Spec.Name))
        error("the body '" + T + "' does not use operand '" + O.Spec.Name + "'");
}

bool RowParser::expandSet(StringRef Name, std::vector<Choice> &Out) {
  Pattern Set;
  std::string Ref = ("@" + Name).str();
  Set.Text = Ref;
  P = &Set;
  Failed = false;
  parseAlternative(Ref, Out, 0);
  P = nullptr;
  return !Failed;
}

} // namespace

std::optional<int64_t> vectorSize(const Choice &C) {
  for (const std::string &Tok : C.Tokens) {
    int64_t N = 0;
    if (Tok.size() > 1 && Tok[0] == 'v' && !StringRef(Tok).drop_front().getAsInteger(10, N))
      return N;
  }
  return std::nullopt;
}

std::optional<int64_t> evaluate(const Expr &E, ArrayRef<int64_t> Params,
                                function_ref<int64_t(int)> GroupVector) {
  SmallVector<int64_t, 8> Stack;
  for (const Expr::Op &O : E.Ops) {
    switch (O.K) {
    case Expr::Number: Stack.push_back(O.V); continue;
    case Expr::Param:
      if (static_cast<size_t>(O.V) >= Params.size())
        return std::nullopt;
      Stack.push_back(Params[O.V]);
      continue;
    case Expr::GroupVector: Stack.push_back(GroupVector(static_cast<int>(O.V))); continue;
    default: break;
    }
    if (Stack.size() < 2)
      return std::nullopt;
    int64_t B = Stack.pop_back_val(), A = Stack.pop_back_val();
    switch (O.K) {
    case Expr::Add: Stack.push_back(A + B); break;
    case Expr::Sub: Stack.push_back(A - B); break;
    case Expr::Mul: Stack.push_back(A * B); break;
    case Expr::Div:
      if (B == 0 || A % B != 0)
        return std::nullopt;
      Stack.push_back(A / B);
      break;
    default: return std::nullopt;
    }
  }
  if (Stack.size() != 1 || Stack.back() < 1)
    return std::nullopt;
  return Stack.back();
}

Table parseTable() {
  Table T;
  StringMap<std::string> Sets;
  for (const RawSet &S : RawSets)
    if (!Sets.try_emplace(S.Name, S.Alternatives).second)
      T.Errors.push_back("set '" + std::string(S.Name) + "' is defined twice");
  StringSet<> Used;
  RowParser Parser(Sets, Used, T.Errors);
  for (const RawRow &R : RawRows) {
    Pattern P;
    if (Parser.parse(R, P))
      T.Patterns.push_back(std::move(P));
  }
  // Every set, expanded for the reference page. A malformed set that rows
  // use has been reported with each of them; one that no row uses, here.
  StringSet<> UsedByRows = Used;
  for (const RawSet &S : RawSets) {
    NamedSet NS{S.Name, S.Alternatives, {}};
    std::vector<std::string> SetErrors;
    RowParser SetParser(Sets, Used, SetErrors);
    SetParser.expandSet(S.Name, NS.Choices);
    if (!UsedByRows.contains(S.Name)) {
      T.Errors.push_back("set '" + std::string(S.Name) + "' is used by no row");
      llvm::append_range(T.Errors, SetErrors);
    }
    T.Sets.push_back(std::move(NS));
  }
  // Qualifier order: the multi-word instruction names and the positional
  // classes. A name has at least two tokens; a token is in one class at most.
  for (const char *Name : RawNames) {
    SmallVector<StringRef, 4> Toks;
    StringRef(Name).split(Toks, '.');
    if (Toks.size() < 2 || llvm::any_of(Toks, [](StringRef T) { return T.empty(); })) {
      T.Errors.push_back("TA_NAME(\"" + std::string(Name) + "\"): not a name of two or more words");
      continue;
    }
    T.Names.emplace_back();
    for (StringRef Tok : Toks)
      T.Names.back().push_back(Tok.str());
  }
  StringMap<std::string> ClassOf;
  for (const RawSet &C : RawPositional) {
    PositionalClass PC{C.Name, {}};
    SmallVector<StringRef, 32> Toks;
    StringRef(C.Alternatives).split(Toks, '|');
    for (StringRef Tok : Toks) {
      if (!Tok.consume_front(".") || Tok.empty() || Tok.contains('.')) {
        T.Errors.push_back("TA_POSITIONAL(" + PC.Name + "): '" + Tok.str() +
                           "' is not one qualifier .tok");
        continue;
      }
      auto [It, New] = ClassOf.try_emplace(Tok, PC.Name);
      if (!New)
        T.Errors.push_back("TA_POSITIONAL(" + PC.Name + "): '." + Tok.str() +
                           "' is already in class " + It->second);
      PC.Tokens.push_back(Tok.str());
    }
    T.Positional.push_back(std::move(PC));
  }
  for (const RawUnsupported &U : RawUnsupportedRows) {
    Unsupported Row;
    SmallVector<StringRef, 4> Toks;
    StringRef(U.Prefix).split(Toks, '.');
    for (StringRef Tok : Toks)
      Row.Prefix.push_back(Tok.str());
    Row.Reason = U.Reason;
    T.UnsupportedRows.push_back(std::move(Row));
  }
  return T;
}

} // namespace table
} // namespace tileapply

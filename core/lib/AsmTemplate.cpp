//===- AsmTemplate.cpp - A GCC-style asm template read as PTX -------------===//
//
// A hand-written reader, in two steps: comments become blanks (so offsets
// stay those of the template), then statements are read one after another:
// `{` / `}` scopes, labels, `.reg` declarations, guards and instructions up
// to their `;`. Every reference keeps its offset and length in the template.
//
//===----------------------------------------------------------------------===//
#include "tileapply/core/AsmTemplate.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace tileapply {

const AsmRegDecl *AsmTemplate::findDecl(StringRef Name) const {
  for (const AsmRegDecl &D : Decls) {
    if (D.Count == 0) {
      if (D.Name == Name)
        return &D;
      continue;
    }
    // `r<4>` declares r0 .. r3.
    unsigned N;
    if (Name.starts_with(D.Name) && !Name.drop_front(D.Name.size()).getAsInteger(10, N) &&
        N < D.Count)
      return &D;
  }
  return nullptr;
}

bool AsmTemplate::fullyRead() const {
  if (!Unread.empty())
    return false;
  for (const AsmInstruction &I : Instructions)
    if (!I.NotUnderstood.empty())
      return false;
  return true;
}

namespace {

bool isIdentStart(char C) { return isAlpha(C) || C == '_' || C == '$'; }
bool isIdentChar(char C) { return isAlnum(C) || C == '_' || C == '$'; }
bool isOpcodeChar(char C) { return isAlnum(C) || C == '_' || C == '.' || C == ':'; }

/// The template with its comments turned into blanks.
std::string blankComments(StringRef T) {
  std::string S = T.str();
  for (size_t I = 0; I + 1 < S.size(); ++I) {
    if (S[I] == '/' && S[I + 1] == '/') {
      while (I < S.size() && S[I] != '\n')
        S[I++] = ' ';
    } else if (S[I] == '/' && S[I + 1] == '*') {
      size_t End = S.find("*/", I + 2);
      size_t Stop = End == std::string::npos ? S.size() : End + 2;
      for (; I < Stop; ++I)
        if (S[I] != '\n')
          S[I] = ' ';
      --I;
    }
  }
  return S;
}

class Splitter {
public:
  Splitter(StringRef S, ArrayRef<std::string> Names, AsmTemplate &T) : S(S), Names(Names), T(T) {}

  void run() {
    int Depth = 0;
    while (true) {
      skipSpace();
      if (P >= S.size())
        break;
      char C = S[P];
      if (C == '{') {
        ++Depth;
        ++P;
      } else if (C == '}') {
        if (--Depth < 0) {
          T.Unread.push_back({P, "a '}' that closes no scope"});
          Depth = 0;
        }
        ++P;
      } else if (C == ';') {
        ++P;
      } else {
        statement();
      }
    }
    if (Depth > 0)
      T.Unread.push_back({S.size(), "a '{' scope that is never closed"});
  }

private:
  void skipSpace() {
    while (P < S.size() && isSpace(S[P]))
      ++P;
  }
  size_t identEnd(size_t Q) const {
    while (Q < S.size()) {
      if (isIdentChar(S[Q]))
        ++Q;
      else if (S[Q] == '%' && Q + 1 < S.size() && S[Q + 1] == '=')
        Q += 2; // %=: a number unique to the statement
      else
        break;
    }
    return Q;
  }
  /// The end of the statement at P: its `;` (not included), a `}` closing
  /// the scope, or the end of the template. Brackets and braces inside an
  /// instruction's operands do not end it.
  size_t statementEnd(size_t Q, bool &HasSemicolon) const {
    int Nest = 0;
    for (; Q < S.size(); ++Q) {
      char C = S[Q];
      if (C == '[' || C == '{' || C == '(')
        ++Nest;
      else if (C == ']' || C == ')')
        --Nest;
      else if (C == '}') {
        if (Nest == 0)
          break;
        --Nest;
      } else if (C == ';' && Nest <= 0) {
        HasSemicolon = true;
        return Q;
      }
    }
    HasSemicolon = false;
    return Q;
  }

  void statement() {
    // Labels first: `L%=:` / `$done:` (not the `::` of a qualifier).
    if (isIdentStart(S[P]) || S[P] == '%') {
      size_t E = identEnd(P);
      size_t Q = E;
      while (Q < S.size() && (S[Q] == ' ' || S[Q] == '\t'))
        ++Q;
      if (E > P && Q < S.size() && S[Q] == ':' && (Q + 1 >= S.size() || S[Q + 1] != ':')) {
        P = Q + 1;
        return;
      }
    }
    bool Semi;
    if (S[P] == '.') {
      size_t E = statementEnd(P, Semi);
      if (S.substr(P).starts_with(".reg") && P + 4 < S.size() &&
          (isSpace(S[P + 4]) || S[P + 4] == '.'))
        regDecl(P + 4, E);
      else
        T.Unread.push_back({P, "a directive other than .reg"});
      P = Semi ? E + 1 : E;
      return;
    }
    AsmInstruction I;
    if (S[P] == '@') {
      size_t B = ++P;
      while (P < S.size() && (S[P] == '!' || S[P] == '%' || S[P] == '[' || S[P] == ']' ||
                              S[P] == '.' || isIdentChar(S[P])))
        if (S[P++] == '%' && P < S.size() && S[P] == '=')
          ++P;
      std::optional<AsmRef> G = ref(B, P);
      if (!G)
        I.NotUnderstood = "a guard it cannot read";
      I.Guard = G;
      skipSpace();
    }
    size_t E = statementEnd(P, Semi);
    size_t OB = P;
    while (P < E && isOpcodeChar(S[P]))
      ++P;
    I.Opcode = S.slice(OB, P).str();
    I.OpcodeOffset = OB;
    if (I.Opcode.empty() && I.NotUnderstood.empty())
      I.NotUnderstood = "an instruction it cannot read";
    else if (!Semi && I.NotUnderstood.empty())
      I.NotUnderstood = "an instruction with no ';'";
    // ptxas also reads an operand group or address written right after the
    // name (`ld.shared.v2.b32{%0, %1}, [%2];`, as CUTLASS writes mma.sync),
    // but not a register: `add.u32%r1, ...` is "Unknown symbol '%r1'".
    else if (P < E && !isSpace(S[P]) && S[P] != '{' && S[P] != '[' && I.NotUnderstood.empty()) {
      I.NotUnderstood = "an instruction name it cannot read";
      I.NameRunsIntoOperand = S[P] == '%';
    }
    if (I.NotUnderstood.empty())
      operands(P, E, I);
    T.Instructions.push_back(std::move(I));
    P = Semi ? E + 1 : E;
  }

  void regDecl(size_t B, size_t E) {
    StringRef Body = S.slice(B, E);
    size_t Off = B;
    auto Trim = [&](StringRef &X, size_t &O) {
      size_t L = X.size() - X.ltrim().size();
      X = X.ltrim().rtrim();
      O += L;
    };
    Trim(Body, Off);
    // `.pred` / `.b32`, then the names.
    if (!Body.starts_with(".")) {
      T.Unread.push_back({B, "a .reg declaration it cannot read"});
      return;
    }
    size_t TEnd = Body.find_first_of(" \t\n");
    if (TEnd == StringRef::npos) {
      T.Unread.push_back({B, "a .reg declaration it cannot read"});
      return;
    }
    std::optional<PtxType> Ty = parsePtxType(Body.substr(0, TEnd));
    if (!Ty) {
      T.Unread.push_back({B, "a .reg declaration of a type it does not know"});
      return;
    }
    StringRef Rest = Body.drop_front(TEnd);
    size_t ROff = Off + TEnd;
    SmallVector<StringRef, 4> Parts;
    Rest.split(Parts, ',');
    for (StringRef Part : Parts) {
      size_t POff = ROff + (Part.data() - Rest.data());
      Trim(Part, POff);
      AsmRegDecl D;
      D.Type = Ty;
      D.Offset = POff;
      StringRef Name = Part;
      size_t Lt = Part.find('<');
      if (Lt != StringRef::npos) {
        if (!Part.ends_with(">") ||
            Part.slice(Lt + 1, Part.size() - 1).trim().getAsInteger(10, D.Count) || !D.Count) {
          T.Unread.push_back({POff, "a .reg declaration it cannot read"});
          continue;
        }
        Name = Part.substr(0, Lt).rtrim();
      }
      std::string N = decodePercent(Name);
      if (N.empty() || !validName(N)) {
        T.Unread.push_back({POff, "a .reg declaration it cannot read"});
        continue;
      }
      D.Name = N;
      T.Decls.push_back(std::move(D));
    }
  }

  static std::string decodePercent(StringRef X) {
    std::string Out;
    for (size_t I = 0; I < X.size(); ++I) {
      if (X[I] == '%' && I + 1 < X.size() && X[I + 1] == '%')
        ++I;
      Out += X[I];
    }
    return Out;
  }
  static bool validName(StringRef N) {
    if (N.consume_front("%"))
      return !N.empty() && all_of(N, [](char C) { return isIdentChar(C) || C == '='; });
    return !N.empty() && isIdentStart(N[0]) &&
           all_of(N, [](char C) { return isIdentChar(C) || C == '%' || C == '='; });
  }

  /// Splits [B, E) at the commas (and bars) outside brackets and braces.
  void operands(size_t B, size_t E, AsmInstruction &I) {
    size_t Start = B;
    int Nest = 0;
    bool Joined = false;
    bool Any = !S.slice(B, E).trim().empty();
    if (!Any)
      return;
    for (size_t Q = B; Q <= E; ++Q) {
      char C = Q < E ? S[Q] : ',';
      if (C == '[' || C == '{' || C == '(')
        ++Nest;
      else if (C == ']' || C == '}' || C == ')')
        --Nest;
      else if ((C == ',' || C == '|') && Nest == 0) {
        std::optional<AsmOperandText> Op = operand(Start, Q);
        if (!Op) {
          I.NotUnderstood = "an operand it cannot read";
          return;
        }
        Op->JoinedByBar = Joined;
        I.Operands.push_back(std::move(*Op));
        Joined = C == '|';
        Start = Q + 1;
      }
    }
  }

  void trim(size_t &B, size_t &E) const {
    while (B < E && isSpace(S[B]))
      ++B;
    while (E > B && isSpace(S[E - 1]))
      --E;
  }

  std::optional<AsmOperandText> operand(size_t B, size_t E) {
    trim(B, E);
    if (B >= E)
      return std::nullopt;
    AsmOperandText Op;
    Op.Offset = B;
    Op.Length = E - B;
    if (S[B] == '[') {
      if (S[E - 1] != ']')
        return std::nullopt;
      Op.S = AsmOperandText::Address;
      // The base (and an offset), then the inner operands after commas.
      size_t Q = B + 1, Comma = E - 1;
      int Nest = 0;
      for (size_t X = Q; X < E - 1; ++X) {
        if (S[X] == '{' || S[X] == '[')
          ++Nest;
        else if (S[X] == '}' || S[X] == ']')
          --Nest;
        else if (S[X] == ',' && Nest == 0) {
          Comma = X;
          break;
        }
      }
      size_t BE = Comma;
      // `base+imm` / `base + %1` / `base-4`.
      size_t Plus = StringRef::npos;
      for (size_t X = Q + 1; X < BE; ++X)
        if (S[X] == '+' || (S[X] == '-' && X > Q))
          if (Plus == StringRef::npos) {
            Plus = X;
            break;
          }
      std::optional<AsmRef> Base = ref(Q, Plus == StringRef::npos ? BE : Plus);
      if (!Base)
        return std::nullopt;
      Op.Refs.push_back(*Base);
      if (Plus != StringRef::npos) {
        size_t OB = S[Plus] == '-' ? Plus : Plus + 1;
        std::optional<AsmRef> Off = ref(OB, BE);
        if (!Off)
          return std::nullopt;
        Op.HasOffset = true;
        Op.Refs.push_back(*Off);
      }
      size_t Start = Comma + 1;
      Nest = 0;
      for (size_t X = Start; Comma < E - 1 && X <= E - 1; ++X) {
        char C = X < E - 1 ? S[X] : ',';
        if (C == '{' || C == '[')
          ++Nest;
        else if (C == '}' || C == ']')
          --Nest;
        else if (C == ',' && Nest == 0) {
          std::optional<AsmOperandText> In = operand(Start, X);
          if (!In)
            return std::nullopt;
          Op.Inner.push_back(std::move(*In));
          Start = X + 1;
        }
      }
      return Op;
    }
    if (S[B] == '{') {
      if (S[E - 1] != '}')
        return std::nullopt;
      Op.S = AsmOperandText::Vector;
      size_t Start = B + 1;
      for (size_t X = Start; X <= E - 1; ++X) {
        if (X == E - 1 || S[X] == ',') {
          std::optional<AsmRef> R = ref(Start, X);
          if (!R)
            return std::nullopt;
          Op.Refs.push_back(*R);
          Start = X + 1;
        }
      }
      return Op;
    }
    std::optional<AsmRef> R = ref(B, E);
    if (!R)
      return std::nullopt;
    Op.Refs.push_back(*R);
    return Op;
  }

  /// One reference filling [B, E) exactly.
  std::optional<AsmRef> ref(size_t B, size_t E) {
    std::optional<AsmRef> R = readRef(B, E);
    if (R && R->Name.empty())
      R->Name = R->Text;
    return R;
  }
  std::optional<AsmRef> readRef(size_t B, size_t E) {
    trim(B, E);
    if (B >= E)
      return std::nullopt;
    AsmRef R;
    if (S[B] == '!') {
      R.Negated = true;
      ++B;
    }
    R.Offset = B;
    R.Length = E - B;
    StringRef X = S.slice(B, E);
    if (X.starts_with("%%")) {
      std::string Name = "%" + X.drop_front(2).str();
      if (Name.size() < 2 ||
          !all_of(StringRef(Name).drop_front(), [](char C) { return isIdentChar(C) || C == '.'; }))
        return std::nullopt;
      R.Text = X.str();
      R.Name = Name;
      R.K = T.findDecl(Name) ? AsmRef::Declared : AsmRef::Special;
      return R;
    }
    if (X.starts_with("%[")) {
      if (!X.ends_with("]"))
        return std::nullopt;
      StringRef Name = X.slice(2, X.size() - 1);
      for (unsigned I = 0; I < Names.size(); ++I)
        if (!Name.empty() && Names[I] == Name) {
          R.K = AsmRef::StmtOperand;
          R.Index = I;
          R.Text = X.str();
          return R;
        }
      return std::nullopt;
    }
    if (X.starts_with("%")) {
      if (X.drop_front().getAsInteger(10, R.Index))
        return std::nullopt; // %=, %c0, ...
      R.K = AsmRef::StmtOperand;
      R.Text = X.str();
      return R;
    }
    if (isDigit(X[0]) || ((X[0] == '-' || X[0] == '+') && X.size() > 1 && isDigit(X[1]))) {
      StringRef N = X;
      if (N[0] == '-' || N[0] == '+')
        N = N.drop_front();
      if (N.size() > 2 && N[0] == '0' &&
          (N[1] == 'f' || N[1] == 'F' || N[1] == 'd' || N[1] == 'D')) {
        if (!all_of(N.drop_front(2), isHexDigit))
          return std::nullopt;
        R.FloatLiteral = true;
      } else if (N.size() > 2 && N[0] == '0' && (N[1] == 'x' || N[1] == 'X')) {
        N.consume_back("U");
        if (!all_of(N.drop_front(2), isHexDigit))
          return std::nullopt;
      } else if (all_of(N.drop_back(N.ends_with("U")), isDigit)) {
        // a decimal integer
      } else {
        double D;
        if (N.getAsDouble(D))
          return std::nullopt;
        R.FloatLiteral = true;
      }
      R.K = AsmRef::Immediate;
      R.Text = X.str();
      return R;
    }
    if (isIdentStart(X[0]) && identEnd(B) == E) {
      R.Text = R.Name = X.str();
      R.K = X == "_" ? AsmRef::Sink : T.findDecl(X) ? AsmRef::Declared : AsmRef::Symbol;
      return R;
    }
    return std::nullopt;
  }

  StringRef S;
  ArrayRef<std::string> Names;
  AsmTemplate &T;
  size_t P = 0;
};

} // namespace

AsmTemplate splitAsmTemplate(StringRef Template, ArrayRef<std::string> OperandNames) {
  AsmTemplate T;
  std::string S = blankComments(Template);
  Splitter(S, OperandNames, T).run();
  return T;
}

} // namespace tileapply

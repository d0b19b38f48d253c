//===- AsmMigrate.cpp - An asm statement rewritten as one __tile_apply call ---===//
//
// Each operand of the form the checker matched becomes one argument, in PTX
// order (the order __tile_apply binds them in):
//
//   written operand                      argument
//   %N, an output (a variable, an        tile::reg_at(x): a one-register view
//     element a[i])                        of it (the call writes x itself)
//   {%N, %M, ...}, elements a[k..k+n)    a (the whole array) or tile::reg_at<n>(a[k])
//   %N, an input register or "n"         the expression itself (a scalar)
//   a literal 4, 1.5                     the literal
//   [%N] of a space conversion of p      tile::shared_at(p), tile::global_at(p)
//   [%N] with a pointer p, no space      tile::generic_at(p)
//   [%N] in .shared::cluster             tile::cluster<E, n>(value)
//   @%N (a "b" operand), @!%N            tile::pred(c), tile::pred(!(c))
//   _                                    nothing
//
// The arguments' descriptions then go through checkCall, the one set of
// rules: only a call the plugin accepts, binding to the same form, is offered.
//
//===----------------------------------------------------------------------===//
#include "tileapply/core/AsmMigrate.h"
#include "tileapply/core/CallRules.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <cstring>

using namespace llvm;

namespace tileapply {

namespace {

struct Arg {
  std::string Text;
  ArgDesc D;
};

struct Failure {
  std::string Why;
};

class Builder {
public:
  Builder(const AsmMatch &M, const AsmStatementInfo &St, ArrayRef<AsmOperandSource> Ops)
      : M(M), F(*M.F), St(St), Ops(Ops) {}

  /// The arguments, with the memory views' group extent `G`.
  std::optional<Failure> build(int64_t G, std::vector<Arg> &Out) {
    Uses.assign(Ops.size(), 0);
    for (unsigned K = 0; K < F.Operands.size(); ++K) {
      const OperandSpec &S = F.Operands[K];
      const AsmOperandText *W = M.Bound[K];
      if (!W)
        continue; // an optional operand left out
      if (S.Direction == Dir::Sink)
        continue;
      if (std::optional<Failure> E = operand(S, *W, G, Out))
        return E;
    }
    if (const std::optional<AsmRef> &Gd = M.Instr->Guard) {
      const AsmOperandSource *O = stmtOperand(*Gd);
      if (!O || St.Operands[Gd->Index].C != AsmConstraint::Predicate)
        return Failure{text(Text::MigrateGuard)};
      ++Uses[Gd->Index];
      Arg A;
      A.Text = "tile::pred(" + (Gd->Negated ? "!(" + O->Text + ")" : O->Text) + ")";
      A.D.Kind = TILEAPPLY_KIND_PRED_SCALAR;
      A.D.Elem = TILEAPPLY_DT_BOOL;
      Out.push_back(A);
      // A destination the statement reads and writes keeps its value where
      // the guard is off: that is preserve_dst.
      for (unsigned K = 0; K < F.Operands.size(); ++K)
        if (F.Operands[K].Direction == Dir::Write && M.Bound[K] && readsOutput(*M.Bound[K])) {
          Arg P;
          P.Text = "tile::preserve_dst";
          P.D.Kind = TILEAPPLY_KIND_PRESERVE_DST;
          Out.push_back(P);
          break;
        }
    }
    for (unsigned I = 0; I < Ops.size(); ++I)
      if (Ops[I].SideEffects && Uses[I] != 1 && Ops[I].TiedTo < 0)
        return Failure{
            text(Text::MigrateSideEffects, {"%" + std::to_string(I), std::to_string(Uses[I])})};
    return std::nullopt;
  }

private:
  const AsmOperandSource *stmtOperand(const AsmRef &R) const {
    if (R.K != AsmRef::StmtOperand || R.Index >= Ops.size() || R.Index >= St.Operands.size())
      return nullptr;
    return &Ops[R.Index];
  }

  /// Whether an output is also read: "+r", or an input tied to it.
  bool outputIsRead(unsigned Index) const {
    if (StringRef(St.Operands[Index].Text).starts_with("+"))
      return true;
    return any_of(Ops, [&](const AsmOperandSource &O) { return O.TiedTo == int(Index); });
  }
  bool readsOutput(const AsmOperandText &W) const {
    return all_of(W.Refs, [&](const AsmRef &R) {
      return R.K == AsmRef::StmtOperand && R.Index < St.Operands.size() &&
             St.Operands[R.Index].Output && outputIsRead(R.Index);
    });
  }

  /// Why a reference cannot be an argument at all, or nothing.
  std::optional<Failure> plainRef(const AsmRef &R) const {
    switch (R.K) {
    case AsmRef::Special: return Failure{text(Text::MigrateSpecial, {R.Text})};
    case AsmRef::Declared: return Failure{text(Text::MigrateScratch)};
    case AsmRef::Symbol:
    case AsmRef::Sink: return Failure{text(Text::MigrateNotUnderstood, {"a symbol as an operand"})};
    default: return std::nullopt;
    }
  }

  std::optional<Failure> operand(const OperandSpec &S, const AsmOperandText &W, int64_t G,
                                 std::vector<Arg> &Out) {
    if (S.Direction == Dir::Addr || (S.Bracketed && W.S == AsmOperandText::Address))
      return address(S, W, G, Out);
    if (W.S == AsmOperandText::Address)
      return Failure{text(Text::MigrateOperandKind, {S.Name, F.Spelling})};
    if (S.isWritten() || W.S == AsmOperandText::Vector)
      return registers(S, W, Out, S.isWritten());
    return source(S, W.Refs[0], Out);
  }

  /// A destination, or a register group read as a source: a register
  /// tensor over the variables.
  std::optional<Failure> registers(const OperandSpec &S, const AsmOperandText &W,
                                   std::vector<Arg> &Out, bool Written) {
    for (const AsmRef &R : W.Refs) {
      if (std::optional<Failure> E = plainRef(R))
        return E;
      const AsmOperandSource *O = stmtOperand(R);
      if (!O || R.K != AsmRef::StmtOperand || St.Operands[R.Index].Output != Written)
        return Failure{text(Written ? Text::MigrateOperandKind : Text::MigrateOutputRead,
                            {Written ? S.Name : R.Text, F.Spelling})};
      if (Written && S.Direction == Dir::ReadWrite && !outputIsRead(R.Index))
        return Failure{text(Text::MigrateReadWrite, {S.Name, F.Spelling})};
      if (Written && !O->Modifiable)
        return Failure{text(Text::MigrateNotVariable, {S.Name, O->Text})};
      if (!Written && O->ArrayBase.empty())
        return Failure{text(Text::MigrateGroup, {opList(W)})};
      if (O->Elem == TILEAPPLY_DT_UNKNOWN)
        return Failure{text(Text::MigrateNotCarrier, {R.Text, O->TypeName})};
      ++Uses[R.Index];
    }
    const AsmOperandSource &First = Ops[W.Refs[0].Index];
    Arg A;
    A.D.Kind = TILEAPPLY_KIND_REGISTER;
    A.D.Elem = First.Elem;
    int64_t N = static_cast<int64_t>(W.Refs.size());
    A.D.Extents = {N};
    A.D.Strides = {1};
    A.D.Storage = N;
    if (W.S != AsmOperandText::Vector) {
      A.Text = "tile::reg_at(" + First.Text + ")";
      Out.push_back(A);
      return std::nullopt;
    }
    // A group: consecutive elements of one array.
    for (int64_t I = 0; I < N; ++I) {
      const AsmOperandSource &O = Ops[W.Refs[I].Index];
      if (O.ArrayBase.empty() || O.ArrayBase != First.ArrayBase ||
          O.ArrayIndex != First.ArrayIndex + I || O.Elem != First.Elem)
        return Failure{text(Text::MigrateGroup, {opList(W)})};
    }
    if (First.ArrayIndex == 0 && First.ArrayExtent == N) {
      A.Text = First.ArrayBase;
      A.D.Elem = First.ArrayElem;
      if (A.D.Elem == TILEAPPLY_DT_UNKNOWN)
        return Failure{text(Text::MigrateNotCarrier, {First.ArrayBase, First.TypeName})};
    } else if (First.ArrayIndex + N <= First.ArrayExtent)
      A.Text = "tile::reg_at<" + std::to_string(N) + ">(" + First.Text + ")";
    else
      return Failure{text(Text::MigrateGroup, {opList(W)})};
    Out.push_back(A);
    return std::nullopt;
  }

  static std::string opList(const AsmOperandText &W) {
    std::string L;
    for (const AsmRef &R : W.Refs)
      L += (L.empty() ? "" : ", ") + R.Text;
    return "{" + L + "}";
  }

  std::optional<Failure> source(const OperandSpec &S, const AsmRef &R, std::vector<Arg> &Out) {
    if (std::optional<Failure> E = plainRef(R))
      return E;
    Arg A;
    A.D.Kind = TILEAPPLY_KIND_SCALAR;
    if (R.K == AsmRef::Immediate)
      return literal(S, R, Out);
    const AsmOperandSource *O = stmtOperand(R);
    if (!O)
      return Failure{text(Text::MigrateOperandKind, {S.Name, F.Spelling})};
    if (St.Operands[R.Index].Output)
      return Failure{text(Text::MigrateOutputRead, {R.Text})};
    if (O->Elem == TILEAPPLY_DT_UNKNOWN)
      return Failure{text(Text::MigrateNotCarrier, {R.Text, O->TypeName})};
    ++Uses[R.Index];
    A.Text = O->Text;
    A.D.Elem = O->Elem;
    // A constant goes in as a constant: an immediate where PTX takes one.
    A.D.Constant = O->Constant;
    Out.push_back(A);
    return std::nullopt;
  }

  /// A literal of the template, written as the C++ constant of the same value.
  std::optional<Failure> literal(const OperandSpec &S, const AsmRef &R, std::vector<Arg> &Out) {
    Arg A;
    A.D.Kind = TILEAPPLY_KIND_SCALAR;
    StringRef L = R.Text;
    ScalarConst C;
    bool F32 = S.Type == PtxType::f32;
    if (!R.FloatLiteral) {
      StringRef Digits = L;
      bool Unsigned = Digits.consume_back("U") || Digits.consume_back("u");
      uint64_t V;
      if (Digits.getAsInteger(0, V))
        return Failure{text(Text::MigrateLiteral, {R.Text})};
      C.I = static_cast<int64_t>(V);
      C.IsIntegerLiteral = true;
      bool Wide = V > 0x7fffffffULL;
      A.D.Elem = Wide ? (Unsigned ? TILEAPPLY_DT_U64 : TILEAPPLY_DT_S64)
                      : (Unsigned ? TILEAPPLY_DT_U32 : TILEAPPLY_DT_S32);
      A.Text = Digits.str() + (Unsigned ? "u" : "") + (Wide ? "ll" : "");
    } else if (L.starts_with_insensitive("0f") || L.starts_with_insensitive("0d")) {
      // PTX's exact bit patterns: 0f3F800000 is the float with those bits.
      bool Single = L.starts_with_insensitive("0f");
      uint64_t Bits;
      if (L.drop_front(2).getAsInteger(16, Bits))
        return Failure{text(Text::MigrateLiteral, {R.Text})};
      C.IsFloat = true;
      if (Single) {
        uint32_t B32 = static_cast<uint32_t>(Bits);
        float Fv;
        std::memcpy(&Fv, &B32, 4);
        C.F = Fv;
      } else {
        std::memcpy(&C.F, &Bits, 8);
      }
      A.D.Elem = Single ? TILEAPPLY_DT_F32 : TILEAPPLY_DT_F64;
      A.Text = std::string("__builtin_bit_cast(") + (Single ? "float, 0x" : "double, 0x") +
               L.drop_front(2).str() + (Single ? "u)" : "ull)");
    } else {
      double V;
      if (L.getAsDouble(V))
        return Failure{text(Text::MigrateLiteral, {R.Text})};
      C.IsFloat = true;
      C.F = V;
      A.D.Elem = F32 ? TILEAPPLY_DT_F32 : TILEAPPLY_DT_F64;
      A.Text = L.str() + (F32 ? "f" : "");
    }
    A.D.Constant = C;
    Out.push_back(A);
    return std::nullopt;
  }

  std::optional<Failure> address(const OperandSpec &S, const AsmOperandText &W, int64_t G,
                                 std::vector<Arg> &Out) {
    // Inner operands (a tensor map's coordinates) are operands of their own
    // in the form, bound by the checker; anything else inside is refused.
    bool InnerOperands = any_of(F.Operands, [](const OperandSpec &O) { return O.InBrackets; });
    if (W.S != AsmOperandText::Address || W.HasOffset || W.Refs.size() != 1 ||
        (!W.Inner.empty() && !InnerOperands))
      return Failure{text(Text::MigrateOffset)};
    const AsmRef &Base = W.Refs[0];
    if (std::optional<Failure> E = plainRef(Base))
      return E;
    const AsmOperandSource *O = stmtOperand(Base);
    if (!O || St.Operands[Base.Index].Output)
      return Failure{text(Text::MigrateOperandKind, {S.Name, F.Spelling})};
    ++Uses[Base.Index];
    Arg A;
    if (S.Bracketed) { // a Tensor Memory address: the value itself
      if (O->Elem == TILEAPPLY_DT_UNKNOWN)
        return Failure{text(Text::MigrateNotCarrier, {Base.Text, O->TypeName})};
      A.Text = O->Text;
      A.D.Kind = TILEAPPLY_KIND_SCALAR;
      A.D.Elem = O->Elem;
      A.D.Constant = O->Constant;
      Out.push_back(A);
      return std::nullopt;
    }
    A.D.Kind = TILEAPPLY_KIND_MEMORY;
    A.D.Sp = S.AddrSpace;
    A.D.Extents = {G};
    A.D.Strides = {1};
    A.D.Storage = G;
    std::string Ext = G == 1 ? "" : "<" + std::to_string(G) + ">";
    DType Natural = naturalCarrier(S.Type);
    if (S.AddrSpace == TILEAPPLY_SPACE_SHARED_CLUSTER) {
      // A window address is a number already: view it as it is.
      if (O->IntegerBits != 32)
        return Failure{text(Text::MigrateAddressValue, {S.Name})};
      A.D.Elem = Natural;
      A.Text = "tile::cluster<" + dtypeName(Natural).str() + ", " + std::to_string(G) + ">(" +
               O->Text + ")";
      Out.push_back(A);
      return std::nullopt;
    }
    const char *Maker = nullptr;
    switch (S.AddrSpace) {
    case TILEAPPLY_SPACE_GLOBAL: Maker = "tile::global_at"; break;
    case TILEAPPLY_SPACE_SHARED: Maker = "tile::shared_at"; break;
    case TILEAPPLY_SPACE_GENERIC: Maker = "tile::generic_at"; break;
    default: return Failure{text(Text::MigrateSpace, {spaceName(S.AddrSpace).str()})};
    }
    if (!O->Pointer)
      return Failure{text(Text::MigrateAddressValue, {S.Name})};
    const AsmOperandSource::PointerSource &P = *O->Pointer;
    // The pointer must reach the instruction unchanged: converted into the
    // instruction's space (the call converts the same way), or, for a
    // generic address, the pointer itself.
    Space Want = S.AddrSpace == TILEAPPLY_SPACE_GENERIC ? TILEAPPLY_SPACE_NONE : S.AddrSpace;
    if (P.ConvertedTo != Want) {
      if (S.AddrSpace == TILEAPPLY_SPACE_GLOBAL && P.ConvertedTo == TILEAPPLY_SPACE_NONE)
        return Failure{text(Text::MigrateGenericGlobal, {S.Name})};
      return Failure{text(Text::MigrateAddressValue, {S.Name})};
    }
    A.D.IsConst = P.PointeeConst && !S.WritesMemory;
    std::string Ptr = P.Text;
    if (P.Pointee != TILEAPPLY_DT_UNKNOWN && carrierMatches(P.Pointee, S.Type)) {
      A.D.Elem = P.Pointee;
      A.D.IsConst = P.PointeeConst;
    } else {
      // A void pointer, or elements of another width: viewed as the
      // operand's own carrier (the address is the same).
      A.D.Elem = Natural;
      Ptr = "reinterpret_cast<" + std::string(P.PointeeConst ? "const " : "") +
            dtypeName(Natural).str() + " *>(" + P.Text + ")";
    }
    A.Text = std::string(Maker) + Ext + "(" + Ptr + ")";
    Out.push_back(A);
    return std::nullopt;
  }

  const AsmMatch &M;
  const Form &F;
  const AsmStatementInfo &St;
  ArrayRef<AsmOperandSource> Ops;
  std::vector<unsigned> Uses;
};

} // namespace

AsmMigration migrateAsmStatement(const AsmTemplate &T, const AsmCheckResult &R,
                                 const AsmStatementInfo &St, ArrayRef<AsmOperandSource> Ops,
                                 const Target *Tgt) {
  AsmMigration Out;
  auto No = [&](std::string Why, std::string Category = "") {
    Out.Category = Category.empty() ? Why : std::move(Category);
    Out.Why = std::move(Why);
    return Out;
  };
  if (T.Instructions.size() != 1)
    return No(text(Text::MigrateNotOne, {std::to_string(T.Instructions.size())}));
  if (!T.Decls.empty())
    return No(text(Text::MigrateScratch));
  if (!R.FullyUnderstood)
    return No(text(Text::MigrateNotUnderstood, {R.Why}));
  if (any_of(R.Findings, [](const AsmFinding &F) { return F.severity() == Severity::Error; }))
    return No(text(Text::MigrateNotUnderstood, {R.Findings.front().Message}));
  const AsmMatch &M = R.Matches.front();
  if (!M.F)
    return No(text(Text::MigrateNotUnderstood, {M.Unchecked}));
  const Form &F = *M.F;
  // The call emits an arithmetic form as a pure instruction (never volatile,
  // no memory clobber): a statement that asked for more would lose it.
  if (F.Kind == FormKind::Arith && (St.Volatile || St.MemoryClobber))
    return No(text(Text::MigratePure));

  LookupResult L = OpcodeTable::get().lookup(M.Instr->Opcode, /*Suggest=*/false);
  if (!L)
    return No(text(Text::MigrateNotUnderstood, {L.Problem.Message}));
  // The memory views hold one element, or one register group.
  unsigned MaxRegs = 1;
  for (const OperandSpec &S : F.Operands)
    if (S.Direction != Dir::Addr)
      MaxRegs = std::max(MaxRegs, S.Regs);
  std::vector<int64_t> Groups{1};
  if (MaxRegs > 1)
    Groups.push_back(MaxRegs);
  std::string FirstRefusal;
  DiagCode FirstCode = DiagCode::CarrierMismatch;
  for (int64_t G : Groups) {
    std::vector<Arg> Args;
    if (std::optional<Failure> E = Builder(M, St, Ops).build(G, Args))
      return No(E->Why);
    std::vector<ArgDesc> Descs;
    for (const Arg &A : Args)
      Descs.push_back(A.D);
    BoundCall B;
    const Form *Chosen = nullptr;
    std::vector<Problem> Ps = checkCall(L, Descs, Tgt, &B, &Chosen);
    auto Err = find_if(Ps, [](const Problem &P) { return P.severity() == Severity::Error; });
    if (Err != Ps.end()) {
      if (FirstRefusal.empty()) {
        FirstRefusal = Err->Message;
        FirstCode = Err->Code;
      }
      continue;
    }
    if (!Chosen || Chosen->PatternIndex != F.PatternIndex ||
        Chosen->Operands.size() != F.Operands.size())
      return No(text(Text::MigrateOtherForm, {F.Spelling}));
    Out.Call = "__tile_apply(\"" + M.Instr->Opcode + "\"";
    for (const Arg &A : Args)
      Out.Call += ", " + A.Text;
    Out.Call += ")";
    return Out;
  }
  return No(text(Text::MigrateRefused, {FirstRefusal}),
            text(Text::MigrateRefused, {diagName(FirstCode).str()}));
}

} // namespace tileapply

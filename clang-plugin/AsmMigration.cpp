//===- AsmMigration.cpp - The AST side of the asm-to-__tile_apply migration ---===//
//
// Reads each operand expression of an asm statement the way tile.h will see
// it in a call: its carrier type (tileapply/dtypes.def: an integer by width
// and signedness, float, double, CUDA's class types by name), whether the
// call can write it, its constant value, the array it is an element of, and
// for an address the pointer behind it. The text of every expression is the
// one written in the template's source, so one edit serves every instance.
//
//===----------------------------------------------------------------------===//
#include "AsmMigration.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace tileapply {
namespace plugin {

namespace {

/// The carrier a C++ type is (tile.h's dtype_of), or UNKNOWN.
DType carrierOf(QualType T, ASTContext &Ctx) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (T->isBooleanType())
    return TILEAPPLY_DT_BOOL;
  if (const auto *E = T->getAs<EnumType>()) {
    if (E->getDecl()->isScoped())
      return TILEAPPLY_DT_UNKNOWN;
    T = E->getDecl()->getIntegerType().getCanonicalType();
  }
  if (T->isIntegerType()) {
    unsigned Bits = Ctx.getTypeSize(T);
    bool Signed = T->isSignedIntegerType();
    for (int D = 0; D <= TILEAPPLY_DT_LAST; ++D) {
      CarrierKind K = dtypeKind(DType(D));
      if ((K == CarrierKind::Unsigned || K == CarrierKind::Signed) && dtypeBits(DType(D)) == Bits &&
          dtypeIsSigned(DType(D)) == Signed)
        return DType(D);
    }
    return TILEAPPLY_DT_UNKNOWN;
  }
  if (T->isSpecificBuiltinType(BuiltinType::Float))
    return TILEAPPLY_DT_F32;
  if (T->isSpecificBuiltinType(BuiltinType::Double))
    return TILEAPPLY_DT_F64;
  if (const auto *RD = T->getAsRecordDecl()) {
    // __half, __nv_bfloat162, float2, CUtensorMap_st: by name, as tile.h.
    std::string Name = RD->getName().str();
    for (int D = 0; D <= TILEAPPLY_DT_LAST; ++D) {
      CarrierKind K = dtypeKind(DType(D));
      if ((K == CarrierKind::Half || K == CarrierKind::Packed || K == CarrierKind::Opaque) &&
          dtypeName(DType(D)) == Name && RD->getDeclContext()->isTranslationUnit())
        return DType(D);
    }
  }
  return TILEAPPLY_DT_UNKNOWN;
}

std::string sourceText(const Expr *E, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceRange R = E->getSourceRange();
  if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
    return "";
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM, Ctx.getLangOpts()).str();
}

/// The state space a known conversion of a generic pointer produces, by the
/// name of the function: CUDA's __cvta_generic_to_* and CCCL's __as_ptr_*.
Space conversionSpace(const FunctionDecl *F) {
  if (!F || !F->getIdentifier())
    return TILEAPPLY_SPACE_NONE;
  return llvm::StringSwitch<Space>(F->getName())
      .Cases({"__cvta_generic_to_shared", "__as_ptr_smem"}, TILEAPPLY_SPACE_SHARED)
      .Cases({"__cvta_generic_to_global", "__as_ptr_gmem"}, TILEAPPLY_SPACE_GLOBAL)
      .Default(TILEAPPLY_SPACE_NONE);
}

void describePointer(const Expr *E, ASTContext &Ctx, AsmOperandSource &O) {
  const Expr *X = E->IgnoreParenImpCasts();
  Space Sp = TILEAPPLY_SPACE_NONE;
  // static_cast<uint32_t>(__cvta_generic_to_shared(p)) and friends.
  if (const auto *C = dyn_cast<CXXStaticCastExpr>(X))
    if (C->getType()->isIntegerType())
      X = C->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Call = dyn_cast<CallExpr>(X)) {
    Sp = conversionSpace(Call->getDirectCallee());
    if (Sp == TILEAPPLY_SPACE_NONE || Call->getNumArgs() != 1)
      return;
    X = Call->getArg(0)->IgnoreParenImpCasts();
  }
  if (!X->getType()->isPointerType())
    return;
  std::string Text = sourceText(X, Ctx);
  if (Text.empty())
    return;
  QualType P = X->getType()->getPointeeType();
  AsmOperandSource::PointerSource PS;
  PS.Text = Text;
  PS.Pointee = P->isVoidType() ? TILEAPPLY_DT_UNKNOWN : carrierOf(P, Ctx);
  PS.PointeeConst = P.isConstQualified();
  PS.ConvertedTo = Sp;
  O.Pointer = PS;
}

AsmOperandSource describe(const Expr *E, ASTContext &Ctx) {
  AsmOperandSource O;
  O.Text = sourceText(E, Ctx);
  const Expr *X = E->IgnoreParenImpCasts();
  QualType T = X->getType();
  O.TypeName = T.getAsString(Ctx.getPrintingPolicy());
  O.Elem = carrierOf(T, Ctx);
  O.Modifiable = E->isModifiableLvalue(Ctx) == Expr::MLV_Valid;
  O.SideEffects = E->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false);
  if (T->isIntegerType())
    O.IntegerBits = static_cast<unsigned>(Ctx.getTypeSize(T));
  if (!X->isValueDependent()) {
    Expr::EvalResult R;
    if (X->EvaluateAsRValue(R, Ctx) && !R.HasSideEffects) {
      ScalarConst C;
      if (R.Val.isInt()) {
        C.I = R.Val.getInt().getExtValue();
        O.Constant = C;
      } else if (R.Val.isFloat()) {
        C.IsFloat = true;
        C.F = R.Val.getFloat().convertToDouble();
        O.Constant = C;
      }
    }
  }
  // The element itself, or its bits through a pointer cast of its address.
  const Expr *Elem = E->IgnoreParenImpCasts();
  if (const auto *D = dyn_cast<UnaryOperator>(Elem); D && D->getOpcode() == UO_Deref)
    if (const auto *C = dyn_cast<CXXReinterpretCastExpr>(D->getSubExpr()->IgnoreParens()))
      if (const auto *Addr = dyn_cast<UnaryOperator>(C->getSubExpr()->IgnoreParenImpCasts());
          Addr && Addr->getOpcode() == UO_AddrOf &&
          Ctx.getTypeSize(Addr->getSubExpr()->getType()) == Ctx.getTypeSize(D->getType()))
        Elem = Addr->getSubExpr()->IgnoreParens();
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(Elem)) {
    const Expr *Base = A->getBase()->IgnoreParenImpCasts();
    std::optional<llvm::APSInt> Idx = A->getIdx()->getIntegerConstantExpr(Ctx);
    QualType BT = Base->getType();
    if (BT->isReferenceType())
      BT = BT.getNonReferenceType();
    if (const auto *CA = Ctx.getAsConstantArrayType(BT))
      if (Idx && (isa<DeclRefExpr>(Base) || isa<MemberExpr>(Base))) {
        O.ArrayBase = sourceText(Base, Ctx);
        O.ArrayIndex = Idx->getExtValue();
        O.ArrayExtent = static_cast<int64_t>(CA->getSize().getZExtValue());
        O.ArrayElem = carrierOf(CA->getElementType(), Ctx);
      }
  }
  describePointer(E, Ctx, O);
  return O;
}

} // namespace

std::vector<AsmOperandSource> describeAsmOperands(const GCCAsmStmt &S, ASTContext &Ctx) {
  std::vector<AsmOperandSource> Ops;
  for (unsigned I = 0; I < S.getNumOutputs(); ++I)
    Ops.push_back(describe(S.getOutputExpr(I), Ctx));
  for (unsigned I = 0; I < S.getNumInputs(); ++I) {
    Ops.push_back(describe(S.getInputExpr(I), Ctx));
    unsigned Tied;
    if (!llvm::StringRef(S.getInputConstraint(I)).getAsInteger(10, Tied) &&
        Tied < S.getNumOutputs())
      Ops.back().TiedTo = static_cast<int>(Tied);
  }
  return Ops;
}

bool migrationEdit(const GCCAsmStmt &S, const FunctionDecl *Fn, ASTContext &Ctx,
                   MigrationResult &R) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation B = S.getBeginLoc(), E = S.getEndLoc();
  auto InMacro = [&] {
    R.Why = text(Text::MigrateMacro);
    R.Call.clear();
    return false;
  };
  if (B.isMacroID() || E.isMacroID())
    return InMacro();
  auto [FB, OB] = SM.getDecomposedLoc(B);
  auto [FE, OE] = SM.getDecomposedLoc(E);
  if (FB != FE)
    return InMacro();
  auto Name = [&](FileID F) {
    OptionalFileEntryRef Ref = SM.getFileEntryRefForID(F);
    return Ref ? Ref->getName().str() : std::string();
  };
  // E is the closing parenthesis: one character.
  R.File = Name(FB);
  R.Offset = OB;
  R.Length = OE + 1 - OB;

  // Where the include goes: this file, unless the outermost namespace around
  // the function opens in another file (this one is included inside it).
  FileID Into = FB;
  SourceLocation Before; // the include must precede this, if set
  const NamespaceDecl *Outer = nullptr;
  for (const DeclContext *DC = Fn ? Fn->getDeclContext() : nullptr; DC; DC = DC->getParent())
    if (const auto *N = dyn_cast<NamespaceDecl>(DC))
      Outer = N;
  if (Outer) {
    SourceLocation L = SM.getExpansionLoc(Outer->getBeginLoc());
    if (SM.getFileID(L) != FB) {
      Into = SM.getFileID(L);
      Before = L;
    }
  }
  llvm::StringRef Buffer = SM.getBufferData(Into);
  R.IncludeFile = Name(Into);
  R.NeedsInclude = !Buffer.contains("tileapply/tile.h");
  // Before the file's first #include, or at its start (or before the
  // namespace, if that comes first).
  size_t Limit = Before.isValid() ? SM.getDecomposedLoc(Before).second : Buffer.size();
  size_t At = 0;
  for (size_t Pos = 0; Pos < Buffer.size();) {
    llvm::StringRef Line = Buffer.substr(Pos).split('\n').first;
    if (Line.ltrim().starts_with("#include") || Line.ltrim().starts_with("# include")) {
      At = Pos < Limit ? Pos : 0;
      break;
    }
    Pos += Line.size() + 1;
  }
  if (Before.isValid() && At == 0) // the start of the namespace's line
    At = Limit - SM.getSpellingColumnNumber(Before) + 1;
  R.IncludeOffset = static_cast<unsigned>(At);
  return true;
}

} // namespace plugin
} // namespace tileapply

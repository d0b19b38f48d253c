//===- CallChecker.cpp - One __tile_apply call, from AST to core ----------===//
#include "CallChecker.h"
#include "ConstantArguments.h"
#include "KnownObjects.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "tileapply/core/OpcodeTable.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTLambda.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "tileapply/abi.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Basic/TargetOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "tileapply/version.h"

using namespace clang;

namespace tileapply {
namespace plugin {

// targetOf() is defined in AsmChecker.cpp, which tileapply-migrate compiles too.

namespace {

/// The expression as written: no implicit conversions, temporaries or parens.
const Expr *asWritten(const Expr *E) {
  const Expr *Prev = nullptr;
  while (E && E != Prev) {
    Prev = E;
    E = E->IgnoreUnlessSpelledInSource()->IgnoreParens();
  }
  return E;
}

/// The nearest function around a declaration context (skipping classes, so
/// the function a lambda's closure class is defined in).
const FunctionDecl *enclosingFunction(const DeclContext *DC) {
  for (; DC; DC = DC->getParent())
    if (const auto *F = dyn_cast<FunctionDecl>(DC))
      return F;
  return nullptr;
}

/// Whether code in `F` is compiled for the GPU: a `__global__` or
/// `__device__` (including `__host__ __device__`) function. Clang makes
/// lambdas implicitly `__host__ __device__`; such a lambda runs where the
/// function it is written in runs. Null (namespace scope) is host code.
bool runsOnDevice(const FunctionDecl *F) {
  while (F) {
    if (F->hasAttr<CUDAGlobalAttr>())
      return true;
    const auto *Device = F->getAttr<CUDADeviceAttr>();
    if (!Device)
      return false;
    const auto *MD = dyn_cast<CXXMethodDecl>(F);
    if (!Device->isImplicit() || !MD || !isLambdaCallOperator(MD))
      return true;
    F = enclosingFunction(MD->getParent()->getDeclContext());
    if (!F)
      return true; // a lambda at namespace scope: callable from both sides
  }
  return false;
}

bool isTileDetail(const DeclContext *DC) {
  const auto *Detail = dyn_cast<NamespaceDecl>(DC);
  if (!Detail || Detail->getName() != "detail")
    return false;
  const auto *Tile = dyn_cast<NamespaceDecl>(Detail->getDeclContext());
  return Tile && Tile->getName() == "tile" &&
         Tile->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

/// The `tile::detail::call_layout<A...>` specialization a statement refers to.
const VarDecl *findCallLayout(const Stmt *S) {
  if (!S)
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    const auto *V = dyn_cast<VarTemplateSpecializationDecl>(DRE->getDecl());
    if (V && V->getIdentifier() && V->getName() == "call_layout" &&
        isTileDetail(V->getDeclContext()))
      return V;
  }
  for (const Stmt *Child : S->children())
    if (const VarDecl *V = findCallLayout(Child))
      return V;
  return nullptr;
}

/// The variable whose storage a register or predicate tensor argument names,
/// looking through tile::view and tile::pred (both start at the first element
/// of what they wrap), or null when the expression is anything else.
const VarDecl *storageVariable(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = M->getSubExpr();
      continue;
    }
    if (const auto *T = dyn_cast<CXXBindTemporaryExpr>(E)) {
      E = T->getSubExpr();
      continue;
    }
    if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
      if (C->getNumArgs() == 1 && C->getConstructor()->isCopyOrMoveConstructor()) {
        E = C->getArg(0);
        continue;
      }
      return nullptr;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      return V ? V->getCanonicalDecl() : nullptr;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      const auto *NS = FD ? dyn_cast<NamespaceDecl>(FD->getDeclContext()) : nullptr;
      if (!FD || !FD->getIdentifier() || Call->getNumArgs() != 1 || !NS ||
          NS->getName() != "tile" || !NS->getDeclContext()->getRedeclContext()->isTranslationUnit() ||
          (FD->getName() != "view" && FD->getName() != "pred"))
        return nullptr;
      E = Call->getArg(0);
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

/// A call-level problem the plugin finds itself, worded by core's summary.
Problem callProblem(DiagCode Code, Text Note) {
  Problem P;
  P.Code = Code;
  P.Arg = -1;
  P.Message = diagSummary(Code).str();
  P.Notes.push_back(text(Note));
  return P;
}

/// "0.2.0" for a TILEAPPLY_VERSION number (MAJOR * 10000 + MINOR * 100 + PATCH).
std::string versionName(int64_t V) {
  return std::to_string(V / 10000) + "." + std::to_string(V / 100 % 100) + "." +
         std::to_string(V % 100);
}

/// Why the tile.h this translation unit uses is not this plugin's version
/// (`tile::header_version`, from tileapply/version.h), or nullopt when it is.
std::optional<std::string> headerVersionProblem(ASTContext &Ctx,
                                                const CallExpr *Call) {
  std::string Header = "<tileapply/tile.h>";
  if (const FunctionDecl *Callee = Call->getDirectCallee()) {
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::StringRef File = SM.getFilename(SM.getFileLoc(Callee->getLocation()));
    if (!File.empty())
      Header += " (" + File.str() + ")";
  }
  const VarDecl *Version = nullptr;
  for (const NamedDecl *D :
       Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get("tile")))
    if (const auto *NS = dyn_cast<NamespaceDecl>(D))
      for (const NamedDecl *M : NS->lookup(&Ctx.Idents.get("header_version")))
        if (!Version)
          Version = dyn_cast<VarDecl>(M);
  std::string Found;
  if (!Version)
    Found = text(Text::HeaderWithoutVersion);
  else if (const APValue *V = Version->evaluateValue(); !V || !V->isInt())
    Found = text(Text::HeaderVersionNotConstant);
  else if (V->getInt().getSExtValue() == TILEAPPLY_VERSION)
    return std::nullopt;
  else
    Found = text(Text::HeaderVersionIs, {versionName(V->getInt().getSExtValue())});
  return text(Text::HeaderVersionMismatch, {Header, Found, TILEAPPLY_VERSION_STRING});
}

} // namespace

CallChecker::CallChecker(ASTContext &Ctx, Reporter &R, bool IsDeviceCompilation,
                         std::optional<Target> T)
    : Ctx(Ctx), R(R), IsDevice(IsDeviceCompilation), T(std::move(T)) {}

void CallChecker::check(const CallSite &Site) {
  bool DeviceCode = runsOnDevice(Site.Enclosing);
  // A normal CUDA build runs two cc1 jobs over the same source: the host one
  // reports calls in host code, the device one checks the rest, so every
  // problem is reported once.
  if (DeviceCode != IsDevice)
    return;
  // A tile.h of another version: one error, at the first call, and nothing
  // else (its layouts may mean something else).
  if (!HeaderChecked) {
    HeaderChecked = true;
    HeaderProblem = headerVersionProblem(Ctx, Site.Call);
    if (HeaderProblem)
      R.reportInternal(Site, *HeaderProblem);
  }
  if (HeaderProblem)
    return;
  if (!IsDevice)
    R.report(Site, callProblem(DiagCode::HostCall, Text::NoteHostCall));
  else
    checkDeviceCall(Site);
}

void CallChecker::checkUse(const DeclRefExpr *Ref, const FunctionDecl *Enclosing) {
  // Reported by the job that compiles the code holding it, like a call.
  if (runsOnDevice(Enclosing) != IsDevice)
    return;
  Problem P = callProblem(DiagCode::TileApplyNotCalled, Text::NoteCallDirectly);
  P.Message = text(Text::TileApplyNotCalled);
  R.reportAt(Ref, Enclosing, P);
}

/// Whether an argument of type `T` is a register tensor (a C array, a
/// tile::reg, a view of either, or a predicate tensor) with volatile elements.
static bool isVolatileRegisterTensor(QualType T, const ASTContext &Ctx) {
  T = T.getNonReferenceType();
  if (T->isArrayType())
    return Ctx.getBaseElementType(T).isVolatileQualified();
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!Spec || !Spec->getIdentifier())
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(Spec->getDeclContext());
  if (!NS || NS->getName() != "tile")
    return false;
  llvm::StringRef Name = Spec->getName();
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() < 1 || Args[0].getKind() != TemplateArgument::Type)
    return false;
  bool Volatile = Args[0].getAsType().isVolatileQualified();
  if (Name == "reg" || Name == "pred_tensor")
    return Volatile;
  // tile::ref<T, Space, ...>: registers when Space is TILEAPPLY_SPACE_NONE.
  if (Name == "ref" && Args.size() > 1 && Args[1].getKind() == TemplateArgument::Integral)
    return Volatile && Args[1].getAsIntegral() == TILEAPPLY_SPACE_NONE;
  return false;
}

/// The argument as the user wrote it, for a message that names it.
static std::string spelledArgument(const Expr *E, const ASTContext &Ctx) {
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), Ctx.getSourceManager(),
      Ctx.getLangOpts());
  std::string S =
      Lexer::getSourceText(R, Ctx.getSourceManager(), Ctx.getLangOpts()).str();
  return S.empty() ? "the argument" : S;
}

void CallChecker::checkDeviceCall(const CallSite &Site) {
  const CallExpr *Call = Site.Call;
  const auto *Literal = dyn_cast<StringLiteral>(asWritten(Call->getArg(0)));
  if (!Literal || Literal->getCharByteWidth() != 1) {
    R.report(Site, callProblem(DiagCode::OpcodeNotLiteral, Text::NoteOpcodeLiteral));
    return;
  }
  LookupResult Found = OpcodeTable::get().lookup(Literal->getString());
  if (!Found) {
    Problem P = spellingProblem(Found.Problem);
    P.Arg = -1; // at the literal
    R.report(Site, P);
    return;
  }

  // More arguments than any layout may describe: say so at the call, before
  // the layout is read.
  if (Call->getNumArgs() - 1 > static_cast<unsigned>(MaxArgs)) {
    Problem P = callProblem(DiagCode::TooManyOperands, Text::NoteTooManyOperands);
    P.Message = text(Text::TooManyOperands,
                     {std::to_string(MaxArgs), std::to_string(Call->getNumArgs() - 1)});
    R.report(Site, P);
    return;
  }

  const DecodedLayout &Layout = layoutOf(Call->getDirectCallee());
  if (!Layout.Args) {
    if (!Layout.Why.empty())
      R.reportInternal(Site, Layout.Why);
    return;
  }
  std::vector<ArgDesc> Args = *Layout.Args;
  if (Args.size() + 1 != Call->getNumArgs()) {
    R.reportInternal(Site, text(Text::CannotCheck, {text(Text::ForeignHeader)}));
    return;
  }
  // A volatile register tensor is described as unsupported (tile.h); say why
  // here, at the argument, instead of the rules' "not a tensor".
  std::vector<bool> Volatile(Args.size(), false);
  for (size_t I = 0; I < Args.size(); ++I) {
    const Expr *Arg = Call->getArg(I + 1);
    if (Args[I].Kind == TILEAPPLY_KIND_SCALAR)
      Args[I].Constant = constantOf(Arg);
    else if (Args[I].Kind == TILEAPPLY_KIND_REGISTER || Args[I].Kind == TILEAPPLY_KIND_PRED_TENSOR)
      Args[I].Base = storageVariable(Arg);
    if (Args[I].Kind == TILEAPPLY_KIND_UNSUPPORTED &&
        isVolatileRegisterTensor(Arg->getType(), Ctx)) {
      Volatile[I] = true;
      Problem P = callProblem(DiagCode::VolatileRegister, Text::NoteVolatileMemory);
      P.Arg = static_cast<int>(I);
      P.Message = text(Text::VolatileRegister, {spelledArgument(Arg, Ctx)});
      P.PointAtDecl = true;
      R.report(Site, P);
    }
  }

  // The variables behind the operands, where the source names them: a
  // state space known at compile time must fit the operand.
  for (size_t I = 0; I < Args.size(); ++I)
    if (std::optional<KnownObject> O = knownObject(Call->getArg(I + 1), Args[I]))
      if (std::optional<Problem> P =
              checkObject(Literal->getString(), Args[I], I, *O))
        R.report(Site, *P);

  const Form *Chosen = nullptr;
  for (Problem &P : checkCall(Found, Args, T ? &*T : nullptr, nullptr, &Chosen)) {
    bool AtArg = P.Code == DiagCode::UnsupportedArgument && P.Arg >= 0 &&
                 static_cast<size_t>(P.Arg) < Args.size();
    if (AtArg && Volatile[P.Arg])
      continue;
    // A scoped enumerator is refused like any class: say how to pass it.
    if (AtArg && Call->getArg(P.Arg + 1)->getType()->isScopedEnumeralType())
      P.Notes.push_back(text(Text::NoteScopedEnum));
    R.report(Site, P);
  }
}

const CallChecker::DecodedLayout &
CallChecker::layoutOf(const FunctionDecl *Callee) {
  auto [It, Inserted] = Layouts.try_emplace(Callee);
  DecodedLayout &L = It->second;
  if (!Inserted)
    return L;

  // No body: the specialization was never instantiated, because the call is
  // in an unevaluated operand or an earlier error stopped it. Nothing runs.
  const Stmt *Body = Callee->getBody();
  if (!Body)
    return L;
  auto Fail = [&](const llvm::Twine &Why) -> const DecodedLayout & {
    L.Why = text(Text::CannotCheck, {Why.str()});
    return L;
  };
  const VarDecl *V = findCallLayout(Body);
  if (!V)
    return Fail(text(Text::ForeignHeader));
  const APValue *Value = V->evaluateValue();
  if (!Value || !Value->isStruct() || Value->getStructNumFields() < 1 ||
      !Value->getStructField(0).isArray())
    return Fail(text(Text::ForeignHeader));
  const APValue &Array = Value->getStructField(0);
  std::vector<int32_t> Words;
  for (unsigned I = 0, N = Array.getArraySize(); I < N; ++I) {
    const APValue &Elt = I < Array.getArrayInitializedElts()
                             ? Array.getArrayInitializedElt(I)
                             : Array.getArrayFiller();
    if (!Elt.isInt())
      return Fail(text(Text::ForeignHeader));
    Words.push_back(static_cast<int32_t>(Elt.getInt().getSExtValue()));
  }
  llvm::Expected<std::vector<ArgDesc>> Decoded = decodeLayout(Words);
  // (The decoder's reason names the layout's words, nothing the user wrote:
  // the user can act only on the header/plugin mismatch.)
  if (!Decoded) {
    llvm::consumeError(Decoded.takeError());
    return Fail(text(Text::ForeignHeader));
  }
  L.Args = std::move(*Decoded);
  return L;
}

std::optional<ScalarConst> CallChecker::constantOf(const Expr *E) const {
  std::optional<APValue> V = foldScalar(E, Ctx);
  if (!V)
    return std::nullopt; // e.g. a CUDA __half2 object, or a run-time value
  ScalarConst C;
  if (V->isInt()) {
    const llvm::APSInt &I = V->getInt();
    C.I = I.isSigned() ? I.getSExtValue() : static_cast<int64_t>(I.getZExtValue());
  } else {
    llvm::APFloat F = V->getFloat();
    bool LosesInfo = false;
    F.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
              &LosesInfo);
    C.IsFloat = true;
    C.F = F.convertToDouble();
  }
  // `2`, `-2`, `(2)`, `2u`, `2ull`, `(uint16_t)2`: a decimal integer literal
  // that spells a number, whatever its suffix and through integer casts. A
  // literal in hexadecimal, octal or binary spells bits on purpose
  // (`0x40004000u`) and is not warned about.
  const Expr *W = asWritten(E);
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    if (const auto *U = dyn_cast<UnaryOperator>(W);
        U && (U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus)) {
      W = asWritten(U->getSubExpr());
      continue;
    }
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(W);
        Cast && Cast->getType()->isIntegerType()) {
      W = asWritten(Cast->getSubExprAsWritten());
      continue;
    }
    break;
  }
  if (const auto *Lit = dyn_cast<IntegerLiteral>(W)) {
    llvm::StringRef Text = Lexer::getSourceText(
        CharSourceRange::getTokenRange(Lit->getSourceRange()),
        Ctx.getSourceManager(), Ctx.getLangOpts());
    bool Radix = Text.size() > 1 && Text[0] == '0';
    C.IsIntegerLiteral = !Text.empty() && !Radix;
  }
  return C;
}

} // namespace plugin
} // namespace tileapply

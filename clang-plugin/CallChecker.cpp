//===- CallChecker.cpp - One __tile_apply call, from AST to core ----------===//
#include "CallChecker.h"
#include "CallFinder.h"
#include "ConstantArguments.h"
#include "DeviceCode.h"
#include "HeaderVersion.h"
#include "KnownObjects.h"
#include "tileapply/abi.h"
#include "tileapply/core/OpcodeTable.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/PrettyPrinter.h"

using namespace clang;

namespace tileapply {
namespace plugin {

namespace {

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

/// A call-level problem the plugin finds itself, worded by core's summary.
Problem callProblem(DiagCode Code, Text Note) {
  Problem P;
  P.Code = Code;
  P.Arg = -1;
  P.Message = diagSummary(Code).str();
  P.Notes.push_back(text(Note));
  return P;
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
  else if (isTileEwise(Site.Call->getDirectCallee()))
    checkEwise(CallSite{Site.Call, Site.Enclosing, /*Ewise=*/true});
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

void CallChecker::checkDeviceCall(const CallSite &Site) {
  const CallExpr *Call = Site.Call;
  // The opcode: a literal as written, or any expression the constant
  // evaluator turns into a string (ConstantArguments pins it for the pass).
  std::string Opcode;
  std::optional<std::string> EvaluatedNote; // for a non-literal opcode
  const auto *Literal = dyn_cast<StringLiteral>(asWritten(Call->getArg(0)));
  if (Literal && Literal->getCharByteWidth() == 1) {
    Opcode = Literal->getString().str();
  } else {
    llvm::SmallVector<PartialDiagnosticAt, 4> WhyNot;
    std::optional<std::string> Folded = foldOpcode(Call->getArg(0), Ctx, &WhyNot);
    if (!Folded) {
      R.report(Site, callProblem(DiagCode::OpcodeNotConstant, Text::NoteOpcodeLiteral), WhyNot);
      return;
    }
    Opcode = std::move(*Folded);
    std::string Instance;
    if (Site.Enclosing && Site.Enclosing->isTemplateInstantiation()) {
      llvm::raw_string_ostream OS(Instance);
      Site.Enclosing->getNameForDiagnostic(OS, PrintingPolicy(Ctx.getLangOpts()),
                                           /*Qualified=*/true);
    }
    EvaluatedNote = Instance.empty() ? text(Text::NoteOpcodeEvaluated, {Opcode})
                                     : text(Text::NoteOpcodeEvaluatedIn, {Opcode, Instance});
  }
  // Every problem of a non-literal opcode says what it evaluated to, and
  // offers no fix-it: replacing the expression by a literal would lose it.
  auto Report = [&](Problem P) {
    if (EvaluatedNote) {
      P.FixIt.clear();
      P.Notes.push_back(*EvaluatedNote);
    }
    R.report(Site, P);
  };
  LookupResult Found = OpcodeTable::get().lookup(Opcode);
  if (!Found) {
    Problem P = spellingProblem(Found.Problem);
    P.Arg = -1; // at the opcode
    Report(P);
    return;
  }

  // More arguments than any layout may describe: say so at the call, before
  // the layout is read.
  if (Call->getNumArgs() - 1 > static_cast<unsigned>(MaxArgs)) {
    Problem P = callProblem(DiagCode::TooManyOperands, Text::NoteTooManyOperands);
    P.Message = text(Text::TooManyOperands,
                     {std::to_string(MaxArgs), std::to_string(Call->getNumArgs() - 1)});
    Report(P);
    return;
  }

  std::optional<std::vector<ArgDesc>> Decoded = describedArguments(Site);
  if (!Decoded)
    return;
  std::vector<ArgDesc> Args = std::move(*Decoded);
  describeArguments(Call, 1, Args);

  // The variables behind the operands, where the source names them: a
  // state space known at compile time must fit the operand.
  for (size_t I = 0; I < Args.size(); ++I)
    if (std::optional<KnownObject> O = knownObject(Call->getArg(I + 1), Args[I]))
      if (std::optional<Problem> P = checkObject(Opcode, Args[I], I, *O))
        Report(*P);

  const Form *Chosen = nullptr;
  for (Problem &P : checkCall(Found, Args, T ? &*T : nullptr, nullptr, &Chosen))
    Report(P);
}

void CallChecker::describeArguments(const CallExpr *Call, unsigned First,
                                    std::vector<ArgDesc> &Args) const {
  for (size_t I = 0; I < Args.size(); ++I) {
    const Expr *Arg = Call->getArg(First + I);
    if (Args[I].Kind == TILEAPPLY_KIND_SCALAR)
      Args[I].Constant = scalarConstant(Arg, Ctx);
    else if (Args[I].Kind == TILEAPPLY_KIND_REGISTER || Args[I].Kind == TILEAPPLY_KIND_PRED_TENSOR)
      Args[I].Base = storageVariable(Arg);
  }
}

/// The PTX type that names carrier `D` exactly, for an ewise operand (the
/// function decides what the values mean; the rules only need a type the
/// argument's carrier matches).
static std::optional<PtxType> ewiseType(DType D) {
  for (unsigned T = 0; T <= static_cast<unsigned>(PtxType::pred); ++T)
    if (carrierMatches(D, static_cast<PtxType>(T)))
      return static_cast<PtxType>(T);
  return std::nullopt;
}

void CallChecker::checkEwise(const CallSite &Site) {
  const CallExpr *Call = Site.Call;
  std::optional<std::vector<ArgDesc>> Decoded = describedArguments(Site);
  if (!Decoded)
    return;
  std::vector<ArgDesc> Args = std::move(*Decoded);
  // Argument 0 is the destination; the sources follow the function.
  std::vector<ArgDesc> Rest(Args.begin() + 1, Args.end());
  describeArguments(Call, 2, Rest);
  std::vector<ArgDesc> Dst(Args.begin(), Args.begin() + 1);
  describeArguments(Call, 0, Dst);
  Args[0] = Dst[0];
  std::copy(Rest.begin(), Rest.end(), Args.begin() + 1);

  // A form made for this call: every operand one register of its own
  // carrier, the destination written, every source read.
  Form F;
  F.Spelling = F.Canonical = "tile::ewise";
  F.Family = "ewise";
  F.Kind = FormKind::Arith;
  static const char *const Names[] = {"a", "b", "c", "e", "f", "g", "h"};
  unsigned Sources = 0;
  for (size_t I = 0; I < Args.size(); ++I) {
    tileapply_kind K = Args[I].Kind;
    if (K == TILEAPPLY_KIND_PRED_SCALAR || K == TILEAPPLY_KIND_PRED_TENSOR ||
        K == TILEAPPLY_KIND_PRESERVE_DST)
      break;
    OperandSpec S;
    S.Name = I == 0                       ? "d"
             : Sources < std::size(Names) ? Names[Sources]
                                          : "s" + std::to_string(Sources);
    if (I > 0)
      ++Sources;
    S.Direction = I == 0 ? Dir::Write : Dir::Read;
    S.Type = ewiseType(Args[I].Elem).value_or(PtxType::b32);
    F.Operands.push_back(S);
  }
  for (const Problem &P : checkCall(F, Args, T ? &*T : nullptr))
    R.report(Site, P);
}

std::optional<std::vector<ArgDesc>> CallChecker::describedArguments(const CallSite &Site) {
  const DecodedLayout &Layout = layoutOf(Site.Call->getDirectCallee());
  if (!Layout.Args) {
    if (!Layout.Why.empty())
      R.reportInternal(Site, Layout.Why);
    return std::nullopt;
  }
  // One layout record per argument after the opcode (or the function).
  if (Layout.Args->size() + 1 != Site.Call->getNumArgs()) {
    R.reportInternal(Site, text(Text::CannotCheck, {text(Text::ForeignHeader)}));
    return std::nullopt;
  }
  return *Layout.Args;
}

const CallChecker::DecodedLayout &CallChecker::layoutOf(const FunctionDecl *Callee) {
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
    const APValue &Elt = I < Array.getArrayInitializedElts() ? Array.getArrayInitializedElt(I)
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

} // namespace plugin
} // namespace tileapply

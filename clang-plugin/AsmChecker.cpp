//===- AsmChecker.cpp - Every inline asm statement of device code ---------===//
//
// Which statements: the bodies of __device__ / __global__ functions (and the
// lambdas inside them) and of template instances, in the device compilation
// only, where the function is emitted: one Clang must emit (a kernel, an
// external non-inline function) or one something refers to (an approximation
// from above: a reference from a function that is itself never emitted
// counts). An uninstantiated template, an unreferenced inline function and
// the discarded branch of an `if constexpr` are left alone.
//
//===----------------------------------------------------------------------===//
#include "AsmChecker.h"
#include "CompileTarget.h"
#include "tileapply/core/AsmMatch.h"
#include "tileapply/core/AsmMigrate.h"
#include "tileapply/core/AsmTemplate.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Basic/TargetOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace tileapply {
namespace plugin {

AsmChecker::AsmChecker(CompilerInstance &CI, bool Stats) : Stats(Stats) {
  DiagnosticsEngine &Diags = CI.getDiagnostics();
  DiagnosticIDs &IDs = *Diags.getDiagnosticIDs();
  using Desc = DiagnosticIDs::CustomDiagDesc;
  ErrorID = IDs.getCustomDiagID(DiagnosticIDs::Error, "%0");
  NoteID = IDs.getCustomDiagID(DiagnosticIDs::Note, "%0");
  // A note of its own (not after an error or warning): a suggestion that is
  // off by default, so no group is needed to silence it.
  MigrateID = IDs.getCustomDiagID(DiagnosticIDs::Note, "%0");
  InstantiationID =
      IDs.getCustomDiagID(DiagnosticIDs::Note, "in instantiation of '%0' requested here");
  // In an existing group, so that -Wno-, -Werror= and -w reach it; the same
  // two steps as the Reporter's warning (clang-plugin/PluginDiagnostics.cpp says why).
  WarningID = IDs.getCustomDiagID(Desc(diag::Severity::Warning, "%0", DiagnosticIDs::CLASS_WARNING,
                                       /*ShowInSystemHeader=*/false, /*ShowInSystemMacro=*/false,
                                       DiagnosticIDs::getGroupForWarningOption(AsmWarningGroup)));
  Diags.setSeverity(WarningID, diag::Severity::Warning, SourceLocation());
  ProcessWarningOptions(Diags, CI.getDiagnosticOpts(), CI.getVirtualFileSystem(),
                        /*ReportDiags=*/false);
}

namespace {

/// Whether code in F runs on the GPU in this compilation: a __global__ or
/// __device__ (or __host__ __device__) function.
bool isDeviceFunction(const FunctionDecl *F) {
  return F->hasAttr<CUDAGlobalAttr>() || F->hasAttr<CUDADeviceAttr>();
}

} // namespace

/// Walks one function body: asm statements, lambdas inside it, and only the
/// branch an `if constexpr` takes.
class AsmStatementVisitor : public RecursiveASTVisitor<AsmStatementVisitor> {
public:
  AsmStatementVisitor(AsmChecker &C, ASTContext &Ctx, const std::optional<Target> &GPU,
                      const FunctionDecl *F)
      : C(C), Ctx(Ctx), GPU(GPU), Fn(F) {}

  bool TraverseIfStmt(IfStmt *S) {
    if (S->isConstexpr() && !S->getCond()->isValueDependent()) {
      bool Taken;
      if (S->getCond()->EvaluateAsBooleanCondition(Taken, Ctx)) {
        if (S->getInit())
          TraverseStmt(S->getInit());
        return TraverseStmt(Taken ? S->getThen() : S->getElse());
      }
    }
    return RecursiveASTVisitor::TraverseIfStmt(S);
  }

  bool VisitGCCAsmStmt(GCCAsmStmt *S) {
    check(S);
    return true;
  }

private:
  void check(GCCAsmStmt *S);
  void migrate(GCCAsmStmt *S, const AsmTemplate &T, const AsmCheckResult &R,
               const AsmStatementInfo &Info);
  void report(const StringLiteral *SL, const AsmFinding &F);
  std::string where(SourceLocation L) const;

  AsmChecker &C;
  ASTContext &Ctx;
  const std::optional<Target> &GPU;
  const FunctionDecl *Fn;
};

std::string AsmStatementVisitor::where(SourceLocation L) const {
  PresumedLoc P = Ctx.getSourceManager().getPresumedLoc(Ctx.getSourceManager().getExpansionLoc(L));
  if (P.isInvalid())
    return "<unknown>";
  return std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) + ":" +
         std::to_string(P.getColumn());
}

void AsmStatementVisitor::check(GCCAsmStmt *S) {
  const auto *SL = dyn_cast_or_null<StringLiteral>(S->getAsmStringExpr());
  auto Stat = [&](bool Understood, llvm::StringRef Why) {
    if (C.Stats)
      llvm::errs() << "tileapply-asm-stats: " << where(S->getAsmLoc()) << ": "
                   << (Understood ? "understood" : "not understood: ") << Why << "\n";
  };
  if (!SL || !SL->isOrdinary()) {
    Stat(false, "a template that is not a string literal");
    return;
  }
  AsmStatementInfo Info;
  Info.Volatile = S->isVolatile();
  std::vector<std::string> Names;
  for (unsigned I = 0; I < S->getNumOutputs(); ++I) {
    Info.Operands.push_back(parseAsmConstraint(S->getOutputConstraint(I)));
    Info.Operands.back().Output = true;
    Names.push_back(S->getOutputName(I).str());
  }
  for (unsigned I = 0; I < S->getNumInputs(); ++I) {
    std::string Text = S->getInputConstraint(I);
    AsmConstraint K = parseAsmConstraint(Text);
    unsigned Tied;
    // A tied input ("0") is given the register of the output it names.
    if (!llvm::StringRef(Text).getAsInteger(10, Tied) && Tied < S->getNumOutputs()) {
      K = Info.Operands[Tied];
      K.Output = false;
    }
    // An "n" operand's value, for the ranges ptxas checks.
    Expr::EvalResult V;
    const Expr *In = S->getInputExpr(I);
    if (K.C == AsmConstraint::Immediate && !In->isValueDependent() && In->EvaluateAsInt(V, Ctx) &&
        V.Val.getInt().getSignificantBits() <= 64)
      K.Value = V.Val.getInt().getExtValue();
    Info.Operands.push_back(K);
    Names.push_back(S->getInputName(I).str());
  }
  for (unsigned I = 0; I < S->getNumClobbers(); ++I)
    Info.MemoryClobber |= S->getClobber(I) == "memory";
  if (S->isAsmGoto()) {
    Stat(false, "asm goto");
    return;
  }

  AsmTemplate T = splitAsmTemplate(SL->getString(), Names);
  AsmCheckResult R = checkAsmStatement(T, Info, GPU ? &*GPU : nullptr);
  for (const AsmFinding &F : R.Findings)
    report(SL, F);
  Stat(R.FullyUnderstood, R.Why);
  if (C.MigrateNote || C.MigrateSink)
    migrate(S, T, R, Info);
}

void AsmStatementVisitor::migrate(GCCAsmStmt *S, const AsmTemplate &T, const AsmCheckResult &R,
                                  const AsmStatementInfo &Info) {
  MigrationResult MR;
  MR.AsmLoc = S->getAsmLoc();
  MR.Where = where(S->getAsmLoc());
  MR.SingleInstruction = T.Instructions.size() == 1;
  AsmMigration M =
      migrateAsmStatement(T, R, Info, describeAsmOperands(*S, Ctx), GPU ? &*GPU : nullptr);
  MR.Call = M.Call;
  MR.Why = M.Why;
  MR.Category = M.Category;
  if (!MR.Call.empty())
    migrationEdit(*S, Fn, Ctx, MR);
  if (C.MigrateSink)
    C.MigrateSink(MR);
  if (C.Stats && C.MigrateNote)
    llvm::errs() << "tileapply-asm-migrate: " << MR.Where << ": "
                 << (MR.Call.empty() ? "does not migrate: " + MR.Why : "migrates") << "\n";
  if (!C.MigrateNote || MR.Call.empty())
    return;
  std::string Message = text(Text::AsmMigrateNote, {MR.Call});
  if (!C.Reported.insert({MR.AsmLoc.getRawEncoding(), Message}).second)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  // A note standing alone: Clang drops a note that follows an ignored
  // diagnostic (any earlier one, in any header), so say none was.
  Ctx.getDiagnostics().setLastDiagnosticIgnored(false);
  DiagnosticBuilder D = Ctx.getDiagnostics().Report(MR.AsmLoc, C.MigrateID);
  D << Message
    << FixItHint::CreateReplacement(CharSourceRange::getTokenRange(S->getSourceRange()), MR.Call);
  if (!MR.NeedsInclude)
    return;
  if (llvm::Expected<FileEntryRef> F = SM.getFileManager().getFileRef(MR.IncludeFile))
    D << FixItHint::CreateInsertion(
        SM.getLocForStartOfFile(SM.translateFile(*F)).getLocWithOffset(MR.IncludeOffset),
        MigrationInclude);
  else
    llvm::consumeError(F.takeError());
}

void AsmStatementVisitor::report(const StringLiteral *SL, const AsmFinding &F) {
  DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  const TargetInfo &TI = Ctx.getTargetInfo();
  unsigned Len = SL->getByteLength();
  auto At = [&](size_t Byte) {
    return SL->getLocationOfByte(static_cast<unsigned>(std::min<size_t>(Byte, Len ? Len - 1 : 0)),
                                 SM, LO, TI);
  };
  bool Warning = F.severity() == Severity::Warning;
  if (Warning && !C.Warnings)
    return;
  SourceLocation Loc = At(F.Offset);
  SourceRange Range(Loc, At(F.Offset + (F.Length ? F.Length - 1 : 0)));
  if (!C.Reported.insert({Loc.getRawEncoding(), F.Message}).second)
    return;
  Diags.Report(Loc, Warning ? C.WarningID : C.ErrorID) << F.Message << Range;
  // (Clang drops these notes when the diagnostic before them was ignored.)
  for (const std::string &N : F.Notes)
    Diags.Report(Loc, C.NoteID) << N << Range;
  if (Fn && Fn->isTemplateInstantiation() && Fn->getPointOfInstantiation().isValid()) {
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    Fn->getNameForDiagnostic(OS, PrintingPolicy(LO), /*Qualified=*/true);
    Diags.Report(Fn->getPointOfInstantiation(), C.InstantiationID) << Name;
  }
}

namespace {

/// Finds the function bodies to check: every declaration, template
/// instantiations included, but not into statements (the body visitor goes
/// into lambdas itself).
class FunctionFinder : public RecursiveASTVisitor<FunctionFinder> {
public:
  FunctionFinder(AsmChecker &C, ASTContext &Ctx, const std::optional<Target> &GPU)
      : C(C), Ctx(Ctx), GPU(GPU) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }
  bool TraverseStmt(Stmt *) { return true; }

  bool VisitFunctionDecl(FunctionDecl *F) {
    if (!F->doesThisDeclarationHaveABody() || F->isDependentContext() || F->isInvalidDecl() ||
        !isDeviceFunction(F))
      return true;
    // An inline, static or template function is emitted only where something
    // refers to it: the headers' thousands of unused intrinsics are not.
    if (!F->isReferenced() && !Ctx.DeclMustBeEmitted(F))
      return true;
    AsmStatementVisitor(C, Ctx, GPU, F).TraverseStmt(F->getBody());
    return true;
  }

private:
  AsmChecker &C;
  ASTContext &Ctx;
  const std::optional<Target> &GPU;
};

} // namespace

void AsmChecker::checkTranslationUnit(ASTContext &Ctx, const std::optional<Target> &GPU) {
  FunctionFinder(*this, Ctx, GPU).TraverseDecl(Ctx.getTranslationUnitDecl());
}

} // namespace plugin
} // namespace tileapply

//===- Plugin.cpp - The tileapply Clang plugin ----------------------------===//
//
// `clang++ -fplugin=TileApply.so` loads this module into both cc1 jobs of a
// CUDA build. The action runs before the main action (AddBeforeMainAction),
// so the normal compilation still happens, and:
//
//  - in every job, checks each `__tile_apply` call once the translation unit
//    is complete (CallFinder -> CallChecker -> Reporter);
//  - in the device job, pins each constant scalar argument to the value the
//    checker sees before code generation emits the call (ConstantArguments),
//    so the pass reads the same constants and reaches the same verdict;
//  - in the NVPTX device job, adds the tileapply expansion pass to the
//    optimization pipeline Clang's code generator builds, so the plugin alone
//    both checks and expands. Host code generation is untouched.
//
// Arguments (`-fplugin-arg-tileapply-<arg>`):
//   no-packed-literal   do not report PackedIntegerLiteral
//   no-asm-check        do not check inline asm statements (AsmChecker)
//   asm-stats           print one line per checked asm statement to stderr
//   asm-migrate         a note with a fix-it for each asm statement that is
//                       one __tile_apply call (docs/asm-check.md#migration)
//
//===----------------------------------------------------------------------===//
#include "AsmChecker.h"
#include "CallChecker.h"
#include "CallFinder.h"
#include "CompileTarget.h"
#include "ConstantArguments.h"
#include "LocalMemoryWarning.h"
#include "PassRegistration.h"
#include "PluginDiagnostics.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

using namespace clang;

namespace tileapply {
namespace plugin {
namespace {

class TileApplyConsumer : public ASTConsumer {
public:
  TileApplyConsumer(CompilerInstance &CI, const PluginOptions &Opts)
      : IsDevice(CI.getLangOpts().CUDAIsDevice),
        GPU(IsDevice ? targetOf(CI.getTarget()) : std::nullopt), R(CI, Opts) {
    if (IsDevice && Opts.AsmCheck) {
      Asm.emplace(CI, Opts.AsmStats);
      Asm->setMigration(Opts.AsmMigrate);
      Asm->setWarnings(Opts.AsmWarnings);
    }
    if (IsDevice)
      LocalMemory.emplace(R, Opts.LocalMemoryWarning);
  }

  // This consumer runs before the code generator (AddBeforeMainAction), which
  // emits some functions (non-template kernels) as soon as the parser hands
  // them over: pin their constants now. Code generation of everything else
  // waits for the end of the translation unit, after HandleTranslationUnit.
  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    if (IsDevice)
      for (Decl *D : Group)
        pinCalls(D);
    return true;
  }
  void HandleInlineFunctionDefinition(FunctionDecl *F) override {
    if (IsDevice)
      pinCalls(F);
  }

  // Runs after Sema has instantiated every template the file uses, so each
  // call's `__tile_apply<A...>` specialization and its layout are complete.
  void HandleTranslationUnit(ASTContext &Ctx) override {
    CallChecker Checker(Ctx, R, IsDevice, GPU);
    forEachTileApplyCall(
        Ctx,
        [&](CallExpr *Call, const FunctionDecl *Enclosing) {
          if (IsDevice)
            pinConstantArguments(Call, Ctx);
          Checker.check(CallSite{Call, Enclosing});
          if (LocalMemory)
            LocalMemory->record(Call, Ctx);
        },
        [&](const DeclRefExpr *Ref, const FunctionDecl *Enclosing) {
          Checker.checkUse(Ref, Enclosing);
        });
    if (Asm)
      Asm->checkTranslationUnit(Ctx, GPU);
  }

  void Initialize(ASTContext &Ctx) override { this->Ctx = &Ctx; }

private:
  void pinCalls(Decl *D) {
    forEachTileApplyCall(
        *Ctx, D, [&](CallExpr *Call, const FunctionDecl *) { pinConstantArguments(Call, *Ctx); });
  }

  ASTContext *Ctx = nullptr;
  bool IsDevice;
  std::optional<Target> GPU; // the device job's sm_XX and PTX ISA
  Reporter R;
  std::optional<AsmChecker> Asm; // device compilations only
  // The pass's local-memory findings, reported at the declarations; device
  // compilations only. Lives as long as the consumer: until after the
  // code generator (and so the pass) has run.
  std::optional<LocalMemoryWarnings> LocalMemory;
};

class TileApplyAction : public PluginASTAction {
public:
  ActionType getActionType() override { return AddBeforeMainAction; }

  bool ParseArgs(const CompilerInstance &CI, const std::vector<std::string> &Args) override {
    for (const std::string &Arg : Args) {
      if (Arg == "no-packed-literal") {
        Opts.WarnPackedLiteral = false;
        continue;
      }
      if (Arg == "no-asm-check" || Arg == "asm-stats") { // issue 22
        (Arg == "no-asm-check" ? Opts.AsmCheck : Opts.AsmStats) = Arg == "asm-stats";
        continue;
      }
      if (Arg == "asm-migrate") {
        Opts.AsmMigrate = true;
        continue;
      }
      // The switches of tileapply's own warnings alone (a Clang 22 plugin
      // cannot make a -W group of its own; the groups they are in also hold
      // Clang's warnings).
      if (Arg == "no-asm-warnings") {
        Opts.AsmWarnings = false;
        continue;
      }
      if (Arg == "no-local-memory-warning") {
        Opts.LocalMemoryWarning = false;
        continue;
      }
      DiagnosticsEngine &Diags = CI.getDiagnostics();
      Diags.Report(Diags.getCustomDiagID(
          DiagnosticsEngine::Error,
          "unknown argument '%0' for plugin 'tileapply' (known: "
          "no-packed-literal, no-asm-check, no-asm-warnings, asm-stats, asm-migrate, "
          "no-local-memory-warning)"))
          << Arg;
      return false;
    }
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    // Expansion belongs to the GPU side only (PassRegistration.h says which
    // job of a split compile expands). Under -fsyntax-only nothing runs it.
    if (CI.getLangOpts().CUDAIsDevice && CI.getTarget().getTriple().isNVPTX())
      registerExpansion(CI);
    return std::make_unique<TileApplyConsumer>(CI, Opts);
  }

private:
  PluginOptions Opts;
};

} // namespace
} // namespace plugin
} // namespace tileapply

static FrontendPluginRegistry::Add<tileapply::plugin::TileApplyAction>
    X("tileapply", "check __tile_apply calls and expand them on the GPU side");

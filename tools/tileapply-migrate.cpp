//===- tileapply-migrate.cpp - Rewrite asm statements as __tile_apply calls ---===//
//
//   tileapply-migrate -p <build dir> [--fix | --check] [files...]
//
// Reads compile_commands.json like clang-tidy, compiles each file's device
// side (the commands' own flags, --cuda-device-only -fsyntax-only, without
// -fplugin) and runs the plugin's asm checker on it with migration on
// (clang-plugin/AsmChecker.cpp, AsmMigration.cpp, core/lib/AsmMigrate.cpp:
// the same code as -fplugin-arg-tileapply-asm-migrate). Every statement that
// is one __tile_apply call, in every instance of its template, becomes that
// call; the file gains #include <tileapply/tile.h> if it lacks it.
//
// Prints the proposed edits (default), applies them (--fix), or only reports
// each statement's verdict and the summary (--check; exit status 1 when
// something would change). The summary counts the single-instruction
// statements, those that migrate, and the reasons for the rest.
//
//===----------------------------------------------------------------------===//
#include "AsmChecker.h"
#include "CompileTarget.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <set>

using namespace clang;
using namespace llvm;
using tileapply::plugin::MigrationResult;

static cl::OptionCategory Category("tileapply-migrate options");
static cl::opt<bool> Fix("fix", cl::desc("apply the edits to the files"), cl::cat(Category));
static cl::opt<std::string>
    HeaderFilter("header-filter",
                 cl::desc("also rewrite the statements of headers whose path matches this "
                          "regular expression (default: only the files named)"),
                 cl::init(""), cl::cat(Category));
static cl::opt<bool> Check("check",
                           cl::desc("only report each statement's verdict and the summary; "
                                    "exit 1 when a statement would migrate"),
                           cl::cat(Category));

namespace {

/// Every verdict, by statement (file:offset), over all instances and files.
struct Statement {
  std::string Where;
  bool SingleInstruction = false;
  std::set<std::string> Calls; // distinct calls the instances propose
  std::string Why, Category;   // the first reason an instance does not migrate
  MigrationResult Edit;        // of one instance that migrates
};
std::map<std::pair<std::string, unsigned>, Statement> Statements;

void record(const MigrationResult &R, const SourceManager &SM) {
  // The statement's key: where its `asm` keyword is written.
  SourceLocation L = SM.getExpansionLoc(R.AsmLoc);
  auto [FID, Off] = SM.getDecomposedLoc(L);
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
  std::string File = FE ? FE->getName().str() : "<unknown>";
  // The file compiled, and the headers the filter names.
  static const Regex Filter(HeaderFilter);
  if (FID != SM.getMainFileID() && (HeaderFilter.empty() || !Filter.match(File)))
    return;
  SmallString<256> Abs(File);
  sys::fs::make_absolute(Abs);
  Statement &S = Statements[{std::string(Abs), Off}];
  S.Where = R.Where;
  S.SingleInstruction = R.SingleInstruction;
  if (R.Call.empty()) {
    if (S.Why.empty()) {
      S.Why = R.Why;
      S.Category = R.Category.empty() ? R.Why : R.Category;
    }
    return;
  }
  S.Calls.insert(R.Call);
  S.Edit = R;
  S.Edit.File = std::string(Abs);
  SmallString<256> Inc(R.IncludeFile);
  sys::fs::make_absolute(Inc);
  S.Edit.IncludeFile = std::string(Inc);
}

class Consumer : public ASTConsumer {
public:
  explicit Consumer(CompilerInstance &CI) : Checker(CI, /*Stats=*/false) {
    const SourceManager &SM = CI.getSourceManager();
    Checker.setMigration(/*Note=*/false, [&SM](const MigrationResult &R) { record(R, SM); });
    GPU = tileapply::plugin::targetOf(CI.getTarget());
  }
  void HandleTranslationUnit(ASTContext &Ctx) override { Checker.checkTranslationUnit(Ctx, GPU); }

private:
  tileapply::plugin::AsmChecker Checker;
  std::optional<tileapply::Target> GPU;
};

class Action : public ASTFrontendAction {
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    return std::make_unique<Consumer>(CI);
  }
};

/// A statement's verdict after all its instances: the call, or why not.
std::string verdict(const Statement &S, std::string &Call) {
  if (S.Calls.size() > 1)
    return tileapply::text(tileapply::Text::MigrateInstances);
  if (!S.Calls.empty() && !S.Why.empty())
    return S.Why; // some instance does not migrate
  if (S.Calls.empty())
    return S.Why;
  Call = *S.Calls.begin();
  return "";
}

/// One change of a file: [Offset, Offset+Length) becomes Text.
struct Change {
  unsigned Offset, Length;
  std::string Text;
};

int applyEdits(const std::map<std::string, std::vector<Change>> &ByFile) {
  int Failed = 0;
  for (const auto &[File, Changes] : ByFile) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(File);
    if (!Buf) {
      errs() << "tileapply-migrate: cannot read " << File << "\n";
      ++Failed;
      continue;
    }
    std::string Text = (*Buf)->getBuffer().str();
    // From the end, so earlier offsets stay valid.
    std::vector<Change> Sorted(Changes);
    std::sort(Sorted.begin(), Sorted.end(),
              [](const Change &A, const Change &B) { return A.Offset > B.Offset; });
    for (const Change &C : Sorted)
      Text.replace(C.Offset, C.Length, C.Text);
    std::error_code EC;
    raw_fd_ostream OS(File, EC);
    if (EC) {
      errs() << "tileapply-migrate: cannot write " << File << ": " << EC.message() << "\n";
      ++Failed;
      continue;
    }
    OS << Text;
  }
  return Failed;
}

} // namespace

int main(int argc, const char **argv) {
  auto Parser = tooling::CommonOptionsParser::create(argc, argv, Category, cl::ZeroOrMore,
                                                     "Rewrites GCC-style asm statements of "
                                                     "CUDA device code as __tile_apply calls.");
  if (!Parser) {
    errs() << toString(Parser.takeError()) << "\n";
    return 2;
  }
  std::vector<std::string> Files = Parser->getSourcePathList();
  if (Files.empty())
    Files = Parser->getCompilations().getAllFiles();
  tooling::ClangTool Tool(Parser->getCompilations(), Files);
  // The device side only, checked and never compiled; the plugin itself is
  // not loaded (this tool runs the same code), and Clang's own headers are
  // those of the clang tileapply is built against.
  Tool.appendArgumentsAdjuster([](const tooling::CommandLineArguments &Args, StringRef) {
    tooling::CommandLineArguments Out;
    for (const std::string &A : Args)
      if (!StringRef(A).starts_with("-fplugin"))
        Out.push_back(A);
    return Out;
  });
  Tool.appendArgumentsAdjuster(tooling::getClangSyntaxOnlyAdjuster());
  Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
      {"--cuda-device-only", "-resource-dir=" TILEAPPLY_CLANG_RESOURCE_DIR,
       "-Wno-unknown-cuda-version"},
      tooling::ArgumentInsertPosition::END));
  int RC = Tool.run(tooling::newFrontendActionFactory<Action>().get());
  if (RC == 1) {
    errs() << "tileapply-migrate: a file did not compile; nothing changed\n";
    return 2;
  }

  unsigned Single = 0, Migrated = 0;
  std::map<std::string, unsigned> Reasons;
  // A reason as a category: without its particulars (an instruction's name,
  // the operands in parentheses).
  auto Category = [](std::string Why) {
    for (size_t Open; (Open = Why.find(" (")) != std::string::npos;) {
      size_t Close = Why.find(')', Open);
      if (Close == std::string::npos)
        break;
      Why.erase(Open, Close + 1 - Open);
    }
    std::string Prefix = tileapply::text(tileapply::Text::MigrateNotUnderstood, {""});
    size_t Second = Why.find(": ", Prefix.size());
    if (StringRef(Why).starts_with(Prefix) && Second != std::string::npos)
      Why.resize(Second);
    return Why;
  };
  std::map<std::string, std::vector<Change>> ByFile;
  std::set<std::pair<std::string, unsigned>> Includes;
  for (auto &[Key, S] : Statements) {
    std::string Call;
    std::string Why = verdict(S, Call);
    if (S.SingleInstruction)
      ++Single;
    if (Why.empty()) {
      ++Migrated;
      ByFile[S.Edit.File].push_back({S.Edit.Offset, S.Edit.Length, Call});
      if (S.Edit.NeedsInclude && !Includes.count({S.Edit.IncludeFile, 0u})) {
        // One include a file, wherever its statements ask for it first.
        Includes.insert({S.Edit.IncludeFile, 0u});
        ByFile[S.Edit.IncludeFile].push_back(
            {S.Edit.IncludeOffset, 0, tileapply::MigrationInclude});
      }
      if (Check)
        outs() << S.Where << ": migrates\n";
      else
        outs() << S.Where << ": " << Call << "\n";
    } else {
      if (S.SingleInstruction)
        ++Reasons[Category(S.Calls.size() > 1 || S.Category.empty() ? Why : S.Category)];
      if (Check)
        outs() << S.Where << ": does not migrate: " << Why << "\n";
    }
  }
  outs() << "tileapply-migrate: " << Statements.size() << " asm statements, " << Single
         << " of one instruction, " << Migrated << " migrate";
  if (Single)
    outs() << format(" (%.1f%% of one instruction)", 100.0 * Migrated / Single);
  outs() << "\n";
  // Reasons, most frequent first: those of the one-instruction statements.
  std::vector<std::pair<unsigned, std::string>> Sorted;
  for (auto &[Why, N] : Reasons)
    Sorted.push_back({N, Why});
  std::sort(Sorted.begin(), Sorted.end(), [](auto &A, auto &B) {
    return A.first != B.first ? A.first > B.first : A.second < B.second;
  });
  for (auto &[N, Why] : Sorted)
    outs() << "  " << N << " not migrated: " << Why << "\n";
  if (Check)
    return Migrated ? 1 : 0;
  if (Fix)
    return applyEdits(ByFile) ? 2 : 0;
  return 0;
}

//===- tileapply-certify.cpp - Prove every table form with ptxas -----------===//
//
// Positive certification: every form of the PTX table, rendered by the
// function the pass emits with, assembled by ptxas at the form's own floor:
// max(MinSm, oldest target ptxas accepts), or each of the arch/family-specific
// targets a form is limited to, with .version max(MinPtx, what that target
// needs). A call shape that passes optional operands PTX added later is
// assembled at that later floor. Every form is also assembled predicated; one
// that writes a register destination, predicated with tile::preserve_dst too.
//
//   tileapply-certify --ptxas PATH --out DIR [--family F] [--jobs N] [--below]
//
// Prints one FAIL line per refused form (with ptxas's message) and a summary;
// exits 1 on any failure.
//
// With --below, the refusal one step below each floor instead: every form
// (and, where passing its optional operands raises the floor, that call shape
// too) is assembled on the previous plain target ptxas knows (on the plain
// sm_XX of each target of an arch- or family-specific form) and at the
// previous PTX ISA version on its own target; ptxas must refuse each. A form
// it accepts below has a floor that is too high (ACCEPTED-BELOW lines, exit
// status 1). A floor at or below ptxas's oldest target (sm_75), or a PTX
// floor whose previous version the target itself does not read, cannot be
// checked: the summary counts them. --known-below FILE lists floors ptxas
// does not enforce (KIND:REGEX, a tab, the reason; KIND sm or ptx): a form it
// matches may be accepted below (counted, never a failure).
//
//===----------------------------------------------------------------------===//
#include "PtxasHarness.h"
#include "tileapply/core/OpcodeTable.h"
#include "tileapply/core/Target.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <map>
#include <set>

using namespace llvm;
using namespace tileapply;

static cl::opt<std::string> Ptxas("ptxas", cl::desc("ptxas to run"), cl::init("ptxas"));
static cl::opt<std::string> OutDir("out", cl::desc("folder for the PTX files"), cl::Required);
static cl::opt<std::string> OnlyFamily("family", cl::desc("certify one family only"));
static cl::opt<unsigned> Jobs("jobs", cl::desc("ptxas processes at once"), cl::init(2));
static cl::opt<unsigned> Chunk("chunk", cl::desc("instructions per PTX file"), cl::init(4000));
static cl::opt<bool> SelfTest("self-test",
                              cl::desc("check that a refused line is blamed on itself"));
static cl::opt<unsigned> OldestSm("oldest-sm", cl::desc("oldest target ptxas accepts"),
                                  cl::init(75));
static cl::opt<bool> Below("below", cl::desc("assemble every form one step below its floor "
                                             "and expect ptxas to refuse it"));
static cl::opt<std::string> KnownBelow("known-below",
                                       cl::desc("file of floors ptxas does not enforce"));

namespace {
struct Origin {
  std::string Form, Variant;
};

/// Lines to assemble, batched per (target, PTX ISA version), each with where
/// it came from.
struct Batcher {
  std::map<std::pair<std::string, unsigned>, size_t> BatchOf;
  std::vector<PtxBatch> Batches;
  std::vector<std::vector<Origin>> Origins;
  void add(const Target &T, unsigned Ptx, std::string Line, Origin O) {
    auto Inserted = BatchOf.try_emplace({T.name(), Ptx}, Batches.size());
    if (Inserted.second) {
      Batches.push_back({T.name(), Ptx, {}});
      Origins.emplace_back();
    }
    Batches[Inserted.first->second].Lines.push_back(std::move(Line));
    Origins[Inserted.first->second].push_back(std::move(O));
  }
};

/// The --below mode (see the file comment).
int certifyBelow(std::chrono::steady_clock::time_point Start) {
  Batcher B;
  size_t NumForms = 0, SmChecks = 0, PtxChecks = 0, SmUncheckable = 0, PtxUncheckable = 0;
  auto Visit = [&](const Form &F) {
    ++NumForms;
    std::vector<CallShape> Shapes = callShapes(F);
    // The call shapes with a floor of their own: every operand (optional
    // ones included) and, where they raise the floor, none of the optional
    // ones.
    std::vector<std::pair<const CallShape *, bool>> Floors{{&Shapes.front(), true}};
    if (F.optionalRaisesFloor())
      for (const CallShape &S : Shapes)
        if (StringRef(S.Name).starts_with("without"))
          Floors.push_back({&S, false});
    for (auto [Shape, WithOptional] : Floors) {
      std::string Line = renderInstruction(F, *Shape, false, false);
      unsigned Sm = F.minSm(WithOptional), Ptx = F.minPtx(WithOptional);
      std::string Variant = Shape->Name.empty() ? "" : ", " + Shape->Name;
      // One sm below: the previous plain target, or the plain sm_XX of an
      // arch- or family-specific target.
      std::vector<Target> Own = F.OnlyOn;
      if (Own.empty()) {
        Own.push_back(Target{std::max(Sm, OldestSm.getValue()), 0, 0});
        unsigned Prev = 0;
        for (unsigned P : plainTargets())
          if (P < Sm)
            Prev = P;
        if (Sm <= OldestSm || !Prev) {
          ++SmUncheckable;
        } else {
          Target T{Prev, 0, 0};
          B.add(T, std::max(Ptx, ptxForTarget(T)), Line, {F.Spelling, "sm below" + Variant});
          ++SmChecks;
        }
      } else {
        for (const Target &On : F.OnlyOn) {
          Target T{On.Sm, 0, 0};
          B.add(T, std::max(Ptx, ptxForTarget(T)), Line,
                {F.Spelling, "plain target of " + On.name() + Variant});
          ++SmChecks;
        }
      }
      // One PTX ISA version below, on the form's own target(s).
      for (const Target &T : Own) {
        unsigned Need = std::max(Ptx, ptxForTarget(T)), Prev = 0;
        for (unsigned V : ptxVersions())
          if (V < Need)
            Prev = V;
        if (!Prev || Prev < ptxForTarget(T)) {
          ++PtxUncheckable;
          continue;
        }
        B.add(T, Prev, Line, {F.Spelling, "PTX below" + Variant});
        ++PtxChecks;
      }
    }
  };
  if (OnlyFamily.empty())
    OpcodeTable::get().forEachForm(Visit);
  else
    OpcodeTable::get().forEachForm(OnlyFamily, Visit);

  // Floors ptxas does not enforce: (kind, pattern).
  std::vector<std::pair<std::string, std::unique_ptr<Regex>>> Known;
  if (!KnownBelow.empty()) {
    std::vector<KnownEntry> Entries;
    std::string Error;
    if (!readKnownList(KnownBelow, Entries, Error)) {
      errs() << Error << "\n";
      return 2;
    }
    for (const KnownEntry &E : Entries) {
      auto [Kind, Pattern] = StringRef(E.Key).split(':');
      std::unique_ptr<Regex> R = wholeMatch(Pattern.trim(), Error);
      if ((Kind != "sm" && Kind != "ptx") || !R) {
        errs() << KnownBelow << ": bad line '" << E.Line << "' " << Error << "\n";
        return 2;
      }
      Known.push_back({Kind.str(), std::move(R)});
    }
  }
  std::vector<std::map<size_t, std::string>> Refused;
  std::string Err;
  size_t Files = 0;
  if (!assembleBatches(Ptxas, OutDir, B.Batches, Jobs, Chunk, Refused, Err, &Files)) {
    errs() << "tileapply-certify: " << Err << "\n";
    return 2;
  }
  size_t Lines = 0, Accepted = 0, SmRefused = 0, PtxRefused = 0, KnownAccepted = 0;
  std::set<std::string> AcceptedForms;
  for (size_t I = 0; I < B.Batches.size(); ++I) {
    Lines += B.Batches[I].Lines.size();
    for (size_t L = 0; L < B.Batches[I].Lines.size(); ++L) {
      const Origin &O = B.Origins[I][L];
      bool Ptx = StringRef(O.Variant).starts_with("PTX");
      if (Refused[I].count(L)) {
        ++(Ptx ? PtxRefused : SmRefused);
        continue;
      }
      if (llvm::any_of(Known, [&](const auto &K) {
            return K.first == (Ptx ? "ptx" : "sm") && K.second->match(O.Form);
          })) {
        ++KnownAccepted;
        continue;
      }
      outs() << "ACCEPTED-BELOW " << O.Form << " (" << O.Variant << ") at " << B.Batches[I].Arch
             << ", PTX ISA " << ptxVersionName(B.Batches[I].PtxVersion)
             << ": its floor is too high\n    " << B.Batches[I].Lines[L] << "\n";
      AcceptedForms.insert(O.Form);
      ++Accepted;
    }
  }
  double Secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  outs() << "below: " << NumForms << " forms (" << Lines << " instructions, " << Files
         << " PTX files, " << format("%.1f", Secs) << " s): refused one sm below (or on the plain "
         << "target) " << SmRefused << " of " << SmChecks << ", refused one PTX ISA version below "
         << PtxRefused << " of " << PtxChecks << "; not checkable: " << SmUncheckable
         << " sm floors at or below sm_" << OldestSm.getValue() << ", " << PtxUncheckable
         << " PTX floors at or below their target's oldest; " << KnownAccepted
         << " accepted below as known (--known-below); " << AcceptedForms.size()
         << " forms accepted below\n";
  return Accepted ? 1 : 0;
}
} // namespace

int main(int Argc, char **Argv) {
  cl::ParseCommandLineOptions(Argc, Argv, "certify every form of the tileapply PTX table\n");
  auto Start = std::chrono::steady_clock::now();
  if (Below)
    return certifyBelow(Start);
  if (SelfTest) {
    // Good, bad, good, bad: exactly lines 1 and 3 must be refused, each with
    // its own message, or the error-to-line mapping is broken. The second
    // batch uses .b128 registers, whose declaration makes the file's header
    // one line longer.
    PtxBatch B{"sm_90",
               78,
               {"add.rn.f32 %r1, %r2, %r3;", "add.rn.bogus.f32 %r1, %r2, %r3;",
                "mul.lo.s32 %r1, %r2, %r3;", "ld.shared.v8.f64 {%rd1, %rd2}, [%rd3];"}};
    PtxBatch Q{"sm_90",
               83,
               {"mov.b128 %rq1, {%rd1, %rd2};", "mov.b128.bogus %rq1, %rq2;",
                "mov.b128 {%r1, %r2, %r3, %r4}, %rq1;",
                "mov.b128 {%rd1, %rd2}, {%r1, %r2, %r3, %r4};"}};
    std::vector<std::map<size_t, std::string>> R;
    std::string Err;
    if (!assembleBatches(Ptxas, OutDir, {B, Q}, 1, 100, R, Err)) {
      errs() << Err << "\n";
      return 2;
    }
    bool Ok = true;
    for (unsigned K = 0; K < 2; ++K) {
      Ok &= R[K].size() == 2 && R[K].count(1) && R[K].count(3);
      for (auto &[Idx, Msg] : R[K])
        outs() << "refused " << (K ? ".b128 " : "") << "line " << Idx << ": " << Msg << "\n";
    }
    outs() << (Ok ? "self-test passed\n" : "self-test FAILED\n");
    return Ok ? 0 : 1;
  }
  std::map<std::pair<std::string, unsigned>, size_t> BatchOf; // (target, ptx) -> batch
  std::vector<PtxBatch> Batches;
  std::vector<std::vector<Origin>> Origins;
  size_t NumForms = 0;
  auto BatchFor = [&](const Target &T, unsigned MinPtx) {
    unsigned Ptx = std::max(MinPtx, ptxForTarget(T));
    auto Inserted = BatchOf.try_emplace({T.name(), Ptx}, Batches.size());
    if (Inserted.second) {
      Batches.push_back({T.name(), Ptx, {}});
      Origins.emplace_back();
    }
    return Inserted.first->second;
  };
  auto Visit = [&](const Form &F) {
    ++NumForms;
    // Every shape a call can give the operands: as written, optional
    // operands left out, a register split into a group (mov's {a, b}), a
    // predicate source negated.
    for (const CallShape &Shape : callShapes(F)) {
      bool WithOptional = llvm::none_of(Shape.Bindings, [](const AsmOperandBinding &B) {
        return B.K == AsmOperandBinding::Omitted;
      });
      std::vector<Target> Targets = F.targets(WithOptional);
      if (Targets.empty())
        Targets.push_back(Target{std::max(F.minSm(WithOptional), OldestSm.getValue()), 0, 0});
      for (const Target &T : Targets) {
        size_t Batch = BatchFor(T, F.minPtx(WithOptional));
        auto Add = [&](const char *Variant, bool Pred, bool Preserve) {
          Batches[Batch].Lines.push_back(renderInstruction(F, Shape, Pred, Preserve));
          Origins[Batch].push_back({F.Spelling, Shape.Name.empty()
                                                    ? std::string(Variant)
                                                    : std::string(Variant) + ", " + Shape.Name});
        };
        Add("plain", false, false);
        Add("predicated", true, false);
        if (F.hasDestination())
          Add("predicated+preserve_dst", true, true);
      }
    }
  };
  if (OnlyFamily.empty())
    OpcodeTable::get().forEachForm(Visit);
  else
    OpcodeTable::get().forEachForm(OnlyFamily, Visit);

  std::vector<std::map<size_t, std::string>> Refused;
  std::string Err;
  size_t Files = 0;
  if (!assembleBatches(Ptxas, OutDir, Batches, Jobs, Chunk, Refused, Err, &Files)) {
    errs() << "tileapply-certify: " << Err << "\n";
    return 2;
  }
  size_t Lines = 0, Failures = 0;
  std::set<std::string> FailedForms, Archs;
  for (size_t B = 0; B < Batches.size(); ++B) {
    Lines += Batches[B].Lines.size();
    Archs.insert(Batches[B].Arch);
    for (const auto &[Idx, Msg] : Refused[B]) {
      const Origin &O = Origins[B][Idx];
      outs() << "FAIL " << O.Form << " (" << O.Variant << ") at " << Batches[B].Arch << ": " << Msg
             << "\n    " << Batches[B].Lines[Idx] << "\n";
      FailedForms.insert(O.Form);
      ++Failures;
    }
  }
  double Secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  outs() << "certified " << NumForms - FailedForms.size() << " of " << NumForms << " forms ("
         << Lines << " instructions, " << Files << " PTX files) at "
         << join(Archs.begin(), Archs.end(), ", ") << " in " << format("%.1f", Secs) << " s; "
         << Failures << " failures\n";
  return Failures ? 1 : 0;
}

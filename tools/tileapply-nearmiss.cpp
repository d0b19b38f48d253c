//===- tileapply-nearmiss.cpp - Negative certification against ptxas ------===//
//
// Derives near-miss spellings from the table's forms (drop, add, swap or
// replace one qualifier; shuffle them all; another type; another vector size),
// asks the table and ptxas about each, and compares. One the table refuses is
// assembled at the newest target (--arch), with operands derived from the form
// it was made from, so ptxas has every chance to accept it. One the table
// accepts as a form in another qualifier order (a swap or a shuffle) is
// assembled as the pass emits it, spelled as written, at the form's floor:
// ptxas must accept it too.
//
//   tileapply-nearmiss --ptxas PATH --out DIR [--count N] [--known FILE]
//
// Disagreements listed in --known are expected; any other is printed as NEW
// and makes the exit status 1. A line of --known is SPELLING, a tab, the
// verdict ("table-refuses"), a tab, the reason; or "class:NAME", a tab, the
// reason, for a whole class:
//   class:RepeatedQualifier  a qualifier written twice
//   class:GenericAddress     ldu with no state space
//   class:NarrowVector8      .v8 of 8- or 16-bit elements
//   class:CacheOpAndEviction ld/st with both a cache operator and an eviction
//                            priority
// Or "pattern:REGEX", a tab, the reason: every spelling the (extended POSIX)
// regular expression matches in full.
// Refusals the table makes on purpose (TA_UNSUPPORTED) count as agreement.
//
//===----------------------------------------------------------------------===//
#include "PtxasHarness.h"
#include "tileapply/core/OpcodeTable.h"
#include "tileapply/core/Target.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <map>
#include <random>
#include <set>

using namespace llvm;
using namespace tileapply;

static cl::opt<std::string> Ptxas("ptxas", cl::desc("ptxas to run"), cl::init("ptxas"));
static cl::opt<std::string> OutDir("out", cl::desc("folder for the PTX files"), cl::Required);
static cl::opt<unsigned> Count("count", cl::desc("near-miss spellings to try"), cl::init(12000));
static cl::opt<std::string> Known("known", cl::desc("file of expected disagreements"));
static cl::opt<std::string> NewestArch("arch", cl::desc("target for refused spellings"),
                                       cl::init("sm_100a"));
static cl::opt<unsigned> NewestPtx("ptx", cl::desc("PTX ISA (x10) for refused spellings"),
                                   cl::init(88));
static cl::opt<bool> WriteKnown("print-known",
                                cl::desc("print every disagreement in --known format"));
static cl::opt<unsigned> Jobs("jobs", cl::desc("ptxas processes at once"), cl::init(2));
// Small files: ptxas crashes on some refused spellings, and a crash costs a
// bisection of its file.
static cl::opt<unsigned> Chunk("chunk", cl::desc("instructions per PTX file"), cl::init(250));
static cl::opt<unsigned> FormsPerFamily("forms-per-family",
                                        cl::desc("forms to mutate per family, at most"),
                                        cl::init(1500));
static cl::opt<unsigned> Seed("seed", cl::desc("sampling seed"), cl::init(1));

namespace {

struct NearMiss {
  std::string Spelling;
  Form Origin;      // the form it was derived from
  std::string How;  // the mutation, for messages
  /// The form the table reads it as, when it is one in another qualifier
  /// order (ptxas must accept it); otherwise the table refuses it.
  std::optional<Form> Reordered;
};

std::string join(StringRef Family, ArrayRef<std::string> Quals) {
  std::string S = Family.str();
  for (const std::string &Q : Quals)
    S += "." + Q;
  return S;
}

bool isVector(StringRef T) { return T == "v2" || T == "v4" || T == "v8"; }

/// Operands for a refused near-miss: the origin's, with any replaced type and
/// vector size carried over, so ptxas judges the spelling, not the registers.
Form deriveForm(const NearMiss &N) {
  Form F = N.Origin;
  F.Spelling = N.Spelling;
  auto Old = splitSpelling(N.Origin.Spelling), New = splitSpelling(N.Spelling);
  std::optional<PtxType> From, To;
  for (StringRef T : Old)
    if (parsePtxType(T) && !llvm::is_contained(New, T))
      From = parsePtxType(T);
  for (StringRef T : New)
    if (parsePtxType(T) && !llvm::is_contained(Old, T))
      To = parsePtxType(T);
  unsigned OldVec = 1, NewVec = 1;
  for (StringRef T : Old)
    if (isVector(T))
      T.drop_front().getAsInteger(10, OldVec);
  for (StringRef T : New)
    if (isVector(T))
      T.drop_front().getAsInteger(10, NewVec);
  for (OperandSpec &O : F.Operands) {
    if (From && To && O.Type == *From)
      O.Type = *To;
    if (OldVec != NewVec && (O.Regs == OldVec) && (F.Kind == FormKind::Memory))
      O.Regs = NewVec;
  }
  return F;
}

/// Whether `Re` matches `Spelling` with the qualifiers after its instruction
/// name in some order (up to 7 of them: 5040 orders).
bool matchesInAnyOrder(Regex &Re, StringRef Spelling) {
  if (Re.match(Spelling))
    return true;
  SmallVector<StringRef, 8> Toks = splitSpelling(Spelling);
  unsigned Name = OpcodeTable::get().nameTokens(Toks);
  SmallVector<StringRef, 8> Rest(Toks.begin() + Name, Toks.end());
  if (Rest.size() > 7)
    return false;
  llvm::sort(Rest);
  do {
    std::string S = join(ArrayRef<StringRef>(Toks).take_front(Name), ".");
    for (StringRef T : Rest)
      S += "." + T.str();
    if (Re.match(S))
      return true;
  } while (std::next_permutation(Rest.begin(), Rest.end()));
  return false;
}

} // namespace

int main(int Argc, char **Argv) {
  cl::ParseCommandLineOptions(Argc, Argv, "negative certification of the tileapply table\n");
  auto Start = std::chrono::steady_clock::now();
  const OpcodeTable &T = OpcodeTable::get();
  std::mt19937 Rng(Seed);

  // Every candidate, per family, deduplicated; the table's own forms excluded.
  std::map<std::string, std::vector<NearMiss>> PerFamily;
  std::set<std::string> Seen;
  std::vector<std::string> AllTypes;
  for (PtxType P : {PtxType::b8,    PtxType::b16,  PtxType::b32,   PtxType::b64,    PtxType::b128,
                    PtxType::u8,    PtxType::u16,  PtxType::u32,   PtxType::u64,    PtxType::s8,
                    PtxType::s16,   PtxType::s32,  PtxType::s64,   PtxType::f16,    PtxType::bf16,
                    PtxType::f32,   PtxType::f64,  PtxType::f16x2, PtxType::bf16x2, PtxType::f32x2,
                    PtxType::u16x2, PtxType::s16x2})
    AllTypes.push_back(ptxTypeName(P).str());
  for (const std::string &Fam : T.families()) {
    std::vector<Form> Forms;
    std::set<std::string> Vocab;
    T.forEachForm(Fam, [&](const Form &F) {
      Forms.push_back(F);
      auto Toks = splitSpelling(F.Spelling);
      for (size_t I = 1; I < Toks.size(); ++I)
        Vocab.insert(Toks[I].str());
    });
    std::vector<std::string> VocabList(Vocab.begin(), Vocab.end());
    // Mutate a sample of a big family's forms (ld has tens of thousands):
    // the near misses of 1500 forms are already far more than its share.
    std::shuffle(Forms.begin(), Forms.end(), Rng);
    if (Forms.size() > FormsPerFamily)
      Forms.resize(FormsPerFamily);
    auto &Out = PerFamily[Fam];
    auto Offer = [&](const Form &F, std::vector<std::string> Q, const char *How) {
      std::string S = join(Fam, Q);
      if (!Seen.insert(S).second)
        return;
      // Spellings the table refuses, and forms in another qualifier order;
      // its own canonical forms are certify's job.
      std::optional<Form> Found = T.find(S);
      if (!Found)
        Out.push_back({S, F, How, std::nullopt});
      else if (Found->Canonical != S)
        Out.push_back({S, F, How, std::move(Found)});
    };
    for (const Form &F : Forms) {
      auto Toks = splitSpelling(F.Spelling);
      std::vector<std::string> Q;
      for (size_t I = 1; I < Toks.size(); ++I)
        Q.push_back(Toks[I].str());
      for (size_t I = 0; I < Q.size(); ++I) {
        auto D = Q;
        D.erase(D.begin() + I);
        Offer(F, D, "drop");
        if (I + 1 < Q.size()) {
          auto S = Q;
          std::swap(S[I], S[I + 1]);
          Offer(F, S, "swap");
        }
        auto R = Q;
        R[I] = VocabList[Rng() % VocabList.size()];
        Offer(F, R, "replace");
        if (parsePtxType(Q[I])) {
          auto W = Q;
          W[I] = AllTypes[Rng() % AllTypes.size()];
          Offer(F, W, "type");
        }
        if (isVector(Q[I]))
          for (const char *V : {"v2", "v4", "v8"}) {
            auto W = Q;
            W[I] = V;
            Offer(F, W, "vector");
          }
      }
      if (Q.size() > 1) {
        auto Sh = Q;
        std::shuffle(Sh.begin(), Sh.end(), Rng);
        Offer(F, Sh, "shuffle");
      }
      auto A = Q;
      // One draw per statement: the order in which a compiler evaluates
      // function arguments is unspecified, and the sample must not depend on it.
      size_t At = Rng() % (Q.size() + 1);
      const std::string &Extra = VocabList[Rng() % VocabList.size()];
      A.insert(A.begin() + At, Extra);
      Offer(F, A, "add");
      if (F.Kind == FormKind::Memory && !llvm::any_of(Q, isVector)) {
        auto V = Q;
        V.insert(V.end() - 1, "v8");
        Offer(F, V, "vector");
      }
    }
    std::shuffle(Out.begin(), Out.end(), Rng);
  }
  // A fair share per family, the remainder to whoever has more.
  std::vector<NearMiss> Sample;
  size_t Families = PerFamily.size(), Budget = Count;
  std::vector<std::pair<size_t, std::string>> BySize;
  for (auto &[Fam, V] : PerFamily)
    BySize.push_back({V.size(), Fam});
  llvm::sort(BySize);
  for (auto &[Size, Fam] : BySize) {
    size_t Share = Budget / Families--;
    auto &V = PerFamily[Fam];
    size_t Take = std::min(Share, V.size());
    Sample.insert(Sample.end(), V.begin(), V.begin() + Take);
    Budget -= Take;
  }

  // ptxas decides. Batch 0: the spellings the table refuses, at the newest
  // target; the others: the reordered forms, at each one's floor.
  std::vector<PtxBatch> Batches{{NewestArch, NewestPtx, {}}};
  std::vector<std::pair<size_t, size_t>> Where; // per sample: batch, line
  std::map<std::pair<std::string, unsigned>, size_t> BatchOf;
  for (const NearMiss &N : Sample) {
    if (!N.Reordered) {
      Where.push_back({0, Batches[0].Lines.size()});
      Batches[0].Lines.push_back(renderInstruction(deriveForm(N), false, false));
      continue;
    }
    const Form &F = *N.Reordered;
    // Rendered with every operand, optional ones included: at their floor.
    Target At = F.OnlyOn.empty() ? Target{std::max(F.minSm(true), 75u), 0, 0} : F.OnlyOn.front();
    unsigned Ptx = std::max(F.minPtx(true), ptxForTarget(At));
    auto [It, New] = BatchOf.try_emplace({At.name(), Ptx}, Batches.size());
    if (New)
      Batches.push_back({At.name(), Ptx, {}});
    Where.push_back({It->second, Batches[It->second].Lines.size()});
    Batches[It->second].Lines.push_back(renderInstruction(F, false, false));
  }
  std::vector<std::map<size_t, std::string>> Refused;
  std::string Err;
  size_t Files = 0;
  if (!assembleBatches(Ptxas, OutDir, Batches, Jobs, Chunk, Refused, Err, &Files)) {
    errs() << "tileapply-nearmiss: " << Err << "\n";
    return 2;
  }

  // ptxas reports some errors on another instruction's line (tcgen05 at
  // sm_100a): a reordered spelling it refused is assembled again on its own
  // before it counts as a disagreement.
  {
    std::vector<PtxBatch> Alone;
    std::vector<std::pair<size_t, size_t>> Origin; // (batch, line) of each
    for (size_t I = 0; I < Sample.size(); ++I) {
      auto [Batch, Line] = Where[I];
      if (!Sample[I].Reordered || !Refused[Batch].count(Line))
        continue;
      Alone.push_back(
          {Batches[Batch].Arch, Batches[Batch].PtxVersion, {Batches[Batch].Lines[Line]}});
      Origin.push_back({Batch, Line});
    }
    std::vector<std::map<size_t, std::string>> AloneRefused;
    if (!Alone.empty() &&
        !assembleBatches(Ptxas, OutDir + "/alone", Alone, Jobs, 1, AloneRefused, Err, &Files)) {
      errs() << "tileapply-nearmiss: " << Err << "\n";
      return 2;
    }
    for (size_t K = 0; K < Alone.size(); ++K)
      if (!AloneRefused[K].count(0))
        Refused[Origin[K].first].erase(Origin[K].second);
  }

  StringMap<std::string> Expected;
  std::vector<std::pair<std::string, std::unique_ptr<Regex>>> Patterns;
  if (!Known.empty()) {
    std::vector<KnownEntry> Entries;
    std::string Error;
    if (!readKnownList(Known, Entries, Error)) {
      errs() << Error << "\n";
      return 2;
    }
    for (const KnownEntry &E : Entries) {
      StringRef Spelling = E.Key;
      if (Spelling.consume_front("pattern:")) {
        std::unique_ptr<Regex> R = wholeMatch(Spelling, Error);
        if (!R) {
          errs() << Known << ": bad pattern '" << Spelling << "': " << Error << "\n";
          return 2;
        }
        Patterns.push_back({Spelling.str(), std::move(R)});
        continue;
      }
      Expected[Spelling] = E.Note;
    }
  }

  // The class of a disagreement, if it belongs to one.
  auto ClassOf = [](StringRef Spelling, const LookupResult &R) -> std::string {
    auto Toks = splitSpelling(Spelling);
    std::set<StringRef> Unique(Toks.begin(), Toks.end());
    if (Unique.size() != Toks.size())
      return "class:RepeatedQualifier";
    bool Memory = Toks[0] == "ld" || Toks[0] == "st" || Toks[0] == "ldu";
    if (Toks[0] == "ldu" &&
        !llvm::any_of(Toks, [](StringRef T) { return parseSpace(T).has_value(); }))
      return "class:GenericAddress";
    if (Memory && llvm::is_contained(Toks, "v8") && llvm::any_of(Toks, [](StringRef T) {
          auto Ty = parsePtxType(T);
          return Ty && ptxTypeBits(*Ty) <= 16;
        }))
      return "class:NarrowVector8";
    auto IsCacheOp = [](StringRef T) {
      return T == "ca" || T == "cg" || T == "cs" || T == "lu" || T == "cv" || T == "wb" ||
             T == "wt";
    };
    auto IsEviction = [](StringRef T) { return T.contains("::evict_") || T == "L1::no_allocate"; };
    if (Memory && llvm::any_of(Toks, IsCacheOp) && llvm::any_of(Toks, IsEviction))
      return "class:CacheOpAndEviction";
    return "";
  };
  std::map<std::string, size_t> ClassCounts;
  size_t Agree = 0, KnownDis = 0, NewDis = 0, ByDesign = 0, Reorders = 0;
  std::map<std::string, std::pair<size_t, size_t>> FamilyCounts; // sampled, agreed
  for (size_t I = 0; I < Sample.size(); ++I) {
    const NearMiss &N = Sample[I];
    auto &FC = FamilyCounts[N.Origin.Family.str()];
    ++FC.first;
    auto [Batch, Line] = Where[I];
    if (N.Reordered) {
      auto Why = Refused[Batch].find(Line);
      if (Why == Refused[Batch].end()) {
        ++Reorders;
        ++FC.second;
        continue;
      }
      ++NewDis;
      outs() << "NEW the table accepts '" << N.Spelling << "' (" << N.How << " of "
             << N.Origin.Spelling << ") as '" << N.Reordered->Canonical << "', ptxas refuses it at "
             << Batches[Batch].Arch << ": " << Why->second << "\n    " << Batches[Batch].Lines[Line]
             << "\n";
      continue;
    }
    if (Refused[0].count(Line)) {
      ++Agree;
      ++FC.second;
      continue;
    }
    LookupResult R = T.lookup(N.Spelling, /*Suggest=*/false);
    if (R.Problem.K == SpellingProblem::Unsupported) {
      ++ByDesign;
      ++FC.second;
      continue;
    }
    std::string Class = ClassOf(N.Spelling, R);
    // A pattern matches the spelling with its qualifiers in any order (the
    // instruction name first): ptxas reads them so, and a pattern need not
    // list every order.
    if (Class.empty())
      for (auto &[Text, Re] : Patterns)
        if (matchesInAnyOrder(*Re, N.Spelling)) {
          Class = "pattern:" + Text;
          break;
        }
    if (!Class.empty() && (Expected.count(Class) || Class.rfind("pattern:", 0) == 0)) {
      ++ClassCounts[Class];
      ++KnownDis;
      continue;
    }
    if (WriteKnown && Class.empty())
      outs() << N.Spelling << "\ttable-refuses\t" << N.How << " of " << N.Origin.Spelling << "; "
             << R.Problem.Message << "\n";
    if (Expected.count(N.Spelling)) {
      ++KnownDis;
      continue;
    }
    ++NewDis;
    if (!WriteKnown)
      outs() << "NEW ptxas accepts '" << N.Spelling << "' (" << N.How << " of " << N.Origin.Spelling
             << ") at " << NewestArch << ", the table refuses it: " << R.Problem.Message << "\n";
  }
  double Secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  if (!WriteKnown) {
    for (auto &[Fam, C] : FamilyCounts)
      outs() << "  " << Fam << ": " << C.first << " near misses, " << C.second << " agree\n";
    for (auto &[Class, N] : ClassCounts)
      outs() << "  " << Class << ": " << N << " expected disagreements\n";
    outs() << Sample.size() << " near misses over " << FamilyCounts.size() << " families: " << Agree
           << " refused by both, " << Reorders
           << " accepted by both (qualifiers in another order), " << ByDesign
           << " outside the supported set by design, " << KnownDis << " known disagreements, "
           << NewDis << " new disagreements (" << Files << " ptxas runs, " << format("%.1f", Secs)
           << " s)\n";
  }
  return NewDis ? 1 : 0;
}

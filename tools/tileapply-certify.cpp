//===- tileapply-certify.cpp - Prove every table form with ptxas -----------===//
//
// Renders every form of the PTX table through renderAsm(), the function the
// pass emits with, substitutes registers of the classes LLVM's NVPTX backend
// declares for each constraint, and assembles the result with ptxas at the
// form's own floor: max(MinSm, oldest target ptxas supports), with .version
// max(MinPtx, what that target needs). Every form that writes a destination is
// also assembled predicated, with the destination unspecified and preserved.
//
//   tileapply-certify --ptxas PATH --out DIR [--family F] [--jobs N]
//
// Prints one FAIL line per form ptxas refuses (with ptxas's message) and a
// summary; exits 1 on any failure.
//
//===----------------------------------------------------------------------===//
#include "tileapply/core/AsmRender.h"
#include "tileapply/core/OpcodeTable.h"
#include "tileapply/core/Target.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
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
static cl::opt<unsigned> OldestSm("oldest-sm", cl::desc("oldest target ptxas accepts"),
                                  cl::init(75));

/// The PTX ISA version a target needs at least (ptxas refuses older ones).
static unsigned ptxForTarget(unsigned Sm) {
  if (Sm >= 120) return 87;
  if (Sm >= 100) return 86;
  if (Sm >= 90) return 78;
  if (Sm >= 89) return 78;
  if (Sm >= 86) return 71;
  if (Sm >= 80) return 70;
  return 63; // sm_75
}

/// A carrier that yields the register class LLVM declares for this PTX type.
static DType carrierFor(PtxType T) {
  switch (ptxTypeBits(T)) {
  case 1: return TILEAPPLY_DT_BOOL;
  case 8: return TILEAPPLY_DT_U8;
  case 16: return TILEAPPLY_DT_U16;
  case 64: return T == PtxType::f64 ? TILEAPPLY_DT_F64 : TILEAPPLY_DT_U64;
  default: return T == PtxType::f32 ? TILEAPPLY_DT_F32 : TILEAPPLY_DT_U32;
  }
}

/// LLVM 22 declares untyped registers: .b16 for c/h, .b32 for r/f, .b64 for l/d.
static std::string regName(char Constraint, unsigned N) {
  switch (Constraint) {
  case 'b': return "%p" + std::to_string(N);
  case 'c':
  case 'h': return "%rs" + std::to_string(N);
  case 'l':
  case 'd': return "%rd" + std::to_string(N);
  default: return "%r" + std::to_string(N);
  }
}

struct Line {
  std::string Form, Variant, Text;
};

/// The instruction text of one variant, registers substituted for $N.
static std::string instantiate(const Form &F, bool Pred, bool Preserve) {
  std::vector<AsmOperandBinding> B;
  for (const OperandSpec &O : F.Operands)
    B.push_back(O.Direction == Dir::Addr
                    ? AsmOperandBinding{AsmOperandBinding::Address, TILEAPPLY_DT_UNKNOWN, ""}
                    : AsmOperandBinding{AsmOperandBinding::Register, carrierFor(O.Type), ""});
  AsmStatement S = renderAsm(F, B, Pred, Preserve);
  std::vector<std::string> Names;
  for (unsigned I = 0; I < S.Slots.size(); ++I) {
    const AsmSlot &Sl = S.Slots[I];
    // A tied input is the output register it is tied to.
    if (Sl.R == AsmSlot::TiedOldValue) {
      unsigned Tied = 0;
      StringRef Cons = StringRef(S.Constraints).split(',').first;
      (void)Cons;
      SmallVector<StringRef, 16> Parts;
      StringRef(S.Constraints).split(Parts, ',');
      Parts[I].getAsInteger(10, Tied);
      Names.push_back(Names[Tied]);
      continue;
    }
    Names.push_back(regName(Sl.Constraint, I + 1));
  }
  std::string Out;
  StringRef T = S.Text;
  for (size_t P = 0; P < T.size(); ++P) {
    if (T[P] == '$' && P + 1 < T.size() && isDigit(T[P + 1])) {
      size_t E = P + 1;
      while (E < T.size() && isDigit(T[E]))
        ++E;
      unsigned N = 0;
      T.substr(P + 1, E - P - 1).getAsInteger(10, N);
      Out += Names[N];
      P = E - 1;
    } else {
      Out += T[P];
    }
  }
  return Out;
}

int main(int Argc, char **Argv) {
  cl::ParseCommandLineOptions(Argc, Argv, "certify every form of the tileapply PTX table\n");
  auto Start = std::chrono::steady_clock::now();
  // (sm, ptx) -> lines
  std::map<std::pair<unsigned, unsigned>, std::vector<Line>> Groups;
  size_t NumForms = 0;
  auto Visit = [&](const Form &F) {
    ++NumForms;
    unsigned Sm = std::max(F.MinSm, OldestSm.getValue());
    unsigned Ptx = std::max(F.MinPtx, ptxForTarget(Sm));
    auto &G = Groups[{Sm, Ptx}];
    G.push_back({F.Spelling, "plain", instantiate(F, false, false)});
    G.push_back({F.Spelling, "predicated", instantiate(F, true, false)});
    if (F.hasDestination())
      G.push_back({F.Spelling, "predicated+preserve_dst", instantiate(F, true, true)});
  };
  if (OnlyFamily.empty())
    OpcodeTable::get().forEachForm(Visit);
  else
    OpcodeTable::get().forEachForm(OnlyFamily, Visit);

  sys::fs::create_directories(OutDir);
  struct Job {
    std::string Ptx, Log;
    std::vector<Line> Lines;
    unsigned FirstLine;
    std::string Arch;
  };
  std::vector<Job> All;
  for (auto &[Key, Lines] : Groups) {
    for (size_t Begin = 0; Begin < Lines.size(); Begin += Chunk) {
      Job J;
      J.Arch = smName(Key.first);
      J.Ptx = (Twine(OutDir) + "/certify-" + J.Arch + "-ptx" + Twine(Key.second) + "-" +
               Twine(Begin / Chunk) + ".ptx").str();
      J.Log = J.Ptx + ".log";
      std::error_code EC;
      raw_fd_ostream OS(J.Ptx, EC);
      if (EC) {
        errs() << "cannot write " << J.Ptx << ": " << EC.message() << "\n";
        return 2;
      }
      OS << ".version " << ptxVersionName(Key.second) << "\n.target " << J.Arch
         << "\n.address_size 64\n\n.visible .entry certify()\n{\n"
         << "\t.reg .pred %p<64>;\n\t.reg .b16 %rs<64>;\n\t.reg .b32 %r<64>;\n"
         << "\t.reg .b64 %rd<64>;\n";
      J.FirstLine = 10; // the line of the first instruction
      size_t End = std::min(Lines.size(), Begin + Chunk);
      for (size_t I = Begin; I < End; ++I) {
        OS << "\t" << Lines[I].Text << "\n";
        J.Lines.push_back(Lines[I]);
      }
      OS << "\tret;\n}\n";
      All.push_back(std::move(J));
    }
  }

  // Run ptxas, Jobs at a time.
  std::string PtxasPath = Ptxas;
  if (!sys::fs::exists(PtxasPath)) {
    auto Found = sys::findProgramByName(Ptxas);
    if (!Found) {
      errs() << "ptxas not found: " << Ptxas << "\n";
      return 2;
    }
    PtxasPath = *Found;
  }
  size_t Failed = 0, Lines = 0;
  std::set<std::string> FailedForms;
  std::set<std::string> Archs;
  for (size_t Next = 0; Next < All.size();) {
    std::vector<std::pair<sys::ProcessInfo, size_t>> Running;
    for (; Next < All.size() && Running.size() < Jobs; ++Next) {
      Job &J = All[Next];
      std::string Cubin = J.Ptx + ".cubin";
      SmallVector<StringRef, 8> Args{PtxasPath, "-arch=" + J.Arch, J.Ptx, "-o", Cubin};
      std::string ArchArg = "-arch=" + J.Arch;
      Args[1] = ArchArg;
      std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(J.Log), StringRef(J.Log)};
      std::string Err;
      bool ExecFailed = false;
      sys::ProcessInfo PI = sys::ExecuteNoWait(PtxasPath, Args, std::nullopt, Redirects, 0,
                                               &Err, &ExecFailed);
      if (ExecFailed) {
        errs() << "cannot run ptxas: " << Err << "\n";
        return 2;
      }
      Running.push_back({PI, Next});
    }
    for (auto &[PI, Idx] : Running) {
      std::string Err;
      sys::ProcessInfo Done = sys::Wait(PI, std::nullopt, &Err);
      Job &J = All[Idx];
      Archs.insert(J.Arch);
      Lines += J.Lines.size();
      if (Done.ReturnCode == 0)
        continue;
      auto Buf = MemoryBuffer::getFile(J.Log);
      StringRef Log = Buf ? (*Buf)->getBuffer() : StringRef("(no log)");
      bool Mapped = false;
      SmallVector<StringRef, 64> LogLines;
      Log.split(LogLines, '\n');
      for (StringRef L : LogLines) {
        // "ptxas FILE, line N; error   : MESSAGE"
        size_t At = L.find(", line ");
        if (At == StringRef::npos || !L.contains("error"))
          continue;
        unsigned N = 0;
        StringRef Num = L.substr(At + 7).take_while(isDigit);
        if (Num.getAsInteger(10, N) || N < J.FirstLine || N - J.FirstLine >= J.Lines.size())
          continue;
        const Line &Bad = J.Lines[N - J.FirstLine];
        outs() << "FAIL " << Bad.Form << " (" << Bad.Variant << ") at " << J.Arch << ": "
               << L.substr(L.find(';') + 1).trim() << "\n    " << Bad.Text << "\n";
        FailedForms.insert(Bad.Form);
        ++Failed;
        Mapped = true;
      }
      if (!Mapped) {
        outs() << "FAIL " << J.Ptx << ": ptxas exited " << Done.ReturnCode << "\n" << Log;
        ++Failed;
      }
    }
  }
  double Secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  outs() << "certified " << NumForms - FailedForms.size() << " of " << NumForms << " forms ("
         << Lines << " instructions, " << All.size() << " PTX files) at "
         << join(Archs.begin(), Archs.end(), ", ") << " in " << format("%.1f", Secs) << " s; "
         << Failed << " failures\n";
  return Failed ? 1 : 0;
}

//===- PtxasHarness.cpp - Assemble rendered forms with ptxas ----------------===//
#include "PtxasHarness.h"
#include "tileapply/core/AsmRender.h"
#include "tileapply/core/Target.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

using namespace llvm;

namespace tileapply {

unsigned ptxForTarget(const Target &T) {
  // Family-specific targets arrived with PTX 8.8 (ptxas 13.0 agrees), the
  // sm_110 ones and every target newer than the table below with PTX 9.0.
  // (Measured with ptxas 13.0: one version older is refused.)
  if (T.Sm >= 110)
    return 90;
  if (T.Suffix == 'f' || T.Sm == 103 || T.Sm == 121)
    return 88;
  if (T.Sm >= 120)
    return 87;
  if (T.Sm >= 100)
    return 86;
  if (T.Sm == 90 && T.Suffix == 'a')
    return 80;
  if (T.Sm >= 89)
    return 78;
  if (T.Sm == 88)
    return 73;
  if (T.Sm == 87)
    return 74;
  if (T.Sm >= 86)
    return 71;
  if (T.Sm >= 80)
    return 70;
  return 63; // sm_75
}

ArrayRef<unsigned> plainTargets() {
  static const unsigned Sms[] = {75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121};
  return Sms;
}
ArrayRef<unsigned> ptxVersions() {
  static const unsigned V[] = {63, 64, 65, 70, 71, 72, 73, 74, 75, 76, 77,
                               78, 80, 81, 82, 83, 84, 85, 86, 87, 88, 90};
  return V;
}

/// The register LLVM 22 declares for a constraint letter (dtypes.def), e.g.
/// "%rd3" for 'l'.
// Enough register names for the largest instruction (slot numbers start at 1).
static constexpr unsigned MaxAsmSlots = 600;

static std::string regName(char Constraint, unsigned N) {
  const AsmRegister *R = asmRegister(Constraint);
  return (R ? R->Prefix.str() : "%r") + std::to_string(N);
}

std::vector<CallShape> callShapes(const Form &F) {
  // Every operand bound (a copy, not a reference into Shapes: the vector
  // grows below).
  std::vector<AsmOperandBinding> Full;
  for (const OperandSpec &O : F.Operands)
    Full.push_back(
        O.Direction == Dir::Addr
            ? AsmOperandBinding{AsmOperandBinding::Address, TILEAPPLY_DT_UNKNOWN, ""}
        : O.Direction == Dir::Sink
            ? AsmOperandBinding{AsmOperandBinding::Sink, TILEAPPLY_DT_UNKNOWN, ""}
            : AsmOperandBinding{AsmOperandBinding::Register, naturalCarrier(O.Type), ""});
  std::vector<CallShape> Shapes;
  Shapes.push_back(CallShape{"", Full});
  if (F.numRequiredOperands() != F.numArgumentOperands()) {
    CallShape S{"without", Full};
    for (unsigned I = 0; I < F.Operands.size(); ++I)
      if (F.Operands[I].Optional) {
        S.Bindings[I].K = AsmOperandBinding::Omitted;
        S.Name += " " + F.Operands[I].Name;
      }
    Shapes.push_back(std::move(S));
  }
  for (unsigned I = 0; I < F.Operands.size(); ++I)
    if (F.Operands[I].Negatable) {
      CallShape S{F.Operands[I].Name + " negated", Full};
      S.Bindings[I].Negated = true;
      Shapes.push_back(std::move(S));
    }
  // A carry chain: its statement with 2, 3 and 4 repeats too (first,
  // middle and last instructions).
  if (F.isChain())
    for (unsigned N = 2; N <= 4; ++N) {
      CallShape S{"chain of " + std::to_string(N), Full};
      S.ChainLength = N;
      Shapes.push_back(std::move(S));
    }
  for (unsigned I = 0; I < F.Operands.size(); ++I) {
    const OperandSpec &O = F.Operands[I];
    if (!O.Splittable)
      continue;
    // The groups the layout rules accept (splitPartType), in the part type's
    // natural carrier: "a as 2 x b64" is {%rd.., %rd..}.
    for (unsigned Parts : SplitGroupSizes) {
      std::optional<PtxType> Part = splitPartType(O.Type, Parts);
      if (!Part)
        continue;
      CallShape S{O.Name + " as " + std::to_string(Parts) + " x " + ptxTypeName(*Part).str(), Full};
      S.Bindings[I].Carrier = naturalCarrier(*Part);
      S.Bindings[I].Split = Parts;
      Shapes.push_back(std::move(S));
    }
  }
  return Shapes;
}

std::string renderInstruction(const Form &F, bool Pred, bool Preserve) {
  return renderInstruction(F, callShapes(F).front(), Pred, Preserve);
}

std::string renderInstruction(const Form &F, const CallShape &Shape, bool Pred, bool Preserve) {
  AsmStatement S = renderAsm(F, Shape.Bindings, Pred, Preserve, Shape.ChainLength);
  SmallVector<StringRef, 16> Cons;
  StringRef(S.Constraints).split(Cons, ',');
  std::vector<std::string> Names;
  for (unsigned I = 0; I < S.Slots.size(); ++I) {
    unsigned Tied = 0;
    // A tied input names the output register it is tied to.
    if (S.Slots[I].R == AsmSlot::TiedOldValue && !Cons[I].getAsInteger(10, Tied) &&
        Tied < Names.size())
      Names.push_back(Names[Tied]);
    else
      Names.push_back(regName(S.Slots[I].Constraint, I + 1));
  }
  std::string Out;
  StringRef T = S.Text;
  for (size_t P = 0; P < T.size(); ++P) {
    // A multi-instruction statement on one line: a refusal names its line.
    if (T[P] == '\n' || T[P] == '\t') {
      if (P + 1 < T.size() && T[P] == '\n')
        Out += ' ';
      continue;
    }
    if (T[P] == '$' && P + 1 < T.size() && isDigit(T[P + 1])) {
      size_t E = P + 1;
      while (E < T.size() && isDigit(T[E]))
        ++E;
      unsigned N = 0;
      T.substr(P + 1, E - P - 1).getAsInteger(10, N);
      Out += N < Names.size() ? Names[N] : "%r0";
      P = E - 1;
    } else {
      Out += T[P];
    }
  }
  return Out;
}

namespace {
struct File {
  size_t Batch;
  std::vector<size_t> Lines; // indices into the batch
  std::string Path;
  unsigned FirstLine = 0; // line of the first instruction, set by writeFile
};

bool writeFile(File &F, const PtxBatch &B, std::string &Err) {
  std::error_code EC;
  raw_fd_ostream OS(F.Path, EC);
  if (EC) {
    Err = "cannot write " + F.Path + ": " + EC.message();
    return false;
  }
  std::string Header;
  raw_string_ostream H(Header);
  H << ".version " << ptxVersionName(B.PtxVersion) << "\n.target " << B.Arch
    << "\n.address_size 64\n\n.visible .entry certify()\n{\n";
  // One declaration per register prefix. .b128 registers only where a line
  // uses one: ptxas refuses the declaration itself below PTX ISA 8.3, which
  // would fail every line of an older file.
  std::set<std::string> Declared;
  for (const AsmRegister &R : asmRegisters()) {
    if (!Declared.insert(R.Prefix.str()).second)
      continue;
    // Below PTX ISA 8.3 (a check one version below a floor) a line that uses
    // one is refused on its own line (an undeclared register) instead.
    if (R.PtxClass == "b128" &&
        (B.PtxVersion < 83 ||
         !llvm::any_of(
             F.Lines, [&](size_t L) { return StringRef(B.Lines[L]).contains(R.Prefix); })))
      continue;
    // Registers are numbered by asm slot: a wgmma with 128 accumulators, its
    // tied old values and its other operands needs more than 256 names.
    H << "\t.reg ." << R.PtxClass << " " << R.Prefix << "<" << MaxAsmSlots << ">;\n";
  }
  F.FirstLine = static_cast<unsigned>(llvm::count(Header, '\n')) + 1;
  OS << Header;
  for (size_t L : F.Lines)
    OS << "\t" << B.Lines[L] << "\n";
  OS << "\tret;\n}\n";
  return true;
}
} // namespace

bool assembleBatches(const std::string &Ptxas, const std::string &Dir,
                     const std::vector<PtxBatch> &Batches, unsigned Jobs, unsigned Chunk,
                     std::vector<std::map<size_t, std::string>> &Refused, std::string &Err,
                     size_t *FilesRun) {
  std::string PtxasPath = Ptxas;
  if (!sys::fs::exists(PtxasPath)) {
    auto Found = sys::findProgramByName(Ptxas);
    if (!Found) {
      Err = "ptxas not found: " + Ptxas;
      return false;
    }
    PtxasPath = *Found;
  }
  sys::fs::create_directories(Dir);
  Refused.assign(Batches.size(), {});
  std::vector<File> Pending;
  // At most Chunk lines and about MaxFileBytes of text per file: ptxas's
  // time grows faster than the function's size (2,150 wgmma n<=256 lines in
  // one function take minutes, in 300-line functions seconds).
  constexpr size_t MaxFileBytes = 64 * 1024;
  for (size_t B = 0; B < Batches.size(); ++B) {
    File F{B, {}, ""};
    size_t Bytes = 0;
    for (size_t L = 0; L < Batches[B].Lines.size(); ++L) {
      if (!F.Lines.empty() && (F.Lines.size() >= Chunk || Bytes >= MaxFileBytes)) {
        Pending.push_back(std::move(F));
        F = File{B, {}, ""};
        Bytes = 0;
      }
      F.Lines.push_back(L);
      Bytes += Batches[B].Lines[L].size();
    }
    if (!F.Lines.empty())
      Pending.push_back(std::move(F));
  }
  size_t Counter = 0;
  while (!Pending.empty()) {
    std::vector<File> Retry;
    for (size_t Next = 0; Next < Pending.size();) {
      std::vector<std::pair<sys::ProcessInfo, File *>> Running;
      for (; Next < Pending.size() && Running.size() < Jobs; ++Next) {
        File &F = Pending[Next];
        const PtxBatch &B = Batches[F.Batch];
        F.Path = Dir + "/" + B.Arch + "-" + std::to_string(Counter++) + ".ptx";
        if (!writeFile(F, B, Err))
          return false;
        std::string ArchArg = "-arch=" + B.Arch, Out = F.Path + ".cubin", Log = F.Path + ".log";
        // -O0: whether ptxas accepts a line is its front end's verdict, the
        // same at every optimization level (the certification and near-miss
        // samples agree at -O0 and -O3); the optimizer only costs time, four
        // times as much on files of atomics.
        SmallVector<StringRef, 7> Args{PtxasPath, "-O0", ArchArg, F.Path, "-o", Out};
        std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(Log), StringRef(Log)};
        bool ExecFailed = false;
        sys::ProcessInfo PI =
            sys::ExecuteNoWait(PtxasPath, Args, std::nullopt, Redirects, 0, &Err, &ExecFailed);
        if (ExecFailed)
          return false;
        Running.push_back({PI, &F});
      }
      for (auto &[PI, F] : Running) {
        sys::ProcessInfo Done = sys::Wait(PI, std::nullopt);
        if (FilesRun)
          ++*FilesRun;
        if (Done.ReturnCode == 0)
          continue;
        auto Buf = MemoryBuffer::getFile(F->Path + ".log");
        StringRef Log = Buf ? (*Buf)->getBuffer() : StringRef();
        SmallVector<StringRef, 64> LogLines;
        Log.split(LogLines, '\n');
        std::map<size_t, std::string> &R = Refused[F->Batch];
        size_t Mapped = 0;
        for (StringRef L : LogLines) {
          // "ptxas FILE, line N; error   : MESSAGE"
          size_t At = L.find(", line ");
          if (At == StringRef::npos || !L.contains("error"))
            continue;
          unsigned N = 0;
          if (L.substr(At + 7).take_while(isDigit).getAsInteger(10, N) || N < F->FirstLine ||
              N - F->FirstLine >= F->Lines.size())
            continue;
          size_t Idx = F->Lines[N - F->FirstLine];
          if (!R.count(Idx)) {
            R[Idx] = L.substr(L.find(';') + 1).trim().str();
            ++Mapped;
          }
        }
        if (!Mapped) {
          // Refused with no line to blame (ptxas crashed, or a fatal error):
          // bisect until the culprit is a single line.
          if (F->Lines.size() == 1) {
            R.emplace(F->Lines[0], "ptxas failed without a line number (exit status " +
                                       std::to_string(Done.ReturnCode) + ")");
            continue;
          }
          size_t Half = F->Lines.size() / 2;
          Retry.push_back({F->Batch, {F->Lines.begin(), F->Lines.begin() + Half}, ""});
          Retry.push_back({F->Batch, {F->Lines.begin() + Half, F->Lines.end()}, ""});
          continue;
        }
        // Re-assemble the rest, so that no refused line hides another.
        File Rest{F->Batch, {}, ""};
        for (size_t Idx : F->Lines)
          if (!R.count(Idx))
            Rest.Lines.push_back(Idx);
        if (!Rest.Lines.empty())
          Retry.push_back(std::move(Rest));
      }
    }
    Pending = std::move(Retry);
  }
  return true;
}

bool readKnownList(const std::string &Path, std::vector<KnownEntry> &Out, std::string &Err) {
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf) {
    Err = "cannot read " + Path;
    return false;
  }
  SmallVector<StringRef, 64> Lines;
  (*Buf)->getBuffer().split(Lines, '\n');
  for (StringRef L : Lines) {
    if (L.trim().empty() || L.starts_with("#"))
      continue;
    auto [Key, Rest] = L.split('\t');
    Out.push_back({L.str(), Key.trim().str(), Rest.split('\t').first.trim().str()});
  }
  return true;
}

std::unique_ptr<Regex> wholeMatch(StringRef Pattern, std::string &Err) {
  auto R = std::make_unique<Regex>(("^(" + Pattern + ")$").str());
  if (!R->isValid(Err))
    return nullptr;
  return R;
}

} // namespace tileapply

//===- tileapply-opcodes.cpp - List and check the forms of the PTX table --===//
//
//   tileapply-opcodes --json              every form, one JSON object a line
//   tileapply-opcodes --check SPELLING... whether each spelling is a form
//   tileapply-opcodes --markdown          the reference page (docs/reference/)
//   tileapply-opcodes --stats             forms per family
//   tileapply-opcodes --check-table       every row well formed (the build runs it)
//   tileapply-opcodes --version           the tileapply version
//
//===----------------------------------------------------------------------===//
#include "tileapply/core/CallRules.h"
#include "tileapply/core/OpcodeTable.h"
#include "tileapply/core/Target.h"
#include "tileapply/version.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

using namespace llvm;
using namespace tileapply;

/// "sm_90+, PTX ISA 7.8+" or "sm_100a or sm_103a only, PTX ISA 8.7+".
static std::string floorText(const Form &F, bool WithOptional) {
  return F.targetsText(WithOptional) + (F.OnlyOn.empty() ? "+" : " only") + ", PTX ISA " +
         ptxVersionName(F.minPtx(WithOptional)) + "+";
}

/// The floor, and where passing the optional operands raises it, that too.
static std::string fullFloorText(const Form &F) {
  std::string S = floorText(F, false);
  if (F.optionalRaisesFloor()) {
    std::string Names;
    for (const OperandSpec &O : F.Operands)
      if (O.Optional)
        Names += (Names.empty() ? "" : ", ") + O.Name;
    S += "; with " + Names + ": " + floorText(F, true);
  }
  return S;
}

static json::Object formJson(const Form &F) {
  json::Array Ops;
  for (const OperandSpec &O : F.Operands) {
    json::Object J{{"name", O.Name}, {"dir", dirName(O.Direction)}};
    if (O.Direction == Dir::Addr) {
      J["reg"] = "u64";
      J["space"] = spaceName(O.AddrSpace);
      J["type"] = ptxTypeName(O.Type);
      if (O.WritesMemory)
        J["writes"] = true;
    } else {
      J["reg"] = ptxRegisterType(O.Type);
    }
    if (O.Direction == Dir::Imm) {
      J["imm"] = json::Array{O.ImmLo, O.ImmHi};
      if (O.ImmStep > 1)
        J["step"] = O.ImmStep;
      if (!O.ImmValues.empty()) {
        json::Array Vs;
        for (int64_t V : O.ImmValues)
          Vs.push_back(V);
        J["values"] = std::move(Vs); // only these
      }
    }
    if (O.Optional)
      J["optional"] = true;
    if (O.Splittable)
      J["split"] = true; // also takes {a, b} / {a, b, c, d} of narrower registers
    if (O.JoinedByBar)
      J["join"] = "|"; // PTX writes it as prev|this
    if (O.Negatable)
      J["negate"] = true; // PTX's {!}c: tile::negated(c) writes !c
    if (O.Bracketed)
      J["brackets"] = true; // a register written [%r] (a Tensor Memory address)
    if (O.Braced)
      J["braces"] = true; // a PTX vector {%r1} even when "regs" is 1
    if (O.InBrackets)
      J["in_brackets"] = true; // inside the previous address's brackets: [tmap, {x, y}]
    if (O.RegisterOnly)
      J["register_only"] = true; // never an immediate
    J["regs"] = O.Regs;
    Ops.push_back(std::move(J));
  }
  json::Object J{{"opcode", F.Spelling},
                 {"family", F.Family},
                 {"sm", F.MinSm},
                 {"ptx", ptxVersionName(F.MinPtx)},
                 {"operands", std::move(Ops)}};
  if (!F.OnlyOn.empty()) {
    json::Array Targets;
    for (const Target &T : F.OnlyOn)
      Targets.push_back(T.name());
    J["targets"] = std::move(Targets); // only these; "sm" is the lowest of them
  }
  if (F.optionalRaisesFloor()) {
    // The floor of a call that passes the optional operands.
    J["optional_sm"] = F.minSm(true);
    J["optional_ptx"] = ptxVersionName(F.minPtx(true));
    if (!F.OptionalOnlyOn.empty()) {
      json::Array Targets;
      for (const Target &T : F.OptionalOnlyOn)
        Targets.push_back(T.name());
      J["optional_targets"] = std::move(Targets);
    }
  }
  // Multi-instruction forms: one repeat's instructions, or a carry chain's
  // later spellings (one statement per call).
  if (!F.Body.empty())
    J["body"] = F.expandSpelling(F.Body);
  if (F.isChain())
    J["chain"] = json::Array{F.expandSpelling(F.ChainMiddle), F.expandSpelling(F.ChainLast)};
  return J;
}

static int listJson() {
  OpcodeTable::get().forEachForm([](const Form &F) { outs() << json::Value(formJson(F)) << "\n"; });
  return 0;
}

static int check(ArrayRef<const char *> Spellings) {
  int Bad = 0;
  for (StringRef S : Spellings) {
    LookupResult R = OpcodeTable::get().lookup(S);
    if (R) {
      outs() << S << ": ok: " << R.Found->Spelling
             << (R.Found->Canonical != R.Found->Spelling
                     ? " (the PTX ISA's order: " + R.Found->Canonical + ")"
                     : std::string())
             << ", " << fullFloorText(*R.Found) << "\n";
      continue;
    }
    ++Bad;
    Problem P = spellingProblem(R.Problem);
    outs() << S << ": error: " << P.Message << " [" << diagName(P.Code) << "]\n";
  }
  return Bad ? 1 : 0;
}

/// The build runs this: every row parses, every form of every row can be
/// made, no spelling comes from two rows. A bad row stops the build here,
/// never a user's compile.
static int checkTable() {
  std::vector<std::string> Problems = OpcodeTable::checkRows();
  for (const std::string &P : Problems)
    errs() << "tileapply PTX table: " << P << "\n";
  if (!Problems.empty())
    return 1;
  size_t Forms = 0;
  OpcodeTable::get().forEachForm([&](const Form &) { ++Forms; });
  outs() << "PTX table: " << OpcodeTable::get().numPatterns() << " rows, " << Forms
         << " forms, no problems\n";
  return 0;
}

static std::map<std::string, std::pair<size_t, size_t>> countByFamily() {
  std::map<std::string, std::pair<size_t, size_t>> N; // forms, rows
  const OpcodeTable &T = OpcodeTable::get();
  for (unsigned I = 0; I < T.numPatterns(); ++I) {
    StringRef Text = T.patternText(I);
    ++N[Text.substr(0, Text.find_first_of(".{")).str()].second;
  }
  T.forEachForm([&](const Form &F) { ++N[F.Family.str()].first; });
  return N;
}

static int stats() {
  size_t Total = 0, Memory = 0;
  for (const auto &[Fam, Counts] : countByFamily()) {
    outs() << Fam << "\t" << Counts.first << " forms\t" << Counts.second << " rows\n";
    Total += Counts.first;
  }
  OpcodeTable::get().forEachForm([&](const Form &F) { Memory += F.Kind == FormKind::Memory; });
  outs() << "total\t" << Total << " forms (" << Total - Memory << " without memory forms)\n";
  return 0;
}

/// "sm_70+, PTX ISA 7.4+": the floor an alternative raises a form to.
static std::string alternativeFloorText(const AlternativeFloor &A) {
  return smName(A.Sm) + "+, PTX ISA " + ptxVersionName(A.Ptx) + "+";
}

/// Alternatives grouped by floor, oldest first: "sm_75+, PTX ISA 7.4+:
/// `.L2::64B` `.L2::128B`; sm_80+, PTX ISA 7.4+: `.L2::256B`". Those without
/// a floor are left out.
static std::string floorGroupsText(ArrayRef<AlternativeFloor> Alts) {
  std::map<std::pair<unsigned, unsigned>, std::string> Groups;
  for (const AlternativeFloor &A : Alts)
    if (A.Sm || A.Ptx) {
      std::string &G = Groups[{A.Sm, A.Ptx}];
      G += (G.empty() ? "" : " ") + ("`" + A.Spelling + "`");
    }
  std::string S;
  for (const auto &[Floor, Spellings] : Groups)
    S += (S.empty() ? "" : "; ") + alternativeFloorText({"", Floor.first, Floor.second}) + ": " +
         Spellings;
  return S;
}

/// Markdown table cells: `|` is a column separator.
static std::string escapeBars(StringRef Text) {
  std::string Esc = Text.str();
  for (size_t P = 0; (P = Esc.find('|', P)) != std::string::npos; P += 2)
    Esc.replace(P, 1, "\\|");
  return Esc;
}

static int markdown() {
  const OpcodeTable &T = OpcodeTable::get();
  outs() << "# PTX forms reference\n\n"
         << "Generated by `tileapply-opcodes --markdown` from the table (`core/ptx/Opcodes.def` "
            "and the files it includes); do not edit by hand (the test suite regenerates it and "
            "compares).\n\n"
         << "Each row of the table is a pattern: `{.a|.b}` is one of the alternatives, "
            "`{...}?` at most one, `@name` every alternative of the named set `name` (listed "
            "first). An alternative written `.a(SM,PTX)` has a floor of its own: a form that "
            "chooses it needs sm_SM and PTX ISA PTX/10 or newer. Operands are "
            "`name:dir:type`, `xN` a register group, `@space` a state space, `?` optional, "
            "`!` negatable (`tile::negated`). The floor of a row is that of its oldest forms; "
            "*raised by* lists the alternatives of the row, its own and its sets', that raise "
            "a form's floor above the row's (a form's floor is the newest of the row's and "
            "those of the alternatives it chooses). `only` marks forms of arch- or "
            "family-specific targets alone.\n\n";

  outs() << "## Named sets\n\n"
         << "| set | alternatives | floors of alternatives |\n|---|---|---|\n";
  for (const NamedSetInfo &S : T.namedSets())
    outs() << "| `" << S.Name << "` | `" << escapeBars(S.Definition) << "` | "
           << floorGroupsText(S.Alternatives) << " |\n";
  outs() << "\n";

  auto Counts = countByFamily();
  for (const std::string &Fam : T.families()) {
    outs() << "## " << Fam << "\n\n"
           << Counts[Fam].first << " forms.\n\n"
           << "| pattern | operands (first form) | floor | raised by |\n|---|---|---|---|\n";
    for (unsigned I = 0; I < T.numPatterns(); ++I) {
      RowInfo Row = T.rowInfo(I);
      StringRef Text = Row.Text;
      if (Text.substr(0, Text.find_first_of(".{")) != Fam)
        continue;
      std::optional<Form> First;
      T.forEachForm(Fam, [&](const Form &F) {
        if (!First && F.PatternIndex == I)
          First = F;
      });
      std::string Ops;
      for (const OperandSpec &O : First->Operands) {
        Ops += (Ops.empty() ? "" : " ") + std::string(O.Negatable ? "!" : "") + O.Name + ":" +
               dirName(O.Direction).str() + ":" + ptxTypeName(O.Type).str();
        if (O.Regs > 1)
          Ops += "x" + std::to_string(O.Regs);
        if (O.Direction == Dir::Addr)
          Ops += "@" + spaceName(O.AddrSpace).str();
        if (O.Optional)
          Ops += "?";
      }
      // The row's floor: the first form's may be raised by what it chose.
      Form RowFloor = *First;
      RowFloor.MinSm = Row.MinSm;
      RowFloor.MinPtx = Row.MinPtx;
      outs() << "| `" << escapeBars(Text) << "` | `" << Ops << "` | " << fullFloorText(RowFloor)
             << " | " << floorGroupsText(Row.Raising) << " |\n";
    }
    outs() << "\n";
  }
  return 0;
}

int main(int Argc, const char **Argv) {
  ArrayRef<const char *> Args(Argv + 1, Argc - 1);
  if (!Args.empty()) {
    StringRef Cmd = Args[0];
    if (Cmd == "--json")
      return listJson();
    if (Cmd == "--check")
      return check(Args.drop_front());
    if (Cmd == "--markdown")
      return markdown();
    if (Cmd == "--stats")
      return stats();
    if (Cmd == "--check-table")
      return checkTable();
    if (Cmd == "--version") {
      outs() << "tileapply-opcodes (tileapply) " TILEAPPLY_VERSION_STRING "\n";
      return 0;
    }
  }
  errs() << "usage: tileapply-opcodes --json | --check SPELLING... | --markdown | --stats | "
            "--check-table | "
            "--version\n";
  return 2;
}

//===- AsmRender.cpp - One repeat as LLVM inline asm ----------------------===//
#include "tileapply/core/AsmRender.h"

using namespace llvm;

namespace tileapply {

static const AsmRegister AsmRegisters[] = {
#define TILEAPPLY_ASM_REGISTER(Letter, IRType, PtxClass, Prefix)                                   \
  {Letter, #IRType, #PtxClass, Prefix},
#include "tileapply/dtypes.def"
};

ArrayRef<AsmRegister> asmRegisters() { return AsmRegisters; }

const AsmRegister *asmRegister(char Letter) {
  for (const AsmRegister &R : AsmRegisters)
    if (R.Letter == Letter)
      return &R;
  return nullptr;
}

char constraintFor(DType Carrier) { return dtypeConstraint(Carrier); }

char addressConstraint(Space S) { return S == TILEAPPLY_SPACE_SHARED_CLUSTER ? 'r' : 'l'; }

char constraintFor(const OperandSpec &O, DType Carrier) {
  return O.Type == PtxType::pred ? 'b' : constraintFor(Carrier);
}

AsmStatement renderAsm(const Form &F, ArrayRef<AsmOperandBinding> Bindings, bool Predicated,
                       bool PreserveDst, unsigned ChainLength) {
  AsmStatement S;
  S.HasSideEffects = F.Kind == FormKind::Memory;
  // A carry chain renders all its repeats at once; any other form one.
  unsigned Reps = F.isChain() ? std::max(ChainLength, 1u) : 1;
  unsigned NOps = F.Operands.size();
  std::vector<std::vector<std::string>> Text(Reps, std::vector<std::string>(NOps));
  std::vector<std::string> Constraints;
  auto Add = [&](AsmSlot Slot, std::string Constraint) {
    S.Slots.push_back(Slot);
    Constraints.push_back(std::move(Constraint));
    return static_cast<unsigned>(S.Slots.size() - 1);
  };
  auto Group = [](const std::vector<unsigned> &Ns, bool Braced = false) {
    if (Ns.size() == 1 && !Braced)
      return "$" + std::to_string(Ns[0]);
    std::string G = "{";
    for (unsigned I = 0; I < Ns.size(); ++I)
      G += (I ? ", $" : "$") + std::to_string(Ns[I]);
    return G + "}";
  };

  // Outputs first (LLVM numbers them before the inputs).
  //
  // What the register allocator may do with them: a plain output ("=r") may
  // be given the register of any input, since LLVM assumes every input is
  // read before any output is written. That holds for one PTX instruction,
  // not for a statement of several (a carry chain, a form with a body): a
  // later instruction would read, as its input, the register an earlier one
  // has already overwritten. Such a statement's outputs are early-clobber
  // ("=&r"): no input shares an output's register, except the old value tied
  // to that same output ("0"), which is read-write by construction.
  bool SeveralInstructions = Reps > 1 || !F.Body.empty();
  std::string OutputPrefix = SeveralInstructions ? "=&" : "=";
  std::vector<std::vector<std::vector<unsigned>>> OutputSlots(
      Reps, std::vector<std::vector<unsigned>>(NOps));
  for (unsigned R = 0; R < Reps; ++R)
    for (unsigned I = 0; I < NOps; ++I) {
      const OperandSpec &O = F.Operands[I];
      if (O.Direction != Dir::Write && O.Direction != Dir::ReadWrite)
        continue;
      if (Bindings[I].K == AsmOperandBinding::Omitted)
        continue;
      char C = constraintFor(O, Bindings[I].Carrier);
      for (unsigned E = 0; E < O.Regs * Bindings[I].Split; ++E)
        OutputSlots[R][I].push_back(Add({AsmSlot::Output, I, E, C, R}, OutputPrefix + C));
      Text[R][I] = Group(OutputSlots[R][I], O.Braced);
    }
  // Inputs in PTX order.
  for (unsigned R = 0; R < Reps; ++R)
    for (unsigned I = 0; I < NOps; ++I) {
      const OperandSpec &O = F.Operands[I];
      const AsmOperandBinding &Bd = Bindings[I];
      if (O.Direction == Dir::Write || O.Direction == Dir::ReadWrite)
        continue;
      if (Bd.K == AsmOperandBinding::Omitted)
        continue;
      if (O.Direction == Dir::Sink || Bd.K == AsmOperandBinding::Sink) {
        Text[R][I] = "_";
        continue;
      }
      if (O.Direction == Dir::Imm) {
        Text[R][I] = Bd.K == AsmOperandBinding::Immediate ? Bd.ImmText : std::to_string(O.ImmLo);
        continue;
      }
      if (O.Direction == Dir::Addr) {
        // A constant offset rides in the address ("[%rd1+16]"), so a call
        // needs one base register per memory operand, not one per repeat.
        std::string Off;
        if (Bindings[I].AddrOffset)
          Off = "+" + std::to_string(Bindings[I].AddrOffset); // "+-4" is PTX too
        char C = addressConstraint(O.AddrSpace);
        Text[R][I] = "[" + Group({Add({AsmSlot::Input, I, 0, C, R}, std::string(1, C))}) + Off;
        continue; // closed below, after any operands written inside the brackets
      }
      if (Bd.K == AsmOperandBinding::Immediate) {
        Text[R][I] = Bd.ImmText;
        continue;
      }
      char C = constraintFor(O, Bd.Carrier);
      std::vector<unsigned> Ns;
      for (unsigned E = 0; E < O.Regs * Bd.Split; ++E)
        Ns.push_back(Add({AsmSlot::Input, I, E, C, R}, std::string(1, C)));
      Text[R][I] = (Bd.Negated ? "!" : "") + Group(Ns, O.Braced || O.InBrackets);
      if (O.Bracketed) // a Tensor Memory address: a register written in brackets
        Text[R][I] = "[" + Text[R][I] + "]";
    }
  std::string Guard;
  if (Predicated)
    Guard = "@$" + std::to_string(Add({AsmSlot::Predicate, 0, 0, 'b'}, "b")) + " ";
  // A read-write destination, or a predicated destination that must survive,
  // takes its old value through a tied input.
  for (unsigned R = 0; R < Reps; ++R)
    for (unsigned I = 0; I < NOps; ++I) {
      const OperandSpec &O = F.Operands[I];
      bool Tie = O.Direction == Dir::ReadWrite || (O.Direction == Dir::Write && PreserveDst);
      if (!Tie || Bindings[I].K == AsmOperandBinding::Omitted)
        continue;
      for (unsigned E = 0; E < OutputSlots[R][I].size(); ++E)
        Add({AsmSlot::TiedOldValue, I, E, S.Slots[OutputSlots[R][I][E]].Constraint, R},
            std::to_string(OutputSlots[R][I][E]));
    }

  // The operand list of one repeat, as PTX writes it after the spelling.
  auto OperandList = [&](const std::vector<std::string> &T) {
    std::string L;
    bool First = true;
    for (unsigned I = 0; I < T.size(); ++I) {
      if (Bindings[I].K == AsmOperandBinding::Omitted)
        continue;
      if (F.Operands[I].InBrackets) // [tmap, {x, y}]: inside the address before it
        L += ", " + T[I];
      else
        L += (First ? " " : F.Operands[I].JoinedByBar ? "|" : ", ") + T[I];
      First = false;
      // An address closes once the operands written inside it are done.
      if (F.Operands[I].Direction == Dir::Addr &&
          (I + 1 == T.size() || !F.Operands[I + 1].InBrackets))
        L += "]";
      else if (F.Operands[I].InBrackets && (I + 1 == T.size() || !F.Operands[I + 1].InBrackets))
        L += "]";
    }
    return L;
  };

  if (!F.Body.empty()) {
    // One repeat of a multi-instruction form: the body's instructions, each
    // predicated, with its scratch registers, in a scope of its own.
    std::string Body = F.expandSpelling(F.Body), Filled;
    for (size_t P = 0; P < Body.size();) {
      size_t Open = Body.find('{', P);
      Filled += Body.substr(P, Open == std::string::npos ? std::string::npos : Open - P);
      if (Open == std::string::npos)
        break;
      size_t Close = Body.find('}', Open);
      StringRef Name = StringRef(Body).slice(Open + 1, Close);
      for (unsigned I = 0; I < NOps; ++I)
        if (F.Operands[I].Name == Name)
          Filled += Text[0][I] + (F.Operands[I].Direction == Dir::Addr ? "]" : "");
      P = Close + 1;
    }
    SmallVector<StringRef, 4> Parts;
    StringRef(Filled).split(Parts, ';', -1, /*KeepEmpty=*/false);
    S.Text = "{";
    for (StringRef Part : Parts) {
      Part = Part.trim();
      if (Part.empty())
        continue;
      S.Text += "\n\t" + (Part.starts_with(".reg") ? "" : Guard) + Part.str() + ";";
    }
    S.Text += "\n\t}";
  } else {
    for (unsigned R = 0; R < Reps; ++R) {
      std::string Spelling = R == 0          ? F.Spelling
                             : R + 1 == Reps ? F.expandSpelling(F.ChainLast)
                                             : F.expandSpelling(F.ChainMiddle);
      S.Text += (R ? "\n\t" : "") + Guard + Spelling + OperandList(Text[R]) + ";";
    }
  }
  if (S.HasSideEffects)
    Constraints.push_back("~{memory}");
  for (unsigned I = 0; I < Constraints.size(); ++I)
    S.Constraints += (I ? "," : "") + Constraints[I];
  return S;
}

} // namespace tileapply

//===- AsmRender.cpp - One repeat as LLVM inline asm ----------------------===//
#include "tileapply/core/AsmRender.h"

using namespace llvm;

namespace tileapply {

static const AsmRegister AsmRegisters[] = {
#define TILEAPPLY_ASM_REGISTER(Letter, IRType, PtxClass, Prefix) {Letter, #IRType, #PtxClass, Prefix},
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

AsmStatement renderAsm(const Form &F, ArrayRef<AsmOperandBinding> Bindings,
                       bool Predicated, bool PreserveDst) {
  AsmStatement S;
  S.HasSideEffects = F.Kind == FormKind::Memory;
  std::vector<std::string> Text(F.Operands.size());
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
  std::vector<std::vector<unsigned>> OutputSlots(F.Operands.size());
  for (unsigned I = 0; I < F.Operands.size(); ++I) {
    const OperandSpec &O = F.Operands[I];
    if (O.Direction != Dir::Write && O.Direction != Dir::ReadWrite)
      continue;
    if (Bindings[I].K == AsmOperandBinding::Omitted)
      continue;
    char C = constraintFor(O, Bindings[I].Carrier);
    for (unsigned E = 0; E < O.Regs * Bindings[I].Split; ++E)
      OutputSlots[I].push_back(Add({AsmSlot::Output, I, E, C}, std::string("=") + C));
    Text[I] = Group(OutputSlots[I], O.Braced);
  }
  // Inputs in PTX order.
  for (unsigned I = 0; I < F.Operands.size(); ++I) {
    const OperandSpec &O = F.Operands[I];
    const AsmOperandBinding &Bd = Bindings[I];
    if (O.Direction == Dir::Write || O.Direction == Dir::ReadWrite)
      continue;
    if (Bd.K == AsmOperandBinding::Omitted)
      continue;
    if (O.Direction == Dir::Sink || Bd.K == AsmOperandBinding::Sink) {
      Text[I] = "_";
      continue;
    }
    if (O.Direction == Dir::Imm) {
      Text[I] = Bd.K == AsmOperandBinding::Immediate ? Bd.ImmText : std::to_string(O.ImmLo);
      continue;
    }
    if (O.Direction == Dir::Addr) {
      // A constant offset rides in the address ("[%rd1+16]"), so a call
      // needs one base register per memory operand, not one per repeat.
      std::string Off;
      if (Bindings[I].AddrOffset)
        Off = "+" + std::to_string(Bindings[I].AddrOffset); // "+-4" is PTX too
      char C = addressConstraint(O.AddrSpace);
      Text[I] = "[" + Group({Add({AsmSlot::Input, I, 0, C}, std::string(1, C))}) + Off;
      continue; // closed below, after any operands written inside the brackets
    }
    if (Bd.K == AsmOperandBinding::Immediate) {
      Text[I] = Bd.ImmText;
      continue;
    }
    char C = constraintFor(O, Bd.Carrier);
    std::vector<unsigned> Ns;
    for (unsigned E = 0; E < O.Regs * Bd.Split; ++E)
      Ns.push_back(Add({AsmSlot::Input, I, E, C}, std::string(1, C)));
    Text[I] = (Bd.Negated ? "!" : "") + Group(Ns, O.Braced || O.InBrackets);
    if (O.Bracketed)
      Text[I] = "[" + Text[I] + "]";
  }
  std::string Guard;
  if (Predicated)
    Guard = "@$" + std::to_string(Add({AsmSlot::Predicate, 0, 0, 'b'}, "b")) + " ";
  // A read-write destination, or a predicated destination that must survive,
  // takes its old value through a tied input.
  for (unsigned I = 0; I < F.Operands.size(); ++I) {
    const OperandSpec &O = F.Operands[I];
    bool Tie = O.Direction == Dir::ReadWrite || (O.Direction == Dir::Write && PreserveDst);
    if (!Tie || Bindings[I].K == AsmOperandBinding::Omitted)
      continue;
    for (unsigned E = 0; E < OutputSlots[I].size(); ++E)
      Add({AsmSlot::TiedOldValue, I, E, S.Slots[OutputSlots[I][E]].Constraint},
          std::to_string(OutputSlots[I][E]));
  }

  S.Text = Guard + F.Spelling;
  bool First = true;
  for (unsigned I = 0; I < Text.size(); ++I) {
    if (Bindings[I].K == AsmOperandBinding::Omitted)
      continue;
    if (F.Operands[I].InBrackets) // [tmap, {x, y}]: inside the address before it
      S.Text += ", " + Text[I];
    else
      S.Text += (First ? " " : F.Operands[I].JoinedByBar ? "|" : ", ") + Text[I];
    First = false;
    // An address closes once the operands written inside it are done.
    if (F.Operands[I].Direction == Dir::Addr &&
        (I + 1 == Text.size() || !F.Operands[I + 1].InBrackets))
      S.Text += "]";
    else if (F.Operands[I].InBrackets && (I + 1 == Text.size() || !F.Operands[I + 1].InBrackets))
      S.Text += "]";
  }
  S.Text += ";";
  if (S.HasSideEffects)
    Constraints.push_back("~{memory}");
  for (unsigned I = 0; I < Constraints.size(); ++I)
    S.Constraints += (I ? "," : "") + Constraints[I];
  return S;
}

} // namespace tileapply

//===- ObjectSpaces.cpp - The variable behind an operand, and its space ---===//
#include "tileapply/core/ObjectSpaces.h"
#include "tileapply/core/PtxTypes.h"

using namespace llvm;

namespace tileapply {

namespace {

std::string objectPhrase(ObjectKind K) {
  switch (K) {
  case ObjectKind::Shared: return text(Text::ObjectShared);
  case ObjectKind::Device: return text(Text::ObjectDevice);
  case ObjectKind::Managed: return text(Text::ObjectManaged);
  case ObjectKind::Constant: return text(Text::ObjectConstant);
  case ObjectKind::Constexpr: return text(Text::ObjectConstexpr);
  case ObjectKind::Local: return text(Text::ObjectLocal);
  }
  return "";
}

/// The state space the variable lives in: what a view of it must name.
Space objectSpace(ObjectKind K) {
  switch (K) {
  case ObjectKind::Shared: return TILEAPPLY_SPACE_SHARED;
  case ObjectKind::Device:
  case ObjectKind::Managed: return TILEAPPLY_SPACE_GLOBAL;
  case ObjectKind::Constant:
  case ObjectKind::Constexpr: return TILEAPPLY_SPACE_CONST;
  case ObjectKind::Local: return TILEAPPLY_SPACE_LOCAL;
  }
  return TILEAPPLY_SPACE_GENERIC;
}

/// Whether a view of space \p View may designate a variable in \p Object.
bool viewAccepts(Space View, Space Object) {
  switch (View) {
  case TILEAPPLY_SPACE_GENERIC:
  case TILEAPPLY_SPACE_PARAM: // no view of the header's names it
  case TILEAPPLY_SPACE_NONE: return true;
  case TILEAPPLY_SPACE_SHARED_CLUSTER: // this CTA's shared memory is in the window
    return Object == TILEAPPLY_SPACE_SHARED;
  default: return View == Object;
  }
}

/// Whether a variable of kind \p K may be a register tensor.
bool isThreadOwned(ObjectKind K) {
  // A constexpr array is read-only and the same in every thread: reading it
  // as an input races with nothing (a destination is const anyway).
  return K == ObjectKind::Local || K == ObjectKind::Constexpr;
}

} // namespace

std::optional<Problem> checkObject(StringRef Opcode, const ArgDesc &A, unsigned Index,
                                   const KnownObject &O) {
  std::string Operand = std::to_string(Index + 1);
  std::string Quoted =
      O.Name.empty() ? text(Text::UnnamedObject) : text(Text::NamedObject, {O.Name});
  std::string Spelled = O.Name.empty() ? "..." : O.Name;
  Space Home = objectSpace(O.Kind);
  Problem P;
  P.Arg = static_cast<int>(Index);
  if (A.Kind == TILEAPPLY_KIND_REGISTER || A.Kind == TILEAPPLY_KIND_PRED_TENSOR) {
    if (isThreadOwned(O.Kind))
      return std::nullopt;
    P.Code = DiagCode::RegisterTensorInMemory;
    P.Message =
        text(Text::RegisterTensorInMemory, {Operand, Opcode.str(), Quoted, objectPhrase(O.Kind)});
    if (Home == TILEAPPLY_SPACE_CONST)
      P.Notes.push_back(text(Text::NoteRegisterViaConstant, {Quoted, Spelled}));
    else
      P.Notes.push_back(text(Text::NoteRegisterViaMemory,
                             {Quoted, spaceName(Home).str(), memoryTensorName(Home), Spelled}));
    P.PointAtDecl = true;
    return P;
  }
  if (A.Kind != TILEAPPLY_KIND_MEMORY || viewAccepts(A.Sp, Home))
    return std::nullopt;
  P.Code = DiagCode::ViewOverOtherSpace;
  P.Message = text(Text::ViewOverOtherSpace,
                   {Operand, Opcode.str(), text(Text::ViewOf, {memoryTensorName(A.Sp)}), Quoted,
                    objectPhrase(O.Kind), memoryTensorName(Home), Spelled, spaceName(Home).str()});
  return P;
}

} // namespace tileapply

//===- IRCarrier.cpp - LLVM types of tileapply carriers -------------------===//
//
// Every fact here comes from tileapply/dtypes.def through core: a carrier's
// constraint letter, and the LLVM type each letter binds. This file only
// turns the type's name into an llvm::Type.
//
//===----------------------------------------------------------------------===//
#include "IRCarrier.h"
#include "tileapply/core/AsmRender.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Type.h"
#include "llvm/Support/NVPTXAddrSpace.h"

using namespace llvm;

namespace tileapply {

Type *asmRegisterType(char Letter, LLVMContext &Ctx) {
  const AsmRegister *R = asmRegister(Letter);
  if (!R)
    return nullptr;
  if (R->IRType == "float")
    return Type::getFloatTy(Ctx);
  if (R->IRType == "double")
    return Type::getDoubleTy(Ctx);
  unsigned Bits = 0;
  if (R->IRType.starts_with("i") && !R->IRType.drop_front().getAsInteger(10, Bits))
    return IntegerType::get(Ctx, Bits);
  return nullptr;
}

Type *carrierType(DType D, LLVMContext &Ctx) {
  if (D == TILEAPPLY_DT_UNKNOWN || D > TILEAPPLY_DT_LAST)
    return nullptr;
  return asmRegisterType(dtypeConstraint(D), Ctx);
}

Type *promotedType(DType D, LLVMContext &Ctx) {
  // tileapply/abi.h's rule, applied to the carrier's register type.
  Type *T = carrierType(D, Ctx);
  if (!T)
    return nullptr;
  if (T->isIntegerTy() && T->getIntegerBitWidth() < 32)
    return Type::getInt32Ty(Ctx);
  if (T->isFloatTy())
    return Type::getDoubleTy(Ctx);
  return T;
}

unsigned nvptxAddressSpace(Space S) {
  switch (S) {
  case TILEAPPLY_SPACE_GLOBAL: return NVPTXAS::ADDRESS_SPACE_GLOBAL;
  case TILEAPPLY_SPACE_SHARED: return NVPTXAS::ADDRESS_SPACE_SHARED;
  case TILEAPPLY_SPACE_CONST: return NVPTXAS::ADDRESS_SPACE_CONST;
  case TILEAPPLY_SPACE_LOCAL: return NVPTXAS::ADDRESS_SPACE_LOCAL;
  case TILEAPPLY_SPACE_PARAM: return NVPTXAS::ADDRESS_SPACE_PARAM;
  case TILEAPPLY_SPACE_SHARED_CLUSTER: // an i32 window address, never a pointer
  case TILEAPPLY_SPACE_GENERIC:
  case TILEAPPLY_SPACE_NONE: break;
  }
  return NVPTXAS::ADDRESS_SPACE_GENERIC;
}

} // namespace tileapply

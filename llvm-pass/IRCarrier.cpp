//===- IRCarrier.cpp - LLVM types of tileapply carriers -------------------===//
//
// The dtype -> IR type table (the promoted type derives from it). It must
// agree with constraintFor() in core/lib/AsmRender.cpp: 'c' binds i8, 'h'
// i16, 'r' i32, 'l' i64, 'q' i128, 'f' float and 'd' double in the NVPTX back
// end.
//
//===----------------------------------------------------------------------===//
#include "IRCarrier.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Type.h"
#include "llvm/Support/NVPTXAddrSpace.h"

using namespace llvm;

namespace tileapply {

Type *carrierType(DType D, LLVMContext &Ctx) {
  switch (D) {
  case TILEAPPLY_DT_BOOL:
  case TILEAPPLY_DT_U8:
  case TILEAPPLY_DT_S8:
    return Type::getInt8Ty(Ctx);
  case TILEAPPLY_DT_U16:
  case TILEAPPLY_DT_S16:
  case TILEAPPLY_DT_F16:
  case TILEAPPLY_DT_BF16:
    return Type::getInt16Ty(Ctx);
  case TILEAPPLY_DT_U32:
  case TILEAPPLY_DT_S32:
  case TILEAPPLY_DT_F16X2:
  case TILEAPPLY_DT_BF16X2:
    return Type::getInt32Ty(Ctx);
  case TILEAPPLY_DT_U64:
  case TILEAPPLY_DT_S64:
  case TILEAPPLY_DT_F32X2:
    return Type::getInt64Ty(Ctx);
  case TILEAPPLY_DT_U128:
  case TILEAPPLY_DT_S128:
    return Type::getInt128Ty(Ctx);
  case TILEAPPLY_DT_F32:
    return Type::getFloatTy(Ctx);
  case TILEAPPLY_DT_F64:
    return Type::getDoubleTy(Ctx);
  case TILEAPPLY_DT_UNKNOWN:
    break;
  }
  return nullptr;
}

Type *promotedType(DType D, LLVMContext &Ctx) {
  // C's default argument promotion of the stored type: integers narrower than
  // int travel as i32, float as double; everything else (i64, i128, double)
  // as it is.
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
  case TILEAPPLY_SPACE_GLOBAL:
    return NVPTXAS::ADDRESS_SPACE_GLOBAL;
  case TILEAPPLY_SPACE_SHARED:
    return NVPTXAS::ADDRESS_SPACE_SHARED;
  case TILEAPPLY_SPACE_CONST:
    return NVPTXAS::ADDRESS_SPACE_CONST;
  case TILEAPPLY_SPACE_LOCAL:
    return NVPTXAS::ADDRESS_SPACE_LOCAL;
  case TILEAPPLY_SPACE_PARAM:
    return NVPTXAS::ADDRESS_SPACE_PARAM;
  case TILEAPPLY_SPACE_NONE:
    break;
  }
  return NVPTXAS::ADDRESS_SPACE_GENERIC;
}


} // namespace tileapply

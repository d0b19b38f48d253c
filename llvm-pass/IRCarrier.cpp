//===- IRCarrier.cpp - LLVM types of tileapply carriers -------------------===//
//
// The dtype -> IR type tables. They must agree with constraintFor() in
// core/lib/AsmRender.cpp: 'c' binds i8, 'h' i16, 'r' i32, 'l' i64, 'f' float
// and 'd' double in the NVPTX back end.
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
  switch (D) {
  case TILEAPPLY_DT_BOOL:
  case TILEAPPLY_DT_U8:
  case TILEAPPLY_DT_S8:
  case TILEAPPLY_DT_U16:
  case TILEAPPLY_DT_S16:
  case TILEAPPLY_DT_U32:
  case TILEAPPLY_DT_S32:
  case TILEAPPLY_DT_F16:
  case TILEAPPLY_DT_BF16:
  case TILEAPPLY_DT_F16X2:
  case TILEAPPLY_DT_BF16X2:
    return Type::getInt32Ty(Ctx);
  case TILEAPPLY_DT_U64:
  case TILEAPPLY_DT_S64:
  case TILEAPPLY_DT_F32X2:
    return Type::getInt64Ty(Ctx);
  case TILEAPPLY_DT_F32:
  case TILEAPPLY_DT_F64:
    return Type::getDoubleTy(Ctx);
  case TILEAPPLY_DT_UNKNOWN:
    break;
  }
  return nullptr;
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

DType naturalCarrier(PtxType T) {
  switch (T) {
  case PtxType::pred:
    return TILEAPPLY_DT_BOOL;
  case PtxType::b8:
  case PtxType::u8:
    return TILEAPPLY_DT_U8;
  case PtxType::s8:
    return TILEAPPLY_DT_S8;
  case PtxType::b16:
  case PtxType::u16:
    return TILEAPPLY_DT_U16;
  case PtxType::s16:
    return TILEAPPLY_DT_S16;
  case PtxType::b32:
  case PtxType::u32:
  case PtxType::u16x2:
  case PtxType::s16x2:
    return TILEAPPLY_DT_U32;
  case PtxType::s32:
    return TILEAPPLY_DT_S32;
  case PtxType::b64:
  case PtxType::u64:
    return TILEAPPLY_DT_U64;
  case PtxType::s64:
    return TILEAPPLY_DT_S64;
  case PtxType::f16:
    return TILEAPPLY_DT_F16;
  case PtxType::bf16:
    return TILEAPPLY_DT_BF16;
  case PtxType::f32:
    return TILEAPPLY_DT_F32;
  case PtxType::f64:
    return TILEAPPLY_DT_F64;
  case PtxType::f16x2:
    return TILEAPPLY_DT_F16X2;
  case PtxType::bf16x2:
    return TILEAPPLY_DT_BF16X2;
  case PtxType::f32x2:
    return TILEAPPLY_DT_F32X2;
  }
  return TILEAPPLY_DT_UNKNOWN;
}

} // namespace tileapply

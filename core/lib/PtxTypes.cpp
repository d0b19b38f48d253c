//===- PtxTypes.cpp - PTX operand types and C++ carrier dtypes ------------===//
#include "tileapply/core/PtxTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace tileapply {

namespace {
struct TypeInfo {
  const char *Name;
  unsigned Bits;
  TypeClass Class;
  bool Imm;
};
constexpr TypeInfo TypeInfos[] = {
#define TA_PTX_TYPE(Name, Bits, Class, Imm) {#Name, Bits, TypeClass::Class, Imm},
#include "tileapply/core/PtxTypes.def"
};

struct DTypeInfo {
  const char *Name;
  unsigned Bits;
  bool Float, Signed, CudaClass;
};
// Indexed by tileapply_dtype.
constexpr DTypeInfo DTypeInfos[] = {
    {"<unknown type>", 0, false, false, false},
    {"bool", 8, false, false, false},
    {"uint8_t", 8, false, false, false},
    {"int8_t", 8, false, true, false},
    {"uint16_t", 16, false, false, false},
    {"int16_t", 16, false, true, false},
    {"uint32_t", 32, false, false, false},
    {"int32_t", 32, false, true, false},
    {"uint64_t", 64, false, false, false},
    {"int64_t", 64, false, true, false},
    {"__half", 16, true, true, true},
    {"__nv_bfloat16", 16, true, true, true},
    {"float", 32, true, true, false},
    {"double", 64, true, true, false},
    {"__half2", 32, true, true, true},
    {"__nv_bfloat162", 32, true, true, true},
    {"float2", 64, true, true, true},
    {"unsigned __int128", 128, false, false, false},
    {"__int128", 128, false, true, false},
};
static_assert(sizeof(DTypeInfos) / sizeof(DTypeInfos[0]) == TILEAPPLY_DT_LAST + 1,
              "one DTypeInfo per tileapply_dtype");

const DTypeInfo &info(DType D) {
  unsigned I = static_cast<unsigned>(D);
  return DTypeInfos[I <= TILEAPPLY_DT_LAST ? I : 0];
}
const TypeInfo &info(PtxType T) { return TypeInfos[static_cast<unsigned>(T)]; }
} // namespace

std::optional<PtxType> parsePtxType(StringRef Name) {
  Name.consume_front(".");
  for (unsigned I = 0; I < sizeof(TypeInfos) / sizeof(TypeInfos[0]); ++I)
    if (Name == TypeInfos[I].Name)
      return static_cast<PtxType>(I);
  return std::nullopt;
}
StringRef ptxTypeName(PtxType T) { return info(T).Name; }
unsigned ptxTypeBits(PtxType T) { return info(T).Bits; }
TypeClass ptxTypeClass(PtxType T) { return info(T).Class; }
bool ptxTypeTakesImmediate(PtxType T) { return info(T).Imm; }
StringRef ptxRegisterType(PtxType T) {
  switch (T) {
  case PtxType::b8:
  case PtxType::f16:
  case PtxType::bf16:
    return "b16";
  case PtxType::u8:
    return "u16";
  case PtxType::s8:
    return "s16";
  case PtxType::f16x2:
  case PtxType::bf16x2:
  case PtxType::u16x2:
  case PtxType::s16x2:
    return "b32";
  case PtxType::f32x2:
    return "b64";
  default:
    return ptxTypeName(T);
  }
}

std::optional<PtxType> splitPartType(PtxType T, int64_t Parts) {
  if (ptxTypeClass(T) != TypeClass::Bits || !llvm::is_contained(SplitGroupSizes, Parts))
    return std::nullopt;
  unsigned Bits = ptxTypeBits(T);
  if (Bits % Parts != 0 || Bits / Parts < 16)
    return std::nullopt;
  for (unsigned I = 0; I < sizeof(TypeInfos) / sizeof(TypeInfos[0]); ++I)
    if (TypeInfos[I].Class == TypeClass::Bits && TypeInfos[I].Bits == Bits / Parts)
      return static_cast<PtxType>(I);
  return std::nullopt;
}

bool ptxTypeIsFloating(PtxType T) {
  switch (T) {
  case PtxType::f16:
  case PtxType::bf16:
  case PtxType::f32:
  case PtxType::f64:
  case PtxType::f16x2:
  case PtxType::bf16x2:
  case PtxType::f32x2:
    return true;
  default:
    return false;
  }
}

StringRef dtypeName(DType D) { return info(D).Name; }
unsigned dtypeBits(DType D) { return info(D).Bits; }
bool dtypeIsFloat(DType D) { return info(D).Float; }
bool dtypeIsSigned(DType D) { return info(D).Signed; }
bool dtypeIsCudaClass(DType D) { return info(D).CudaClass; }

namespace {
// The C++ types that carry exactly PTX type T (besides "any of the width" for
// bit-size types). The first is the raw-bits carrier where there is one.
SmallVector<DType, 2> exactCarriers(PtxType T) {
  switch (T) {
  case PtxType::pred: return {TILEAPPLY_DT_BOOL};
  case PtxType::u8: return {TILEAPPLY_DT_U8};
  case PtxType::s8: return {TILEAPPLY_DT_S8};
  case PtxType::u16: return {TILEAPPLY_DT_U16};
  case PtxType::s16: return {TILEAPPLY_DT_S16};
  case PtxType::u32: return {TILEAPPLY_DT_U32};
  case PtxType::s32: return {TILEAPPLY_DT_S32};
  case PtxType::u64: return {TILEAPPLY_DT_U64};
  case PtxType::s64: return {TILEAPPLY_DT_S64};
  case PtxType::f32: return {TILEAPPLY_DT_F32};
  case PtxType::f64: return {TILEAPPLY_DT_F64};
  case PtxType::f16: return {TILEAPPLY_DT_U16, TILEAPPLY_DT_F16};
  case PtxType::bf16: return {TILEAPPLY_DT_U16, TILEAPPLY_DT_BF16};
  case PtxType::f16x2: return {TILEAPPLY_DT_U32, TILEAPPLY_DT_F16X2};
  case PtxType::bf16x2: return {TILEAPPLY_DT_U32, TILEAPPLY_DT_BF16X2};
  case PtxType::f32x2: return {TILEAPPLY_DT_U64, TILEAPPLY_DT_F32X2};
  case PtxType::u16x2:
  case PtxType::s16x2: return {TILEAPPLY_DT_U32};
  default: return {};
  }
}
} // namespace

bool carrierMatches(DType D, PtxType T) {
  if (D == TILEAPPLY_DT_UNKNOWN)
    return false;
  if (ptxTypeClass(T) == TypeClass::Bits)
    return D != TILEAPPLY_DT_BOOL && dtypeBits(D) == ptxTypeBits(T);
  for (DType C : exactCarriers(T))
    if (C == D)
      return true;
  return false;
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
  case PtxType::b128:
    return TILEAPPLY_DT_U128;
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

std::string expectedCarriers(PtxType T) {
  if (ptxTypeClass(T) == TypeClass::Bits) {
    switch (ptxTypeBits(T)) {
    case 8: return "any 8-bit type (uint8_t, int8_t)";
    case 16: return "any 16-bit type (uint16_t, int16_t, __half, __nv_bfloat16)";
    case 32: return "any 32-bit type (uint32_t, int32_t, float, __half2, __nv_bfloat162)";
    case 64: return "any 64-bit type (uint64_t, int64_t, double, float2)";
    case 128: return "any 128-bit type (unsigned __int128, __int128)";
    default: return "a type of " + std::to_string(ptxTypeBits(T)) + " bits";
    }
  }
  std::string S;
  auto Cs = exactCarriers(T);
  for (unsigned I = 0; I < Cs.size(); ++I) {
    if (I)
      S += I + 1 == Cs.size() ? " or " : ", ";
    S += dtypeName(Cs[I]).str();
  }
  return S;
}

StringRef spaceName(Space S) {
  switch (S) {
  case TILEAPPLY_SPACE_NONE: return "register";
  case TILEAPPLY_SPACE_GLOBAL: return "global";
  case TILEAPPLY_SPACE_SHARED: return "shared";
  case TILEAPPLY_SPACE_LOCAL: return "local";
  case TILEAPPLY_SPACE_CONST: return "const";
  case TILEAPPLY_SPACE_PARAM: return "param";
  }
  return "unknown";
}

std::string memoryTensorName(Space S) {
  return S == TILEAPPLY_SPACE_CONST ? "tile::constant" : "tile::" + spaceName(S).str();
}

std::optional<Space> parseSpace(StringRef Name) {
  Name.consume_front(".");
  return StringSwitch<std::optional<Space>>(Name)
      .Case("global", TILEAPPLY_SPACE_GLOBAL)
      .Case("shared", TILEAPPLY_SPACE_SHARED)
      .Case("local", TILEAPPLY_SPACE_LOCAL)
      .Case("const", TILEAPPLY_SPACE_CONST)
      .Case("param", TILEAPPLY_SPACE_PARAM)
      .Default(std::nullopt);
}

} // namespace tileapply

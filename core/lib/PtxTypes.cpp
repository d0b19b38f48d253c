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
  const char *RegisterType;
  DType Natural;
  SmallVector<DType, 2> Exact;
};
// The Exact column names carriers by their dtypes.def names (U32, F16X2):
// each becomes TILEAPPLY_DT_<name>, so the carriers are listed only in
// dtypes.def. Up to two; missing ones are padded with UNKNOWN and dropped.
SmallVector<DType, 2> exactCarriers(std::initializer_list<DType> List) {
  SmallVector<DType, 2> Out;
  for (DType D : List)
    if (D != TILEAPPLY_DT_UNKNOWN)
      Out.push_back(D);
  return Out;
}
const TypeInfo TypeInfos[] = {
#define TA_PTX_TYPE(Name, Bits, Class, Imm, Reg, Natural, ...)                                     \
  {#Name, Bits, TypeClass::Class, Imm, #Reg, TILEAPPLY_DT_##Natural, TA_EXACT(__VA_ARGS__)},
#define TA_EXACT(...) TA_EXACT_N(__VA_ARGS__ __VA_OPT__(, ) UNKNOWN, UNKNOWN, UNKNOWN)
#define TA_EXACT_N(A, B, ...) exactCarriers({TA_DT(A), TA_DT(B)})
#define TA_DT(X) TILEAPPLY_DT_##X
#include "tileapply/core/PtxTypes.def"
};

struct DTypeInfo {
  DType Value;
  const char *Name;
  unsigned Bits;
  CarrierKind Kind;
  char Constraint;
};
constexpr DTypeInfo DTypeInfos[] = {
#define TILEAPPLY_DTYPE(Name, Value, CType, Bits, Kind, Constraint)                                \
  {TILEAPPLY_DT_##Name, #CType, Bits, CarrierKind::Kind, Constraint},
#include "tileapply/dtypes.def"
};
constexpr bool rowsInValueOrder() {
  for (unsigned I = 0; I < sizeof(DTypeInfos) / sizeof(DTypeInfos[0]); ++I)
    if (DTypeInfos[I].Value != static_cast<int>(I))
      return false;
  return true;
}
static_assert(rowsInValueOrder(), "dtypes.def: rows in the order of their values, from 0");

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
StringRef ptxRegisterType(PtxType T) { return info(T).RegisterType; }

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
  case PtxType::f32x2: return true;
  default: return false;
  }
}

StringRef dtypeName(DType D) { return info(D).Name; }
unsigned dtypeBits(DType D) { return info(D).Bits; }
CarrierKind dtypeKind(DType D) { return info(D).Kind; }
char dtypeConstraint(DType D) { return info(D).Constraint; }
bool dtypeIsFloat(DType D) {
  CarrierKind K = dtypeKind(D);
  return K == CarrierKind::Float || K == CarrierKind::Half || K == CarrierKind::Packed;
}
bool dtypeIsSigned(DType D) { return dtypeKind(D) == CarrierKind::Signed || dtypeIsFloat(D); }

bool carrierMatches(DType D, PtxType T) {
  if (D == TILEAPPLY_DT_UNKNOWN)
    return false;
  if (ptxTypeClass(T) == TypeClass::Bits)
    return D != TILEAPPLY_DT_BOOL && dtypeBits(D) == ptxTypeBits(T);
  if (ptxTypeClass(T) == TypeClass::Any)
    return D <= TILEAPPLY_DT_LAST;
  return llvm::is_contained(info(T).Exact, D);
}

bool dataMayBeWider(llvm::StringRef Family, llvm::StringRef Spelling) {
  if (Spelling.starts_with("st.async."))
    return false;
  return Family == "ld" || Family == "ldu" || Family == "st" || Family == "cvt";
}

bool widerCarrierFits(DType D, PtxType T) {
  TypeClass C = ptxTypeClass(T);
  if (C != TypeClass::Bits && C != TypeClass::Unsigned && C != TypeClass::Signed)
    return false;
  if (ptxTypeBits(T) > 16)
    return false;
  CarrierKind K = dtypeKind(D);
  return (K == CarrierKind::Unsigned || K == CarrierKind::Signed) &&
         (dtypeBits(D) == 32 || dtypeBits(D) == 64);
}

DType naturalCarrier(PtxType T) { return info(T).Natural; }

std::string expectedCarriers(PtxType T) {
  if (ptxTypeClass(T) == TypeClass::Any)
    return "any type";
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
  const auto &Cs = info(T).Exact;
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
  case TILEAPPLY_SPACE_GENERIC: return "generic";
  case TILEAPPLY_SPACE_SHARED_CLUSTER: return "shared::cluster";
  }
  return "unknown";
}

std::string memoryTensorName(Space S) {
  if (S == TILEAPPLY_SPACE_CONST)
    return "tile::constant";
  if (S == TILEAPPLY_SPACE_SHARED_CLUSTER)
    return "tile::cluster";
  return "tile::" + spaceName(S).str();
}

std::optional<Space> parseSpace(StringRef Name) {
  Name.consume_front(".");
  return StringSwitch<std::optional<Space>>(Name)
      .Case("global", TILEAPPLY_SPACE_GLOBAL)
      .Case("shared", TILEAPPLY_SPACE_SHARED)
      .Case("local", TILEAPPLY_SPACE_LOCAL)
      .Case("const", TILEAPPLY_SPACE_CONST)
      .Case("param", TILEAPPLY_SPACE_PARAM)
      .Case("shared::cta", TILEAPPLY_SPACE_SHARED) // the .shared window's own name
      .Case("generic", TILEAPPLY_SPACE_GENERIC)
      .Case("shared::cluster", TILEAPPLY_SPACE_SHARED_CLUSTER)
      .Default(std::nullopt);
}

} // namespace tileapply

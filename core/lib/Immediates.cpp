//===- Immediates.cpp - Constant scalars as PTX immediates ----------------===//
#include "tileapply/core/Immediates.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <cstring>

using namespace llvm;

namespace tileapply {

std::string hexBits(uint64_t Bits, unsigned Digits) {
  std::string S;
  raw_string_ostream OS(S);
  OS << format_hex_no_prefix(Bits, Digits, /*Upper=*/true);
  return S;
}

uint64_t packedSplatBits(PtxType T, float V) {
  auto Lane = [V](const fltSemantics &Sem) {
    APFloat F(V);
    bool LosesInfo = false;
    F.convert(Sem, APFloat::rmNearestTiesToEven, &LosesInfo);
    return F.bitcastToAPInt().getZExtValue();
  };
  switch (T) {
  case PtxType::f16x2: return Lane(APFloat::IEEEhalf()) * 0x10001u;
  case PtxType::bf16x2: return Lane(APFloat::BFloat()) * 0x10001u;
  case PtxType::f32x2: return Lane(APFloat::IEEEsingle()) * 0x100000001ull;
  case PtxType::bf16: return Lane(APFloat::BFloat());
  default: return Lane(APFloat::IEEEhalf());
  }
}

/// The integer value of C when it is integral, else nullopt.
std::optional<int64_t> integralValue(const ScalarConst &C) {
  if (!C.IsFloat)
    return C.I;
  if (std::isfinite(C.F) && C.F == std::trunc(C.F) && std::fabs(C.F) < 9.2e18)
    return static_cast<int64_t>(C.F);
  return std::nullopt;
}

bool constantFitsExactly(PtxType T, const ScalarConst &C) {
  unsigned Bits = ptxTypeBits(T);
  switch (ptxTypeClass(T)) {
  case TypeClass::Pred:
  case TypeClass::Opaque:
  case TypeClass::Any: return false;
  case TypeClass::Unsigned:
  case TypeClass::Bits:
  case TypeClass::Packed: {
    // Packed and bit-size operands take raw bits: an integer in range, never a
    // floating value (that would be a numeric conversion or a pack).
    // (A nonnegative int64_t fits any width of 64 bits or more: .b128 too.)
    if (C.IsFloat)
      return ptxTypeClass(T) == TypeClass::Unsigned && integralValue(C) && *integralValue(C) >= 0 &&
             (Bits >= 64 || *integralValue(C) < (int64_t(1) << Bits));
    if (C.I < 0)
      return false;
    return Bits >= 64 || C.I < (int64_t(1) << Bits);
  }
  case TypeClass::Signed: {
    auto V = integralValue(C);
    if (!V)
      return false;
    if (Bits >= 64)
      return true;
    int64_t Lim = int64_t(1) << (Bits - 1);
    return *V >= -Lim && *V < Lim;
  }
  case TypeClass::Float: {
    double V = C.IsFloat ? C.F : static_cast<double>(C.I);
    if (!C.IsFloat && static_cast<int64_t>(V) != C.I)
      return false;
    if (T == PtxType::f64)
      return true;
    if (T == PtxType::f32)
      return std::isnan(V) || static_cast<double>(static_cast<float>(V)) == V;
    // f16 / bf16 take their raw bits (uint16_t) or __half: an integer
    // constant is those bits when it fits them; a floating one would be a
    // numeric conversion.
    return !C.IsFloat && C.I >= 0 && C.I < (int64_t(1) << Bits);
  }
  }
  return false;
}

std::string immediateText(PtxType T, const ScalarConst &C) {
  if (!ptxTypeTakesImmediate(T) || !constantFitsExactly(T, C))
    return "";
  if (T == PtxType::f32) {
    float F = static_cast<float>(C.IsFloat ? C.F : static_cast<double>(C.I));
    uint32_t B;
    std::memcpy(&B, &F, 4);
    return "0f" + hexBits(B, 8);
  }
  if (T == PtxType::f64) {
    double D = C.IsFloat ? C.F : static_cast<double>(C.I);
    uint64_t B;
    std::memcpy(&B, &D, 8);
    return "0d" + hexBits(B, 16);
  }
  return std::to_string(*integralValue(C));
}

} // namespace tileapply

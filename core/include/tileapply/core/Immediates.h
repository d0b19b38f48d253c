//===- Immediates.h - Constant scalars as PTX immediates --------*- C++ -*-===//
//
// Whether a constant scalar converts to a PTX operand type without changing
// its value (the contract's rule for `1.0` on a .f32 operand), and the PTX
// immediate that spells it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CORE_IMMEDIATES_H
#define TILEAPPLY_CORE_IMMEDIATES_H

#include "tileapply/core/Arguments.h"
#include <optional>
#include <string>

namespace tileapply {

/// The PTX immediate for a constant scalar of an operand of type `T`, or "" if
/// PTX takes no immediate there or the value does not fit exactly.
std::string immediateText(PtxType T, const ScalarConst &C);
/// Whether a constant converts to operand type T without changing its value.
bool constantFitsExactly(PtxType T, const ScalarConst &C);
/// The integer value of C when it is integral, else nothing.
std::optional<int64_t> integralValue(const ScalarConst &C);
/// Bits as upper-case hex digits, zero-padded: hexBits(0x4000, 8) = "00004000".
std::string hexBits(uint64_t Bits, unsigned Digits);
/// The raw bits of a constant of the half-precision or packed PTX type T with
/// every lane V, rounded to nearest even: one lane for .f16 / .bf16, two for
/// .f16x2 / .bf16x2 / .f32x2 (lane 0 in the low bits). The diagnostics quote
/// it; runtime/include/tileapply/packed.h computes the same for users.
uint64_t packedSplatBits(PtxType T, float V);

} // namespace tileapply

#endif

//===- PtxTypes.h - PTX operand types and C++ carrier dtypes ----*- C++ -*-===//
//
// The vocabulary shared by the table, the layout rules, the plugin and the
// pass: PTX operand types (`.f32`, `.f16x2`, ...), the C++ carrier dtypes of
// tileapply/abi.h, state spaces, and the one rule that says which carrier a
// PTX operand type accepts.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CORE_PTXTYPES_H
#define TILEAPPLY_CORE_PTXTYPES_H

#include "tileapply/abi.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>

namespace tileapply {

/// A PTX operand type as it appears in an opcode spelling.
enum class PtxType : uint8_t {
#define TA_PTX_TYPE(Name, ...) Name,
#include "tileapply/core/PtxTypes.def"
};

/// How the bits of a PTX type are interpreted.
enum class TypeClass : uint8_t {
  Bits,     // .b8 .. .b128: any carrier of that width
  Unsigned, // .u8 .. .u64
  Signed,   // .s8 .. .s64
  Float,    // .f16 .bf16 .f32 .f64 (and narrow formats)
  Packed,   // .f16x2 .bf16x2 .f32x2 .u16x2 .s16x2: a raw-bits carrier
  Pred,     // .pred
  Opaque,   // an object only addressed (a tensor map): never a register
  Any       // memory of any element type (a bulk copy's bytes): addresses only
};

std::optional<PtxType> parsePtxType(llvm::StringRef Name); // "f32" or ".f32"
llvm::StringRef ptxTypeName(PtxType T);                      // "f32"
unsigned ptxTypeBits(PtxType T);
TypeClass ptxTypeClass(PtxType T);
/// Whether PTX accepts an immediate constant for an operand of this type
/// (ptxas refuses f16/bf16 and the packed types).
bool ptxTypeTakesImmediate(PtxType T);
/// The PTX register type to declare for an operand of this type: "b16" for
/// f16/bf16 and 8-bit types (PTX has no 8-bit registers), "b32"/"b64" for
/// packed types, "pred", or the type itself ("u32", "f32", ...).
llvm::StringRef ptxRegisterType(PtxType T);
/// True for types whose lanes are floating point (f16x2, bf16x2, f32x2, f16...).
bool ptxTypeIsFloating(PtxType T);

using DType = tileapply_dtype;
/// What a carrier's bits mean (the Kind column of tileapply/dtypes.def).
enum class CarrierKind : uint8_t { Unknown, Bool, Unsigned, Signed, Float, Half, Packed, Opaque };
/// The C++ spelling of a carrier dtype, e.g. "uint32_t", "__half2".
llvm::StringRef dtypeName(DType D);
unsigned dtypeBits(DType D);
CarrierKind dtypeKind(DType D);
/// The inline-asm register letter of an element of this carrier.
char dtypeConstraint(DType D);
bool dtypeIsFloat(DType D);  // float, double and CUDA's half and vector types
bool dtypeIsSigned(DType D);

/// The register groups a splittable bit-size operand (`~` in Opcodes.def) may
/// be given as instead of one register: `{a, b}` or `{a, b, c, d}`.
inline constexpr unsigned SplitGroupSizes[] = {2, 4};
/// The type of each register when an operand of type `T` is given as a group
/// of `Parts` narrower registers that together fill its width (mov.b64 d,
/// {a, b}; mov.b128 {a, b, c, d}, s): the bit-size type of 1/Parts the width.
/// Nothing when `T` is not a bit-size type, `Parts` is not a group size above,
/// or the parts would be narrower than 16 bits (PTX has no 8-bit registers).
/// The one rule for the layout checks, their messages and the certification.
std::optional<PtxType> splitPartType(PtxType T, int64_t Parts);

/// The carrier a PTX operand type naturally takes: the dtype a constant is
/// materialized in when the operand accepts no immediate, and the register
/// class the certification tools declare for it.
DType naturalCarrier(PtxType T);

/// The carriers an operand of PTX type `T` accepts, spelled for a message:
/// "float", "any 32-bit type (uint32_t, int, float, __half2, ...)",
/// "uint32_t or __half2".
std::string expectedCarriers(PtxType T);
/// The one carrier rule (docs/spec.md section 2): a concretely typed operand takes
/// exactly that C++ type; a bit-size operand any type of that width; a packed
/// operand its raw-bits carrier or CUDA's own type for it.
bool carrierMatches(DType D, PtxType T);

/// Whether the data operands (not the addresses) of an instruction of this
/// family may sit in a register wider than the instruction type: PTX's
/// "operand size exceeding instruction-type size" for ld, ldu, st and cvt
/// (ptxas agrees): a wider destination is zero- or sign-extended as the type
/// says, a wider source truncated. The asm checker and the call rules read it.
/// `Spelling` is the form's: st.async, an instruction of its own in the `st`
/// family, takes exactly its type's width (ptxas: "Arguments mismatch").
bool dataMayBeWider(llvm::StringRef Family, llvm::StringRef Spelling);
/// The carrier a wider data register of such an instruction takes: an
/// integer carrier of 32 or 64 bits for an 8- or 16-bit bit-size or integer
/// type (`uint32_t` for `ld.global.u8`, as hand-written asm does).
bool widerCarrierFits(DType D, PtxType T);

using Space = tileapply_space;
llvm::StringRef spaceName(Space S); // "global", "shared", ... "register"
/// The tile.h alias for a memory tensor in that space: "tile::global",
/// "tile::constant" (const memory), ...
std::string memoryTensorName(Space S);
std::optional<Space> parseSpace(llvm::StringRef Name);

} // namespace tileapply

#endif

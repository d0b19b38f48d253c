//===- IRCarrier.h - LLVM types of tileapply carriers -----------*- C++ -*-===//
//
// How a C++ carrier dtype looks in IR, in the two places it appears: as the
// element of a register tensor (loaded, stored and bound to an inline-asm
// register as its carrier type) and as a scalar argument of the variadic
// marker call (C default argument promotions, tileapply/abi.h).
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_LLVMPASS_IRCARRIER_H
#define TILEAPPLY_LLVMPASS_IRCARRIER_H

#include "tileapply/core/PtxTypes.h"

namespace llvm {
class LLVMContext;
class Type;
} // namespace llvm

namespace tileapply {

/// The LLVM type inline-asm constraint letter \p Letter binds (core's
/// asmRegister table), or null for an unknown letter.
llvm::Type *asmRegisterType(char Letter, llvm::LLVMContext &Ctx);

/// The type an element of carrier \p D is loaded, stored and passed to inline
/// asm as: the width of the carrier, floating only for `float` and `double`
/// (halves and packed values travel as their bits). Null for an unknown dtype.
llvm::Type *carrierType(DType D, llvm::LLVMContext &Ctx);

/// The type a scalar of carrier \p D has as the marker call passes it (the
/// rule: tileapply/abi.h, above enum tileapply_dtype). Null for an unknown
/// dtype.
llvm::Type *promotedType(DType D, llvm::LLVMContext &Ctx);

/// The LLVM address space of a PTX state space in the NVPTX back end
/// (0, the generic space, for TILEAPPLY_SPACE_NONE).
unsigned nvptxAddressSpace(Space S);

} // namespace tileapply

#endif

//===- MarkerReader.h - Reading one __tileapply_apply call ------*- C++ -*-===//
//
// The IR side of tileapply/abi.h. A front end lowers each `__tile_apply` to
//
//   call void (ptr, ptr, ...) @__tileapply_apply(ptr @opcode, ptr @layout,
//                                                 <one value per argument>)
//
// MarkerReader turns such a call back into what the layout rules consume: the
// opcode spelling, one ArgDesc per argument (with the value of constant
// scalars filled in) and the IR value of each argument. It is the only place
// that trusts nothing about the call: every way the IR can disagree with the
// ABI is an error here, so the rest of the pass works on checked data.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_LLVMPASS_MARKERREADER_H
#define TILEAPPLY_LLVMPASS_MARKERREADER_H

#include "tileapply/core/CallRules.h"
#include "tileapply/core/ObjectSpaces.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <string>
#include <vector>

namespace llvm {
class CallInst;
class Constant;
class DominatorTree;
class Instruction;
class Type;
class Function;
class Value;
} // namespace llvm

namespace tileapply {

/// One marker call, validated against its layout.
struct MarkerCall {
  llvm::CallInst *Call = nullptr;
  std::string Opcode;
  /// One per argument after the opcode, in call order.
  std::vector<ArgDesc> Args;
  /// The marker's value for each of Args.
  llvm::SmallVector<llvm::Value *, 8> Values;
};

class MarkerReader {
public:
  using DomTreeGetter = std::function<llvm::DominatorTree &(llvm::Function &)>;

  /// \p GetDT supplies dominator trees for the look-through of local
  /// variables (only asked for functions that need it).
  explicit MarkerReader(DomTreeGetter GetDT) : GetDT(std::move(GetDT)) {}

  /// Reads \p Call. The error message, if any, is a complete sentence
  /// fragment for a diagnostic: "the opcode is not a constant string".
  llvm::Expected<MarkerCall> read(llvm::CallInst &Call) const;

  /// The compile-time constant \p V stands for, looking through the
  /// unoptimized spelling of a C++ value: a load of a local variable whose only
  /// store is a constant (also through one reference to such a variable) and
  /// the integer and floating casts of argument promotion. Null if unknown.
  llvm::Constant *traceConstant(llvm::Value *V) const;

  /// The pointer \p V stands for, looking through pointer casts and loads of
  /// local variables that hold one pointer for their whole life.
  llvm::Value *tracePointer(llvm::Value *V) const;

  /// The variable the pointer \p V designates, when the IR shows it: a
  /// global of a known NVPTX address space or a local variable (alloca),
  /// through GEPs, casts, phis whose sources agree, and local variables (a
  /// view's temporary, reference slots) written once.
  std::optional<KnownObject> objectOf(llvm::Value *V) const;

private:
  DomTreeGetter GetDT;

  /// What objectOf and the aliasing rules share: the object \p V points
  /// into and, when every step is a constant, the byte offset into it.
  struct TracedObject {
    llvm::Value *Object = nullptr;
    std::optional<int64_t> ByteOffset;
  };
  TracedObject traceObject(llvm::Value *V) const;

  llvm::Value *traceValue(llvm::Value *V, unsigned Depth) const;
  llvm::Constant *traceConstant(llvm::Value *V, unsigned Depth) const;
  llvm::Value *storedValueAt(llvm::Value *Load, unsigned Depth) const;
  llvm::Value *soleValueIn(llvm::Value *Slot, llvm::Type *Ty, llvm::Instruction &Reader) const;
};

} // namespace tileapply

#endif

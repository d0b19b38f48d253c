//===- fuzz-pass.cpp - libFuzzer target for the expansion pass -----------===//
//
// Arbitrary bytes -> an opcode and a layout (FuzzInput.h) -> an NVPTX module,
// built in memory, with one or two marker calls whose IR shape the remaining
// bytes choose: the opcode and layout globals (constant or not, wrapped in a
// struct, in addrspace(4) behind a cast, through a local variable, of the wrong
// type), one value per record (an alloca, a pointer argument in some address
// space, a constant or variable scalar, promoted or not, sometimes of the wrong
// type), too few or too many values, debug locations inside an inlined
// `__tile_apply<...>`, a target or none. Then tile-apply-expand (or the
// pipeline-start sequence) runs, with a DiagnosticHandler that records instead
// of exiting, and:
//
//  - the module must verify;
//  - no marker call and no marker declaration may survive;
//  - every diagnostic has a message, and none is an "internal error" (a call
//    the rules accepted but the expansion could not emit);
//  - a call the rules accept expands to at least one tagged inline asm.
//
// Calls of more than 4096 elements per tensor are skipped (allowed, but slow).
//
//===----------------------------------------------------------------------===//
#include "ExpandPass.h"
#include "FuzzInput.h"
#include "IRCarrier.h"
#include "PipelineStartPass.h"
#include "tileapply/core/Target.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tileapply;
using namespace tileapply::fuzz;

namespace {

struct Recorder : DiagnosticHandler {
  std::vector<std::pair<DiagnosticSeverity, std::string>> *Out;
  explicit Recorder(std::vector<std::pair<DiagnosticSeverity, std::string>> *O) : Out(O) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    std::string S;
    raw_string_ostream OS(S);
    DiagnosticPrinterRawOStream DP(OS);
    DI.print(DP);
    Out->push_back({DI.getSeverity(), OS.str()});
    return true; // handled: no printing, no exit
  }
};

/// A type for a value that is deliberately wrong for its record.
Type *oddType(LLVMContext &Ctx, unsigned Pick) {
  switch (Pick % 7) {
  case 0: return Type::getInt1Ty(Ctx);
  case 1: return Type::getInt8Ty(Ctx);
  case 2: return Type::getInt32Ty(Ctx);
  case 3: return Type::getInt64Ty(Ctx);
  case 4: return Type::getFloatTy(Ctx);
  case 5: return Type::getDoubleTy(Ctx);
  default: return PointerType::get(Ctx, 0);
  }
}

class ModuleBuilder {
public:
  ModuleBuilder(LLVMContext &Ctx, Bytes &In) : Ctx(Ctx), In(In) {}

  std::unique_ptr<Module> build(const CallInput &C, const std::vector<ArgDesc> *Decoded);

private:
  LLVMContext &Ctx;
  Bytes &In;
  std::unique_ptr<Module> M;
  Function *Kernel = nullptr;
  /// The register tensors the calls write: read after the calls (a volatile
  /// store of each one's first element), as a kernel would. The pass keeps
  /// an expansion whose result nothing reads (its clean-up leaves the call's
  /// tensors alone: test/lit/pass/unread-destination.ll), so the check below
  /// holds for a destination this list does not hold too.
  std::vector<AllocaInst *> Observed;

  Value *opcodeOperand(const std::string &Opcode, IRBuilder<> &B);
  Value *layoutOperand(const std::vector<int32_t> &Words, IRBuilder<> &B);
  Value *valueFor(const ArgDesc *A, IRBuilder<> &B, IRBuilder<> &Entry);
};

Value *ModuleBuilder::opcodeOperand(const std::string &Opcode, IRBuilder<> &B) {
  uint8_t C = In.u8();
  Constant *Init;
  switch (C % 8) { // 0, the usual shape, is what zero bytes choose
  case 5: // not NUL-terminated
    Init = ConstantDataArray::getString(Ctx, Opcode, /*AddNull=*/false);
    break;
  case 6: // an i16 array
    Init = ConstantDataArray::get(
        Ctx, ArrayRef<uint16_t>(std::vector<uint16_t>(Opcode.begin(), Opcode.end())));
    break;
  case 7: // zeros
    Init = ConstantAggregateZero::get(ArrayType::get(Type::getInt8Ty(Ctx), Opcode.size() + 1));
    break;
  default: Init = ConstantDataArray::getString(Ctx, Opcode, /*AddNull=*/true);
  }
  bool IsConst = (C & 0x18) != 0x18;
  auto *GV =
      new GlobalVariable(*M, Init->getType(), IsConst, GlobalValue::PrivateLinkage, Init, "op");
  if (C & 0x20) { // passed through a local variable, as clang -O0 does
    AllocaInst *Slot = B.CreateAlloca(PointerType::get(Ctx, 0));
    B.CreateStore(GV, Slot);
    if (C & 0x40)
      B.CreateStore(GV, Slot); // stored twice: no longer a known constant
    return B.CreateLoad(PointerType::get(Ctx, 0), Slot);
  }
  if (C & 0x80) // a run-time pointer
    return B.CreateSelect(B.CreateICmpEQ(Kernel->getArg(0), B.getInt32(0)), GV,
                          ConstantPointerNull::get(PointerType::get(Ctx, 0)));
  return GV;
}

Value *ModuleBuilder::layoutOperand(const std::vector<int32_t> &Words, IRBuilder<> &B) {
  uint8_t C = In.u8();
  Type *I32 = Type::getInt32Ty(Ctx);
  Constant *Arr = ConstantDataArray::get(Ctx, ArrayRef<int32_t>(Words));
  if ((C & 7) == 7) // i64 words
    Arr = ConstantDataArray::get(
        Ctx, ArrayRef<uint64_t>(std::vector<uint64_t>(Words.begin(), Words.end())));
  else if ((C & 7) == 6 && !Words.empty()) { // a non-constant word
    std::vector<Constant *> Elts;
    for (int32_t W : Words)
      Elts.push_back(ConstantInt::getSigned(I32, W));
    Elts[In.below(Elts.size())] =
        ConstantExpr::getPtrToInt(ConstantPointerNull::get(PointerType::get(Ctx, 0)), I32);
    Arr = ConstantArray::get(ArrayType::get(I32, Elts.size()), Elts);
  }
  Constant *Init = Arr;
  if (C & 8) // tile.h's int_array<N> wrapper
    Init = ConstantStruct::getAnon(Ctx, {Arr});
  unsigned AS = (C & 0x10) ? 4 : 0;
  bool IsConst = (C & 0x60) != 0x60;
  auto *GV = new GlobalVariable(*M, Init->getType(), IsConst, GlobalValue::InternalLinkage, Init,
                                "layout", nullptr, GlobalValue::NotThreadLocal, AS);
  Constant *P = GV;
  if (AS)
    P = ConstantExpr::getAddrSpaceCast(GV, PointerType::get(Ctx, 0));
  if (C & 0x80) {
    AllocaInst *Slot = B.CreateAlloca(PointerType::get(Ctx, 0));
    B.CreateStore(P, Slot);
    return B.CreateLoad(PointerType::get(Ctx, 0), Slot);
  }
  return P;
}

Value *ModuleBuilder::valueFor(const ArgDesc *A, IRBuilder<> &B, IRBuilder<> &Entry) {
  uint8_t C = In.u8();
  Type *Ptr = PointerType::get(Ctx, 0);
  Type *I32 = Type::getInt32Ty(Ctx);
  if (!A || (C & 0xF0) == 0xF0) { // a value of a random type
    Type *Ty = oddType(Ctx, C);
    if (Ty->isPointerTy())
      return Entry.CreateAlloca(Type::getInt32Ty(Ctx), ConstantInt::get(I32, 1 + In.below(64)));
    return Constant::getNullValue(Ty);
  }
  switch (A->Kind) {
  case TILEAPPLY_KIND_REGISTER:
  case TILEAPPLY_KIND_PRED_TENSOR: {
    Type *Elt = carrierType(A->Elem, Ctx);
    if (!Elt)
      Elt = I32;
    int64_t N = A->Storage > 0 ? A->Storage : 1;
    if (C & 1)
      N = 1 + In.below(8); // storage smaller (or larger) than the layout says
    N = std::min<int64_t>(N, 1 << 16);
    AllocaInst *Slot = Entry.CreateAlloca(ArrayType::get(Elt, N));
    Observed.push_back(Slot);
    return Slot;
  }
  case TILEAPPLY_KIND_MEMORY: {
    // A pointer parameter, generic or in the space's address space (or not).
    unsigned AS = 0;
    if (C & 2)
      AS = nvptxAddressSpace(A->Sp);
    if ((C & 6) == 6)
      AS = In.below(8);
    Value *P = Kernel->getArg(1);
    if (AS)
      P = B.CreateAddrSpaceCast(P, PointerType::get(Ctx, AS));
    return P;
  }
  case TILEAPPLY_KIND_SCALAR: {
    Type *Promoted = promotedType(A->Elem, Ctx);
    Type *Carrier = carrierType(A->Elem, Ctx);
    Type *Ty = (C & 1) && Carrier ? Carrier : Promoted;
    if (!Ty)
      Ty = I32;
    Value *V;
    if (C & 2) { // a run-time value
      Value *Raw = Kernel->getArg(2);
      V = Ty->isIntegerTy()         ? B.CreateZExtOrTrunc(Raw, Ty)
          : Ty->isFloatingPointTy() ? B.CreateUIToFP(Raw, Ty)
                                    : (Value *)Constant::getNullValue(Ty);
    } else if (Ty->isIntegerTy()) {
      V = ConstantInt::get(Ty, In.u64());
    } else if (Ty->isFloatingPointTy()) {
      uint64_t Bits = In.u64();
      double D;
      std::memcpy(&D, &Bits, sizeof D);
      if (C & 8)
        D = static_cast<int8_t>(Bits) / 4.0;
      V = ConstantFP::get(Ty, D);
    } else {
      V = Constant::getNullValue(Ty);
    }
    if (C & 4) { // the clang -O0 shape: stored to a local, loaded back
      AllocaInst *Slot = Entry.CreateAlloca(Ty);
      B.CreateStore(V, Slot);
      if (C & 0x10) { // and through a reference to that local
        AllocaInst *Ref = Entry.CreateAlloca(Ptr);
        B.CreateStore(Slot, Ref);
        return B.CreateLoad(Ty, B.CreateLoad(Ptr, Ref));
      }
      return B.CreateLoad(Ty, Slot);
    }
    if ((C & 0x60) == 0x60 && Ty->isIntegerTy(32)) // a cast of promotion
      return B.CreateZExt(B.CreateTrunc(V, B.getInt16Ty()), Ty);
    return V;
  }
  case TILEAPPLY_KIND_PRED_SCALAR:
    if (C & 1)
      return B.CreateZExt(B.CreateICmpNE(Kernel->getArg(2), B.getInt32(0)), I32);
    return ConstantInt::get(I32, C >> 7);
  default: return ConstantInt::get(I32, 0);
  }
}

std::unique_ptr<Module> ModuleBuilder::build(const CallInput &Call,
                                             const std::vector<ArgDesc> *Decoded) {
  M = std::make_unique<Module>("fuzz", Ctx);
  uint8_t Env = In.u8();
  static const char *Triples[] = {"nvptx64-nvidia-cuda",
                                  "nvptx64-nvidia-cuda",
                                  "nvptx64-nvidia-cuda",
                                  "nvptx-nvidia-cuda",
                                  "",
                                  "x86_64-unknown-linux-gnu"};
  M->setTargetTriple(Triple(Triples[Env % 6]));
  M->setDataLayout("e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64");

  Type *Ptr = PointerType::get(Ctx, 0);
  Type *I32 = Type::getInt32Ty(Ctx);
  FunctionType *FT = FunctionType::get(Type::getVoidTy(Ctx), {I32, Ptr, I32}, false);
  Kernel = Function::Create(FT, GlobalValue::ExternalLinkage, "kernel", *M);
  if (Env & 8) {
    static const char *Cpus[] = {"sm_60",   "sm_75",   "sm_80", "sm_90a",
                                 "sm_100a", "sm_120a", "bogus", "sm_"};
    Kernel->addFnAttr("target-cpu", Cpus[(Env >> 4) % 8]);
    Kernel->addFnAttr("target-features", (Env & 0x80) ? "+ptx60" : "+ptx88,+sm_90a");
  }
  // The ABI's declaration, or `void (...)`, which lets a call pass anything.
  bool AnyArgs = Env & 4;
  FunctionType *MarkerTy = AnyArgs ? FunctionType::get(Type::getVoidTy(Ctx), {}, true)
                                   : FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr}, true);
  FunctionCallee Marker = M->getOrInsertFunction(TILEAPPLY_MARKER_NAME, MarkerTy);

  BasicBlock *EntryBB = BasicBlock::Create(Ctx, "entry", Kernel);
  BasicBlock *Body = BasicBlock::Create(Ctx, "body", Kernel);
  IRBuilder<> Entry(EntryBB);
  IRBuilder<> B(Body);

  // Debug info: none, the marker's own location, or a location inside an
  // inlined `__tile_apply<...>` whose inlinedAt is the user's call.
  DILocation *Loc = nullptr;
  uint8_t Dbg = In.u8();
  std::unique_ptr<DIBuilder> DIB;
  if (Dbg & 1) {
    DIB = std::make_unique<DIBuilder>(*M);
    DIFile *File = DIB->createFile("kernel.cu", "/fuzz");
    DICompileUnit *CU = DIB->createCompileUnit(DISourceLanguageName(dwarf::DW_LANG_C_plus_plus),
                                               File, "fuzz", false, "", 0);
    DISubroutineType *ST = DIB->createSubroutineType(DIB->getOrCreateTypeArray({}));
    DISubprogram *SP = DIB->createFunction(CU, "kernel", "", File, 3, ST, 3, DINode::FlagZero,
                                           DISubprogram::SPFlagDefinition);
    Kernel->setSubprogram(SP);
    Loc = DILocation::get(Ctx, 7, 3, SP);
    if (Dbg & 2) {
      DISubprogram *Wrap =
          DIB->createFunction(CU, (Dbg & 4) ? "__tile_apply<float (&)[8][1]>" : "helper", "", File,
                              90, ST, 90, DINode::FlagZero, DISubprogram::SPFlagDefinition);
      Loc = DILocation::get(Ctx, 95, 5, Wrap, Loc);
    }
  }

  unsigned NumCalls = 1 + ((Dbg >> 3) & 1);
  for (unsigned K = 0; K < NumCalls; ++K) {
    std::vector<Value *> Ops;
    Ops.push_back(opcodeOperand(Call.Opcode, B));
    Ops.push_back(layoutOperand(Call.Words, B));
    size_t N = Decoded ? Decoded->size() : In.below(6);
    uint8_t Count = In.u8();
    if ((Count & 0x1F) == 1 && N > 0)
      --N; // one value too few
    else if ((Count & 0x1F) == 2)
      ++N; // one too many
    for (size_t I = 0; I < N; ++I)
      Ops.push_back(valueFor(Decoded && I < Decoded->size() ? &(*Decoded)[I] : nullptr, B, Entry));
    if ((Count & 0xE0) == 0xE0) {
      // A non-pointer where a pointer belongs (the opcode or the layout only
      // when the declaration allows it), or fewer than two operands.
      size_t First = AnyArgs ? 0 : 2;
      if (Ops.size() > First)
        Ops[First + In.below(Ops.size() - First)] = ConstantInt::get(I32, 7);
      if (AnyArgs && (Count & 0x1F) == 3)
        Ops.resize(In.below(2));
    }
    CallInst *CI = B.CreateCall(Marker, Ops);
    if (Loc)
      CI->setDebugLoc(DebugLoc(Loc));
  }
  for (AllocaInst *Slot : Observed) {
    Type *Elt = Slot->getAllocatedType()->getArrayElementType();
    B.CreateStore(B.CreateLoad(Elt, Slot), Kernel->getArg(1), /*isVolatile=*/true);
  }
  B.CreateRetVoid();
  Entry.CreateBr(Body);
  if (DIB)
    DIB->finalize();
  return std::move(M);
}

unsigned countTaggedAsm(const Module &M) {
  unsigned N = 0;
  for (const Function &F : M)
    for (const BasicBlock &BB : F)
      for (const Instruction &I : BB)
        if (const auto *CI = dyn_cast<CallInst>(&I))
          if (CI->isInlineAsm())
            N += CI->getMetadata("tileapply.opcode") != nullptr;
  return N;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Bytes In(Data, Size);
  CallInput C = readCall(In);
  Expected<std::vector<ArgDesc>> Args = decodeLayout(C.Words);
  std::optional<std::vector<ArgDesc>> Decoded;
  if (Args) {
    if (fuzz::tooBigToExpand(*Args))
      return 0;
    Decoded = std::move(*Args);
  } else {
    consumeError(Args.takeError());
  }

  LLVMContext Ctx;
  std::vector<std::pair<DiagnosticSeverity, std::string>> Diags;
  Ctx.setDiagnosticHandler(std::make_unique<Recorder>(&Diags));
  ModuleBuilder MB(Ctx, In);
  std::unique_ptr<Module> M = MB.build(C, Decoded ? &*Decoded : nullptr);
  {
    std::string Err;
    raw_string_ostream OS(Err);
    TA_FUZZ_CHECK(!verifyModule(*M, &OS), "the harness built invalid IR: " + OS.str());
  }

  bool PipelineStart = C.Mode & 4;
  if (const char *V = std::getenv("TILEAPPLY_FUZZ_VERBOSE"); V && std::string_view(V) == "ir")
    M->print(errs() << "before the pass:\n", nullptr);
  {
    ModulePassManager MPM;
    if (PipelineStart)
      MPM.addPass(TileApplyPipelineStartPass());
    else
      MPM.addPass(TileApplyExpandPass());
    runWithOwnAnalyses(*M, MPM);
  }

  std::string Err;
  raw_string_ostream OS(Err);
  TA_FUZZ_CHECK(!verifyModule(*M, &OS), "the pass left invalid IR: " + OS.str());
  bool Errors = false;
  for (auto &[Sev, Msg] : Diags) {
    TA_FUZZ_CHECK(!Msg.empty(), "a diagnostic without a message");
    // (Unless the opcode itself spells it: messages quote the opcode.)
    if (C.Opcode.find("internal error") == std::string::npos)
      TA_FUZZ_CHECK(Msg.find("internal error while expanding") == std::string::npos, Msg);
    Errors |= Sev == DS_Error;
  }
  bool NVPTX = M->getTargetTriple().isNVPTX();
  // TILEAPPLY_FUZZ_VERBOSE=1: what happened to each input (for reproducing).
  static const bool Verbose = std::getenv("TILEAPPLY_FUZZ_VERBOSE");
  if (Verbose) {
    errs() << "opcode '" << C.Opcode << "', " << C.Words.size() << " words, " << countTaggedAsm(*M)
           << " asm\n";
    for (auto &[Sev, Msg] : Diags)
      errs() << "  " << (Sev == DS_Error ? "error: " : "diag: ") << Msg << "\n";
    if (std::string_view(std::getenv("TILEAPPLY_FUZZ_VERBOSE")) == "ir")
      M->print(errs() << "after the pass:\n", nullptr);
  }
  if (NVPTX || !PipelineStart) {
    // The expansion ran: nothing of the marker may survive.
    TA_FUZZ_CHECK(!M->getFunction(TILEAPPLY_MARKER_NAME), "the marker survived");
    if (!Errors && NVPTX)
      TA_FUZZ_CHECK(countTaggedAsm(*M) > 0, "an accepted call expanded to nothing");
  }
  return 0;
}

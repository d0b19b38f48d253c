//===- PassPlugin.cpp - TileApplyPass.so, the stand-alone pass plugin -----===//
//
// The entry point opt and `clang -fpass-plugin` look for. Only the module
// TileApplyPass.so compiles this file; the Clang plugin TileApply.so links the
// same pass library but registers the pass itself, so no process ever sees two
// definitions of llvmGetPassPluginInfo from tileapply.
//
//===----------------------------------------------------------------------===//
#include "llvm/Plugins/PassPlugin.h"
#include "Registration.h"
#include "llvm/Passes/PassBuilder.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "TileApply", "0.1",
          [](llvm::PassBuilder &PB) { tileapply::registerPasses(PB); }};
}

//===- DeviceCode.cpp - Whether a function's code runs on the GPU ---------===//
#include "DeviceCode.h"
#include "clang/AST/ASTLambda.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"

using namespace clang;

namespace tileapply {
namespace plugin {

/// The nearest function around a declaration context (skipping classes, so
/// the function a lambda's closure class is defined in).
static const FunctionDecl *enclosingFunction(const DeclContext *DC) {
  for (; DC; DC = DC->getParent())
    if (const auto *F = dyn_cast<FunctionDecl>(DC))
      return F;
  return nullptr;
}

bool runsOnDevice(const FunctionDecl *F) {
  while (F) {
    if (F->hasAttr<CUDAGlobalAttr>())
      return true;
    const auto *Device = F->getAttr<CUDADeviceAttr>();
    if (!Device)
      return false;
    const auto *MD = dyn_cast<CXXMethodDecl>(F);
    if (!Device->isImplicit() || !MD || !isLambdaCallOperator(MD))
      return true;
    F = enclosingFunction(MD->getParent()->getDeclContext());
    if (!F)
      return true; // a lambda at namespace scope: callable from both sides
  }
  return false;
}

} // namespace plugin
} // namespace tileapply

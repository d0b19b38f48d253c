//===- HeaderVersion.h - Whether tile.h is this plugin's version -*- C++ -*-===//
//
// The plugin decodes the layouts a tile.h writes; a tile.h of another version
// may write them differently. So before the first call is checked, the plugin
// compares the header's `tile::header_version` with its own TILEAPPLY_VERSION
// and, when they differ, reports that once instead of checking anything.
//
//===----------------------------------------------------------------------===//
#ifndef TILEAPPLY_CLANGPLUGIN_HEADERVERSION_H
#define TILEAPPLY_CLANGPLUGIN_HEADERVERSION_H

#include <optional>
#include <string>

namespace clang {
class ASTContext;
class CallExpr;
} // namespace clang

namespace tileapply {
namespace plugin {

/// Why the tile.h this translation unit uses is not this plugin's version
/// (`tile::header_version`, from tileapply/version.h), or nullopt when it is.
/// \p Call, a call of the header's `__tile_apply`, names the header's file.
std::optional<std::string> headerVersionProblem(clang::ASTContext &Ctx,
                                                const clang::CallExpr *Call);

} // namespace plugin
} // namespace tileapply

#endif

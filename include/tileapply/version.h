/*===- tileapply/version.h - The tileapply version of these headers -*- C -*-===*
 *
 * Plain C, no includes. The top-level CMakeLists.txt's `project(tileapply
 * VERSION ...)` is the one source of the version: configuring the project
 * stops when the numbers below differ from it, so this committed copy is what
 * a build from the source tree (`-I <repo>/include`) and an installed tree
 * both see. docs/install.md says why the header is committed, not generated.
 *
 * tile.h exposes TILEAPPLY_VERSION as `tile::header_version`; the Clang plugin
 * compares it with its own version and refuses a header of another version
 * at the first __tile_apply call.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TILEAPPLY_VERSION_H
#define TILEAPPLY_VERSION_H

#define TILEAPPLY_VERSION_MAJOR 0
#define TILEAPPLY_VERSION_MINOR 2
#define TILEAPPLY_VERSION_PATCH 0
#define TILEAPPLY_VERSION_STRING "0.2.0"
/* One comparable number: MAJOR * 10000 + MINOR * 100 + PATCH. */
#define TILEAPPLY_VERSION                                                                          \
  (TILEAPPLY_VERSION_MAJOR * 10000 + TILEAPPLY_VERSION_MINOR * 100 + TILEAPPLY_VERSION_PATCH)

#endif /* TILEAPPLY_VERSION_H */

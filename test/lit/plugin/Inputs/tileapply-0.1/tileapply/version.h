/* A stand-in for the version.h of another tileapply release (0.1.0), found
 * before the real one by header-version.cu's -I: the real tile.h then says
 * it is 0.1.0. */
#ifndef TILEAPPLY_VERSION_H
#define TILEAPPLY_VERSION_H
#define TILEAPPLY_VERSION_MAJOR 0
#define TILEAPPLY_VERSION_MINOR 1
#define TILEAPPLY_VERSION_PATCH 0
#define TILEAPPLY_VERSION_STRING "0.1.0"
#define TILEAPPLY_VERSION 100
#endif

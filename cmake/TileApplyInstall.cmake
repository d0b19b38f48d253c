# What `cmake --install` lays out and what `cpack` packs (docs/install.md):
#
#   <prefix>/include/tileapply/            every header of include/tileapply/ and
#                                          runtime/include/tileapply/
#   <prefix>/lib/libtileapply_runtime.a    the runtime library (TileApply::runtime)
#   <prefix>/lib/TileApply.so              the Clang plugin (-fplugin=)
#   <prefix>/lib/TileApplyPass.so          the pass plugin (opt, -fpass-plugin=)
#   <prefix>/bin/tileapply-opcodes         the table listing tool
#   <prefix>/bin/tileapply-migrate         asm statements to __tile_apply calls
#   <prefix>/share/doc/tileapply/          README.md, docs/, examples/
#   <prefix>/lib/cmake/TileApply/          TileApplyConfig.cmake, ...Version.cmake
#
# The package is relocatable: TileApplyConfig.cmake finds everything relative
# to its own directory, so a tree moved elsewhere (or a .deb unpacked with
# `dpkg -x` into any root) still works.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TILEAPPLY_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/TileApply")

# The whole directories, so that every header added there is installed; the
# compiler's and the runtime's headers share one include/tileapply/, so a
# user's #include lines name no source directory.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/tileapply" "${PROJECT_SOURCE_DIR}/runtime/include/tileapply"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
if(TILEAPPLY_HAVE_RUNTIME_LIBRARY)
  install(TARGETS tileapply_runtime ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
endif()
install(TARGETS TileApply TileApplyPass LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(TARGETS tileapply-opcodes tileapply-migrate RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
# README.md next to docs/ and examples/, so that its relative links still work.
install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION "${CMAKE_INSTALL_DOCDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs" "${PROJECT_SOURCE_DIR}/examples"
        DESTINATION "${CMAKE_INSTALL_DOCDIR}")

# The CUDA compiler a consumer must use: the clang++ of the LLVM this plugin
# was built against (named in the package's error messages).
set(TILEAPPLY_CLANGXX "${LLVM_TOOLS_BINARY_DIR}/clang++")
configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/TileApplyConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/cmake/TileApplyConfig.cmake"
  INSTALL_DESTINATION "${TILEAPPLY_INSTALL_CMAKEDIR}"
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_BINDIR)
# 0.x releases may change what the header and the plugin agree on (the layout
# records, the table), so a request for 0.2 accepts 0.2.x and nothing newer.
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/cmake/TileApplyConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/cmake/TileApplyConfig.cmake"
              "${PROJECT_BINARY_DIR}/cmake/TileApplyConfigVersion.cmake"
        DESTINATION "${TILEAPPLY_INSTALL_CMAKEDIR}")

# ---- the Debian package: `cpack -G DEB` in the build directory ---------------
# It packs the same install rules under /usr. TileApply.so runs inside
# clang-22 (which brings libclang-cpp22 and libllvm22); tileapply-opcodes links
# libLLVM.so.22.1 (libllvm22). The LLVM minor release fixes the plugin ABI.
set(_tileapply_llvm "${LLVM_VERSION_MAJOR}")
set(_tileapply_llvm_min "1:${LLVM_VERSION_MAJOR}.${LLVM_VERSION_MINOR}")
set(CPACK_PACKAGE_NAME "tileapply")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Clang ${_tileapply_llvm} plugin that checks and expands __tile_apply PTX tile operations in CUDA")
set(CPACK_PACKAGE_CONTACT "tileapply maintainers <tileapply@example.invalid>")
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_PACKAGE_DIRECTORY "${PROJECT_BINARY_DIR}/packages")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # tileapply_0.2.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "clang-${_tileapply_llvm} (>= ${_tileapply_llvm_min}), libllvm${_tileapply_llvm} (>= ${_tileapply_llvm_min}), libclang-cpp${_tileapply_llvm} (>= ${_tileapply_llvm_min}), libc6, libstdc++6")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "The Clang plugin TileApply.so, the LLVM pass plugin TileApplyPass.so, the
headers <tileapply/tile.h> and friends, tileapply-opcodes and the CMake package
TileApply (find_package(TileApply)). CUDA sources are compiled by
clang++-${_tileapply_llvm} against a CUDA toolkit (not a Debian package here).")
set(CPACK_SOURCE_GENERATOR "")
include(CPack)

# Checks that include/tileapply/version.h says the version of project() in the
# top-level CMakeLists.txt, the one source of the version. The header is
# committed rather than generated so that a compile against the source tree
# with only `-I <repo>/include` sees it too (docs/install.md, "The version").
set(_tileapply_version_h "${PROJECT_SOURCE_DIR}/include/tileapply/version.h")
# Re-run this check whenever the header changes.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_tileapply_version_h}")
file(READ "${_tileapply_version_h}" _tileapply_version_text)
set(_tileapply_version_wrong "")
foreach(_part MAJOR MINOR PATCH)
  set(_want "${PROJECT_VERSION_${_part}}")
  if(NOT _tileapply_version_text MATCHES "#define TILEAPPLY_VERSION_${_part} ${_want}\n")
    list(APPEND _tileapply_version_wrong "TILEAPPLY_VERSION_${_part} ${_want}")
  endif()
endforeach()
if(NOT _tileapply_version_text MATCHES "#define TILEAPPLY_VERSION_STRING \"${PROJECT_VERSION}\"\n")
  list(APPEND _tileapply_version_wrong "TILEAPPLY_VERSION_STRING \"${PROJECT_VERSION}\"")
endif()
if(_tileapply_version_wrong)
  list(JOIN _tileapply_version_wrong "\n  #define " _lines)
  message(FATAL_ERROR
    "include/tileapply/version.h does not match project(tileapply VERSION ${PROJECT_VERSION}) "
    "in CMakeLists.txt. Update the header so that it says:\n  #define ${_lines}")
endif()
unset(_tileapply_version_text)
unset(_tileapply_version_wrong)

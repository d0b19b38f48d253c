// Plain C++, compiled by the project's C++ compiler: TileApply::TileApply
// gives this file no -fplugin (TileApply::runtime gives the target the
// include directory, which this file does not use).
#include "example.h"

int main() { return check_runtime_library() ? run_example() : 1; }

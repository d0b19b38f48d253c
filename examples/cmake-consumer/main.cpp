// Plain C++, compiled by the project's C++ compiler: TileApply::TileApply
// gives this file no include directory and no -fplugin.
#include "example.h"

int main() { return run_example(); }

// What kernel.cu and tensor_map_check.cpp offer main.cpp: plain C++, no CUDA.
#pragma once

// Runs the kernel when a GPU of the right architecture is present and checks
// its result; otherwise says why it was skipped. Returns the exit status.
int run_example();

// Checks a tensor map through the runtime library (tensor_map_check.cpp,
// plain C++ linked with TileApply::runtime); prints why when it fails.
bool check_runtime_library();

// The one function kernel.cu offers main.cpp: plain C++, no CUDA, no tileapply.
#pragma once

// Runs the kernel when a GPU of the right architecture is present and checks
// its result; otherwise says why it was skipped. Returns the exit status.
int run_example();

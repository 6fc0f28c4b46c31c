// Lets a MUSA source (.mu) that uses the runtime API build with nvcc for a real NVIDIA GPU:
//   nvcc -O2 -arch=sm_90 -x cu -I tests/validation/cuda tests/validation/timing_suite.mu -o suite
// Each musa* name the validation suites use maps to its cuda* twin (the APIs behave the same);
// the names are those of the hardware probes' mapping header.
#pragma once
#include "../../hardware/probes/musa_to_cuda.h"

// Text reports of the compiler's work on a finished run (`fuselab kernels`).
#pragma once

#include <string>

#include "core/runtime/runtime.h"

namespace fl::inspect {

struct KernelsOptions {
    bool decisions = false; // list every fusion decision
    bool plan = false;      // list each kernel's codegen choices
    bool ir = false;        // LLVM IR of each graph's module
    bool assembly = false;  // machine code
};

// Every compiled graph: run order (kernels, library calls, eager ops), then each kernel's source.
std::string kernelsText(const capture::Session& s, const KernelsOptions& o);
// "buf3(gelu) + buf4(mul)"
std::string describeNodes(const lower::Program& p, const std::vector<int>& nodes);

} // namespace fl::inspect

// Codegen's emitter: one self-contained C++ source per kernel (no headers), printed from the
// kernel's plan (plan.h), named after what it computes (cpp_fused_gelu_mul_0), commented with the
// graph nodes and script lines it covers, identical from run to run. Every kernel has the same C
// signature:
//
//   extern "C" void NAME(void* const* bufs, const long* sym, const float* scal, long begin, long end)
//
// bufs: the buffers it reads and writes (Kernel::buffers order); sym: the symbolic sizes (s0, s1:
// one kernel serves every size of a dynamic dim); scal: symbolic float/int inputs; [begin, end):
// the rows this call computes, so a thread pool can split the outer loop.
#pragma once

#include <string>
#include <vector>

#include "core/codegen/plan.h"
#include "core/fuse/fuse.h"
#include "core/lower/ir.h"

namespace fl::codegen {

struct Kernel {
    std::string name;
    std::string source;           // the whole kernel, self-contained
    int group = -1;               // the schedule group it implements
    std::vector<int> buffers;     // program node ids, bufs[] order
    std::vector<bool> writes;     // per buffer: written by the kernel
    lower::IE rows;               // the outer iteration count, split over threads
    int64_t costPerRow = 1;       // elements touched per row (for choosing how many threads)
    std::vector<int> nodes;       // program nodes it computes
    std::vector<Choice> plan;     // its plan's choices (KernelPlan::choices), with the operands named as printed
};

// Prints a kernel from its plan (plan.h); decides nothing the plan does not say.
Kernel emit(const lower::Program& p, const fuse::Schedule& s, const KernelPlan& plan, const std::string& name);
// Prints the kernels of a schedule's plans (planKernels), named after what they compute and
// numbered in order: cpp_fused_gelu_mul_0, ...
std::vector<Kernel> emitKernels(const lower::Program& p, const fuse::Schedule& s, const std::vector<KernelPlan>& plans);

// One translation unit with every kernel (each in its own namespace, the math helpers once).
std::string translationUnit(const std::vector<Kernel>& kernels);

} // namespace fl::codegen

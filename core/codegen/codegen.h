// Codegen: one self-contained C++ source per kernel (no headers), named after what it computes
// (cpp_fused_gelu_mul_0), commented with the graph nodes and script lines it covers, identical
// from run to run. Every kernel has the same C signature:
//
//   extern "C" void NAME(void* const* bufs, const long* sym, const float* scal, long begin, long end)
//
// bufs: the buffers it reads and writes (Kernel::buffers order); sym: the symbolic sizes (s0, s1:
// one kernel serves every size of a dynamic dim); scal: symbolic float/int inputs; [begin, end):
// the rows this call computes, so a thread pool can split the outer loop.
#pragma once

#include <string>
#include <vector>

#include "core/fuse/fuse.h"
#include "core/lower/ir.h"

namespace fl::codegen {

// A choice codegen made for a kernel, with its reason: the kernel's plan, as data. The source is
// printed from the same decisions; `fuselab kernels --plan` lists them and the tests check them.
enum class ChoiceKind : uint8_t {
    KeptValue,       // a costly value of a row kept in an array for a later loop
    RowValue,        // a value fixed for the row, computed once before the element loops
    Interleave,      // a loop asks the C++ compiler for four vectors at once
    PrefetchAhead,   // a loop fetches the inputs (and outputs, for writing) of the next row or block
    TwoStage,        // chained costly math in two stages, a block apart
    Streamed,        // an output row written past the caches
    OpaqueConstant,  // a constant a compare reads, hidden from the optimizer
};
const char* choiceName(ChoiceKind k); // "kept value", ...
struct Choice {
    ChoiceKind kind;
    std::string subject; // what it applies to: "loop 2", "fl_exp_nonpos", "buf5"
    std::string reason;
    bool operator==(const Choice& o) const { return kind == o.kind && subject == o.subject && reason == o.reason; }
};

struct Kernel {
    std::string name;
    std::string source;           // the whole kernel, self-contained
    int group = -1;               // the schedule group it implements
    std::vector<int> buffers;     // program node ids, bufs[] order
    std::vector<bool> writes;     // per buffer: written by the kernel
    lower::IE rows;               // the outer iteration count, split over threads
    int64_t costPerRow = 1;       // elements touched per row (for choosing how many threads)
    std::vector<int> nodes;       // program nodes it computes
    std::vector<Choice> plan;     // the choices made for it, in the order they were made
};

// Generates the kernels of a schedule (live groups, in `order`); names are numbered in order.
std::vector<Kernel> generate(const lower::Program& p, const fuse::Schedule& s, const std::vector<int>& order);

// One translation unit with every kernel (each in its own namespace, the math helpers once).
std::string translationUnit(const std::vector<Kernel>& kernels);

} // namespace fl::codegen

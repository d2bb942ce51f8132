// Codegen's plan of a kernel: every choice about its source made ahead of printing it, as plain
// data. plan() decides, from the loop IR, the schedule and the machine; the emitter (codegen.h)
// prints a plan and decides nothing, so a second emitter can print the same plan. The choices a
// reader should know about are listed with their reasons (KernelPlan::choices, printed by
// `fuselab kernels --plan`); the other fields are what the emitter needs to print them.
//
// A plan names the kernel's values by their structure (view::valueKey), its nodes by program
// node id, and the loops of a reduction kernel by their number in the source (loop 1, 2, ...).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/fuse/fuse.h"
#include "core/lower/ir.h"

namespace fl::codegen {

// A choice made for a kernel, with its reason: the kernel's plan, as data.
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

// Where a choice's subject names a value of the source that only the emitter names (a row
// value's operand: `t10`, `buf3_v`), the plan's subject holds kOperand in its place; the
// emitter's Kernel::plan has the name.
constexpr const char* kOperand = "{}";
struct Choice {
    ChoiceKind kind;
    std::string subject; // what it applies to: "loop 2", "kept0 (fl_exp_nonpos)", "buf5", "1 / {}"
    std::string reason;
    bool operator==(const Choice& o) const { return kind == o.kind && subject == o.subject && reason == o.reason; }
};

// The machine a plan is for.
struct Target {
    int64_t streamBytes = INT64_MAX; // outputs at least this large are written past the caches
};
// This machine: FUSELAB_LLC_BYTES, or the last-level cache sysfs lists.
Target hostTarget();

// Where a value is computed: in an element loop, or once per row before a reduction kernel's
// loops (in the row's scope, visible to all its loops).
enum class Where : uint8_t { Loop, Row };

// A buffer range fetched ahead: one __builtin_prefetch per cache line of a block of `lanes`
// elements.
struct Prefetch {
    int node = -1;      // the buffer (program node)
    lower::IE offset;   // its element offset: a reduction's next row (outer vars nx0, nx1, ...; the
                        // reduced var at rNb + c), or a pointwise loop's next row block (b0 + block + c)
    int64_t perLine = 16; // elements per 64-byte cache line
    bool write = false;   // fetched for writing (an output)
};

// A costly value that several loops of a row read: the first computes it into a row array.
struct KeptValue {
    std::string value; // valueKey of the costly call
    std::string array; // "kept0", ...
    int loop = 0;      // the loop that computes and stores it; later loops read the array
};

// One loop of a reduction kernel over its reduced dims.
struct ReductionLoop {
    int index = 0;                // loop 1, 2, ...: a reduction runs in the loop after those it reads
    std::vector<int> reductions;  // nodes it reduces (`lanes` accumulators each)
    std::vector<int> stores;      // nodes it stores
    std::vector<int> streamed;    // of those, the ones whose rows are written past the caches
    std::string interleave;       // the costly function that has it ask for four vectors at once ("": none)
    bool prefetch = false;        // it fetches the next row's accesses (KernelPlan::prefetches)
    bool blocked = false;         // a store loop over blocks of `lanes` elements, each fetching ahead
};

struct KernelPlan {
    int group = -1;          // the schedule group it implements
    bool reduction = false;  // loops over reduced dims inside each row (else a pointwise kernel)
    lower::IE rows;          // the outer iteration count, split over threads
    int64_t costPerRow = 1;  // elements touched per row (for choosing how many threads)
    int lanes = 64;          // accumulators per reduction, elements per sub-block: four 16-float vectors
    int64_t block = 4096;    // elements of the last dim per row block of a pointwise kernel

    // ---- pointwise kernels
    bool blocked = false;    // the last dim is cut into blocks of `block` elements (rows x blocks)
    lower::IE blocks;        // blocks per row (1 when not blocked)
    lower::SE twoStageCut;   // the inlined value computed a block ahead (a load of it), or null
    std::string interleave;  // the element loop's costly function ("": no pragma)
    std::string firstStageInterleave, secondStageInterleave; // two stages: the first block's first
                                                             // stage, the last block's second

    // ---- reduction kernels
    std::vector<ReductionLoop> loops;
    std::vector<int> rowLevel;      // pointwise nodes over the rows only, stored after the loops
    int64_t rowLength = -1;         // the reduced row's constant length (-1: not one constant dim)
    std::vector<KeptValue> kept;    // in the order of their values (valueKey): kept0, kept1, ...
    std::set<std::string> rowValues; // calls fixed for the row: computed once before its loops
    // Divisions x / s by a row value s, printed as x * (1 / s) with one reciprocal per row, where
    // they are computed (value -> its choice).
    std::map<std::pair<Where, std::string>, size_t> reciprocals;
    // Calls computed once per row whose result passes through fl_opaque (value -> its choice).
    std::map<std::string, size_t> opaqueRowValues;

    // ---- both
    std::vector<Prefetch> prefetches; // fetched ahead: by the loop with `prefetch` set, or the
                                      // pointwise block loop (empty: none)
    std::vector<std::string> opaqueConstants; // compared float constants hidden from the optimizer, as
                                              // C literals, in order of first use: fl_k0, fl_k1, ...
    bool versioned = false;   // calls sin or cos: a fast version first, the full one if an argument was large
    std::vector<Choice> choices; // in the order they were made

    const KeptValue* keptValue(const std::string& value) const;
    bool streams() const; // some loop writes rows past the caches
};

// The plan of one live group of a schedule.
KernelPlan plan(const lower::Program& p, const fuse::Schedule& s, const fuse::Group& g, const Target& t = hostTarget());
// The plans of a schedule's kernels: its live groups in `order` (fuse::executionOrder).
std::vector<KernelPlan> planKernels(const lower::Program& p, const fuse::Schedule& s, const std::vector<int>& order,
                                    const Target& t = hostTarget());

} // namespace fl::codegen

// The fusion scheduler: groups the Pointwise and Reduction nodes of a Program into kernels, with
// Inductor's rules as the starting point:
//   - vertical: a producer joins its consumer's kernel (its values are computed where they are
//     used instead of being written to memory and read back);
//   - horizontal: siblings that read the same buffer over the same loops share one kernel;
//   - prologues and epilogues of reductions: pointwise work before a reduction is computed inside
//     its loop, pointwise work after it (over the same rows) runs in the same kernel;
//   - epilogues of externs: a pointwise kernel that reads only rows of an mm's output runs on
//     each block of rows right after the library call has produced it.
// Legality: no cycles through other kernels, compatible loop ranges, a reduction's result read
// only at the row being computed, a size limit. Every pair considered is recorded as a Decision,
// fused or not, with the score and the reason in plain words; replaying the decisions in order
// from the initial groups gives the final kernels.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/lower/ir.h"

namespace fl::fuse {

using lower::IE;
using lower::Shape;

// A kernel's loops: `outer` rows (split over threads) and, for reductions, `inner` dims looped
// inside each row. Pointwise kernels have no inner dims.
struct Domain {
    Shape outer, inner;
    bool isReduction() const { return !inner.empty(); }
};

struct Group {
    int id = 0;                 // index in Schedule::groups
    std::vector<int> nodes;     // program node ids, topological order
    Domain domain;
    int epilogueOf = -1;        // an Extern node whose row blocks this kernel follows
    bool alive = true;          // false once merged into another group
};

struct Decision {
    int step = 0;
    std::string kind;           // "vertical", "horizontal", "epilogue"
    std::vector<int> a, b;      // the two groups' nodes at that moment
    double score = 0;
    int64_t bytesSaved = 0;     // estimated memory traffic saved, at the traced sizes
    bool fused = false;
    std::string reason;
};

struct Schedule {
    std::vector<Group> groups;          // all groups ever formed; the live ones are the kernels
    std::vector<Decision> decisions;
    std::vector<std::vector<int>> initial; // each compute node's starting group (node lists)
    std::vector<int> groupOf;           // per program node: its live group (-1: not a compute node)
    std::vector<bool> stored;           // per program node: written to memory
};

struct Options {
    int maxNodes = 64;                  // nodes per kernel
    bool enabled = true;                // false: one kernel per node (for comparisons)
    std::map<std::string, int64_t> symbolHints; // traced sizes, for byte estimates
};

// `deps`: per program node, the nodes it reads. `needsValue`: per program node, true when
// something outside the kernels reads it whole (graph outputs, externs, fallbacks).
Schedule schedule(const lower::Program& p, const std::vector<std::vector<int>>& deps, const std::vector<bool>& needsValue,
                  const Options& opts = {});
// The order to run kernels, externs and fallbacks in: each unit is a live group id (>= 0) or
// -1 - node id for an Extern/Fallback node.
std::vector<int> executionOrder(const lower::Program& p, const Schedule& s, const std::vector<std::vector<int>>& deps);

// How a node's loop variables map to its kernel's: "x0".."xk" name the kernel's outer dims,
// "r0".. its inner dims. Empty when the node does not fit the domain.
struct Placement {
    bool ok = false;
    bool rowLevel = false;      // a pointwise node over the outer dims only (after the inner loops)
    std::map<std::string, IE> vars;
};
Placement place(const lower::Node& n, const Domain& d);

} // namespace fl::fuse

// A kernel's view of the program, shared by the planner (plan.cpp) and the emitter (codegen.cpp):
// its nodes' bodies in its loop variables, loads of its own inlined nodes expanded, values named
// by their structure, the offsets and strides of its buffer accesses, and the facts of ops both
// need. Internal to core/codegen.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/fuse/fuse.h"
#include "core/lower/ir.h"

namespace fl::codegen::view {

constexpr int kLanes = 64;          // independent accumulators per reduction: four AVX-512 vectors, so
                                    // the adds of consecutive steps do not wait on each other
constexpr int64_t kBlock = 4096;    // elements of the last dim per row block of a pointwise kernel
constexpr int64_t kRowStash = 4096; // longest reduced row whose costly values are kept for later loops

// The transcendental functions of kmath (graph::Costly in the op table): costly enough to keep
// rather than compute twice, and built of chains of dependent operations. Each prints as
// `fl_NAME(...)`.
bool costlyCall(lower::Op op);
std::string mathName(lower::Op op); // "fl_exp_nonpos"

// A structural name for a value of the kernel: equal names, equal values within a row. Plans
// name values by it.
std::string valueKey(const lower::SE& e);

// A float as a C literal: "0.0f", "1e-05f", "__builtin_inff()".
std::string floatLiteral(double v);

// A literal power of two: dividing by it is multiplying by its exact reciprocal, which the
// compiler does by itself.
bool exactReciprocal(const lower::SE& e);
// A float constant that is not NaN: max(x, c) is then `x < c ? c : x`, NaN-propagating for x with
// one compare (fl_max needs two, for a NaN on either side).
bool nonNanLiteral(const lower::SE& e);
// No loads and no scalar arguments: constants and sizes only.
bool dataFree(const lower::SE& e);
// A sum of products that eager accumulates in double: each product is added unrounded (an fma).
bool sumOfProducts(const lower::Node& reduction, const lower::SE& body);

// The body of the kernel's own node that load e reads, at e's coordinates: the value inlined.
lower::SE loadedBody(const lower::Program& p, const lower::SE& load);
// A node's body in the kernel's variables.
lower::SE placedBody(const lower::Node& n, const fuse::Domain& d);
// Output coordinates of a stored node in the kernel's variables.
std::vector<lower::IE> outCoords(const lower::Node& n, const fuse::Domain& d);
// Flat element offset of coordinates in buffer `n` (row-major unless it has strides).
lower::IE offsetExpr(const lower::Program& p, int n, const std::vector<lower::IE>& coords);
// Whether an access at offset `off` steps by one element when `var` does (other vars at 1,
// symbols at 7: any nonzero values would do).
bool unitStride(const lower::Program& p, const fuse::Domain& d, const lower::IE& off, const std::string& var);
// Elements of a buffer of this type per 64-byte cache line.
int64_t perLine(lower::DType t);
// The innermost reduced dim's loop variable ("r0", "r1", ...).
std::string reducedVar(const fuse::Domain& d);

} // namespace fl::codegen::view

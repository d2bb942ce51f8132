// The loop IR the compiler works on, between a graph (core/graph) and generated kernels.
//
// A Program is a list of buffers and the nodes that fill them:
//   - Input:     a graph input tensor (or a symbolic int/float, `scalar`);
//   - Pointwise: out[i0..in] = body(i0..in), an expression over loads of other buffers;
//   - Reduction: out[kept] = reduce over the reduced dims of body(kept, reduced);
//   - Extern:    a library call (mm, bmm, addmm, conv) on whole tensors, run through LibTorch;
//   - Fallback:  a graph op the compiler does not lower, run eagerly as recorded.
// Views (view, transpose, permute, expand, slice, unsqueeze, split) are not nodes: they change the
// index expressions of the loads that read through them. Sizes and indices are integer
// expressions over constants, symbolic sizes (s0, s1: kernel arguments) and loop variables.
// Plain structs, no torch.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/graph/ops.h"

namespace fl::lower {

using graph::Op;

// ------------------------------------------------------------------ integer expressions
struct IExpr;
struct SExpr;
using IE = std::shared_ptr<const IExpr>;
using SE = std::shared_ptr<const SExpr>;
struct IExpr {
    // Value: an index read from data (an embedding's row number): an int64 scalar expression of
    // the loop variables, `v`. It has no value at compile time: analyses treat it as unknown.
    enum Kind : uint8_t { Const, Sym, Var, Add, Mul, Div, Mod, Value, Min, Max } kind = Const;
    int64_t c = 0;      // Const
    std::string name;   // Sym ("s0") / Var ("x0")
    IE a, b;
    SE v;               // Value
};
IE iconst(int64_t v);
IE isym(const std::string& s);
IE ivar(const std::string& v);
IE iadd(IE a, IE b);
IE imul(IE a, IE b);
IE idiv(IE a, IE b); // floor division of non-negative values
IE imod(IE a, IE b);
IE ivalue(SE v);       // an index read from data (IExpr::Value)
IE imin(IE a, IE b);
IE imax(IE a, IE b);
IE iclamp(IE a, int64_t lo, IE hi); // min(max(a, lo), hi)
bool hasValue(const IE& e); // whether e reads an index from data
bool isConst(const IE& e, int64_t v);
bool constValue(const IE& e, int64_t& v);
bool sameExpr(const IE& a, const IE& b);
IE substitute(const IE& e, const std::map<std::string, IE>& vars);
std::string str(const IE& e);           // C++ form: "(x0*1024 + x1)"; a Value as {its expression}
// Unknown names are 0; a Value has no value (throws std::logic_error: callers check hasValue).
int64_t evaluate(const IE& e, const std::map<std::string, int64_t>& env);
IE product(const std::vector<IE>& dims, size_t from = 0, size_t to = SIZE_MAX);
using Shape = std::vector<IE>;
std::string shapeStr(const Shape& s); // "[s0, 1024]"
bool sameShape(const Shape& a, const Shape& b);

// ------------------------------------------------------------------ scalar expressions
enum class DType : uint8_t { F32, Bool, I64 };
const char* ctype(DType d);   // "float", "bool", "long"
const char* dtypeName(DType d);

struct SExpr {
    enum Kind : uint8_t { Load, Const, Scalar, Index, Call, Where, Cast } kind = Const;
    DType dtype = DType::F32;
    int buffer = -1;           // Load
    std::vector<IE> index;     // Load: coordinates in the buffer's shape; Index: one expr
    double c = 0;              // Const (inf/nan allowed)
    Op op = Op::Add;           // Call: a kernel op of the op table (core/graph/ops.h)
    std::vector<SE> args;      // Call / Where (cond, a, b) / Cast (a)
};
SE sload(int buffer, std::vector<IE> index, DType dt);
SE sconst(double v, DType dt = DType::F32);
SE scall(Op op, std::vector<SE> args, DType dt = DType::F32);
SE swhere(SE c, SE a, SE b);
SE scast(SE a, DType dt);
SE sindex(IE i);
SE ssubstitute(const SE& e, const std::map<std::string, IE>& vars);
// Every load of e, also those inside the data-read indices (IExpr::Value) of its loads.
void collectLoads(const SE& e, std::vector<const SExpr*>& out);
std::string sstr(const SE& e);          // a deterministic text of e: "b3[x0]", "where(...)"
// The data-read indices (IExpr::Value) in the coordinates of a load, in order.
std::vector<SE> indexValues(const SExpr& load);

// ------------------------------------------------------------------ buffers and nodes
enum class NodeKind : uint8_t { Input, Pointwise, Reduction, Extern, Fallback };
const char* kindName(NodeKind k);

struct Node {
    int id = 0;
    NodeKind kind = NodeKind::Pointwise;
    std::string name;        // "buf3", or the input's name
    std::string what;        // the ops it computes, for kernel names: "gelu", "layer_norm"
    DType dtype = DType::F32;
    Shape shape;             // output shape
    // Input
    int graphNode = -1;      // the graph node (id) it comes from (inputs, externs, fallbacks)
    bool scalar = false;     // Input: a symbolic int/float
    std::vector<IE> strides; // element strides (symbolic when sizes are): an Input's; a kernel's
                             // result's when eager's are not row-major (empty: row-major)
    // Pointwise / Reduction: loop variables are x0..x{n-1} over `shape` (pointwise), or
    // x0..x{k-1} over the kept dims then r0..r{m-1} over `reduced` (reduction).
    SE body;
    Shape kept;              // Reduction: the output dims that are looped over (shape minus keepdim 1s)
    Shape reduced;           // Reduction: the reduced dims
    std::vector<int> keptPos; // Reduction: position of each kept dim in `shape`
    Op reduceOp = Op::Sum;   // Sum, Max, Min, Prod
    // Extern / Fallback: what to call, inputs read whole
    std::string callee;      // "aten::mm", or the recorded target
    std::vector<int> inputs; // Extern: the graph nodes of its operands
    // Fallback: -1, or this node is tensor `item` of the tuple that fallback node `itemOf`
    // returns (made where a kernel reads it; filled when itemOf runs, no op of its own)
    int itemOf = -1;
    int item = -1;
    // Extern dropout_noise: the dims outermost first as eager lays the noise out (empty_like of
    // the dropout's input); empty: row-major. The buffer itself is row-major.
    std::vector<int> drawOrder;
    // provenance
    std::vector<int> fromGraphNodes; // graph nodes this node lowers
    int line = 0;
    std::string file;
    std::string modulePath;  // "layers.1"
    std::string opText;      // the op it lowers, as recorded: "torch.nn.functional.gelu", "Tensor.sum"
    std::string note;        // why a node is a fallback
};

// The callee of a dropout's noise (an Extern: LibTorch's generator draws it, see lower.cpp).
inline constexpr const char* kDropoutNoise = "dropout_noise";

// An eager op of the graph (an item of a tuple result is no op of its own).
inline bool isEagerOp(const Node& n) { return n.kind == NodeKind::Fallback && n.itemOf < 0; }

struct Program {
    std::vector<Node> nodes;                 // topological order; id == index
    std::vector<int> outputs;                // buffer per graph output (-1: not a tensor buffer)
    std::vector<std::string> symbols;        // s0, s1, ... (bound from inputs at run time)
    struct SymBinding { int input; int dim; };
    std::vector<SymBinding> symbolSource;    // where each symbol's value comes from
    std::vector<std::string> fallbackReasons;
    // Before a graph's result is used: every element of buffer `buffer` (an int64 input, or a
    // stored kernel result) lies in [0, upper), else the call runs eagerly (and raises what eager
    // raises). The kernels clamp the indices they read through, so they never read outside a
    // buffer whatever the data; `what` names the op for messages.
    // A value equal to `ignored` (when `ignores`: cross_entropy's ignore_index) also passes.
    struct IndexCheck {
        int buffer;
        IE upper;
        std::string what;
        bool ignores = false;
        int64_t ignored = 0;
    };
    std::vector<IndexCheck> indexChecks;
};

// Contiguous strides for a shape.
std::vector<IE> contiguousStrides(const Shape& shape);

} // namespace fl::lower

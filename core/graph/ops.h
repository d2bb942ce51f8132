// The op table: what every stage knows about an op, in one place (an X-macro, read by capture,
// lowering, the pipeline and codegen). No torch, no Qt.
//
// Two kinds of ops share it:
//   - graph ops, the targets capture records ("torch.exp", "torch.nn.functional.gelu",
//     "Tensor.view"), known by their base name ("exp", "gelu", "view") or an alias ("truediv");
//     `family` names the lowering that handles them (core/lower/lower.cpp, one function each);
//   - kernel ops, the operations of the loop IR's scalar expressions (lower::SExpr), which codegen
//     prints. Some are both (exp, add); some only kernel ops (exp_nonpos, div_ge1, max).
// Flags: Costly (the transcendental math of kmath: kept rather than computed twice, and a loop
// calling it is bound by its dependency chains), Impure (random or stateful: running it twice is
// not running it once), Kernel (a kernel op), Copies (a view whose eager value may be a copy:
// reshape of a strided tensor).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fl::graph {

enum class Family : uint8_t {
    None,       // not lowered: runs as recorded (a fallback), or a kernel op only
    UnaryMath,  // one float32 input, one kernel op of the same name
    Activation, // relu, gelu, clamp, ...: one float32 input, a short kernel expression
    Arith,      // two operands, float32 arithmetic
    Compare,    // two operands, a bool result
    Logical,    // not / and / or of bool tensors
    Select,     // where, masked_fill
    Convert,    // dtype conversions and copies
    Reduce,     // sum, mean, var, ... over dims
    Normalize,  // softmax, log_softmax, layer_norm: reductions and a pointwise tail
    Matmul,     // a library call (and linear's bias as an epilogue)
    Reshape,    // views that reindex the whole tensor
    Index,      // views that select part of it: indexing, narrow, split
    Generate,   // tensors made from their index: arange, zeros/ones/full, tril/triu
};
const char* familyName(Family f);

enum OpFlag : uint8_t { Costly = 1, Impure = 2, Kernel = 4, Copies = 8 };

//     id             name             family       flags
#define FL_OPS(X)                                                        \
    X(Exp,            "exp",           UnaryMath,   Costly | Kernel)     \
    X(Expm1,          "expm1",         UnaryMath,   Costly | Kernel)     \
    X(Log,            "log",           UnaryMath,   Costly | Kernel)     \
    X(Log1p,          "log1p",         UnaryMath,   Costly | Kernel)     \
    X(Sqrt,           "sqrt",          UnaryMath,   Kernel)              \
    X(Rsqrt,          "rsqrt",         UnaryMath,   Kernel)              \
    X(Sigmoid,        "sigmoid",       UnaryMath,   Costly | Kernel)     \
    X(Tanh,           "tanh",          UnaryMath,   Costly | Kernel)     \
    X(Erf,            "erf",           UnaryMath,   Costly | Kernel)     \
    X(Sin,            "sin",           UnaryMath,   Costly | Kernel)     \
    X(Cos,            "cos",           UnaryMath,   Costly | Kernel)     \
    X(Floor,          "floor",         UnaryMath,   Kernel)              \
    X(Ceil,           "ceil",          UnaryMath,   Kernel)              \
    X(Abs,            "abs",           UnaryMath,   Kernel)              \
    X(Neg,            "neg",           UnaryMath,   Kernel)              \
    X(Reciprocal,     "reciprocal",    UnaryMath,   Kernel)              \
    X(Round,          "round",         UnaryMath,   Kernel)              \
    X(Trunc,          "trunc",         UnaryMath,   Kernel)              \
    X(Relu,           "relu",          Activation,  Kernel)              \
    X(Square,         "square",        Activation,  0)                   \
    X(Silu,           "silu",          Activation,  0)                   \
    X(Gelu,           "gelu",          Activation,  Costly | Kernel)     \
    X(LeakyRelu,      "leaky_relu",    Activation,  0)                   \
    X(Dropout,        "dropout",       Activation,  Impure)              \
    X(Clamp,          "clamp",         Activation,  0)                   \
    X(ClampMin,       "clamp_min",     Activation,  Kernel)              \
    X(ClampMax,       "clamp_max",     Activation,  Kernel)              \
    X(Add,            "add",           Arith,       Kernel)              \
    X(Sub,            "sub",           Arith,       Kernel)              \
    X(Mul,            "mul",           Arith,       Kernel)              \
    X(Div,            "div",           Arith,       Kernel)              \
    X(Maximum,        "maximum",       Arith,       0)                   \
    X(Minimum,        "minimum",       Arith,       0)                   \
    X(Rsub,           "rsub",          Arith,       0)                   \
    X(Pow,            "pow",           Arith,       Costly | Kernel)     \
    X(Radd,           "radd",          Arith,       0)                   \
    X(Rmul,           "rmul",          Arith,       0)                   \
    X(Eq,             "eq",            Compare,     Kernel)              \
    X(Ne,             "ne",            Compare,     Kernel)              \
    X(Lt,             "lt",            Compare,     Kernel)              \
    X(Le,             "le",            Compare,     Kernel)              \
    X(Gt,             "gt",            Compare,     Kernel)              \
    X(Ge,             "ge",            Compare,     Kernel)              \
    X(LogicalNot,     "logical_not",   Logical,     0)                   \
    X(Invert,         "invert",        Logical,     0)                   \
    X(BitwiseNot,     "bitwise_not",   Logical,     0)                   \
    X(LogicalAnd,     "logical_and",   Logical,     0)                   \
    X(LogicalOr,      "logical_or",    Logical,     0)                   \
    X(Where,          "where",         Select,      0)                   \
    X(MaskedFill,     "masked_fill",   Select,      0)                   \
    X(To,             "to",            Convert,     0)                   \
    X(Float,          "float",         Convert,     0)                   \
    X(TypeAs,         "type_as",       Convert,     0)                   \
    X(Clone,          "clone",         Convert,     0)                   \
    X(Sum,            "sum",           Reduce,      Kernel)              \
    X(Mean,           "mean",          Reduce,      0)                   \
    X(Amax,           "amax",          Reduce,      0)                   \
    X(Amin,           "amin",          Reduce,      0)                   \
    X(Prod,           "prod",          Reduce,      Kernel)              \
    X(Var,            "var",           Reduce,      0)                   \
    X(Std,            "std",           Reduce,      0)                   \
    X(Softmax,        "softmax",       Normalize,   0)                   \
    X(LogSoftmax,     "log_softmax",   Normalize,   0)                   \
    X(LayerNorm,      "layer_norm",    Normalize,   0)                   \
    X(Matmul,         "matmul",        Matmul,      0)                   \
    X(Mm,             "mm",            Matmul,      0)                   \
    X(Bmm,            "bmm",           Matmul,      0)                   \
    X(Linear,         "linear",        Matmul,      0)                   \
    X(View,           "view",          Reshape,     0)                   \
    X(Reshape,        "reshape",       Reshape,     Copies)                   \
    X(Flatten,        "flatten",       Reshape,     Copies)                   \
    X(Transpose,      "transpose",     Reshape,     0)                   \
    X(T,              "t",             Reshape,     0)                   \
    X(Permute,        "permute",       Reshape,     0)                   \
    X(Unsqueeze,      "unsqueeze",     Reshape,     0)                   \
    X(Squeeze,        "squeeze",       Reshape,     0)                   \
    X(Expand,         "expand",        Reshape,     0)                   \
    X(Contiguous,     "contiguous",    Reshape,     Copies)                   \
    X(Detach,         "detach",        Reshape,     0)                   \
    X(Getitem,        "getitem",       Index,       0)                   \
    X(Narrow,         "narrow",        Index,       0)                   \
    X(Select,         "select",        Index,       0)                   \
    X(Split,          "split",         Index,       0)                   \
    X(Chunk,          "chunk",         Index,       0)                   \
    X(Arange,         "arange",        Generate,    0)                   \
    X(Zeros,          "zeros",         Generate,    0)                   \
    X(Ones,           "ones",          Generate,    0)                   \
    X(Full,           "full",          Generate,    0)                   \
    X(ZerosLike,      "zeros_like",    Generate,    0)                   \
    X(OnesLike,       "ones_like",     Generate,    0)                   \
    X(FullLike,       "full_like",     Generate,    0)                   \
    X(Tril,           "tril",          Generate,    0)                   \
    X(Triu,           "triu",          Generate,    0)                   \
    /* random or stateful ops, never lowered */                          \
    X(BatchNorm,      "batch_norm",    None,        Impure)              \
    X(Dropout2d,      "dropout2d",     None,        Impure)              \
    X(AlphaDropout,   "alpha_dropout", None,        Impure)              \
    X(Rand,           "rand",          None,        Impure)              \
    X(Randn,          "randn",         None,        Impure)              \
    X(Randint,        "randint",       None,        Impure)              \
    X(RandLike,       "rand_like",     None,        Impure)              \
    X(RandnLike,      "randn_like",    None,        Impure)              \
    X(Randperm,       "randperm",      None,        Impure)              \
    X(Bernoulli,      "bernoulli",     None,        Impure)              \
    X(Multinomial,    "multinomial",   None,        Impure)              \
    X(Normal,         "normal",        None,        Impure)              \
    X(Uniform,        "uniform",       None,        Impure)              \
    X(ManualSeed,     "manual_seed",   None,        Impure)              \
    /* kernel ops only: what lowering builds kernels of */               \
    X(ExpNonpos,      "exp_nonpos",    None,        Costly | Kernel)     \
    X(DivGe1,         "div_ge1",       None,        Kernel)              \
    X(SubOrdered,     "sub_ordered",   None,        Kernel)              \
    X(MulAdd,         "mul_add",       None,        Kernel)              \
    X(MulUnrounded,   "mul_unrounded", None,        Kernel)              \
    X(Not,            "not",           None,        Kernel)              \
    X(And,            "and",           None,        Kernel)              \
    X(Or,             "or",            None,        Kernel)              \
    X(Max,            "max",           None,        Kernel)              \
    X(Min,            "min",           None,        Kernel)              \
    X(Pow2Scale,      "pow2_scale",    None,        Kernel)              \
    X(Unscale1,       "unscale1",      None,        Kernel)              \
    X(Unscale2,       "unscale2",      None,        Kernel)

enum class Op : uint16_t {
#define FL_OP_ENUM(id, name, family, flags) id,
    FL_OPS(FL_OP_ENUM)
#undef FL_OP_ENUM
};

#define FL_OP_COUNT(id, name, family, flags) +1
constexpr size_t kOpCount = 0 FL_OPS(FL_OP_COUNT);
#undef FL_OP_COUNT

struct OpInfo {
    Op op;
    const char* name;
    Family family;
    uint8_t flags;
    bool costly() const { return flags & Costly; }
    bool impure() const { return flags & Impure; }
    bool kernel() const { return flags & Kernel; }
    bool copies() const { return flags & Copies; }
};

const OpInfo& info(Op op);
inline const char* opName(Op op) { return info(op).name; }
// An op by its name or alias ("truediv" is div, "clip" is clamp); nullopt for one not in the table.
std::optional<Op> opNamed(std::string_view name);
// A recorded target's op: "torch.nn.functional.gelu" -> gelu, "operator.truediv" -> div.
std::optional<Op> opOfTarget(std::string_view target);
// The target's base name with aliases resolved: "operator.truediv" -> "div"; a name not in the
// table comes back as it is ("torch.conv2d" -> "conv2d").
std::string baseName(std::string_view target);

// Whether a call of `target` writes its first argument: `inplace=True` (inplaceFlag), setitem,
// the augmented operators (operator.iadd), and Tensor methods that end in one underscore (add_).
bool mutatesInPlace(std::string_view target, bool inplaceFlag);
// Whether running a call of `target` twice differs from running it once: random and stateful
// ops, and every in-place one.
bool impure(std::string_view target);

// What capture does with a call of a recorded target before (instead of) recording a node, by
// the target's full name ("Tensor.item", "torch.nonzero"): most targets become graph nodes; these
// break the graph (with Dynamo's break kind) or are metadata reads that give Python values.
enum class CaptureRole : uint8_t {
    Node,          // an ordinary graph node
    Break,         // breaks the graph: `breakKind`
    BreakTolist,   // breaks: "tolist" for a floating tensor, else `breakKind`
    Skipped,       // a function Dynamo skips (changes global state it does not model): a "skipped" break
    Metadata,      // a metadata read (dim, is_contiguous, ...): a Python value, no node
    SizedMetadata, // a metadata read whose value follows the sizes (numel, stride): marks them read
    Size,          // Tensor.size: sizes, symbolic where the dims are dynamic
};
struct TargetFacts {
    std::string_view target;
    CaptureRole role;
    const char* breakKind; // Break / BreakTolist: the break kind's id
};
// The facts of `target`; role Node (and a null breakKind) for any target not in the table.
TargetFacts targetFacts(std::string_view target);

// Ops whose kernel math does not give what the linked LibTorch's eager kernel gives (LibTorch
// versions differ: 1.13's log1p is inf above 1e38, later ones are not). Lowering never makes such
// an op a kernel: it runs eagerly, with `why` as the reason. Set by the runtime, which probes
// LibTorch once before it compiles anything; empty until then.
void setEagerOnly(Op op, std::string why);
// The reason `op` runs eagerly, or null when its kernel math agrees with eager.
const std::string* eagerOnlyReason(Op op);

} // namespace fl::graph

// The graph IR: FX-like nodes (placeholder, call, output) with tensor metadata, the source span
// and nn.Module path they came from, and the user stack. Capture builds one per compiled entry;
// the backend lowers it and the window draws it: the same graph. Plain structs, no torch and no Qt.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

namespace fl::graph {

// A size is a constant or a named symbol (a dynamic dimension, "s0").
struct Dim {
    int64_t value = 0;
    std::string symbol; // empty: constant
    bool isSymbolic() const { return !symbol.empty(); }
    static Dim constant(int64_t v) { return Dim{v, {}}; }
    static Dim sym(std::string s) { return Dim{0, std::move(s)}; }
};

struct TensorMeta {
    std::vector<Dim> shape;
    std::string dtype = "float32"; // torch dtype name without the "torch." prefix
    std::string device = "cpu";
    bool requiresGrad = false;
    std::vector<int64_t> strides; // as eager's op gave them at trace time (empty: unknown); not printed
};

struct SourceSpan {
    std::string file;
    int line = 0, col = 0, endCol = 0;
};

enum class NodeKind { Placeholder, Call, Output };

// A constant argument as data, for the passes that read it (lowering). The printer writes the
// Python text the graph's builder gave with it (Arg::constant), never text made from this.
struct Const {
    enum class Kind : uint8_t { Opaque, None, Bool, Int, BigInt, Float, Str, DType, Ellipsis, Slice, Tuple };
    Kind kind = Kind::Opaque;
    int64_t i = 0;            // Int; Bool: 0 or 1; BigInt (an int past 64 bits): INT64_MIN or INT64_MAX by its sign
    double f = 0;             // Float, bit for bit (inf, nan, -0.0)
    std::string s;            // Str (UTF-8); DType: "float32" for torch.float32; Opaque: the Python type's name
    std::vector<Const> items; // Tuple; Slice: start, stop, step

    bool isNone() const { return kind == Kind::None; }
    bool isBool() const { return kind == Kind::Bool; }
    bool isInt() const { return kind == Kind::Int; } // not bool
    bool isFloat() const { return kind == Kind::Float; }
    bool isIntLike() const { return kind == Kind::Int || kind == Kind::Bool; }
    bool isNumber() const { return isIntLike() || kind == Kind::Float; }
    bool isStr() const { return kind == Kind::Str; }
    bool truth() const { return i != 0; } // Bool or Int
    double num() const { return kind == Kind::Float ? f : double(i); }

    static Const none() { return make(Kind::None); }
    static Const boolean(bool b) { Const c = make(Kind::Bool); c.i = b; return c; }
    static Const integer(int64_t v) { Const c = make(Kind::Int); c.i = v; return c; }
    static Const bigInt(bool negative) { Const c = make(Kind::BigInt); c.i = negative ? INT64_MIN : INT64_MAX; return c; }
    static Const real(double v) { Const c = make(Kind::Float); c.f = v; return c; }
    static Const str(std::string v) { Const c = make(Kind::Str); c.s = std::move(v); return c; }
    static Const dtype(std::string name) { Const c = make(Kind::DType); c.s = std::move(name); return c; }
    static Const ellipsis() { return make(Kind::Ellipsis); }
    static Const slice(Const start, Const stop, Const step) { Const c = make(Kind::Slice); c.items = {std::move(start), std::move(stop), std::move(step)}; return c; }
    static Const tuple(std::vector<Const> v) { Const c = make(Kind::Tuple); c.items = std::move(v); return c; }
    static Const opaque(std::string typeName) { Const c; c.s = std::move(typeName); return c; }

private:
    static Const make(Kind k) { Const c; c.kind = k; return c; }
};

struct Node;
// An argument is another node, a constant (Python text and data), or a list, tuple or dict of
// arguments.
struct Arg {
    enum class Kind { NodeRef, Constant, List, Tuple, Dict } kind = Kind::Constant;
    const Node* node = nullptr;
    int index = -1;         // NodeRef: an item of the node's tuple result (split_1[0]), or -1
    std::string constant;   // Constant: the Python text printed: "2.0", "None", "'tanh'", "torch.float32"
    Const value;            // Constant: the same as data (Opaque when only the text is known)
    std::vector<Arg> items; // List / Tuple; Dict: its values in order (keys not kept; printed "{...}")
    static Arg ref(const Node* n) { Arg a; a.kind = Kind::NodeRef; a.node = n; return a; }
    static Arg item(const Node* n, int i) { Arg a = ref(n); a.index = i; return a; }
    static Arg lit(std::string py, Const v = {}) { Arg a; a.constant = std::move(py); a.value = std::move(v); return a; }
    // Constants whose Python text is plain: None, True / False, an int.
    static Arg none() { return lit("None", Const::none()); }
    static Arg boolean(bool b) { return lit(b ? "True" : "False", Const::boolean(b)); }
    static Arg integer(int64_t v) { return lit(std::to_string(v), Const::integer(v)); }
    bool isConst() const { return kind == Kind::Constant; }
    bool isNoneConst() const { return kind == Kind::Constant && value.isNone(); }
};

struct Node {
    int id = 0;
    NodeKind kind = NodeKind::Call;
    std::string name;   // unique Python identifier in the graph ("linear_1")
    std::string target; // the callable for Call nodes ("torch.nn.functional.gelu", "torch.Tensor.sum"); input name for placeholders
    std::vector<Arg> args;
    std::vector<std::pair<std::string, Arg>> kwargs;
    // One per tensor output (empty for non-tensor values). A placeholder without one is a symbolic
    // int/float input.
    std::vector<TensorMeta> meta;
    SourceSpan span;
    std::string modulePath;             // "layers.0.attn.qkv"
    std::vector<std::string> userStack; // "File \"m.py\", line 5, in forward"
};

class Graph {
public:
    Node& addPlaceholder(const std::string& name, TensorMeta meta);
    Node& addCall(const std::string& target, std::vector<Arg> args, std::vector<std::pair<std::string, Arg>> kwargs = {});
    Node& setOutput(std::vector<Arg> results);
    const std::vector<std::unique_ptr<Node>>& nodes() const { return nodes_; }
    int callCount() const; // graph ops, as torch.compile counts them (calls only)
    // Candidate names looked up so far: naming is linear when this stays near the node count
    // (a test counts it; a 20k-op trace once spent most of its time naming).
    size_t nameProbes() const { return nameProbes_; }

private:
    std::string uniqueName(const std::string& base);
    std::vector<std::unique_ptr<Node>> nodes_;
    std::unordered_set<std::string> names_;
    std::unordered_map<std::string, int> nextSuffix_; // base -> the first "_k" not yet tried
    size_t nameProbes_ = 0;
};

// "f32[32, 256]", "i64[s0]"
std::string formatMeta(const TensorMeta& m);
// The graph as readable Python, like FX's graph code:
//   def forward(self, L_x_: "f32[32, 256]"):
//       gelu = torch.nn.functional.gelu(L_x_)                # m.py:11 in scaled_gelu
//       return (gelu,)
std::string printGraph(const Graph& g, const std::string& fnName = "forward");

} // namespace fl::graph

// The graph IR: FX-like nodes (placeholder, call, output) with tensor metadata, the source span
// and nn.Module path they came from, and the user stack. Capture builds these; the backend
// lowers them; the window draws them. Plain structs, no torch and no Qt.
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

struct Node;
// An argument is another node, a constant (printed as Python source), or a list of either.
struct Arg {
    enum class Kind { NodeRef, Constant, List, Tuple } kind = Kind::Constant;
    const Node* node = nullptr;
    int index = -1;         // NodeRef: an item of the node's tuple result (split_1[0]), or -1
    std::string constant;   // Python literal: "2.0", "None", "'tanh'", "torch.float32"
    std::vector<Arg> items; // List / Tuple
    static Arg ref(const Node* n) { Arg a; a.kind = Kind::NodeRef; a.node = n; return a; }
    static Arg item(const Node* n, int i) { Arg a = ref(n); a.index = i; return a; }
    static Arg lit(std::string py) { Arg a; a.constant = std::move(py); return a; }
};

struct Node {
    int id = 0;
    NodeKind kind = NodeKind::Call;
    std::string name;   // unique Python identifier in the graph ("linear_1")
    std::string target; // the callable for Call nodes ("torch.nn.functional.gelu"); input name for placeholders
    std::vector<Arg> args;
    std::vector<std::pair<std::string, Arg>> kwargs;
    std::vector<TensorMeta> meta; // one per tensor output (empty for non-tensor values)
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

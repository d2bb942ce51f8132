#include "core/lower/lower.h"

#include <cmath>
#include <functional>
#include <set>

#include "core/graph/ops.h"

namespace fl::lower {

using graph::Arg;
using graph::Const;

SE loadValue(const LoweredValue& v, const std::vector<IE>& at) {
    if (v.coords.empty() && v.kind == LoweredValue::Buffer) return sload(v.buffer, at, v.dtype);
    std::map<std::string, IE> sub;
    for (size_t i = 0; i < at.size(); ++i) sub["v" + std::to_string(i)] = at[i];
    std::vector<IE> idx;
    idx.reserve(v.coords.size());
    for (auto& c : v.coords) idx.push_back(substitute(c, sub));
    return sload(v.buffer, std::move(idx), v.dtype);
}

bool isLibraryCall(const std::string& target) {
    static const std::set<std::string> ops = {
        "torch.nn.functional.conv1d", "torch.nn.functional.conv2d", "torch.nn.functional.conv3d",
        "torch.nn.functional.conv_transpose1d", "torch.nn.functional.conv_transpose2d", "torch.conv2d", "torch.conv1d",
        "torch._C._nn.convolution_backward", "Tensor.index_add", "torch.index_add", "torch.baddbmm", "Tensor.baddbmm"};
    return ops.count(target) > 0;
}

namespace {

// The strides eager gave a kernel's result, as expressions of its shape: LibTorch lays a pointwise
// or reduction result out as its inputs are (x.t() * 2 is column-major, x.t().clone() too), and a
// caller may read the strides, view the result (reshape aliases or copies by them) or pass it to
// an eager op whose own result follows them. Dims in the order of eager's strides at trace time,
// dense; empty when that is row-major or eager's strides were not dense (then row-major).
std::vector<IE> eagerStrides(const graph::TensorMeta& m, const Shape& shape) {
    size_t r = shape.size();
    if (m.strides.size() != r || r < 2) return {};
    bool symbolic = false;
    for (auto& d : m.shape) {
        if (d.isSymbolic()) symbolic = true;
        else if (d.value == 0) return {};
    }
    std::vector<int> order(r); // outermost first
    for (size_t d = 0; d < r; ++d) order[d] = int(d);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return m.strides[a] > m.strides[b]; });
    bool identity = true;
    for (size_t d = 0; d < r; ++d) identity = identity && order[d] == int(d);
    if (identity) return {};
    std::vector<IE> st(r);
    IE acc = iconst(1);
    int64_t accValue = 1;
    for (size_t k = r; k-- > 0;) {
        int d = order[k];
        st[d] = acc;
        if (!symbolic) {
            // dims of size 1 may have any stride; the others must be eager's dense ones
            if (m.shape[d].value != 1 && m.strides[d] != accValue) return {};
            accValue *= m.shape[d].value;
        }
        acc = imul(acc, shape[d]);
    }
    if (!symbolic)
        for (size_t d = 0; d < r; ++d) st[d] = iconst(m.strides[d]);
    return st;
}

using graph::baseName;
using graph::Family;
using graph::Op;

bool dtypeOf(const std::string& name, DType& d) {
    if (name == "float32") d = DType::F32;
    else if (name == "bool") d = DType::Bool;
    else if (name == "int64") d = DType::I64;
    else return false;
    return true;
}

struct Unsupported { std::string why; };
[[noreturn]] void unsupported(std::string why) { throw Unsupported{std::move(why)}; }

std::vector<IE> vars(const char* prefix, size_t n) {
    std::vector<IE> v;
    for (size_t i = 0; i < n; ++i) v.push_back(ivar(prefix + std::to_string(i)));
    return v;
}

// The op as the interpreter recorded it, which is how the loop IR names it (kernel comments,
// fallback callees and reasons): the graph writes a Tensor method as FX does, "torch.Tensor.sum";
// here it is "Tensor.sum". A placeholder has none (its target is the input's name).
std::string recordedTarget(const graph::Node& n) {
    static const std::string fx = "torch.Tensor.";
    if (n.kind != graph::NodeKind::Call) return {};
    return n.target.compare(0, fx.size(), fx) == 0 ? n.target.substr(6) : n.target;
}

bool mutatesFirstArg(const graph::Node& n) {
    if (n.kind != graph::NodeKind::Call) return false;
    bool flag = false;
    for (auto& [k, a] : n.kwargs) flag = flag || (k == "inplace" && a.isConst() && a.value.isBool() && a.value.truth());
    return graph::mutatesInPlace(recordedTarget(n), flag);
}

// The graph's nodes before its output: lowering keeps one GraphNodeInfo for each, by node id.
size_t operandNodes(const graph::Graph& g) {
    size_t n = 0;
    while (n < g.nodes().size() && g.nodes()[n]->kind != graph::NodeKind::Output) ++n;
    return n;
}

class Lowerer {
public:
    Lowerer(const graph::Graph& g, std::set<int> eager) : g_(g), count_(operandNodes(g)), eager_(std::move(eager)) {
        out_.info.resize(count_);
        for (size_t i = 0; i < count_; ++i) targets_.push_back(recordedTarget(node(int(i))));
    }

    // Views whose eager value may be a copy (contiguous, reshape, flatten of a strided tensor) and
    // that an in-place op writes through: lowered as index expressions over their input, later
    // kernels would read the input and miss the write, so they must run eagerly (a buffer of
    // their own that the write lands in).
    static std::set<int> writtenCopies(const graph::Graph& g, const Lowered& lowered) {
        std::set<int> out;
        const size_t count = operandNodes(g);
        for (size_t i = 0; i < count; ++i) {
            const graph::Node& n = *g.nodes()[i];
            if (!mutatesFirstArg(n) || n.args.empty() || n.args[0].kind != Arg::Kind::NodeRef) continue;
            for (int m = n.args[0].node->id; m >= 0 && g.nodes()[m]->kind != graph::NodeKind::Placeholder && lowered.info[m].viewOp;) {
                const graph::Node& v = *g.nodes()[m];
                if (auto op = graph::opOfTarget(v.target); op && graph::info(*op).copies()) out.insert(m);
                m = !v.args.empty() && v.args[0].kind == Arg::Kind::NodeRef ? v.args[0].node->id : -1;
            }
        }
        return out;
    }

    Lowered run() {
        Program& p = out_.program;
        for (size_t i = 0; i < count_; ++i) {
            cur_ = int(i);
            const graph::Node& n = node(cur_);
            if (n.kind == graph::NodeKind::Placeholder) { input(n); continue; }
            size_t mark = p.nodes.size();
            try {
                if (eager_.count(int(i))) unsupported("an in-place op writes through this view of a copy");
                lowerOp(n);
                checkAgainstEager(n);
            } catch (Unsupported& u) {
                p.nodes.resize(mark); // drop a half-built decomposition
                for (auto it = items_.begin(); it != items_.end();)
                    it = it->second.buffer >= int(mark) ? items_.erase(it) : std::next(it);
                out_.info[i] = GraphNodeInfo{};
                fallback(n, u.why);
            }
        }
        if (count_ < g_.nodes().size())
            for (auto& o : g_.nodes()[count_]->args) needValue(o);
        for (auto& n : p.nodes)
            if ((n.kind == NodeKind::Pointwise || n.kind == NodeKind::Reduction) && n.graphNode >= 0 && node(n.graphNode).meta.size() == 1)
                n.strides = eagerStrides(node(n.graphNode).meta[0], n.shape);
        out_.ok = true;
        return std::move(out_);
    }

private:
    const graph::Graph& g_;
    size_t count_; // nodes before the output
    std::set<int> eager_;
    std::vector<std::string> targets_; // per node: recordedTarget()
    Lowered out_;
    int cur_ = 0;
    std::map<std::string, int> symbolIndex_;
    std::map<std::pair<int, int>, LoweredValue> items_; // (graph node, index) -> fallbackItem's node

    GraphNodeInfo& info() { return out_.info[cur_]; }
    const graph::Node& node(int id) const { return *g_.nodes()[id]; }
    const std::string& target(const graph::Node& n) const { return targets_[n.id]; }

    // The value a lowering made has the shape and dtype eager's op gave at trace time: a lowering
    // that binds an argument wrongly (x[True] read as x[1], sum(dim=[]) as no reduction) runs
    // eagerly instead of computing something else.
    void checkAgainstEager(const graph::Node& n) {
        const LoweredValue& v = info().value;
        if (n.meta.size() != 1 || (v.kind != LoweredValue::Buffer && v.kind != LoweredValue::View)) return;
        Shape want;
        for (auto& d : n.meta[0].shape) want.push_back(d.isSymbolic() ? isym(d.symbol) : iconst(d.value));
        DType dt;
        if (!dtypeOf(n.meta[0].dtype, dt) || dt != v.dtype)
            unsupported("the lowering's dtype " + std::string(dtypeName(v.dtype)) + " is not eager's " + n.meta[0].dtype);
        // symbolic dims are not compared: the trace names a size by its value, which a constant dim can share
        bool same = want.size() == v.shape.size();
        for (size_t i = 0; same && i < want.size(); ++i) {
            int64_t a, b;
            if (constValue(want[i], a) && constValue(v.shape[i], b) && a != b) same = false;
        }
        if (!same) unsupported("the lowering's shape " + shapeStr(v.shape) + " is not eager's " + shapeStr(want));
    }

    Node& addNode(NodeKind k, const std::string& what, Shape shape, DType dt) {
        Program& p = out_.program;
        Node n;
        n.id = int(p.nodes.size());
        n.kind = k;
        n.name = "buf" + std::to_string(n.id);
        n.what = what;
        n.shape = std::move(shape);
        n.dtype = dt;
        n.fromGraphNodes = {cur_};
        const graph::Node& op = node(cur_);
        n.line = op.span.line;
        n.file = op.span.file;
        n.modulePath = op.modulePath;
        n.opText = target(op);
        p.nodes.push_back(std::move(n));
        return p.nodes.back();
    }

    IE dimOf(const graph::Dim& d, int input, int dim) {
        if (!d.isSymbolic()) return iconst(d.value);
        Program& p = out_.program;
        if (!symbolIndex_.count(d.symbol)) {
            symbolIndex_[d.symbol] = int(p.symbols.size());
            p.symbols.push_back(d.symbol);
            p.symbolSource.push_back({input, dim});
        }
        return isym(d.symbol);
    }

    void input(const graph::Node& n) {
        Program& p = out_.program;
        if (isScalarInput(cur_)) {
            Node& in = addNode(NodeKind::Input, "scalar", {}, DType::F32);
            in.scalar = true;
            in.graphNode = cur_;
            in.name = "arg" + std::to_string(in.id);
            info().value.kind = LoweredValue::Other;
            info().value.buffer = in.id;
            return;
        }
        DType dt;
        if (n.meta.size() != 1 || !dtypeOf(n.meta[0].dtype, dt)) {
            info().value.kind = LoweredValue::Other; // not readable by kernels; externs and fallbacks get its value
            return;
        }
        Shape shape;
        int id = int(p.nodes.size());
        for (size_t d = 0; d < n.meta[0].shape.size(); ++d) shape.push_back(dimOf(n.meta[0].shape[d], id, int(d)));
        Node& in = addNode(NodeKind::Input, "input", shape, dt);
        in.graphNode = cur_;
        in.name = "in" + std::to_string(in.id);
        in.strides = contiguousStrides(shape);
        info().value = LoweredValue{LoweredValue::Buffer, in.id, shape, dt, {}};
    }

    void fallback(const graph::Node& n, const std::string& why) {
        for (auto& a : n.args) needValue(a);
        for (auto& [k, a] : n.kwargs) needValue(a);
        Shape shape;
        DType dt = DType::F32;
        bool tensor = n.meta.size() == 1 && dtypeOf(n.meta[0].dtype, dt);
        if (tensor)
            for (auto& d : n.meta[0].shape) {
                if (d.isSymbolic() && !symbolIndex_.count(d.symbol)) { tensor = false; break; }
                shape.push_back(d.isSymbolic() ? isym(d.symbol) : iconst(d.value));
            }
        // ops that are library calls by design (convolutions and their gradients, a scatter-add
        // whose indices repeat, batched GEMMs): LibTorch's kernels run them inside the compiled
        // graph, as for mm; any other op without a lowering is an eager op, with its reason
        const bool library = isLibraryCall(target(n));
        Node& f = addNode(library ? NodeKind::Extern : NodeKind::Fallback, baseName(target(n)), tensor ? shape : Shape{}, dt);
        f.graphNode = cur_;
        f.callee = target(n);
        f.note = library ? std::string() : why;
        if (library) { // its tensor operands, as an mm names its two (the Kernels pane shows the call)
            std::function<void(const Arg&)> operands = [&](const Arg& a) {
                if (a.kind == Arg::Kind::NodeRef && a.node) f.inputs.push_back(a.node->id);
                for (auto& x : a.items) operands(x);
            };
            for (auto& a : n.args) operands(a);
        }
        if (!library) out_.program.fallbackReasons.push_back(target(n) + ": " + why);
        info().needsValue = true;
        if (tensor) info().value = LoweredValue{LoweredValue::Buffer, f.id, shape, dt, {}};
        else info().value = LoweredValue{LoweredValue::Other, f.id, {}, dt, {}}; // what reads its items runs after it
    }

    // Item `index` of a fallback's tuple result as a buffer kernels can read (a convolution's
    // input gradient into a relu's mask): a node the runtime fills from the tuple when the
    // fallback has run. Made where a kernel first reads it, so an item nothing reads (None where
    // an output mask leaves it out) never becomes one. Its dtype and shape are the trace's.
    const LoweredValue& fallbackItem(int graphNode, int index) {
        auto key = std::make_pair(graphNode, index);
        if (auto it = items_.find(key); it != items_.end()) return it->second;
        const graph::Node& n = node(graphNode);
        const GraphNodeInfo& gi = out_.info[graphNode];
        // the op ran as recorded (an eager op, or a library call by design) and returned the tuple
        auto asRecorded = [](const Node& p) { return p.kind == NodeKind::Fallback || (p.kind == NodeKind::Extern && isLibraryCall(p.callee)); };
        if (gi.value.kind != LoweredValue::Other || gi.value.buffer < 0 || index >= int(n.meta.size()) || !asRecorded(out_.program.nodes[gi.value.buffer]))
            unsupported("an element of a tuple result the compiler does not lower");
        DType dt;
        if (!dtypeOf(n.meta[index].dtype, dt)) unsupported("an element of a tuple result of dtype " + n.meta[index].dtype);
        Shape shape;
        for (auto& d : n.meta[index].shape) {
            if (d.isSymbolic() && !symbolIndex_.count(d.symbol)) unsupported("an element of a tuple result with a size no input has");
            shape.push_back(d.isSymbolic() ? isym(d.symbol) : iconst(d.value));
        }
        const int parent = gi.value.buffer;
        Node& it = addNode(NodeKind::Fallback, out_.program.nodes[parent].what + "_item", shape, dt);
        it.fromGraphNodes = {graphNode};
        it.line = n.span.line;
        it.file = n.span.file;
        it.modulePath = n.modulePath;
        it.opText = out_.program.nodes[parent].opText;
        it.itemOf = parent;
        it.item = index;
        return items_[key] = LoweredValue{LoweredValue::Buffer, it.id, shape, dt, {}};
    }

    // Marks the graph nodes an argument refers to as needed as script values.
    void needValue(const Arg& a) {
        if (a.kind == Arg::Kind::NodeRef) markNeeded(a.node->id);
        for (auto& x : a.items) needValue(x);
    }
    void markNeeded(int node) {
        GraphNodeInfo& gi = out_.info[node];
        if (gi.needsValue) return;
        gi.needsValue = true;
        if (gi.viewOp) { // computed eagerly from its inputs: they are needed too
            const graph::Node& n = this->node(node);
            for (auto& a : n.args) needValue(a);
            for (auto& [k, a] : n.kwargs) needValue(a);
        }
    }

    // ---------------------------------------------------------------- arguments
    const Arg* arg(const graph::Node& n, size_t pos, const char* kw) {
        if (pos < n.args.size()) return &n.args[pos];
        if (kw)
            for (auto& [k, a] : n.kwargs)
                if (k == kw) return &a;
        return nullptr;
    }
    static bool isNumber(const Arg* a) { return a && a->isConst() && a->value.isNumber(); }
    static double number(const Arg* a) { return a->value.num(); }
    int64_t intArg(const graph::Node& n, size_t pos, const char* kw, int64_t dflt) {
        const Arg* a = arg(n, pos, kw);
        if (!a || a->isNoneConst()) return dflt;
        if (!a->isConst() || !a->value.isIntLike()) unsupported("a non-constant integer argument");
        return a->value.i;
    }
    bool boolArg(const graph::Node& n, size_t pos, const char* kw, bool dflt) {
        const Arg* a = arg(n, pos, kw);
        if (!a || a->isNoneConst()) return dflt;
        if (!a->isConst() || !a->value.isIntLike()) unsupported("a non-constant bool argument");
        return a->value.truth();
    }
    std::string strArg(const graph::Node& n, size_t pos, const char* kw, const std::string& dflt) {
        const Arg* a = arg(n, pos, kw);
        if (!a || a->isNoneConst()) return dflt;
        if (!a->isConst() || !a->value.isStr()) unsupported("a non-constant string argument");
        return a->value.s;
    }
    // Integers from one argument: an int, a tuple or list of ints (constant or written out).
    void addInts(const Arg& a, std::vector<int64_t>& r) {
        if (a.kind == Arg::Kind::List || a.kind == Arg::Kind::Tuple) {
            for (auto& x : a.items) addInts(x, r);
            return;
        }
        if (!a.isConst()) unsupported("a symbolic size argument");
        const Const& v = a.value;
        if (v.isIntLike()) { r.push_back(v.i); return; }
        if (v.kind != Const::Kind::Tuple) unsupported("a non-constant size");
        for (auto& x : v.items) {
            if (!x.isIntLike()) unsupported("a non-constant size");
            r.push_back(x.i);
        }
    }
    std::vector<int64_t> intsOf(const Arg& a) {
        std::vector<int64_t> r;
        addInts(a, r);
        return r;
    }
    // A list argument as `x.view(2, 3)` (positions from..), `x.view((2, 3))` or a keyword pass
    // it, each item added by `add`.
    template <class T>
    std::vector<T> listArg(const graph::Node& n, size_t from, const char* kw, void (Lowerer::*add)(const Arg&, std::vector<T>&)) {
        std::vector<T> r;
        if (n.args.size() > from) {
            for (size_t i = from; i < n.args.size(); ++i) (this->*add)(n.args[i], r);
        } else if (const Arg* a = arg(n, SIZE_MAX, kw)) {
            (this->*add)(*a, r);
        }
        return r;
    }
    // Integer list from `x.view(2, 3)`, `x.view((2, 3))` or a keyword.
    std::vector<int64_t> intList(const graph::Node& n, size_t from, const char* kw) { return listArg<int64_t>(n, from, kw, &Lowerer::addInts); }

    const LoweredValue& tensorArg(const Arg* a) {
        if (!a || a->kind != Arg::Kind::NodeRef) unsupported("a tensor argument that is not a graph value");
        const GraphNodeInfo& gi = out_.info[a->node->id];
        const LoweredValue* v = &gi.value;
        if (a->index >= 0) {
            if (gi.items.empty()) return fallbackItem(a->node->id, a->index);
            if (a->index >= int(gi.items.size())) unsupported("an element of a tuple result the compiler does not lower");
            v = &gi.items[a->index];
        }
        if (v->kind != LoweredValue::Buffer && v->kind != LoweredValue::View) unsupported("an input the compiler cannot index");
        return *v;
    }
    // A placeholder without tensor meta is a symbolic int/float input (graph.h).
    bool isScalarInput(int graphNode) {
        const graph::Node& n = node(graphNode);
        return n.kind == graph::NodeKind::Placeholder && n.meta.empty();
    }

    // ---------------------------------------------------------------- pointwise
    static Shape broadcast(const std::vector<Shape>& shapes) {
        size_t rank = 0;
        for (auto& s : shapes) rank = std::max(rank, s.size());
        Shape out(rank, iconst(1));
        for (auto& s : shapes)
            for (size_t i = 0; i < s.size(); ++i) {
                IE& o = out[rank - s.size() + i];
                const IE& d = s[i];
                if (isConst(d, 1)) continue;
                if (isConst(o, 1)) o = d;
                else if (!sameExpr(o, d)) unsupported("shapes " + shapeStr(s) + " that do not broadcast to a known shape");
            }
        return out;
    }
    // `v` read at the coordinates `at` of a (broadcast) result of rank at.size().
    static SE broadcastLoad(const LoweredValue& v, const std::vector<IE>& at) {
        std::vector<IE> c;
        size_t off = at.size() - v.shape.size();
        for (size_t i = 0; i < v.shape.size(); ++i) c.push_back(isConst(v.shape[i], 1) ? iconst(0) : at[off + i]);
        return loadValue(v, c);
    }

    // An operand of a pointwise op: a tensor, a symbolic scalar, or a constant number.
    struct Operand { const LoweredValue* tensor = nullptr; SE scalar; };
    Operand operand(const Arg* a) {
        Operand o;
        if (!a) unsupported("a missing argument");
        if (a->isConst()) {
            const Const& c = a->value;
            if (!c.isNumber()) unsupported("a non-numeric constant operand");
            // an int past 2^53 is not a double: converted to float in one rounding, as LibTorch
            // converts a wrapped int64 scalar to the float tensor's type (through double would round twice)
            if (c.isInt()) o.scalar = sconst(double(float(c.i)), DType::I64);
            else o.scalar = sconst(c.num(), c.isFloat() ? DType::F32 : DType::Bool);
            return o;
        }
        if (a->kind == Arg::Kind::NodeRef && a->index < 0 && isScalarInput(a->node->id)) {
            auto s = std::make_shared<SExpr>();
            s->kind = SExpr::Scalar;
            s->buffer = out_.info[a->node->id].value.buffer;
            s->dtype = DType::F32;
            o.scalar = s;
            return o;
        }
        o.tensor = &tensorArg(a);
        return o;
    }

    // A pointwise node from operands and a body builder over their values at each element.
    void pointwise(const std::string& what, const std::vector<Operand>& ops, DType outDt,
                   const std::function<SE(const std::vector<SE>&)>& body, bool promoteToFloat = true) {
        std::vector<Shape> shapes;
        for (auto& o : ops)
            if (o.tensor) shapes.push_back(o.tensor->shape);
        Shape shape = broadcast(shapes);
        std::vector<IE> x = vars("x", shape.size());
        std::vector<SE> vals;
        for (auto& o : ops) {
            SE v = o.tensor ? broadcastLoad(*o.tensor, x) : o.scalar;
            if (promoteToFloat) v = scast(v, DType::F32);
            vals.push_back(v);
        }
        Node& n = addNode(NodeKind::Pointwise, what, shape, outDt);
        n.body = scast(body(vals), outDt);
        n.graphNode = cur_;
        info().value = LoweredValue{LoweredValue::Buffer, n.id, shape, outDt, {}};
    }
    // The same, producing a value (for decompositions): returns the new buffer.
    LoweredValue pointwiseValue(const std::string& what, const std::vector<Operand>& ops, const std::function<SE(const std::vector<SE>&)>& body) {
        pointwise(what, ops, DType::F32, body);
        out_.program.nodes.back().graphNode = -1;
        return info().value;
    }

    // ---------------------------------------------------------------- reductions
    std::vector<int> normDims(const std::vector<int64_t>& dims, size_t rank) {
        std::set<int> s;
        for (auto d : dims) {
            int64_t r = d < 0 ? d + int64_t(rank) : d;
            if (r < 0 || r >= int64_t(rank)) unsupported("a dimension out of range");
            s.insert(int(r));
        }
        return {s.begin(), s.end()};
    }
    LoweredValue reduction(const std::string& what, Op op, const LoweredValue& x, const std::vector<int>& dims, bool keepdim,
                           const std::function<SE(SE)>& pre = nullptr) {
        if (x.dtype != DType::F32) unsupported("a reduction over a non-float32 tensor");
        Shape kept, reduced, outShape;
        std::vector<int> keptPos;
        std::vector<IE> full(x.shape.size());
        size_t k = 0, r = 0;
        for (size_t d = 0; d < x.shape.size(); ++d) {
            bool red = std::find(dims.begin(), dims.end(), int(d)) != dims.end();
            if (red) {
                reduced.push_back(x.shape[d]);
                full[d] = ivar("r" + std::to_string(r++));
                if (keepdim) outShape.push_back(iconst(1));
            } else {
                keptPos.push_back(int(outShape.size()));
                kept.push_back(x.shape[d]);
                full[d] = ivar("x" + std::to_string(k++));
                outShape.push_back(x.shape[d]);
            }
        }
        Node& n = addNode(NodeKind::Reduction, what, outShape, DType::F32);
        SE v = loadValue(x, full);
        n.body = pre ? pre(v) : v;
        n.kept = kept;
        n.reduced = reduced;
        n.keptPos = keptPos;
        n.reduceOp = op;
        return LoweredValue{LoweredValue::Buffer, n.id, outShape, DType::F32, {}};
    }
    Operand opnd(const LoweredValue& v) { Operand o; o.tensor = &keep(v); return o; }
    // Decomposition temporaries must outlive the vector of operands that points at them.
    std::vector<std::unique_ptr<LoweredValue>> temps_;
    const LoweredValue& keep(const LoweredValue& v) { temps_.push_back(std::make_unique<LoweredValue>(v)); return *temps_.back(); }
    Operand num(double c) { Operand o; o.scalar = sconst(c); return o; }
    void finish(const LoweredValue& v) {
        out_.program.nodes[v.buffer].graphNode = cur_;
        info().value = v;
    }

    IE numelOf(const Shape& s, const std::vector<int>& dims) {
        IE p = iconst(1);
        for (int d : dims) p = imul(p, s[d]);
        return p;
    }
    std::vector<int> dimsArg(const graph::Node& n, size_t pos, const char* kw, size_t rank) {
        const Arg* a = arg(n, pos, kw);
        if (!a || a->isNoneConst()) {
            std::vector<int> all;
            for (size_t i = 0; i < rank; ++i) all.push_back(int(i));
            return all;
        }
        std::vector<int64_t> d;
        if (a->isConst() && a->value.isIntLike()) d.push_back(a->value.i);
        else d = intsOf(*a);
        if (d.empty()) { // sum(dim=[]), amax(dim=()): PyTorch 1.13 reduces every dim
            std::vector<int> all;
            for (size_t i = 0; i < rank; ++i) all.push_back(int(i));
            return all;
        }
        return normDims(d, rank);
    }

    // The number of reduced elements as a float expression (a kernel argument when symbolic).
    SE countOf(const Shape& s, const std::vector<int>& dims, double minus = 0) {
        IE n = numelOf(s, dims);
        int64_t v;
        if (constValue(n, v)) return sconst(std::max(0.0, double(v) - minus));
        SE f = scast(sindex(n), DType::F32);
        return minus ? scall(Op::Max, {scall(Op::Sub, {f, sconst(minus)}), sconst(0)}) : f;
    }
    LoweredValue meanOf(const LoweredValue& x, const std::vector<int>& dims, bool keepdim) {
        SE count = countOf(x.shape, dims);
        LoweredValue s = reduction("sum", Op::Sum, x, dims, keepdim);
        return pointwiseValue("mean", {opnd(s)}, [count](const std::vector<SE>& a) { return scall(Op::Div, {a[0], count}); });
    }
    // var and std as eager gives them for every float: LibTorch accumulates Welford's sums in
    // double, so values past 1.8e19 (whose squares overflow float) still give a finite var, and
    // a row of equal values gives 0. Here the row is scaled by a power of two s (max |x| s in
    // [1, 4), fl_pow2_scale) before the mean and the squares, the mean is refined once (the mean
    // of x s - mean), and the result divided by s^2 (s for std) exactly. Four passes over the row.
    LoweredValue scaledVarOf(const LoweredValue& x, const std::vector<int>& dims, bool keepdim, double correction, bool takeSqrt) {
        LoweredValue M = reduction("var", Op::Max, keep(x), dims, true, [](SE v) { return scall(Op::Abs, {v}); });
        LoweredValue S = pointwiseValue("var", {opnd(M)}, [](const std::vector<SE>& a) { return scall(Op::Pow2Scale, {a[0]}); });
        std::vector<IE> full, at;
        size_t k = 0, r = 0;
        for (size_t d = 0; d < x.shape.size(); ++d) {
            bool isRed = std::find(dims.begin(), dims.end(), int(d)) != dims.end();
            full.push_back(ivar(isRed ? "r" + std::to_string(r++) : "x" + std::to_string(k++)));
            at.push_back(isRed ? iconst(0) : full.back());
        }
        LoweredValue sum = reduction("var", Op::Sum, keep(x), dims, true);
        out_.program.nodes[sum.buffer].body = scall(Op::Mul, {loadValue(x, full), loadValue(S, at)});
        SE count = countOf(x.shape, dims);
        LoweredValue m0 = pointwiseValue("var", {opnd(sum)}, [count](const std::vector<SE>& a) { return scall(Op::Div, {a[0], count}); });
        // the mean refined by the mean of x - m0 (which the float sum rounded away): eager's mean is
        // a double's, and a row of equal values has var 0, not its mean's rounding error squared
        LoweredValue rs = reduction("var", Op::Sum, keep(x), dims, true);
        out_.program.nodes[rs.buffer].body = scall(Op::Sub, {scall(Op::Mul, {loadValue(x, full), loadValue(S, at)}), loadValue(m0, at)});
        LoweredValue m = pointwiseValue("var", {opnd(m0), opnd(rs)}, [count](const std::vector<SE>& a) {
            return scall(Op::Add, {a[0], scall(Op::Div, {a[1], count})});
        });
        LoweredValue ss = reduction("var", Op::Sum, keep(x), dims, keepdim);
        SE diff = scall(Op::Sub, {scall(Op::Mul, {loadValue(x, full), loadValue(S, at)}), loadValue(m, at)});
        // the squares are summed unrounded (one fma each), as close as float gets to eager's double sums
        out_.program.nodes[ss.buffer].body = scall(Op::MulUnrounded, {diff, diff});
        // s at the result's coordinates (the reduced dims dropped unless keepdim)
        LoweredValue Sv = S;
        if (!keepdim) {
            std::vector<IE> map;
            size_t kk = 0;
            for (size_t d = 0; d < x.shape.size(); ++d)
                map.push_back(std::find(dims.begin(), dims.end(), int(d)) != dims.end() ? iconst(0) : ivar("v" + std::to_string(kk++)));
            Sv = reindex(S, ss.shape, map);
        }
        SE denom = countOf(x.shape, dims, correction);
        return pointwiseValue(takeSqrt ? "std" : "var", {opnd(ss), opnd(Sv)}, [denom, takeSqrt](const std::vector<SE>& a) {
            SE v = scall(Op::Div, {a[0], denom});
            return takeSqrt ? scall(Op::Unscale1, {scall(Op::Sqrt, {v}), a[1]}) : scall(Op::Unscale2, {v, a[1]});
        });
    }
    // `mean`: the keepdim mean of x over dims when the caller has it already (layer_norm).
    LoweredValue varOf(const LoweredValue& x, const std::vector<int>& dims, bool keepdim, double correction, const LoweredValue* mean = nullptr) {
        LoweredValue m = mean ? *mean : meanOf(x, dims, true);
        LoweredValue ss = reduction("var", Op::Sum, keep(x), dims, keepdim, nullptr);
        // sum((x - mean)^2): the body reads the mean at the kept coordinates
        Node& red = out_.program.nodes[ss.buffer];
        std::vector<IE> full;
        size_t k = 0, r = 0;
        for (size_t d = 0; d < x.shape.size(); ++d) {
            bool isRed = std::find(dims.begin(), dims.end(), int(d)) != dims.end();
            full.push_back(ivar(isRed ? "r" + std::to_string(r++) : "x" + std::to_string(k++)));
        }
        std::vector<IE> mAt;
        for (size_t d = 0; d < x.shape.size(); ++d) mAt.push_back(std::find(dims.begin(), dims.end(), int(d)) != dims.end() ? iconst(0) : full[d]);
        SE diff = scall(Op::Sub, {loadValue(x, full), loadValue(m, mAt)});
        red.body = scall(Op::MulUnrounded, {diff, diff});
        SE denom = countOf(x.shape, dims, correction);
        return pointwiseValue("var", {opnd(ss)}, [denom](const std::vector<SE>& a) { return scall(Op::Div, {a[0], denom}); });
    }

    // ---------------------------------------------------------------- views
    LoweredValue asView(const LoweredValue& x) {
        LoweredValue v = x;
        v.kind = LoweredValue::View;
        if (v.coords.empty()) v.coords = vars("v", x.shape.size());
        return v;
    }
    // A view whose coordinate i in the base view is map[i] (in terms of the new v0..).
    LoweredValue reindex(const LoweredValue& x, Shape shape, const std::vector<IE>& map) {
        LoweredValue b = asView(x);
        std::map<std::string, IE> sub;
        for (size_t i = 0; i < map.size(); ++i) sub["v" + std::to_string(i)] = map[i];
        LoweredValue r = b;
        r.shape = std::move(shape);
        r.coords.clear();
        for (auto& c : b.coords) r.coords.push_back(substitute(c, sub));
        return r;
    }
    void setView(const LoweredValue& v) {
        info().value = v;
        info().viewOp = true;
    }

    // A size as a monomial: a constant times symbolic sizes (s0*s1*8), which is what products
    // and quotients of dims are while every dim is a constant or a symbol.
    struct Mono {
        int64_t c = 1;
        std::multiset<std::string> syms;
        bool operator==(const Mono& o) const { return c == o.c && syms == o.syms; }
        Mono operator*(const Mono& o) const {
            Mono r{c * o.c, syms};
            r.syms.insert(o.syms.begin(), o.syms.end());
            return r;
        }
        // this / o when o divides it
        bool dividedBy(const Mono& o, Mono& q) const {
            if (o.c == 0 || c % o.c) return false;
            q = Mono{c / o.c, syms};
            for (auto& sym : o.syms) {
                auto it = q.syms.find(sym);
                if (it == q.syms.end()) return false;
                q.syms.erase(it);
            }
            return true;
        }
        IE expr() const {
            IE e = iconst(c);
            for (auto& sym : syms) e = imul(e, isym(sym));
            return e;
        }
    };
    static Mono monoOf(const IE& e) {
        if (e->kind == IExpr::Const) return Mono{e->c, {}};
        if (e->kind == IExpr::Sym) return Mono{1, {e->name}};
        if (e->kind == IExpr::Mul) return monoOf(e->a) * monoOf(e->b);
        unsupported("a reshape of a dim that is not a product of sizes");
    }
    // Sizes of `x.view(b, t, -1)` where some are symbolic sizes read into locals (Tensor.size
    // nodes); null for -1.
    void addSizes(const Arg& a, std::vector<IE>& r) {
        if (a.kind == Arg::Kind::List || a.kind == Arg::Kind::Tuple) {
            for (auto& x : a.items) addSizes(x, r);
            return;
        }
        if (a.isConst()) {
            std::vector<int64_t> v;
            addInts(a, v);
            for (auto i : v) r.push_back(i == -1 ? nullptr : iconst(i));
            return;
        }
        r.push_back(sizeExpr(a));
    }
    std::vector<IE> sizeList(const graph::Node& n, size_t from, const char* kw) { return listArg<IE>(n, from, kw, &Lowerer::addSizes); }
    // A reshape where sizes are symbolic: dims grouped by equal products (monomials), each group's
    // new coordinates flattened and split into the old ones with / and % by symbolic sizes.
    LoweredValue reshapeSymbolic(const LoweredValue& x, std::vector<IE> sizes) {
        std::vector<Mono> in, out;
        Mono total, known;
        for (auto& d : x.shape) {
            in.push_back(monoOf(d));
            total = total * in.back();
        }
        int infer = -1;
        for (size_t i = 0; i < sizes.size(); ++i) {
            if (!sizes[i]) {
                if (infer >= 0) unsupported("a reshape with two -1 sizes");
                infer = int(i);
                continue;
            }
            int64_t v;
            if (constValue(sizes[i], v) && v < 0) unsupported("a reshape to a negative size");
            known = known * monoOf(sizes[i]);
        }
        if (infer >= 0) {
            Mono q;
            if (!total.dividedBy(known, q)) unsupported("a reshape whose -1 is not a product of sizes");
            sizes[infer] = q.expr();
        }
        for (auto& d : sizes) out.push_back(monoOf(d));
        Mono check;
        for (auto& m : out) check = check * m;
        if (!(check == total)) unsupported("a reshape to an incompatible size");
        for (auto& m : in)
            if (m.c == 0) unsupported("a reshape of an empty tensor");
        Shape shape(sizes.begin(), sizes.end());
        std::vector<IE> map(in.size());
        size_t i = 0, j = 0;
        const Mono one;
        while (i < in.size() || j < out.size()) {
            size_t i2 = i, j2 = j;
            Mono pi, pj, q;
            if (i2 < in.size()) pi = pi * in[i2++];
            if (j2 < out.size()) pj = pj * out[j2++];
            while (!(pi == pj)) {
                if (pj.dividedBy(pi, q) && i2 < in.size()) pi = pi * in[i2++];
                else if (pi.dividedBy(pj, q) && j2 < out.size()) pj = pj * out[j2++];
                else unsupported("a reshape whose dims do not group into equal products");
            }
            while (i2 < in.size() && in[i2] == one && (j2 >= out.size() || !(out[j2] == one))) ++i2;
            while (j2 < out.size() && out[j2] == one && (i2 >= in.size() || !(in[i2] == one))) ++j2;
            IE flat = iconst(0);
            for (size_t t = j; t < j2; ++t) flat = iadd(imul(flat, sizes[t]), ivar("v" + std::to_string(t)));
            splitFlat(map, flat, x.shape, i, i2);
            if (i2 == i && j2 == j) break;
            i = i2;
            j = j2;
        }
        return reshaped(x, shape, map);
    }
    // The coordinates of dims [i, i2) of `dims` that a flat index over them names (the leading
    // one needs no modulo).
    static void splitFlat(std::vector<IE>& map, const IE& flat, const Shape& dims, size_t i, size_t i2) {
        for (size_t t = i2; t-- > i;) {
            IE inner = iconst(1);
            for (size_t u = t + 1; u < i2; ++u) inner = imul(inner, dims[u]);
            map[t] = t == i ? idiv(flat, inner) : imod(idiv(flat, inner), dims[t]);
        }
    }
    LoweredValue reshaped(const LoweredValue& x, const Shape& shape, std::vector<IE> map) {
        for (auto& m : map)
            if (!m) m = iconst(0);
        return reindex(x, shape, map);
    }

    LoweredValue reshape(const LoweredValue& x, std::vector<int64_t> sizes) {
        // known input sizes only, except for dims carried over unchanged
        int infer = -1;
        for (size_t i = 0; i < sizes.size(); ++i)
            if (sizes[i] == -1) infer = int(i);
        std::vector<int64_t> in;
        for (auto& d : x.shape) {
            int64_t v;
            if (!constValue(d, v)) unsupported("a reshape of a tensor with symbolic sizes");
            in.push_back(v);
        }
        int64_t total = 1, known = 1;
        for (auto v : in) total *= v;
        for (size_t i = 0; i < sizes.size(); ++i)
            if (int(i) != infer) known *= sizes[i];
        if (infer >= 0) sizes[infer] = known ? total / known : 0;
        int64_t check = 1;
        for (auto s : sizes) check *= s;
        if (check != total) unsupported("a reshape to an incompatible size");
        // new coordinates -> flat index -> old coordinates (simplified per matching group of dims)
        Shape shape;
        for (auto s : sizes) shape.push_back(iconst(s));
        std::vector<IE> map(in.size());
        size_t i = 0, j = 0;
        while (i < in.size() || j < sizes.size()) {
            // a group: in[i..i2) and sizes[j..j2) with equal products
            size_t i2 = i, j2 = j;
            int64_t pi = 1, pj = 1;
            if (i2 < in.size()) pi *= in[i2++];
            if (j2 < sizes.size()) pj *= sizes[j2++];
            while (pi != pj) {
                if (pi < pj && i2 < in.size()) pi *= in[i2++];
                else if (j2 < sizes.size()) pj *= sizes[j2++];
                else break;
            }
            while (i2 < in.size() && in[i2] == 1 && (j2 >= sizes.size() || sizes[j2] != 1)) ++i2;
            while (j2 < sizes.size() && sizes[j2] == 1 && (i2 >= in.size() || in[i2] != 1)) ++j2;
            IE flat = iconst(0);
            for (size_t t = j; t < j2; ++t) flat = iadd(imul(flat, iconst(sizes[t])), ivar("v" + std::to_string(t)));
            splitFlat(map, flat, x.shape, i, i2); // x's sizes are the constants `in`
            if (i2 == i && j2 == j) break;
            i = i2;
            j = j2;
        }
        return reshaped(x, shape, map);
    }

    LoweredValue permute(const LoweredValue& x, const std::vector<int>& perm) {
        Shape shape;
        std::vector<IE> map(x.shape.size());
        for (size_t i = 0; i < perm.size(); ++i) {
            shape.push_back(x.shape[perm[i]]);
            map[perm[i]] = ivar("v" + std::to_string(i));
        }
        return reindex(x, shape, map);
    }
    LoweredValue narrow(const LoweredValue& x, int dim, int64_t start, int64_t len, int64_t step = 1) {
        Shape shape = x.shape;
        shape[dim] = iconst(len);
        std::vector<IE> map = vars("v", x.shape.size());
        map[dim] = iadd(imul(map[dim], iconst(step)), iconst(start));
        return reindex(x, shape, map);
    }
    int64_t constDim(const LoweredValue& x, int d) {
        int64_t v;
        if (!constValue(x.shape[d], v)) unsupported("slicing a symbolic dimension");
        return v;
    }

    // x[items...]: the index's items, as x[a, b] passes them (one item for x[a]).
    LoweredValue getitem(const LoweredValue& x, const std::vector<Const>& items) {
        size_t consumed = 0, bools = 0;
        for (auto& it : items) {
            if (it.isBool()) ++bools;
            else if (!it.isNone() && it.kind != Const::Kind::Ellipsis) ++consumed;
        }
        // a bool scalar index adds one dim (True: size 1, like None; False: size 0); several merge into one
        for (auto& it : items)
            if (it.isBool() && (bools > 1 || !it.truth())) unsupported("indexing with False or several bools (an empty or merged dim)");
        Shape shape;
        std::vector<IE> map;
        int in = 0, outDim = 0, lists = 0;
        for (auto& it : items) {
            if (it.kind == Const::Kind::Ellipsis) {
                size_t rest = x.shape.size() - consumed;
                for (size_t k = 0; k < rest; ++k) {
                    shape.push_back(x.shape[in++]);
                    map.push_back(ivar("v" + std::to_string(outDim++)));
                }
                continue;
            }
            if (it.isNone() || it.isBool()) { shape.push_back(iconst(1)); ++outDim; continue; }
            if (in >= int(x.shape.size())) unsupported("too many indices");
            if (it.isIntLike()) {
                int64_t n = constDim(x, in), i = it.i;
                if (i < 0) i += n;
                if (i < 0 || i >= n) unsupported("an index out of range");
                map.push_back(iconst(i));
                ++in;
                continue;
            }
            if (it.kind == Const::Kind::Slice) {
                const Const &start = it.items[0], &stop = it.items[1], &stepC = it.items[2];
                bool full = start.isNone() && stop.isNone() && stepC.isNone();
                if (full) {
                    shape.push_back(x.shape[in++]);
                    map.push_back(ivar("v" + std::to_string(outDim++)));
                    continue;
                }
                int64_t n = constDim(x, in);
                // an int past 64 bits reads as the end of the int64 range its sign points to (Const::i),
                // as CPython reads a slice bound
                auto isInt = [](const Const& v) { return v.isIntLike() || v.kind == Const::Kind::BigInt; };
                int64_t step = stepC.isNone() ? 1 : (isInt(stepC) ? stepC.i : 0);
                if (step <= 0) unsupported("a slice step that is not a positive constant");
                // bounds past the dimension (ints past 64 bits included) clamp, as Python's do
                auto clampIdx = [n](const Const& v, int64_t dflt) {
                    if (v.isNone()) return dflt;
                    int64_t i = v.i;
                    if (i < 0) i += n;
                    return std::min(std::max<int64_t>(i, 0), n);
                };
                if ((!start.isNone() && !isInt(start)) || (!stop.isNone() && !isInt(stop))) unsupported("a non-constant slice");
                int64_t a = clampIdx(start, 0), b = clampIdx(stop, n);
                int64_t len = b > a ? (b - a - 1) / step + 1 : 0; // never b - a + step: the step may be huge
                if (len <= 1) step = 1; // one element: the step is never multiplied into an index
                shape.push_back(iconst(len));
                map.push_back(iadd(imul(ivar("v" + std::to_string(outDim++)), iconst(step)), iconst(a)));
                ++in;
                continue;
            }
            if (it.kind == Const::Kind::Tuple) { // a list of ints (`x[:, [-1]]`): one advanced index, its dim in place
                if (++lists > 1) unsupported("indexing with several lists");
                if (it.items.empty() || it.items.size() > 16) unsupported("indexing with a list of this length");
                IE n = x.shape[in];
                int64_t nv = -1;
                constValue(n, nv);
                std::vector<IE> at;
                for (auto& e : it.items) {
                    if (!e.isIntLike() || e.isBool()) unsupported("indexing with a list that is not of ints");
                    if (nv >= 0 && (e.i < -nv || e.i >= nv)) unsupported("an index out of range");
                    if (nv < 0 && e.i >= 0) unsupported("a list index into a symbolic dim");
                    at.push_back(e.i < 0 ? iadd(n, iconst(e.i)) : iconst(e.i));
                }
                IE v = ivar("v" + std::to_string(outDim++));
                shape.push_back(iconst(int64_t(at.size())));
                if (at.size() == 1) {
                    map.push_back(at[0]);
                } else { // the list's element at the new coordinate
                    std::vector<SE> elems;
                    for (auto& e : at) elems.push_back(sindex(e));
                    map.push_back(ivalue(selectByIndex(v, elems)));
                }
                ++in;
                continue;
            }
            unsupported("indexing with a tensor or list");
        }
        while (in < int(x.shape.size())) {
            shape.push_back(x.shape[in++]);
            map.push_back(ivar("v" + std::to_string(outDim++)));
        }
        return reindex(x, shape, map);
    }

    // ---------------------------------------------------------------- ops
    // One function per op family of the op table (core/graph/ops.h); the table says which.
    void lowerOp(const graph::Node& n) {
        std::optional<Op> id = graph::opOfTarget(n.target);
        DType outDt = DType::F32;
        if (n.meta.size() == 1 && !dtypeOf(n.meta[0].dtype, outDt)) unsupported("dtype " + n.meta[0].dtype);
        if (target(n) == "Tensor.size") {
            // a symbolic size (`b, t = x.size()`) read by factories as the input's dim: no kernel;
            // like a view, computed from its input when a script value needs it
            info().viewOp = true;
            info().value.kind = LoweredValue::Other;
            return;
        }
        if (n.target == "torch.nn.functional.embedding") return lowerEmbedding(n);
        if (n.target == "torch.nn.functional.cross_entropy") return lowerCrossEntropy(n);
        if (n.target == "torch.nn.functional.pad") return lowerPad(n);
        if (n.target == "torch.nn.functional.batch_norm") return lowerBatchNormEval(n);
        if (n.target == "torch.ops.fuselab.dropout_with_noise") return lowerDropoutWithNoise(n);
        if (target(n) == "Tensor.unbind" || n.target == "torch.unbind") return lowerUnbind(n);
        if (n.target == "torch.stack") return lowerStack(n);
        if (n.target == "torch.pixel_shuffle" || n.target == "torch.nn.functional.pixel_shuffle") return lowerPixelShuffle(n);
        if (graph::baseName(n.target) == "max_pool2d" || n.target == "torch._C._nn.max_pool2d_with_indices")
            return lowerMaxPool2d(n, n.target == "torch._C._nn.max_pool2d_with_indices");
        if (id)
            if (const std::string* why = graph::eagerOnlyReason(*id)) unsupported(*why);
        if (id) switch (graph::info(*id).family) {
            case Family::UnaryMath: return lowerUnaryMath(n, *id, outDt);
            case Family::Activation: return lowerActivation(n, *id, outDt);
            case Family::Arith: return lowerArith(n, *id, outDt);
            case Family::Compare: return lowerCompare(n, *id, outDt);
            case Family::Logical: return lowerLogical(n, *id, outDt);
            case Family::Select: return lowerSelect(n, *id, outDt);
            case Family::Convert: return lowerConvert(n, *id, outDt);
            case Family::Reduce: return lowerReduce(n, *id, outDt);
            case Family::Normalize: return lowerNormalize(n, *id, outDt);
            case Family::Matmul: return lowerMatmul(n, *id, outDt);
            case Family::Reshape: return lowerReshape(n, *id, outDt);
            case Family::Index: return lowerIndex(n, *id, outDt);
            case Family::Generate: return lowerGenerate(n, *id, outDt);
            case Family::None: break;
            }
        unsupported("no lowering for " + target(n));
    }

    // embedding as a gather: out[i.., j] = weight[idx[i..], j], the row number read from the data
    // (IExpr::Value) and clamped into the table, and the whole index tensor checked against the
    // table's rows before the result is used (Program::indexChecks): eager raises IndexError for
    // a row outside it, and then the call runs eagerly and raises it. padding_idx changes only
    // the gradient; max_norm renormalizes the table in place (eager).
    void lowerEmbedding(const graph::Node& n) {
        const LoweredValue& idx = tensorArg(arg(n, 0, "input"));
        const LoweredValue& w = tensorArg(arg(n, 1, "weight"));
        if (idx.dtype != DType::I64) unsupported("embedding with indices that are not int64");
        if (w.dtype != DType::F32 || w.shape.size() != 2) unsupported("embedding of a table that is not a float32 matrix");
        if (const Arg* mn = arg(n, 3, "max_norm"); mn && !mn->isNoneConst()) unsupported("embedding with max_norm (it renormalizes the table in place)");
        checkIndices(idx, w.shape[0], "embedding");
        Shape out = idx.shape;
        out.push_back(w.shape[1]);
        std::vector<IE> o = vars("x", out.size());
        SE i = loadValue(idx, std::vector<IE>(o.begin(), o.end() - 1));
        Node& e = addNode(NodeKind::Pointwise, "embedding", out, DType::F32);
        e.body = loadValue(w, {ivalue(clampIndex(i, w.shape[0])), o.back()});
        e.graphNode = cur_;
        info().value = LoweredValue{LoweredValue::Buffer, e.id, out, DType::F32, {}};
    }

    // Indices read from data (`idx`, int64) that must lie in [0, upper): checked whole before the
    // graph's result is used (Program::indexChecks). Computed indices are checked after the graph
    // ran: only where nothing in it changes a tensor in place, so that running the call again
    // eagerly repeats nothing.
    Program::IndexCheck& checkIndices(const LoweredValue& idx, const IE& upper, const std::string& what) {
        if (idx.buffer < 0) unsupported(what + " of constant indices");
        const Node& base = out_.program.nodes[idx.buffer];
        if (base.kind != NodeKind::Input) {
            for (size_t i = 0; i < count_; ++i)
                if (mutatesFirstArg(node(int(i)))) unsupported(what + " of computed indices in a graph that changes a tensor in place");
            if (base.kind == NodeKind::Fallback && base.itemOf >= 0) unsupported(what + " of indices from a tuple");
        }
        out_.program.indexChecks.push_back({idx.buffer, upper, what});
        return out_.program.indexChecks.back();
    }
    // choices[i] where i == k: a select per choice, the last one where no other matches (kernels
    // compute every choice, so each must be safe to compute).
    static SE selectByIndex(const IE& i, const std::vector<SE>& choices) {
        SE r = choices.back();
        for (size_t k = choices.size() - 1; k-- > 0;)
            r = swhere(scall(Op::Eq, {sindex(i), sconst(double(k), DType::I64)}, DType::Bool), choices[k], r);
        return r;
    }
    // i clamped into [0, upper): a gather never reads outside its table, whatever the data (a
    // value outside fails the check, and the result is not used).
    static SE clampIndex(const SE& i, const IE& upper) {
        SE last = sindex(iadd(upper, iconst(-1)));
        return swhere(scall(Op::Lt, {i, sconst(0, DType::I64)}, DType::Bool), sconst(0, DType::I64),
                      swhere(scall(Op::Gt, {i, last}, DType::Bool), last, i));
    }

    // Dropout in training mode (0 < p < 1) is x * noise, noise drawn as eager's CPU dropout draws
    // it (bernoulli_(1 - p) on a tensor laid out as x, divided by 1 - p): a library call on
    // LibTorch's generator (runtime: at::dropout of ones), in program order with every other
    // draw, and a multiply that fuses with what is around it. The noise is stored row-major.
    LoweredValue dropoutNoise(const graph::Node& n, const LoweredValue& x, double p) {
        if (x.dtype != DType::F32) unsupported("dropout of a non-float32 tensor");
        if (!(p > 0 && p < 1)) unsupported("dropout with p outside (0, 1)");
        const Arg* xa = arg(n, 0, "input");
        const bool known = xa && xa->kind == Arg::Kind::NodeRef && xa->index < 0 && xa->node->meta.size() == 1;
        std::vector<int> order = known ? drawOrder(xa->node->meta[0]) : std::vector<int>{};
        Node& e = addNode(NodeKind::Extern, "dropout_noise", x.shape, DType::F32);
        e.callee = kDropoutNoise;
        e.graphNode = cur_;
        e.drawOrder = std::move(order);
        return LoweredValue{LoweredValue::Buffer, e.id, x.shape, DType::F32, {}};
    }
    // The dims outermost first of empty_like(x) for x of trace meta m (eager draws dropout noise
    // there): x's layout where it is dense, else row-major (empty: row-major).
    static std::vector<int> drawOrder(const graph::TensorMeta& m) {
        const size_t r = m.shape.size();
        if (m.strides.size() != r) return {};
        std::vector<int> order(r);
        for (size_t d = 0; d < r; ++d) order[d] = int(d);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return m.strides[a] > m.strides[b]; });
        bool identity = true, constant = true;
        for (size_t d = 0; d < r; ++d) {
            identity = identity && order[d] == int(d);
            constant = constant && !m.shape[d].isSymbolic();
        }
        if (identity) return {};
        if (!constant) unsupported("dropout of a permuted tensor under dynamic sizes");
        int64_t expect = 1;
        for (size_t k = r; k-- > 0;) {
            const int d = order[k];
            if (m.shape[d].value != 1 && m.strides[d] != expect) unsupported("dropout of a tensor that is not dense");
            expect *= m.shape[d].value;
        }
        return order;
    }
    // torch.ops.fuselab.dropout_with_noise(x, p), compiled training's forward dropout: the tuple
    // (x * noise, noise), both buffers.
    void lowerDropoutWithNoise(const graph::Node& n) {
        const LoweredValue& x = tensorArg(arg(n, 0, "input"));
        const Arg* pa = arg(n, 1, "p");
        if (!isNumber(pa)) unsupported("dropout with a non-constant p");
        const LoweredValue noise = dropoutNoise(n, x, number(pa));
        pointwise("dropout", {opnd(x), opnd(noise)}, DType::F32, [](const std::vector<SE>& a) { return scall(Op::Mul, {a[0], a[1]}); });
        const LoweredValue out = info().value;
        info().value = LoweredValue{LoweredValue::Other, -1, {}, DType::F32, {}};
        info().items = {out, noise};
    }

    // pixel_shuffle(x, r): (.., C*r*r, H, W) -> (.., C, H*r, W*r), a view:
    // out[.., c, h, w] = x[.., c*r*r + (h % r)*r + w % r, h / r, w / r].
    void lowerPixelShuffle(const graph::Node& n) {
        const LoweredValue& x = tensorArg(arg(n, 0, "input"));
        const int64_t r = intArg(n, 1, "upscale_factor", 0);
        const size_t k = x.shape.size();
        int64_t ch;
        if (k < 3 || r < 1 || !constValue(x.shape[k - 3], ch) || ch % (r * r)) unsupported("pixel_shuffle of this shape");
        Shape shape = x.shape;
        shape[k - 3] = iconst(ch / (r * r));
        shape[k - 2] = imul(x.shape[k - 2], iconst(r));
        shape[k - 1] = imul(x.shape[k - 1], iconst(r));
        std::vector<IE> map = vars("v", k);
        const IE c = map[k - 3], h = map[k - 2], w = map[k - 1], R = iconst(r);
        map[k - 3] = iadd(iadd(imul(c, iconst(r * r)), imul(imod(h, R), R)), imod(w, R));
        map[k - 2] = idiv(h, R);
        map[k - 1] = idiv(w, R);
        setView(reindex(x, shape, map));
    }

    // unbind: a tuple of views, one per index along the dim (select).
    void lowerUnbind(const graph::Node& n) {
        const LoweredValue& x = tensorArg(arg(n, 0, "input"));
        int d = normDims({intArg(n, 1, "dim", 0)}, x.shape.size())[0];
        int64_t size = constDim(x, d);
        if (size > 64) unsupported("unbind into more than 64 tensors");
        Shape shape = x.shape;
        shape.erase(shape.begin() + d);
        for (int64_t i = 0; i < size; ++i) {
            std::vector<IE> map;
            for (size_t k = 0, v = 0; k < x.shape.size(); ++k) map.push_back(int(k) == d ? iconst(i) : ivar("v" + std::to_string(v++)));
            info().items.push_back(reindex(x, shape, map));
        }
        info().viewOp = true;
        info().value.kind = LoweredValue::Other;
    }
    // stack: a new dim; each element reads the tensor its index along that dim names (a select
    // per tensor: all of them have the same shape, so every load is in range).
    void lowerStack(const graph::Node& n) {
        const Arg* ta = arg(n, 0, "tensors");
        if (!ta || (ta->kind != Arg::Kind::List && ta->kind != Arg::Kind::Tuple) || ta->items.empty() || ta->items.size() > 16) unsupported("stack of this list");
        std::vector<const LoweredValue*> xs;
        for (auto& a : ta->items) xs.push_back(&tensorArg(&a));
        for (auto* x : xs)
            if (x->dtype != xs[0]->dtype || !sameShape(x->shape, xs[0]->shape)) unsupported("stack of tensors of different shapes or dtypes");
        const size_t r = xs[0]->shape.size();
        int d = normDims({intArg(n, 1, "dim", 0)}, r + 1)[0];
        Shape out = xs[0]->shape;
        out.insert(out.begin() + d, iconst(int64_t(xs.size())));
        std::vector<IE> o = vars("x", r + 1), at = o;
        at.erase(at.begin() + d);
        std::vector<SE> loads;
        for (auto* x : xs) loads.push_back(loadValue(*x, at));
        Node& e = addNode(NodeKind::Pointwise, "stack", out, xs[0]->dtype);
        e.body = selectByIndex(o[size_t(d)], loads);
        e.graphNode = cur_;
        info().value = LoweredValue{LoweredValue::Buffer, e.id, out, xs[0]->dtype, {}};
    }

    // batch_norm in eval mode, per channel (dim 1) as eager computes it: alpha = (1 / sqrt(var +
    // eps)) * weight, beta = bias - mean * alpha, then x * alpha + beta (rounded apart: kernels do
    // not contract). Training mode (batch statistics, running stats updated in place) runs eagerly.
    void lowerBatchNormEval(const graph::Node& n) {
        const LoweredValue& x = tensorArg(arg(n, 0, "input"));
        const Arg* tr = arg(n, 5, "training");
        if (tr && !(tr->isConst() && tr->value.isBool() && !tr->value.truth())) unsupported("batch_norm in training mode");
        if (x.dtype != DType::F32 || x.shape.size() < 2) unsupported("batch_norm of a tensor that is not float32 with channels");
        const Arg* ea = arg(n, 7, "eps");
        double eps = isNumber(ea) ? number(ea) : 1e-5;
        auto param = [&](size_t pos, const char* kw, bool required) -> const LoweredValue* {
            const Arg* a = arg(n, pos, kw);
            if (!a || a->isNoneConst()) {
                if (required) unsupported("batch_norm in eval mode without running statistics");
                return nullptr;
            }
            const LoweredValue& v = tensorArg(a);
            if (v.dtype != DType::F32 || v.shape.size() != 1 || !sameExpr(v.shape[0], x.shape[1])) unsupported("batch_norm with parameters that are not one per channel");
            return &v;
        };
        const LoweredValue *mean = param(1, "running_mean", true), *var = param(2, "running_var", true);
        const LoweredValue *w = param(3, "weight", false), *b = param(4, "bias", false);
        std::vector<IE> o = vars("x", x.shape.size());
        const std::vector<IE> c = {o[1]};
        SE invstd = scall(Op::Div, {sconst(1), scall(Op::Sqrt, {scall(Op::Add, {loadValue(*var, c), sconst(float(eps))})})});
        SE alpha = w ? scall(Op::Mul, {invstd, loadValue(*w, c)}) : invstd;
        SE beta = scall(Op::Sub, {b ? loadValue(*b, c) : sconst(0), scall(Op::Mul, {loadValue(*mean, c), alpha})});
        Node& y = addNode(NodeKind::Pointwise, "batch_norm", x.shape, DType::F32);
        y.body = scall(Op::Add, {scall(Op::Mul, {loadValue(x, o), alpha}), beta});
        y.graphNode = cur_;
        info().value = LoweredValue{LoweredValue::Buffer, y.id, x.shape, DType::F32, {}};
    }

    // F.pad in constant mode: out[.., i, ..] = x[.., i - lo, ..] where that lies inside x, else
    // the value. Pads are (lo, hi) pairs from the last dim backwards; negative ones crop. The
    // load's coordinate is clamped into x, so the element it reads where the value is chosen
    // exists (kernels compute both sides of a select).
    void lowerPad(const graph::Node& n) {
        const LoweredValue& x = tensorArg(arg(n, 0, "input"));
        const Arg* pa = arg(n, 1, "pad");
        if (!pa) unsupported("pad without pads");
        std::vector<int64_t> pads = intsOf(*pa);
        if (strArg(n, 2, "mode", "constant") != "constant") unsupported("pad in a mode other than constant");
        const Arg* va = arg(n, 3, "value");
        if (va && !va->isNoneConst() && !isNumber(va)) unsupported("pad with a non-constant value");
        const double value = va && !va->isNoneConst() ? number(va) : 0.0;
        if (x.dtype != DType::F32) unsupported("pad of a non-float32 tensor");
        if (pads.size() % 2 || pads.size() / 2 > x.shape.size()) unsupported("pad with pads that do not match the tensor");
        const size_t r = x.shape.size();
        Shape out = x.shape;
        std::vector<IE> o = vars("x", r), at = o;
        SE inside;
        for (size_t k = 0; k < pads.size() / 2; ++k) {
            const size_t d = r - 1 - k;
            const int64_t lo = pads[2 * k], hi = pads[2 * k + 1];
            IE size = x.shape[d];
            int64_t sv;
            out[d] = iadd(size, iconst(lo + hi));
            if (constValue(out[d], sv) && sv < 0) unsupported("pad to a negative size");
            at[d] = iadd(o[d], iconst(-lo));
            if (lo <= 0 && hi <= 0) continue;
            if (constValue(size, sv) && sv == 0) unsupported("pad of an empty dim");
            SE in = scall(Op::And, {scall(Op::Ge, {sindex(at[d]), sconst(0, DType::I64)}, DType::Bool),
                                    scall(Op::Lt, {sindex(at[d]), sindex(size)}, DType::Bool)}, DType::Bool);
            inside = inside ? scall(Op::And, {inside, in}, DType::Bool) : in;
            at[d] = iclamp(at[d], 0, iadd(size, iconst(-1)));
        }
        Node& p = addNode(NodeKind::Pointwise, "pad", out, DType::F32);
        SE v = loadValue(x, at);
        p.body = inside ? swhere(inside, v, sconst(value)) : v;
        p.graphNode = cur_;
        info().value = LoweredValue{LoweredValue::Buffer, p.id, out, DType::F32, {}};
    }

    // cross_entropy of (N, C) logits and class indices: log_softmax's row max and sum of exp, the
    // target's log-probability gathered (x[n, t[n]] - max - log(sum), eager's order), negated;
    // 0 where the target is ignore_index; then the sum, or the mean over the rows not ignored
    // (0 / 0 = NaN when all are, as eager). Targets outside [0, C) that are not ignored fail the
    // index check (eager raises IndexError).
    void lowerCrossEntropy(const graph::Node& n) {
        const LoweredValue& x = tensorArg(arg(n, 0, "input"));
        const LoweredValue& t = tensorArg(arg(n, 1, "target"));
        if (x.dtype != DType::F32 || x.shape.size() != 2) unsupported("cross_entropy of logits that are not a float32 (N, C) matrix");
        if (t.dtype != DType::I64 || t.shape.size() != 1 || !sameExpr(t.shape[0], x.shape[0])) unsupported("cross_entropy with targets that are not N class indices");
        if (const Arg* w = arg(n, 2, "weight"); w && !w->isNoneConst()) unsupported("cross_entropy with class weights");
        for (auto [pos, kw] : {std::pair<size_t, const char*>{3, "size_average"}, {5, "reduce"}})
            if (const Arg* a = arg(n, pos, kw); a && !a->isNoneConst()) unsupported("cross_entropy with size_average or reduce");
        if (const Arg* ls = arg(n, 7, "label_smoothing"); ls && !(isNumber(ls) && number(ls) == 0)) unsupported("cross_entropy with label smoothing");
        const Arg* ia = arg(n, 4, "ignore_index");
        if (ia && !(ia->isConst() && ia->value.isIntLike())) unsupported("cross_entropy with a non-constant ignore_index");
        const int64_t ignore = ia ? ia->value.i : -100;
        const std::string red = strArg(n, 6, "reduction", "mean");
        if (red != "mean" && red != "sum" && red != "none") unsupported("cross_entropy with reduction='" + red + "'");
        Program::IndexCheck& chk = checkIndices(t, x.shape[1], "cross_entropy");
        chk.ignores = true;
        chk.ignored = ignore;
        LoweredValue m = reduction("amax", Op::Max, x, {1}, true);
        LoweredValue s = reduction("sum", Op::Sum, x, {1}, true);
        out_.program.nodes[s.buffer].body =
            scall(Op::ExpNonpos, {scall(Op::Sub, {loadValue(x, {ivar("x0"), ivar("r0")}), loadValue(m, {ivar("x0"), iconst(0)})})});
        const Shape rows = {x.shape[0]};
        auto ignored = [&](const SE& target) { return scall(Op::Eq, {target, sconst(double(ignore), DType::I64)}, DType::Bool); };
        const std::vector<IE> row = {ivar("x0"), iconst(0)};
        SE ti = loadValue(t, {ivar("x0")});
        SE picked = loadValue(x, {ivar("x0"), ivalue(clampIndex(ti, x.shape[1]))});
        SE logp = scall(Op::SubOrdered, {scall(Op::Sub, {picked, loadValue(m, row)}), scall(Op::Log, {loadValue(s, row)})});
        Node& nll = addNode(NodeKind::Pointwise, "cross_entropy", rows, DType::F32);
        nll.body = swhere(ignored(ti), sconst(0), scall(Op::Neg, {logp}));
        LoweredValue perRow{LoweredValue::Buffer, nll.id, rows, DType::F32, {}};
        if (red == "none") return finish(perRow);
        LoweredValue total = reduction("sum", Op::Sum, perRow, {0}, false);
        if (red == "sum") return finish(total);
        Node& cnt = addNode(NodeKind::Reduction, "sum", {}, DType::F32);
        cnt.body = swhere(ignored(loadValue(t, {ivar("r0")})), sconst(0), sconst(1));
        cnt.reduced = rows;
        cnt.reduceOp = Op::Sum;
        LoweredValue count{LoweredValue::Buffer, cnt.id, {}, DType::F32, {}};
        finish(pointwiseValue("cross_entropy", {opnd(total), opnd(count)}, [](const std::vector<SE>& a) { return scall(Op::Div, {a[0], a[1]}); }));
    }

    // max_pool2d as a pointwise loop over the output reading each window's k*k elements, in
    // eager's order and with its rule: an element replaces the running maximum when it is greater
    // or NaN (`fl_max(v, m)`), so the value (-0.0 before 0.0 stays -0.0) and, for
    // max_pool2d_with_indices, the index (h * W + w of the element that last replaced it: the first
    // maximum, the last NaN) are eager's. No padding, dilation 1, floor mode.
    void lowerMaxPool2d(const graph::Node& n, bool withIndices) {
        const LoweredValue& x = tensorArg(arg(n, 0, "input"));
        if (x.dtype != DType::F32) unsupported("max_pool2d of a non-float32 tensor");
        if (x.shape.size() != 4 && x.shape.size() != 3) unsupported("max_pool2d of a tensor that is not 3-D or 4-D");
        if (!withIndices && boolArg(n, 6, "return_indices", false)) unsupported("max_pool2d with return_indices");
        auto pair = [&](size_t pos, const char* kw, std::vector<int64_t> dflt) {
            const Arg* a = arg(n, pos, kw);
            if (!a || a->isNoneConst()) return dflt;
            std::vector<int64_t> v = intsOf(*a);
            if (v.size() == 1) v.push_back(v[0]);
            if (v.size() != 2) unsupported("a max_pool2d argument that is not one or two ints");
            return v;
        };
        std::vector<int64_t> k = pair(1, "kernel_size", {});
        if (k.size() != 2 || k[0] < 1 || k[1] < 1 || k[0] * k[1] > 64) unsupported("a max_pool2d window of this size");
        std::vector<int64_t> st = pair(2, "stride", k);
        if (st.empty()) st = k; // stride=() means the kernel size
        if (st[0] < 1 || st[1] < 1) unsupported("a max_pool2d stride below 1");
        if (pair(3, "padding", {0, 0}) != std::vector<int64_t>{0, 0}) unsupported("max_pool2d with padding");
        if (pair(4, "dilation", {1, 1}) != std::vector<int64_t>{1, 1}) unsupported("max_pool2d with dilation");
        if (boolArg(n, 5, "ceil_mode", false)) unsupported("max_pool2d with ceil_mode");
        const size_t r = x.shape.size();
        const IE& H = x.shape[r - 2];
        const IE& W = x.shape[r - 1];
        Shape out(x.shape.begin(), x.shape.end() - 2);
        for (int d = 0; d < 2; ++d) {
            const IE& in = d ? W : H;
            int64_t v;
            if (constValue(in, v) && v < k[d]) unsupported("a max_pool2d window larger than its input");
            out.push_back(iadd(idiv(iadd(in, iconst(-k[d])), iconst(st[d])), iconst(1)));
        }
        std::vector<IE> o = vars("x", r);
        std::vector<SE> vals, idx;
        for (int64_t i = 0; i < k[0]; ++i)
            for (int64_t j = 0; j < k[1]; ++j) {
                std::vector<IE> at(o.begin(), o.end() - 2);
                IE h = iadd(imul(o[r - 2], iconst(st[0])), iconst(i)), w = iadd(imul(o[r - 1], iconst(st[1])), iconst(j));
                at.push_back(h);
                at.push_back(w);
                vals.push_back(loadValue(x, at));
                idx.push_back(sindex(iadd(imul(h, W), w)));
            }
        // the running maximum before each element, and the index it came from
        SE m = vals[0], index = idx[0];
        for (size_t e = 1; e < vals.size(); ++e) {
            SE replaces = scall(Op::Or, {scall(Op::Gt, {vals[e], m}, DType::Bool), scall(Op::Ne, {vals[e], vals[e]}, DType::Bool)}, DType::Bool);
            index = swhere(replaces, idx[e], index);
            m = scall(Op::Max, {vals[e], m});
        }
        Node& values = addNode(NodeKind::Pointwise, "max_pool2d", out, DType::F32);
        values.body = m;
        values.graphNode = cur_;
        LoweredValue v{LoweredValue::Buffer, values.id, out, DType::F32, {}};
        if (!withIndices) {
            info().value = v;
            return;
        }
        Node& indices = addNode(NodeKind::Pointwise, "max_pool2d_indices", out, DType::I64);
        indices.body = index;
        indices.graphNode = cur_;
        info().value = LoweredValue{LoweredValue::Other, -1, {}, DType::F32, {}};
        info().items = {v, LoweredValue{LoweredValue::Buffer, indices.id, out, DType::I64, {}}};
    }

    // One float32 input, one float32 result: f of the input's element.
    void unaryOp(const graph::Node& n, const std::string& op, DType outDt, const std::function<SE(SE)>& f) {
        const LoweredValue& x = tensorArg(arg(n, 0, "input"));
        if (x.dtype != DType::F32 || outDt != DType::F32) unsupported("a non-float32 " + op);
        pointwise(op, {opnd(x)}, DType::F32, [&](const std::vector<SE>& a) { return f(a[0]); });
    }

    // exp, log, sqrt, ...: the kernel op of the same name
    void lowerUnaryMath(const graph::Node& n, Op id, DType outDt) {
        const std::string op = graph::opName(id);
        {
            if (id == Op::Round && arg(n, 1, "decimals")) unsupported("round with decimals");
            return unaryOp(n, op, outDt, [&](SE x) { return scall(id, {x}); });
        }
        unsupported("no lowering for " + target(n));
    }

    // relu, gelu, silu, clamp, dropout (eval), ...
    void lowerActivation(const graph::Node& n, Op id, DType outDt) {
        const std::string op = graph::opName(id);
        if (id == Op::Relu) return unaryOp(n, op, outDt, [](SE x) { return scall(Op::Relu, {x}); });
        if (id == Op::Square) return unaryOp(n, op, outDt, [](SE x) { return scall(Op::Mul, {x, x}); });
        if (id == Op::Silu) return unaryOp(n, op, outDt, [](SE x) { return scall(Op::Mul, {x, scall(Op::Sigmoid, {x})}); });
        if (id == Op::Gelu) {
            std::string approx = strArg(n, 1, "approximate", "none");
            if (approx == "tanh")
                // eager's 0.5 x (1 + tanh(u)), in its order, with tanh(u) as 2 sigmoid(2u) - 1: near -1
                // fl_tanh is a few ulp off (5e-5 of gelu at x = -3.2 once 1 + tanh(u) cancels), while
                // 2 sigmoid(2u) - 1 rounds as a 1-ulp tanh does, so 1 + tanh(u) takes eager's values:
                // steps of 2^-24, and exactly 0 (gelu -0.0, log -inf) where tanh(u) rounds to -1
                return unaryOp(n, op, outDt, [](SE x) {
                    SE inner = scall(Op::Mul, {sconst(0.7978845608028654), scall(Op::Add, {x, scall(Op::Mul, {sconst(0.044715), scall(Op::Mul, {x, scall(Op::Mul, {x, x})})})})});
                    SE tanh = scall(Op::Sub, {scall(Op::Mul, {sconst(2.0), scall(Op::Sigmoid, {scall(Op::Mul, {sconst(2.0), inner})})}), sconst(1.0)});
                    return scall(Op::Mul, {scall(Op::Mul, {sconst(0.5), x}), scall(Op::Add, {sconst(1.0), tanh})});
                });
            if (approx != "none") unsupported("gelu approximate='" + approx + "'");
            // x * Phi(x), one kernel function (fl_gelu): cheaper than 0.5 x (1 + erf(x / sqrt 2))
            return unaryOp(n, op, outDt, [](SE x) { return scall(Op::Gelu, {x}); });
        }
        if (id == Op::LeakyRelu) {
            double slope = isNumber(arg(n, 1, "negative_slope")) ? number(arg(n, 1, "negative_slope")) : 0.01;
            return unaryOp(n, op, outDt, [slope](SE x) { return swhere(scall(Op::Gt, {x, sconst(0)}, DType::Bool), x, scall(Op::Mul, {x, sconst(slope)})); });
        }
        if (id == Op::Dropout) {
            const Arg* pa = arg(n, 1, "p");
            if (pa && !pa->isNoneConst() && !isNumber(pa)) unsupported("dropout with a non-constant p");
            const double p = pa && !pa->isNoneConst() ? number(pa) : 0.5;
            if (!boolArg(n, 2, "training", true) || p == 0) return unaryOp(n, op, outDt, [](SE x) { return x; });
            if (boolArg(n, 3, "inplace", false)) unsupported("dropout in place in training mode");
            const LoweredValue& x = tensorArg(arg(n, 0, "input"));
            const LoweredValue noise = dropoutNoise(n, x, p);
            return finish(pointwiseValue("dropout", {opnd(x), opnd(noise)}, [](const std::vector<SE>& a) { return scall(Op::Mul, {a[0], a[1]}); }));
        }
        if (id == Op::Clamp || id == Op::ClampMin || id == Op::ClampMax) {
            const Arg* lo = id == Op::ClampMax ? nullptr : arg(n, 1, id == Op::Clamp ? "min" : "min");
            const Arg* hi = id == Op::Clamp ? arg(n, 2, "max") : id == Op::ClampMax ? arg(n, 1, "max") : nullptr;
            bool haveLo = lo && !lo->isNoneConst(), haveHi = hi && !hi->isNoneConst();
            if ((haveLo && !isNumber(lo)) || (haveHi && !isNumber(hi))) unsupported("clamp with tensor bounds");
            double l = haveLo ? number(lo) : 0, h = haveHi ? number(hi) : 0;
            return unaryOp(n, op, outDt, [=](SE x) {
                if (haveLo) x = scall(Op::ClampMin, {x, sconst(l)});
                if (haveHi) x = scall(Op::ClampMax, {x, sconst(h)});
                return x;
            });
        }
        unsupported("no lowering for " + target(n));
    }

    // add, sub, mul, div, pow, maximum, ... of tensors and numbers
    void lowerArith(const graph::Node& n, Op id, DType outDt) {
        const std::string op = graph::opName(id);
        {
            if (outDt != DType::F32) unsupported("integer arithmetic");
            if (id == Op::Div && arg(n, 2, "rounding_mode")) unsupported("division with a rounding mode");
            Operand a = operand(arg(n, 0, "input")), b = operand(arg(n, 1, "other"));
            if (id == Op::Pow && !b.tensor && !a.tensor) unsupported("pow of two numbers");
            double alpha = 1;
            if ((id == Op::Add || id == Op::Sub || id == Op::Rsub) && arg(n, 2, "alpha")) {
                if (!isNumber(arg(n, 2, "alpha"))) unsupported("a non-constant alpha");
                alpha = number(arg(n, 2, "alpha"));
            }
            // the kernel op; rsub, radd and rmul take their operands the other way round
            Op kop = id == Op::Rsub ? Op::Sub : id == Op::Radd ? Op::Add : id == Op::Rmul ? Op::Mul : id == Op::Maximum ? Op::Max : id == Op::Minimum ? Op::Min : id;
            bool swapped = id == Op::Rsub || id == Op::Radd || id == Op::Rmul;
            if (id == Op::Pow && !b.tensor && b.scalar->kind == SExpr::Scalar) unsupported("pow with a symbolic exponent (eager's vector loop and its tail use different exponents)");
            if (id == Op::Pow && !b.tensor && b.scalar->kind == SExpr::Const) {
                // LibTorch raises its vector loop's elements to float(y) and the loop's tail to y (a
                // double): where float(y) is not y and changes parity or integrality (odd integers past
                // 2^24, y within half a float ulp of an integer), the result depends on the element's position
                const Arg* ya = arg(n, 1, "exponent");
                const bool intExp = ya && ya->isConst() && ya->value.isInt();
                double y = intExp ? double(ya->value.i) : b.scalar->c;
                if (intExp && (ya->value.i > (int64_t(1) << 53) || ya->value.i < -(int64_t(1) << 53)))
                    unsupported("an integer exponent past 2^53");
                float yf = float(y);
                if (double(yf) != y && (std::fabs(y) >= 0x1p23 || std::floor(yf) == yf))
                    unsupported("an exponent that is not a float (eager's vector loop and its tail use different exponents)");
            }
            return pointwise(op, {a, b}, DType::F32, [&](const std::vector<SE>& v) {
                SE x = v[0], y = v[1];
                if (swapped) std::swap(x, y);
                // eager computes x + alpha * y as one fused multiply-add (its vector loop's fmadd),
                // and kernels contract nothing on their own: say so
                if (alpha != 1 && kop == Op::Add) return scall(Op::MulAdd, {y, sconst(alpha), x});
                if (alpha != 1 && kop == Op::Sub) return scall(Op::MulAdd, {y, sconst(-alpha), x});
                if (alpha != 1) y = scall(Op::Mul, {y, sconst(alpha)});
                if (kop == Op::Pow && y->kind == SExpr::Const && a.tensor) {
                    // LibTorch's own special cases of pow(tensor, scalar), so special values agree:
                    // pow(-inf, -0.5) is rsqrt(-inf) = NaN, pow(-0.0, -1) is -inf
                    if (y->c == 2) return scall(Op::Mul, {x, x});
                    if (y->c == 3) return scall(Op::Mul, {x, scall(Op::Mul, {x, x})});
                    if (y->c == 0.5) return scall(Op::Sqrt, {x});
                    if (y->c == -0.5) return scall(Op::Rsqrt, {x});
                    if (y->c == -1) return scall(Op::Reciprocal, {x});
                    if (y->c == -2) return scall(Op::Div, {sconst(1), scall(Op::Mul, {x, x})});
                    if (y->c == 1) return x;
                    if (y->c == 0) return sconst(1);
                }
                return scall(kop, {x, y});
            });
        }
        unsupported("no lowering for " + target(n));
    }

    // eq, lt, ...: a bool result
    void lowerCompare(const graph::Node& n, Op id, DType outDt) {
        const std::string op = graph::opName(id);
        {
            Operand a = operand(arg(n, 0, "input")), b = operand(arg(n, 1, "other"));
            bool flt = (a.tensor && a.tensor->dtype == DType::F32) || (b.tensor && b.tensor->dtype == DType::F32);
            bool anyInt = (a.tensor && a.tensor->dtype == DType::I64) || (b.tensor && b.tensor->dtype == DType::I64);
            if (!flt && anyInt) {
                // int64 (and bool) values compare exactly as they are, never through float: an int
                // constant is one while operand()'s rounding to float keeps it (up to 2^24)
                for (const Arg* x : {arg(n, 0, "input"), arg(n, 1, "other")})
                    if (x && x->kind != Arg::Kind::NodeRef) {
                        if (!x->isConst() || !x->value.isIntLike() || x->value.i > (1 << 24) || x->value.i < -(1 << 24))
                            unsupported("an integer comparison with a float, symbolic or large number");
                    } else if (x && isScalarInput(x->node->id)) {
                        unsupported("an integer comparison with a float, symbolic or large number");
                    }
                return pointwise(op, {a, b}, DType::Bool, [&](const std::vector<SE>& v) { return scall(id, {v[0], v[1]}, DType::Bool); }, false);
            }
            return pointwise(op, {a, b}, DType::Bool, [&](const std::vector<SE>& v) { return scall(id, {v[0], v[1]}, DType::Bool); });
        }
        unsupported("no lowering for " + target(n));
    }

    // not / and / or of bool tensors
    void lowerLogical(const graph::Node& n, Op id, DType outDt) {
        const std::string op = graph::opName(id);
        if (id == Op::LogicalNot || (id == Op::Invert || id == Op::BitwiseNot)) {
            const LoweredValue& x = tensorArg(arg(n, 0, "input"));
            if (x.dtype != DType::Bool) unsupported("bitwise not of a non-bool tensor");
            return pointwise(op, {opnd(x)}, DType::Bool, [](const std::vector<SE>& v) { return scall(Op::Not, {v[0]}, DType::Bool); }, false);
        }
        if (id == Op::LogicalAnd || id == Op::LogicalOr) {
            Operand a = operand(arg(n, 0, "input")), b = operand(arg(n, 1, "other"));
            if ((a.tensor && a.tensor->dtype != DType::Bool) || (b.tensor && b.tensor->dtype != DType::Bool)) unsupported("a bitwise op on a non-bool tensor");
            // bool & 2 is bitwise on int64 (type promotion of a bool tensor with a Python int)
            if ((!a.tensor && a.scalar->dtype != DType::Bool) || (!b.tensor && b.scalar->dtype != DType::Bool) || outDt != DType::Bool)
                unsupported("a bitwise op whose result is not bool");
            return pointwise(op, {a, b}, DType::Bool, [&](const std::vector<SE>& v) { return scall(id == Op::LogicalAnd ? Op::And : Op::Or, {v[0], v[1]}, DType::Bool); }, false);
        }
        unsupported("no lowering for " + target(n));
    }

    // where, masked_fill
    void lowerSelect(const graph::Node& n, Op id, DType outDt) {
        const std::string op = graph::opName(id);
        if (id == Op::Where) {
            if (!arg(n, 1, "input")) unsupported("where with one argument");
            Operand c = operand(arg(n, 0, "condition")), a = operand(arg(n, 1, "input")), b = operand(arg(n, 2, "other"));
            if (!c.tensor || c.tensor->dtype != DType::Bool || outDt != DType::F32) unsupported("where on non-float values");
            return pointwise(op, {c, a, b}, DType::F32, [](const std::vector<SE>& v) {
                return swhere(scast(v[0], DType::Bool), scast(v[1], DType::F32), scast(v[2], DType::F32));
            }, false);
        }
        if (id == Op::MaskedFill) {
            Operand x = operand(arg(n, 0, "input")), m = operand(arg(n, 1, "mask")), val = operand(arg(n, 2, "value"));
            if (!x.tensor || x.tensor->dtype != DType::F32 || !m.tensor || m.tensor->dtype != DType::Bool || val.tensor) unsupported("masked_fill on these types");
            Shape mx = broadcast({x.tensor->shape, m.tensor->shape});
            if (!sameShape(mx, x.tensor->shape)) unsupported("a mask that broadcasts the input");
            return pointwise(op, {x, m, val}, DType::F32, [](const std::vector<SE>& v) {
                return swhere(scast(v[1], DType::Bool), scast(v[2], DType::F32), scast(v[0], DType::F32));
            }, false);
        }
        unsupported("no lowering for " + target(n));
    }

    // dtype conversions and copies
    void lowerConvert(const graph::Node& n, Op id, DType outDt) {
        const std::string op = graph::opName(id);
        if (id == Op::To || id == Op::Float || id == Op::TypeAs) {
            const LoweredValue& x = tensorArg(arg(n, 0, "input"));
            if (outDt == x.dtype && id != Op::TypeAs) return setView(x);
            return pointwise(op, {opnd(x)}, outDt, [](const std::vector<SE>& v) { return v[0]; }, false);
        }
        if (id == Op::Clone) {
            const LoweredValue& x = tensorArg(arg(n, 0, "input"));
            return pointwise("clone", {opnd(x)}, x.dtype, [](const std::vector<SE>& v) { return v[0]; }, false);
        }
        unsupported("no lowering for " + target(n));
    }

    // sum, mean, amax, amin, prod, var, std over dims
    void lowerReduce(const graph::Node& n, Op id, DType outDt) {
        const std::string op = graph::opName(id);
        if (id == Op::Sum || id == Op::Mean || id == Op::Amax || id == Op::Amin || id == Op::Prod) {
            const LoweredValue& x = tensorArg(arg(n, 0, "input"));
            if (arg(n, 3, "dtype")) unsupported("a reduction with a dtype");
            std::vector<int> dims = dimsArg(n, 1, "dim", x.shape.size());
            bool keepdim = boolArg(n, 2, "keepdim", false);
            if (x.shape.empty()) unsupported("a reduction of a 0-d tensor");
            if (id == Op::Mean) return finish(meanOf(x, dims, keepdim));
            Op rop = id == Op::Amax ? Op::Max : id == Op::Amin ? Op::Min : id;
            return finish(reduction(op, rop, x, dims, keepdim));
        }
        if (id == Op::Var || id == Op::Std) {
            // PyTorch 1.13's schemas: var(input, unbiased=True), var(input, dim, unbiased=True,
            // keepdim=False), var(input, dim=None, *, correction=None, keepdim=False); positional
            // and keyword forms bind the same
            const LoweredValue& x = tensorArg(arg(n, 0, "input"));
            const Arg* d = arg(n, 1, "dim");
            bool unbiasedForm = d && d->isConst() && d->value.isBool(); // var(x, False)
            if (unbiasedForm && n.args.size() > 2) unsupported("var(unbiased) with more positional arguments");
            const Arg* u = unbiasedForm ? d : arg(n, 2, "unbiased");
            double correction = 1;
            if (u && !u->isNoneConst()) {
                if (!u->isConst() || !u->value.isIntLike()) unsupported("a non-constant unbiased");
                correction = u->value.truth() ? 1 : 0;
            }
            if (const Arg* c = arg(n, SIZE_MAX, "correction"); c && !c->isNoneConst()) {
                if (!isNumber(c)) unsupported("a non-constant correction");
                correction = number(c);
            }
            std::vector<int> dims = unbiasedForm ? dimsArg(n, SIZE_MAX, "dim", x.shape.size()) : dimsArg(n, 1, "dim", x.shape.size());
            bool keepdim = boolArg(n, 3, "keepdim", false);
            if (x.dtype != DType::F32) unsupported("a reduction over a non-float32 tensor");
            return finish(scaledVarOf(x, dims, keepdim, correction, id == Op::Std));
        }
        unsupported("no lowering for " + target(n));
    }

    // softmax, log_softmax, layer_norm: reductions and a pointwise tail
    void lowerNormalize(const graph::Node& n, Op id, DType outDt) {
        const std::string op = graph::opName(id);
        if (id == Op::Softmax || id == Op::LogSoftmax) {
            const LoweredValue& x = tensorArg(arg(n, 0, "input"));
            if (arg(n, 2, "dtype") && !arg(n, 2, "dtype")->isNoneConst()) unsupported("softmax with a dtype");
            const Arg* da = arg(n, 1, "dim");
            if (!da || !da->isConst() || !da->value.isIntLike()) unsupported("softmax without a constant dim");
            std::vector<int> dims = normDims({da->value.i}, x.shape.size());
            LoweredValue m = reduction("amax", Op::Max, x, dims, true);
            LoweredValue s = reduction("sum", Op::Sum, x, dims, true);
            // sum(exp(x - max)): the body reads the max at the kept coordinates
            {
                Node& red = out_.program.nodes[s.buffer];
                std::vector<IE> full, mAt;
                size_t k = 0;
                for (size_t d = 0; d < x.shape.size(); ++d) {
                    bool isRed = d == size_t(dims[0]);
                    full.push_back(ivar(isRed ? "r0" : "x" + std::to_string(k++)));
                    mAt.push_back(isRed ? iconst(0) : full.back());
                }
                // x - max(x) <= 0 (or NaN): the exp needs no overflow path
                red.body = scall(Op::ExpNonpos, {scall(Op::Sub, {loadValue(x, full), loadValue(m, mAt)})});
            }
            if (id == Op::Softmax)
                return finish(pointwiseValue("softmax", {opnd(x), opnd(m), opnd(s)}, [](const std::vector<SE>& a) {
                    // the sum is at least 1 (the max's own exp(0)): a reciprocal per row is safe
                    return scall(Op::DivGe1, {scall(Op::ExpNonpos, {scall(Op::Sub, {a[0], a[1]})}), a[2]});
                }));
            // (x - max) - log(sum), in that order, as eager: with reassociation allowed the C++ compiler
            // would compute x - (max + log(sum)), in which log(sum) vanishes next to a huge max
            // (log_softmax of two equal logits of 3e38 gave 0, not -log 2)
            return finish(pointwiseValue("log_softmax", {opnd(x), opnd(m), opnd(s)}, [](const std::vector<SE>& a) {
                return scall(Op::SubOrdered, {scall(Op::Sub, {a[0], a[1]}), scall(Op::Log, {a[2]})});
            }));
        }
        if (id == Op::LayerNorm) {
            const LoweredValue& x = tensorArg(arg(n, 0, "input"));
            std::vector<int64_t> ns = intList(n, SIZE_MAX, "normalized_shape");
            if (ns.empty())
                if (const Arg* a = arg(n, 1, nullptr)) ns = intsOf(*a);
            const Arg* wa = arg(n, 2, "weight");
            const Arg* ba = arg(n, 3, "bias");
            double eps = isNumber(arg(n, 4, "eps")) ? number(arg(n, 4, "eps")) : 1e-5;
            std::vector<int> dims;
            for (size_t i = 0; i < ns.size(); ++i) dims.push_back(int(x.shape.size() - ns.size() + i));
            LoweredValue m = meanOf(x, dims, true);
            LoweredValue v = varOf(x, dims, true, 0, &m);
            std::vector<Operand> ops = {opnd(x), opnd(m), opnd(v)};
            bool hasW = wa && wa->kind == Arg::Kind::NodeRef, hasB = ba && ba->kind == Arg::Kind::NodeRef;
            if (hasW) ops.push_back(operand(wa));
            if (hasB) ops.push_back(operand(ba));
            return finish(pointwiseValue("layer_norm", ops, [=](const std::vector<SE>& a) {
                SE y = scall(Op::Mul, {scall(Op::Sub, {a[0], a[1]}), scall(Op::Rsqrt, {scall(Op::Add, {a[2], sconst(eps)})})});
                size_t k = 3;
                if (hasW) y = scall(Op::Mul, {y, a[k++]});
                // eager adds the bias, or 0 without one ((x * rstd - mean * rstd) * w + b): a zero
                // that is -0.0 here (a row of -0.0 and 0.0) is 0.0 there, and x / y shows which
                if (hasB) y = scall(Op::Add, {y, a[k++]});
                else y = scall(Op::Add, {y, sconst(0.0)});
                return y;
            }));
        }
        unsupported("no lowering for " + target(n));
    }

    // matmul, mm, bmm, linear: a library call; linear's bias a pointwise epilogue
    void lowerMatmul(const graph::Node& n, Op id, DType outDt) {
        const std::string op = graph::opName(id);
        if (id == Op::Matmul || id == Op::Mm || id == Op::Bmm || id == Op::Linear) {
            const Arg* a0 = arg(n, 0, "input");
            const Arg* a1 = arg(n, 1, id == Op::Linear ? "weight" : "other");
            const LoweredValue& A = tensorArg(a0);
            const LoweredValue& B = tensorArg(a1);
            if (A.dtype != DType::F32 || B.dtype != DType::F32) unsupported("a non-float32 matmul");
            if (A.shape.size() < 2 || B.shape.size() < 2) unsupported("a matmul with a 1-d operand");
            Shape shape;
            if (id == Op::Linear) {
                if (B.shape.size() != 2) unsupported("linear with a weight that is not 2-d");
                shape.assign(A.shape.begin(), A.shape.end() - 1);
                shape.push_back(B.shape[0]);
            } else {
                Shape ba(A.shape.begin(), A.shape.end() - 2), bb(B.shape.begin(), B.shape.end() - 2);
                shape = broadcast({ba, bb});
                shape.push_back(A.shape[A.shape.size() - 2]);
                shape.push_back(B.shape.back());
            }
            needValue(*a0);
            needValue(*a1);
            Node& e = addNode(NodeKind::Extern, id == Op::Linear ? "mm" : op, shape, DType::F32);
            e.callee = id == Op::Linear ? "linear" : "matmul";
            e.inputs = {a0->node->id, a1->node->id};
            LoweredValue mm{LoweredValue::Buffer, e.id, shape, DType::F32, {}};
            const Arg* bias = id == Op::Linear ? arg(n, 2, "bias") : nullptr;
            if (bias && bias->kind == Arg::Kind::NodeRef) {
                // the bias add is a pointwise epilogue, free to fuse with what follows
                return finish(pointwiseValue("bias", {opnd(mm), operand(bias)}, [](const std::vector<SE>& v) { return scall(Op::Add, {v[0], v[1]}); }));
            }
            e.graphNode = cur_;
            info().value = mm;
            return;
        }
        unsupported("no lowering for " + target(n));
    }

    // views that reindex the whole tensor
    void lowerReshape(const graph::Node& n, Op id, DType outDt) {
        const std::string op = graph::opName(id);
        if (id == Op::View || id == Op::Reshape) {
            const LoweredValue& x = tensorArg(arg(n, 0, "input"));
            std::vector<IE> sizes = sizeList(n, 1, "shape");
            bool constant = true;
            for (auto& d : x.shape) constant = constant && d->kind == IExpr::Const;
            for (auto& d : sizes) constant = constant && (!d || d->kind == IExpr::Const);
            if (!constant) return setView(reshapeSymbolic(x, sizes));
            return setView(reshape(x, intList(n, 1, "shape")));
        }
        if (id == Op::Flatten) {
            const LoweredValue& x = tensorArg(arg(n, 0, "input"));
            int64_t r = int64_t(x.shape.size());
            int64_t s = intArg(n, 1, "start_dim", 0), e = intArg(n, 2, "end_dim", -1);
            if (s < 0) s += r;
            if (e < 0) e += r;
            std::vector<int64_t> sizes;
            int64_t merged = 1;
            for (int64_t d = 0; d < r; ++d) {
                int64_t v = constDim(x, int(d));
                if (d < s || d > e) sizes.push_back(v);
                else {
                    merged *= v;
                    if (d == e) sizes.push_back(merged);
                }
            }
            if (r == 0) sizes = {1};
            return setView(reshape(x, sizes));
        }
        if (id == Op::Transpose || id == Op::T) {
            const LoweredValue& x = tensorArg(arg(n, 0, "input"));
            size_t r = x.shape.size();
            if (id == Op::T && r < 2) return setView(x);
            int64_t d0 = id == Op::T ? 0 : intArg(n, 1, "dim0", 0), d1 = id == Op::T ? 1 : intArg(n, 2, "dim1", 1);
            std::vector<int> dd = normDims({d0}, r), de = normDims({d1}, r);
            std::vector<int> perm;
            for (size_t i = 0; i < r; ++i) perm.push_back(int(i));
            std::swap(perm[dd[0]], perm[de[0]]);
            return setView(permute(x, perm));
        }
        if (id == Op::Permute) {
            const LoweredValue& x = tensorArg(arg(n, 0, "input"));
            std::vector<int64_t> p = intList(n, 1, "dims");
            if (p.size() != x.shape.size()) unsupported("a permutation of the wrong length");
            std::vector<int> perm;
            for (auto d : p) perm.push_back(normDims({d}, x.shape.size())[0]);
            return setView(permute(x, perm));
        }
        if (id == Op::Unsqueeze) {
            const LoweredValue& x = tensorArg(arg(n, 0, "input"));
            int64_t d = intArg(n, 1, "dim", 0);
            if (d < 0) d += int64_t(x.shape.size()) + 1;
            if (d < 0 || d > int64_t(x.shape.size())) unsupported("unsqueeze out of range");
            Shape shape = x.shape;
            shape.insert(shape.begin() + d, iconst(1));
            std::vector<IE> map;
            for (size_t i = 0; i < shape.size(); ++i)
                if (int64_t(i) != d) map.push_back(ivar("v" + std::to_string(i)));
            return setView(reindex(x, shape, map));
        }
        if (id == Op::Squeeze) {
            const LoweredValue& x = tensorArg(arg(n, 0, "input"));
            const Arg* da = arg(n, 1, "dim");
            std::vector<int> dims;
            if (da) dims = dimsArg(n, 1, "dim", x.shape.size());
            Shape shape;
            std::vector<IE> map;
            for (size_t i = 0; i < x.shape.size(); ++i) {
                bool cand = !da || std::find(dims.begin(), dims.end(), int(i)) != dims.end();
                if (cand && isConst(x.shape[i], 1)) { map.push_back(iconst(0)); continue; }
                if (cand && x.shape[i]->kind != IExpr::Const) unsupported("squeeze of a symbolic dimension");
                map.push_back(ivar("v" + std::to_string(shape.size())));
                shape.push_back(x.shape[i]);
            }
            return setView(reindex(x, shape, map));
        }
        if (id == Op::Expand) {
            const LoweredValue& x = tensorArg(arg(n, 0, "input"));
            std::vector<int64_t> sizes = intList(n, 1, "size");
            if (sizes.size() < x.shape.size()) unsupported("expand to fewer dims");
            Shape shape;
            std::vector<IE> map;
            size_t off = sizes.size() - x.shape.size();
            for (size_t i = 0; i < sizes.size(); ++i) {
                if (i < off) { shape.push_back(iconst(sizes[i])); continue; }
                const IE& d = x.shape[i - off];
                if (sizes[i] == -1 || (isConst(d, sizes[i]))) {
                    shape.push_back(d);
                    map.push_back(ivar("v" + std::to_string(i)));
                } else if (isConst(d, 1)) {
                    shape.push_back(iconst(sizes[i]));
                    map.push_back(iconst(0));
                } else unsupported("expand of a non-1 dimension");
            }
            return setView(reindex(x, shape, map));
        }
        if (id == Op::Contiguous || id == Op::Detach) {
            return setView(tensorArg(arg(n, 0, "input")));
        }
        unsupported("no lowering for " + target(n));
    }

    // views that select part of it: indexing, narrow, select, split, chunk
    void lowerIndex(const graph::Node& n, Op id, DType outDt) {
        const std::string op = graph::opName(id);
        if (id == Op::Getitem) {
            const Arg* ia = arg(n, 1, nullptr);
            if (ia && (ia->kind == Arg::Kind::Tuple || ia->kind == Arg::Kind::List)) {
                std::vector<Const> items;
                const std::vector<Arg> one = {*ia}; // x[[0, 2]]: the list is the one index
                for (auto& x : ia->kind == Arg::Kind::List ? one : ia->items) {
                    if (x.kind == Arg::Kind::List) { // a list of constant ints, as a tuple const (getitem)
                        std::vector<Const> ints;
                        for (auto& e : x.items) {
                            if (!e.isConst()) unsupported("indexing with a list of tensors or sizes");
                            ints.push_back(e.value);
                        }
                        items.push_back(Const::tuple(std::move(ints)));
                        continue;
                    }
                    if (!x.isConst()) unsupported("indexing with a tensor");
                    items.push_back(x.value);
                }
                return setView(getitem(tensorArg(arg(n, 0, nullptr)), items));
            }
            if (!ia || !ia->isConst()) unsupported("indexing with a tensor");
            if (ia->value.kind == Const::Kind::Tuple) return setView(getitem(tensorArg(arg(n, 0, nullptr)), ia->value.items));
            return setView(getitem(tensorArg(arg(n, 0, nullptr)), {ia->value}));
        }
        if (id == Op::Narrow || id == Op::Select) {
            const LoweredValue& x = tensorArg(arg(n, 0, "input"));
            int d = normDims({intArg(n, 1, "dim", 0)}, x.shape.size())[0];
            int64_t size = constDim(x, d);
            int64_t start = intArg(n, 2, id == Op::Narrow ? "start" : "index", 0);
            if (start < 0) start += size;
            if (id == Op::Narrow) return setView(narrow(x, d, start, intArg(n, 3, "length", 0)));
            LoweredValue r = narrow(x, d, start, 1);
            Shape shape = r.shape;
            shape.erase(shape.begin() + d);
            std::vector<IE> map;
            for (size_t i = 0, k = 0; i < r.shape.size(); ++i) map.push_back(int(i) == d ? iconst(0) : ivar("v" + std::to_string(k++)));
            return setView(reindex(r, shape, map));
        }
        if (id == Op::Split || id == Op::Chunk) {
            const LoweredValue& x = tensorArg(arg(n, 0, "input"));
            int d = normDims({intArg(n, 2, "dim", 0)}, x.shape.size())[0];
            int64_t size = constDim(x, d);
            std::vector<int64_t> parts;
            const Arg* sa = arg(n, 1, id == Op::Split ? "split_size_or_sections" : "chunks");
            if (!sa || !sa->isConst()) unsupported("a non-constant split");
            const Const& c = sa->value;
            if (id == Op::Chunk) {
                // eager's own call refused a count that is not a positive int before the trace recorded it
                if (!c.isIntLike() || c.i <= 0) unsupported("a non-constant split");
                int64_t each = (size + c.i - 1) / c.i;
                for (int64_t s = 0; s < size; s += each) parts.push_back(std::min(each, size - s));
            } else if (c.isIntLike()) {
                for (int64_t s = 0; s < size; s += c.i) parts.push_back(std::min(c.i, size - s));
            } else {
                parts = intsOf(*sa);
            }
            int64_t start = 0;
            for (auto p : parts) {
                info().items.push_back(narrow(x, d, start, p));
                start += p;
            }
            info().viewOp = true;
            info().value.kind = LoweredValue::Other;
            return;
        }
        unsupported("no lowering for " + target(n));
    }

    // ---------------------------------------------------------------- generated tensors
    // A size argument as an index expression: a constant, or a symbolic size read into a local
    // (`b, t = idx.size()`, `n = x.size(0)`: a Tensor.size node), which is its tensor's dim.
    IE sizeExpr(const Arg& a) {
        if (a.isConst()) {
            if (!a.value.isInt() || a.value.i < 0) unsupported("a size that is not a non-negative int");
            return iconst(a.value.i);
        }
        if (a.kind != Arg::Kind::NodeRef || recordedTarget(*a.node) != "Tensor.size") unsupported("a size computed from other values");
        const graph::Node& sz = *a.node;
        const LoweredValue& x = tensorArg(arg(sz, 0, nullptr));
        int64_t d = a.index;
        if (d < 0) {
            const Arg* da = arg(sz, 1, "dim");
            if (!da || !da->isConst() || !da->value.isInt()) unsupported("a size tuple used as one size");
            d = da->value.i;
        }
        return x.shape[normDims({d}, x.shape.size())[0]];
    }
    // Sizes from arguments: each an int, a symbolic size, or a tuple or list of them.
    Shape sizesOf(const std::vector<const Arg*>& args) {
        Shape shape;
        for (const Arg* a : args) {
            if (a->kind == Arg::Kind::List || a->kind == Arg::Kind::Tuple) {
                for (auto& x : a->items) shape.push_back(sizeExpr(x));
            } else if (a->isConst() && a->value.kind == Const::Kind::Tuple) {
                for (int64_t v : intsOf(*a)) shape.push_back(iconst(v));
            } else shape.push_back(sizeExpr(*a));
        }
        return shape;
    }
    // A tensor of `shape` whose element at (x0, x1, ..) is body(x0, x1, ..): no input, so it fuses
    // into whatever reads it.
    void generated(const std::string& what, const Shape& shape, DType dt, const std::function<SE(const std::vector<IE>&)>& body) {
        Node& g = addNode(NodeKind::Pointwise, what, shape, dt);
        g.body = scast(body(vars("x", shape.size())), dt);
        g.graphNode = cur_;
        info().value = LoweredValue{LoweredValue::Buffer, g.id, shape, dt, {}};
    }
    // The factories' keywords that change more than the dtype (which eager's meta gives).
    void factoryKeywords(const graph::Node& n) {
        if (const Arg* o = arg(n, SIZE_MAX, "out"); o && !o->isNoneConst()) unsupported("a factory with out=");
        if (boolArg(n, SIZE_MAX, "requires_grad", false)) unsupported("a factory with requires_grad=True");
    }
    // A fill value as a constant of dtype dt, exactly: an int64 past 2^53 is not a double.
    SE fillValue(const Arg* v, DType dt) {
        if (!v || !v->isConst() || !v->value.isNumber()) unsupported("a fill value that is not a constant number");
        const Const& c = v->value;
        if (dt == DType::I64 && !c.isIntLike()) unsupported("an int64 fill from a float");
        if (c.isIntLike() && (c.i > (int64_t(1) << 53) || c.i < -(int64_t(1) << 53))) unsupported("an int fill past 2^53");
        // a float fill is eager's double converted to float once, as the literal is
        return scast(sconst(c.isIntLike() ? double(c.i) : c.num(), c.isFloat() ? DType::F32 : DType::I64), dt);
    }

    // torch.arange(end), (start, end), (start, end, step): start + i * step as an index expression.
    void arange(const graph::Node& n, DType outDt) {
        factoryKeywords(n);
        std::vector<const Arg*> a;
        for (const char* kw : {"start", "end", "step"})
            if (const Arg* x = arg(n, a.size(), kw); x && !x->isNoneConst()) a.push_back(x);
        if (a.empty()) unsupported("arange without an end");
        for (const Arg* x : a)
            if (x->isConst() && x->value.isFloat())
                // LibTorch 1.13 fills 8 floats at a time from a base rounded to float (base + k * step
                // in double, rounded again) and the last n % 16 from start + i * step in double: an
                // element's value depends on its position in the vector loop and the thread split
                unsupported("a float arange (eager's value depends on the element's position in its vector loop)");
        int64_t start = 0, step = 1;
        const Arg* endArg = a.size() == 1 ? a[0] : a[1];
        if (a.size() > 1) {
            if (!a[0]->isConst() || !a[0]->value.isInt()) unsupported("a non-constant arange start");
            start = a[0]->value.i;
        }
        if (a.size() > 2) {
            if (!a[2]->isConst() || !a[2]->value.isInt() || a[2]->value.i == 0) unsupported("a non-constant arange step");
            step = a[2]->value.i;
        }
        IE len;
        int64_t first = start, last = start;
        if (endArg->isConst()) {
            if (!endArg->value.isInt()) unsupported("a non-int arange end");
            int64_t end = endArg->value.i;
            // ceil((end - start) / step), in __int128 so that no difference overflows
            __int128 span = __int128(end) - start;
            __int128 count = step > 0 ? (span + step - 1) / step : (span + step + 1) / step;
            if (count < 0) unsupported("an arange whose end is before its start");
            len = iconst(int64_t(count));
            if (count > 0) last = int64_t(start + __int128(step) * (count - 1));
        } else {
            if (start != 0 || step != 1) unsupported("a symbolic arange end with a start or step");
            len = sizeExpr(*endArg);
            if (outDt != DType::I64) unsupported("a symbolic float arange (values past 2^24 round)");
        }
        // a float32 arange of ints: exact while every value is a float; eager rounds a vector
        // block's base to float first, so past 2^24 it rounds twice
        if (outDt == DType::F32 && (std::max(std::abs(first), std::abs(last)) > (int64_t(1) << 24)))
            unsupported("a float32 arange with values past 2^24");
        if (outDt == DType::Bool) unsupported("a bool arange");
        generated("arange", {len}, outDt, [&](const std::vector<IE>& x) {
            return sindex(iadd(imul(x[0], iconst(step)), iconst(start)));
        });
    }

    // tril / triu: x where the element's column minus its row is within the diagonal, else zero.
    void triangle(const graph::Node& n, bool lower) {
        const LoweredValue& x = tensorArg(arg(n, 0, "input"));
        if (x.shape.size() < 2) unsupported("tril/triu of a tensor with fewer than 2 dims");
        int64_t k = intArg(n, 1, "diagonal", 0);
        if (const Arg* o = arg(n, SIZE_MAX, "out"); o && !o->isNoneConst()) unsupported("tril/triu with out=");
        const size_t r = x.shape.size();
        std::vector<IE> at = vars("x", r);
        Node& g = addNode(NodeKind::Pointwise, lower ? "tril" : "triu", x.shape, x.dtype);
        SE colMinusRow = sindex(iadd(at[r - 1], imul(at[r - 2], iconst(-1))));
        SE keep = scall(lower ? Op::Le : Op::Ge, {colMinusRow, sconst(double(k), DType::I64)}, DType::Bool);
        g.body = swhere(keep, loadValue(x, at), sconst(0, x.dtype));
        g.graphNode = cur_;
        info().value = LoweredValue{LoweredValue::Buffer, g.id, x.shape, x.dtype, {}};
    }

    // arange, zeros/ones/full (and their _like forms), tril/triu
    void lowerGenerate(const graph::Node& n, Op id, DType outDt) {
        if (id == Op::Arange) return arange(n, outDt);
        if (id == Op::Tril || id == Op::Triu) return triangle(n, id == Op::Tril);
        if (outDt != DType::F32 && outDt != DType::I64 && outDt != DType::Bool) unsupported("a factory of another dtype");
        factoryKeywords(n);
        const bool like = id == Op::ZerosLike || id == Op::OnesLike || id == Op::FullLike;
        Shape shape;
        const Arg* fill = nullptr;
        if (like) {
            shape = tensorArg(arg(n, 0, "input")).shape;
            if (id == Op::FullLike) fill = arg(n, 1, "fill_value");
        } else if (id == Op::Full) {
            const Arg* sz = arg(n, 0, "size");
            if (!sz) unsupported("full without a size");
            shape = sizesOf({sz});
            fill = arg(n, 1, "fill_value");
        } else {
            // zeros(2, 3), zeros((2, 3)), zeros([b, t]), zeros(size=...)
            std::vector<const Arg*> sizes;
            for (auto& a : n.args) sizes.push_back(&a);
            if (sizes.empty())
                if (const Arg* a = arg(n, SIZE_MAX, "size")) sizes.push_back(a);
            shape = sizesOf(sizes);
        }
        SE value = fill ? fillValue(fill, outDt) : sconst(id == Op::Ones || id == Op::OnesLike ? 1 : 0, outDt);
        generated(graph::opName(id), shape, outDt, [&](const std::vector<IE>&) { return value; });
    }
};

} // namespace

Lowered lowerGraph(const graph::Graph& g) {
    Lowerer first(g, {});
    Lowered out = first.run();
    std::set<int> eager = Lowerer::writtenCopies(g, out);
    if (eager.empty()) return out;
    Lowerer second(g, std::move(eager));
    return second.run();
}

} // namespace fl::lower

// Lowering from a graph built by hand. core/lower reads a graph::Graph and nothing of capture: this
// test links fuselab_lower alone and compiles against its include view (core/lower, core/graph),
// so it would not build if lowering needed capture, the interpreter or LibTorch.
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "core/graph/graph.h"
#include "core/lower/lower.h"

using namespace fl;
using graph::Arg;
using graph::Const;
using graph::Dim;
using graph::TensorMeta;

static int passed = 0, failed = 0;
static void check(bool ok, const std::string& what) {
    if (ok) ++passed;
    else { ++failed; std::printf("FAIL %s\n", what.c_str()); }
}

static TensorMeta f32(std::vector<int64_t> sizes) {
    TensorMeta m;
    for (auto s : sizes) m.shape.push_back(Dim::constant(s));
    return m;
}

static graph::Node& call(graph::Graph& g, const std::string& target, std::vector<Arg> args, std::vector<std::pair<std::string, Arg>> kwargs,
                         TensorMeta meta) {
    graph::Node& n = g.addCall(target, std::move(args), std::move(kwargs));
    n.meta.push_back(std::move(meta));
    n.span = {"hand.py", int(g.nodes().size()), 4, 20};
    return n;
}

// Whether any subexpression of `e` satisfies `p`.
static bool anyExpr(const lower::SE& e, const std::function<bool(const lower::SExpr&)>& p) {
    if (!e) return false;
    if (p(*e)) return true;
    for (auto& a : e->args)
        if (anyExpr(a, p)) return true;
    return false;
}

static const lower::Node* producer(const lower::Lowered& l, const graph::Node& n) {
    for (auto& p : l.program.nodes)
        if (p.graphNode == n.id) return &p;
    return nullptr;
}

static bool isConstExpr(const lower::SExpr& e) { return e.kind == lower::SExpr::Const; }

static TensorMeta typed(std::vector<Dim> dims, const char* dtype) {
    TensorMeta m;
    m.shape = std::move(dims);
    m.dtype = dtype;
    return m;
}

// Generated tensors (arange, full, tril) are pointwise nodes over their index, with no input to
// read: a symbolic arange end read into a local (`b, t = x.size()`) is the input's dim; a float
// arange runs eagerly (eager's value depends on the element's position in its vector loop).
static void checkGenerated() {
    graph::Graph g;
    graph::Node& x = g.addPlaceholder("L_x_", typed({Dim::constant(3), Dim::sym("s0")}, "float32"));
    graph::Node& size = g.addCall("torch.Tensor.size", {Arg::ref(&x)}); // a tuple: no tensor meta
    graph::Node& pos = call(g, "torch.arange", {Arg::integer(0), Arg::item(&size, 1)}, {{"dtype", Arg::lit("torch.int64", Const::dtype("int64"))}},
                            typed({Dim::sym("s0")}, "int64"));
    graph::Node& steps = call(g, "torch.arange", {Arg::integer(10), Arg::integer(-5), Arg::integer(-4)}, {}, typed({Dim::constant(4)}, "int64"));
    graph::Node& tri = call(g, "torch.tril", {Arg::ref(&x)}, {{"diagonal", Arg::integer(1)}}, typed({Dim::constant(3), Dim::sym("s0")}, "float32"));
    graph::Node& full = call(g, "torch.full", {Arg::lit("(2, 3)", Const::tuple({Const::integer(2), Const::integer(3)})), Arg::lit("1.5", Const::real(1.5))},
                             {}, f32({2, 3}));
    graph::Node& flt = call(g, "torch.arange", {Arg::lit("0.5", Const::real(0.5)), Arg::integer(3)}, {}, f32({3}));
    g.setOutput({Arg::ref(&pos), Arg::ref(&steps), Arg::ref(&tri), Arg::ref(&full), Arg::ref(&flt)});
    lower::Lowered l = lower::lowerGraph(g);
    auto isIndex = [](const lower::SExpr& e) { return e.kind == lower::SExpr::Index; };
    const lower::Node* p = producer(l, pos);
    check(p && p->kind == lower::NodeKind::Pointwise && p->dtype == lower::DType::I64 && lower::shapeStr(p->shape) == "[s0]" &&
              anyExpr(p->body, isIndex),
          "arange(0, t): an int64 index expression of the symbolic size");
    const lower::Node* st = producer(l, steps);
    check(st && st->kind == lower::NodeKind::Pointwise && lower::shapeStr(st->shape) == "[4]", "arange(10, -5, -4): four elements");
    const lower::Node* tp = producer(l, tri);
    check(tp && tp->kind == lower::NodeKind::Pointwise && anyExpr(tp->body, [](const lower::SExpr& e) { return e.kind == lower::SExpr::Where; }),
          "tril: a where on column minus row");
    const lower::Node* fp = producer(l, full);
    check(fp && fp->kind == lower::NodeKind::Pointwise && fp->body->kind == lower::SExpr::Const && fp->body->c == 1.5, "full: a constant");
    const lower::Node* ap = producer(l, flt);
    check(ap && ap->kind == lower::NodeKind::Fallback && ap->note.rfind("a float arange", 0) == 0, "a float arange runs eagerly, with the reason");
}

int main() {
    // linear -> gelu(tanh) -> sum(-1, keepdim) -> view((2, 4)) -> [:, 1:2**100:2] -> * s -> * -0.0 -> cumsum;
    // clamp(gelu, min=-inf)
    graph::Graph g;
    graph::Node& x = g.addPlaceholder("L_x_", f32({8, 16}));
    graph::Node& w = g.addPlaceholder("L_w_", f32({32, 16}));
    graph::Node& b = g.addPlaceholder("L_b_", f32({32}));
    graph::Node& s = g.addPlaceholder("L_s_", {});
    s.meta.clear(); // a symbolic float input: a placeholder without tensor meta
    graph::Node& lin = call(g, "torch._C._nn.linear", {Arg::ref(&x), Arg::ref(&w), Arg::ref(&b)}, {}, f32({8, 32}));
    graph::Node& gel = call(g, "torch._C._nn.gelu", {Arg::ref(&lin)}, {{"approximate", Arg::lit("'tanh'", Const::str("tanh"))}}, f32({8, 32}));
    graph::Node& sum = call(g, "torch.Tensor.sum", {Arg::ref(&gel), Arg::integer(-1)}, {{"keepdim", Arg::boolean(true)}}, f32({8, 1}));
    graph::Node& view = call(g, "torch.Tensor.view", {Arg::ref(&sum), Arg::lit("(2, 4)", Const::tuple({Const::integer(2), Const::integer(4)}))}, {},
                             f32({2, 4}));
    Arg index;
    index.kind = Arg::Kind::Tuple;
    index.items = {Arg::lit("slice(None, None, None)", Const::slice(Const::none(), Const::none(), Const::none())),
                   Arg::lit("slice(1, 1267650600228229401496703205376, 2)", Const::slice(Const::integer(1), Const::bigInt(false), Const::integer(2)))};
    graph::Node& item = call(g, "operator.getitem", {Arg::ref(&view), index}, {}, f32({2, 2}));
    graph::Node& scaled = call(g, "operator.mul", {Arg::ref(&item), Arg::ref(&s)}, {}, f32({2, 2}));
    graph::Node& negz = call(g, "operator.mul", {Arg::ref(&scaled), Arg::lit("-0.0", Const::real(-0.0))}, {}, f32({2, 2}));
    graph::Node& cums = call(g, "torch.Tensor.cumsum", {Arg::ref(&negz), Arg::integer(1)}, {}, f32({2, 2}));
    graph::Node& clamp = call(g, "torch.clamp", {Arg::ref(&gel)}, {{"min", Arg::lit("-inf", Const::real(-INFINITY))}}, f32({8, 32}));
    g.setOutput({Arg::ref(&cums), Arg::ref(&clamp)});

    lower::Lowered l = lower::lowerGraph(g);
    check(l.ok, "the hand-built graph lowers");
    check(l.info.size() == g.nodes().size() - 1, "one info per node before the output");

    int inputs = 0, scalars = 0;
    bool unnamed = true;
    for (auto& n : l.program.nodes)
        if (n.kind == lower::NodeKind::Input) ++inputs, scalars += n.scalar, unnamed = unnamed && n.opText.empty();
    check(inputs == 4 && scalars == 1, "three tensor inputs and a scalar one (the placeholder without meta)");
    check(unnamed, "an input lowers no op (a placeholder's target is its name, not an op)");

    const lower::Node* mm = nullptr;
    for (auto& n : l.program.nodes)
        if (n.kind == lower::NodeKind::Extern) mm = &n;
    check(mm && mm->callee == "linear" && mm->inputs == std::vector<int>{x.id, w.id}, "linear: an extern on the weight, by graph node id");
    const lower::Node* bias = producer(l, lin);
    check(bias && bias->kind == lower::NodeKind::Pointwise && bias->what == "bias", "linear's bias is a pointwise epilogue");

    const lower::Node* gp = producer(l, gel);
    // the tanh form, computed with tanh(u) as 2 sigmoid(2u) - 1 (the exact form is one Gelu call)
    check(gp && anyExpr(gp->body, [](const lower::SExpr& e) { return e.kind == lower::SExpr::Call && e.op == graph::Op::Sigmoid; }) &&
              !anyExpr(gp->body, [](const lower::SExpr& e) { return e.kind == lower::SExpr::Call && e.op == graph::Op::Gelu; }),
          "gelu reads approximate='tanh' from the typed constant");

    const lower::Node* sp = producer(l, sum);
    check(sp && sp->kind == lower::NodeKind::Reduction && lower::shapeStr(sp->shape) == "[8, 1]", "sum(-1, keepdim=True): a kept dim of 1");
    check(sp && sp->opText == "Tensor.sum", "the loop IR names a Tensor method as recorded (Tensor.sum)");

    check(l.info[view.id].viewOp && lower::shapeStr(l.info[view.id].value.shape) == "[2, 4]", "view((2, 4)) from a constant tuple");
    const lower::LoweredValue& iv = l.info[item.id].value;
    check(l.info[item.id].viewOp && lower::shapeStr(iv.shape) == "[2, 2]", "[:, 1:2**100:2]: an int past 64 bits clamps as a slice bound");

    const lower::Node* sc = producer(l, scaled);
    check(sc && anyExpr(sc->body, [](const lower::SExpr& e) { return e.kind == lower::SExpr::Scalar; }), "the scalar input is read as a kernel argument");

    const lower::Node* nz = producer(l, negz);
    check(nz && anyExpr(nz->body, [](const lower::SExpr& e) { return isConstExpr(e) && e.c == 0 && std::signbit(e.c); }),
          "-0.0 keeps its sign");
    const lower::Node* cp = producer(l, clamp);
    check(cp && anyExpr(cp->body, [](const lower::SExpr& e) { return isConstExpr(e) && std::isinf(e.c) && e.c < 0; }), "-inf stays -inf");

    const lower::Node* cs = producer(l, cums);
    check(cs && cs->kind == lower::NodeKind::Fallback && cs->callee == "Tensor.cumsum" && cs->note == "no lowering for Tensor.cumsum",
          "an op without a lowering runs eagerly, with the reason");
    check(l.info[negz.id].needsValue && l.info[clamp.id].needsValue, "a fallback's inputs and the graph's outputs are needed as values");

    // The printer writes each constant's text, never text made from its value.
    std::string code = graph::printGraph(g);
    check(code.find("gelu = torch._C._nn.gelu(linear, approximate = 'tanh')") != std::string::npos, "printed: a string constant");
    check(code.find("view = torch.Tensor.view(sum, (2, 4))") != std::string::npos, "printed: a constant tuple");
    check(code.find("getitem = operator.getitem(view, (slice(None, None, None), slice(1, 1267650600228229401496703205376, 2)))") != std::string::npos,
          "printed: slices");
    check(code.find("mul_1 = operator.mul(mul, -0.0)") != std::string::npos, "printed: -0.0");
    if (failed) std::printf("%s", code.c_str());

    // Lowering goes by the typed value: a constant known only as text is not a string to it.
    {
        graph::Graph h;
        graph::Node& hx = h.addPlaceholder("L_x_", f32({4}));
        graph::Node& hg = call(h, "torch._C._nn.gelu", {Arg::ref(&hx)}, {{"approximate", Arg::lit("'tanh'")}}, f32({4}));
        h.setOutput({Arg::ref(&hg)});
        lower::Lowered lh = lower::lowerGraph(h);
        const lower::Node* f = producer(lh, hg);
        check(f && f->kind == lower::NodeKind::Fallback && f->note == "a non-constant string argument", "an opaque constant is not read as its text");
    }

    // A tensor inside a dict argument of an eager op is needed as a value.
    {
        graph::Graph h;
        graph::Node& hx = h.addPlaceholder("L_x_", f32({4}));
        graph::Node& hr = call(h, "torch.relu", {Arg::ref(&hx)}, {}, f32({4}));
        Arg dict;
        dict.kind = Arg::Kind::Dict;
        dict.items = {Arg::ref(&hr)};
        graph::Node& he = call(h, "torch.some_op", {Arg::ref(&hx), dict}, {}, f32({4}));
        h.setOutput({Arg::ref(&he)});
        lower::Lowered lh = lower::lowerGraph(h);
        check(lh.info[hr.id].needsValue, "a dict's values are arguments too");
        check(graph::printGraph(h).find("some_op = torch.some_op(L_x_, {...})") != std::string::npos, "a dict prints as {...}");
    }

    checkGenerated();

    std::printf("lower: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

// Graph IR: unique names, op counts, and the Python printer's exact text.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/graph/graph.h"
#include "core/graph/ops.h"

using namespace fl::graph;

static int passed = 0, failed = 0;
static void check(bool ok, const char* what) {
    if (ok) ++passed;
    else { ++failed; std::printf("FAIL %s\n", what); }
}

int main() {
    Graph g;
    TensorMeta x{{Dim::constant(32), Dim::constant(256)}, "float32", "cpu", false};
    TensorMeta w{{Dim::constant(256), Dim::constant(256)}, "float32", "cpu", true};
    Node& in = g.addPlaceholder("L_x_", x);
    Node& wt = g.addPlaceholder("L_self_0_weight", w);
    Node& lin = g.addCall("torch._C._nn.linear", {Arg::ref(&in), Arg::ref(&wt), Arg::lit("None")});
    lin.meta.push_back(x);
    lin.span = {"seed.py", 6, 6, 17};
    lin.modulePath = "0";
    Node& act = g.addCall("torch._C._nn.gelu", {Arg::ref(&lin)}, {{"approximate", Arg::lit("'none'")}});
    act.meta.push_back(x);
    Node& act2 = g.addCall("torch._C._nn.gelu", {Arg::ref(&act)});
    TensorMeta dyn{{Dim::sym("s0"), Dim::constant(10)}, "int64", "cpu", false};
    act2.meta.push_back(dyn);
    g.setOutput({Arg::ref(&act2)});

    check(g.callCount() == 3, "callCount counts calls only");
    check(lin.name == "linear" && act.name == "gelu" && act2.name == "gelu_1", "unique names from targets");
    check(formatMeta(dyn) == "i64[s0, 10]", "symbolic sizes print by name");
    const std::string expected =
        "def forward(self, L_x_: \"f32[32, 256]\", L_self_0_weight: \"f32[256, 256]\"):\n"
        "    linear = torch._C._nn.linear(L_x_, L_self_0_weight, None)  # f32[32, 256] seed.py:6 0\n"
        "    gelu = torch._C._nn.gelu(linear, approximate = 'none')  # f32[32, 256]\n"
        "    gelu_1 = torch._C._nn.gelu(gelu)  # i64[s0, 10]\n"
        "    return (gelu_1,)\n";
    std::string got = printGraph(g);
    check(got == expected, "printGraph text");
    if (got != expected) std::printf("got:\n%s", got.c_str());

    // Names as FX gives them (base, else the first free base_k), also where a base's suffixed
    // names were taken by other bases first: checked against the plain definition.
    {
        Graph h;
        std::vector<std::string> taken, got2, want;
        auto reference = [&](const std::string& base) {
            std::string name = base;
            for (int k = 1; std::find(taken.begin(), taken.end(), name) != taken.end(); ++k) name = base + "_" + std::to_string(k);
            taken.push_back(name);
            return name;
        };
        const char* placeholders[] = {"add_1", "add", "mul_2", "add_3"};
        for (const char* p : placeholders) { got2.push_back(h.addPlaceholder(p, x).name); want.push_back(reference(p)); }
        for (int i = 0; i < 40; ++i) {
            const char* target = i % 3 == 0 ? "operator.add" : i % 3 == 1 ? "torch.mul" : "torch.add_1";
            std::string base = i % 3 == 0 ? "add" : i % 3 == 1 ? "mul" : "add_1";
            got2.push_back(h.addCall(target, {}).name);
            want.push_back(reference(base));
        }
        check(got2 == want, "unique names match FX's first-free-suffix rule with colliding bases");
    }
    // Naming is linear: 20,000 ops of one base look up each candidate name about once (looking
    // through every earlier name per candidate made a 20k-op trace take minutes).
    {
        Graph big;
        Node& p = big.addPlaceholder("L_x_", x);
        const Node* prev = &p;
        const int n = 20000;
        for (int i = 0; i < n; ++i) prev = &big.addCall("operator.add", {Arg::ref(prev), Arg::lit("1")});
        check(prev->name == "add_" + std::to_string(n - 1), "the 20,000th add is add_19999");
        check(big.nameProbes() <= size_t(2 * n + 2), "20,000 names cost at most two lookups each");
        if (big.nameProbes() > size_t(2 * n + 2)) std::printf("name probes: %zu\n", big.nameProbes());
        check(big.callCount() == n, "callCount of the big graph");
    }
    // An item of a tuple result is a reference with an index: printed as name[i], still an edge.
    {
        Graph g;
        Node& xin = g.addPlaceholder("L_x_", x);
        Node& sp = g.addCall("torch.split", {Arg::ref(&xin), Arg::lit("2")});
        Node& m = g.addCall("operator.mul", {Arg::item(&sp, 0), Arg::item(&sp, 1)});
        g.setOutput({Arg::ref(&m)});
        std::string code = printGraph(g);
        check(code.find("mul = operator.mul(split[0], split[1])") != std::string::npos, "items print as split[0], split[1]");
        check(m.args[0].kind == Arg::Kind::NodeRef && m.args[0].node == &sp && m.args[1].index == 1, "items are references to split");
    }
    // Constants carry their Python text, which is what prints, and their value as data.
    {
        Graph g;
        Node& xin = g.addPlaceholder("L_x_", x);
        Arg dict;
        dict.kind = Arg::Kind::Dict;
        dict.items = {Arg::ref(&xin)};
        Node& c = g.addCall("torch.f", {Arg::ref(&xin), Arg::none(), Arg::boolean(false), Arg::integer(-3), Arg::lit("1e-05", Const::real(1e-5)), dict},
                            {{"dtype", Arg::lit("torch.float32", Const::dtype("float32"))}});
        g.setOutput({Arg::ref(&c)});
        check(printGraph(g).find("f = torch.f(L_x_, None, False, -3, 1e-05, {...}, dtype = torch.float32)") != std::string::npos,
              "constants print as their text; a dict as {...}");
        check(c.args[1].isNoneConst() && c.args[2].value.isBool() && !c.args[2].value.truth() && c.args[3].value.isInt() && c.args[3].value.i == -3 &&
                  c.args[4].value.isFloat() && c.args[4].value.f == 1e-5 && c.kwargs[0].second.value.kind == Const::Kind::DType,
              "and carry their values");
        check(Const::bigInt(true).i == INT64_MIN && !Const::bigInt(false).isIntLike() && Arg::lit("<object>").value.kind == Const::Kind::Opaque,
              "an int past 64 bits is not an int64; text alone is opaque");
    }
    // The op table: names, aliases, families and facts.
    {
        using namespace fl::graph;
        check(opOfTarget("torch.nn.functional.gelu") == Op::Gelu && info(Op::Gelu).family == Family::Activation, "F.gelu is gelu, an activation");
        check(opOfTarget("operator.truediv") == Op::Div && baseName("operator.truediv") == "div", "truediv is an alias of div");
        check(opOfTarget("Tensor.clip") == Op::Clamp && opOfTarget("torch.swapaxes") == Op::Transpose, "clip and swapaxes resolve");
        check(!opOfTarget("torch.conv2d") && baseName("torch.conv2d") == "conv2d", "an op outside the table keeps its base name");
        check(info(Op::Exp).costly() && info(Op::ExpNonpos).costly() && !info(Op::Add).costly(), "costly math");
        check(info(Op::ExpNonpos).family == Family::None && info(Op::ExpNonpos).kernel(), "exp_nonpos is a kernel op only");
        check(info(Op::Reshape).copies() && info(Op::Contiguous).copies() && !info(Op::View).copies(), "views that may copy");
        bool named = true, ordered = true;
        for (size_t i = 0; i < kOpCount; ++i) {
            ordered = ordered && info(Op(i)).op == Op(i);
            named = named && opNamed(info(Op(i)).name) == Op(i);
        }
        check(ordered && named, "every op is found by its own name, at its own index");
        check(mutatesInPlace("Tensor.add_", false) && mutatesInPlace("operator.iadd", false) && mutatesInPlace("operator.setitem", false),
              "add_, iadd and setitem write in place");
        check(mutatesInPlace("torch.nn.functional.relu", true) && !mutatesInPlace("torch.nn.functional.relu", false), "inplace=True writes in place");
        check(!mutatesInPlace("Tensor.__add__", false) && !mutatesInPlace("operator.add", false) && !mutatesInPlace("torch.add", false),
              "add and dunders do not");
        check(impure("torch.randn") && impure("torch.nn.functional.dropout") && impure("Tensor.uniform_") && impure("operator.setitem"),
              "random ops and in-place ops are impure");
        check(!impure("torch.exp") && !impure("torch.conv2d"), "exp and conv2d are pure");
        check(!mutatesInPlace("operator.invert", false) && !mutatesInPlace("operator.is_", false) &&
                  !mutatesInPlace("operator.index", false) && mutatesInPlace("operator.ipow", false),
              "operator.invert, is_ and index are not augmented assignments; ipow is");
        // capture's roles come from the table, by full target name
        check(targetFacts("Tensor.item").role == CaptureRole::Break && std::string(targetFacts("Tensor.item").breakKind) == "item",
              "item breaks the graph");
        check(targetFacts("torch.unique").role == CaptureRole::Break && std::string(targetFacts("torch.unique").breakKind) == "nonzero",
              "unique is a data-dependent break");
        check(targetFacts("Tensor.tolist").role == CaptureRole::BreakTolist, "tolist breaks by dtype");
        check(targetFacts("torch.manual_seed").role == CaptureRole::Skipped, "manual_seed is skipped");
        check(targetFacts("Tensor.numel").role == CaptureRole::SizedMetadata && targetFacts("Tensor.dim").role == CaptureRole::Metadata,
              "numel follows the sizes; dim is plain metadata");
        check(targetFacts("Tensor.size").role == CaptureRole::Size, "size has its own role");
        check(targetFacts("torch.exp").role == CaptureRole::Node && !targetFacts("torch.exp").breakKind &&
                  targetFacts("item").role == CaptureRole::Node,
              "other targets are nodes (by full name only)");
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

// Graph IR: unique names, op counts, and the Python printer's exact text.
#include <cstdio>
#include <string>

#include "core/graph/graph.h"

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
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

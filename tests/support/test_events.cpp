// The event log: typed facts in, the same facts out, and the trace file's args drawn from them.
#include <cstdio>
#include <string>
#include <vector>

#include "core/support/events.h"

using namespace fl::events;

static int passed = 0, failed = 0;
static void check(bool ok, const char* what) {
    ok ? ++passed : ++failed;
    if (!ok) std::printf("FAIL %s\n", what);
}

static std::string keys(const Event& e) {
    std::string k;
    for (const Arg& a : e.args()) k += (k.empty() ? "" : ",") + a.key + (a.isNumber ? "#" : "");
    return k;
}

int main() {
    Log log;
    log.setLevel(Level::Kernels);
    log.span("compile 0/0", "compile 0/0", Category::Compile, 10, 5,
             CompileFacts{"0/0", "forward", "m.py", 7, "ok", "miss", "llvm", 3, 1.5, 1.0, ""});
    log.span("kernels", "cpp_fused_relu_0", Category::Kernel, 20, 1, KernelFacts{"0/0", 2, -1, -1});
    log.span("kernels", "mm", Category::Extern, 21, 1, KernelFacts{"0/0", -1, 4, 2});
    BreakFacts brk;
    brk.id = "0/0", brk.kind = "print", brk.reason = "builtin", brk.file = "m.py", brk.line = 9, brk.skippedFrame = true;
    brk.userStack = {"File \"m.py\", line 3, in f\n  g(x)", "File \"m.py\", line 9, in g\n  print(x)"};
    log.instant("compile 0/0", "graph break", Category::Break, 30, brk);
    log.span("runtime", "forward", Category::Call, 40, 9, CallFacts{false, 3, 0, true});
    log.counter("counters", "compile ids", 50, 1);
    std::vector<Event> ev = log.snapshot();
    check(ev.size() == 6, "six events recorded");
    const CompileFacts* c = ev[0].as<CompileFacts>();
    check(c && c->id == "0/0" && c->line == 7 && c->kernels == 3 && !ev[0].as<KernelFacts>(), "a compile event's facts read back as fields");
    check(keys(ev[0]) == "id,function,file,line#,status,cache,jit,kernels#,phase_sum_ms#,compile_ms#,error", "compile args in order");
    check(keys(ev[1]) == "graph,kernel#" && ev[1].as<KernelFacts>()->kernel == 2, "a kernel launch names its graph and kernel");
    check(keys(ev[2]) == "graph,node#,epilogue#" && ev[2].as<KernelFacts>()->epilogue == 2, "a library call names its node and epilogue");
    const BreakFacts* b = ev[3].as<BreakFacts>();
    check(b && b->skippedFrame && ev[3].kind == Kind::Instant && ev[3].args().back().text == "yes", "a break's skipped frame");
    std::string stackArg;
    for (auto& a : ev[3].args())
        if (a.key == "user_stack") stackArg = a.text;
    check(stackArg == "File \"m.py\", line 3, in f\n  g(x)\nFile \"m.py\", line 9, in g\n  print(x)\n", "the trace file shows the user stack a frame per line");
    check(ev[4].args()[0].text == "cached" && ev[4].as<CallFacts>()->recordedIndex == 3, "a cached call");
    check(ev[5].kind == Kind::Counter && ev[5].category == Category::Counter && ev[5].value == 1, "a counter");
    check(std::string(categoryName(Category::Fallback)) == "fallback" && std::string(categoryName(Category::Recompile)) == "recompile",
          "category names as the trace file writes them");
    log.setLevel(Level::Off);
    log.span("runtime", "x", Category::Guard, 60, 1, GuardFacts{"none", 0});
    check(log.size() == 6, "nothing is recorded at level Off");
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

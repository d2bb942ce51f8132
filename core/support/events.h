// The run's event log: timestamped, structured facts that every stage reports (compile phases,
// graph breaks, recompiles, cached calls, kernel timings). One Log per run, owned by the run's
// capture::Session; the profiler (profiler/), the window and the command line read it after the
// run. No Qt, no LibTorch.
//
// Cost: the log has a level. At Off nothing is recorded and a hot path pays one load and branch.
// Compile-level facts (a handful per compile) are recorded from Compile up; one span per cached
// call (guards, graph, total) from Calls up; a span per kernel launch only at Kernels.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

namespace fl::events {

using Ns = int64_t; // steady-clock nanoseconds (absolute: the log, the runner and the JIT share the clock)

inline Ns now() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
inline double msBetween(Ns a, Ns b) { return double(b - a) * 1e-6; }

enum class Level : uint8_t { Off = 0, Compile = 1, Calls = 2, Kernels = 3 };

// A key and its value, as the trace file shows an event's facts.
struct Arg {
    std::string key;
    std::string text;   // when !isNumber
    double number = 0;
    bool isNumber = false;
    static Arg str(std::string k, std::string v) { return Arg{std::move(k), std::move(v), 0, false}; }
    static Arg num(std::string k, double v) { return Arg{std::move(k), {}, v, true}; }
};

enum class Kind : uint8_t { Span, Instant, Counter };

enum class Category : uint8_t { Phase, Compile, Call, Guard, Graph, Kernel, Extern, Fallback, Break, Recompile, Counter };
const char* categoryName(Category c); // "phase", "compile", ... as the trace file names them

// What each kind of event carries. Readers take the struct (Event::as); the trace file shows it as
// args (Event::args), in the order the fields are declared.
enum class ScriptStep : uint8_t { None, Parse, StartUp, Run };
struct PhaseFacts {        // a compile id's phase (id), or one of the script's own steps
    std::string id;
    std::string file;
    ScriptStep step = ScriptStep::None;
};
struct CompileFacts {      // a compile id, from its first frame entry to its first run's end
    std::string id, function, file;
    int line = 0;
    std::string status, cache, jit;
    int kernels = 0;
    double phaseSumMs = 0, compileMs = 0;
    std::string error;
};
struct CallFacts {         // one call of a compiled function
    bool compiling = false; // it made new cache entries (else: it ran cached ones)
    int recordedIndex = -1;
    int newEntries = 0;
    bool gradMode = false;
};
struct GuardFacts {        // the guard checks of one call
    std::string hit;       // the entry whose guards passed, or "none"
    int entries = 0;
};
struct GraphFacts {        // one run of a compiled graph
    std::string id;
    bool reference = false; // run by the reference backend (else: compiled)
};
struct KernelFacts {       // one kernel launch, library call or fallback op of a compiled graph
    std::string graph;     // its compile id
    int kernel = -1;       // Kernel: the kernel's index
    int node = -1;         // Extern / Fallback: the loop-IR node
    int epilogue = -1;     // Extern: the kernel run as its epilogue, or -1
};
// A graph break, with Dynamo's reason: the one record of it. Capture writes it once (its report
// and this log hold the same struct); explain's text and JSON, TORCH_LOGS=graph_breaks, the trace
// file and the window are views of it.
struct BreakFacts {
    std::string id;          // compile id of the frame that broke
    std::string kind;        // the break kind's stable id ("print", "item", ...)
    std::string gb;          // Dynamo's registry id ("gb0059")
    std::string reason, explanation;
    std::vector<std::string> hints;
    std::string context;     // what was being traced: "CALL: a function call, e.g. f(x, y)"
    std::string file;
    int line = 0;
    std::vector<std::string> userStack; // "File \"m.py\", line 6, in f\n  print(x)", outermost first
    bool skippedFrame = false; // inside a loop / with / try: the whole frame runs eagerly
};
struct RecompileFacts {    // a recompile, or the recompile limit hit
    std::string id, function, file;
    int line = 0;
    std::string reason;
};
using Facts = std::variant<std::monostate, PhaseFacts, CompileFacts, CallFacts, GuardFacts, GraphFacts, KernelFacts, BreakFacts, RecompileFacts>;

struct Event {
    Kind kind = Kind::Span;
    std::string track;     // "script", "compile 0/0", "runtime", "kernels"
    std::string name;      // "trace", "lower", "cpp_fused_gelu_0", "graph break"
    Category category = Category::Phase;
    Ns begin = 0;          // Span: start; Instant/Counter: time
    Ns dur = 0;            // Span only
    double value = 0;      // Counter only
    Facts facts;
    template <class T> const T* as() const { return std::get_if<T>(&facts); }
    std::vector<Arg> args() const; // the facts as the trace file shows them
};

class Log {
public:
    Level level() const { return level_; }
    void setLevel(Level l) { level_ = l; }
    bool at(Level l) const { return level_ >= l; }

    void span(std::string track, std::string name, Category category, Ns begin, Ns dur, Facts facts = {});
    void instant(std::string track, std::string name, Category category, Ns at, Facts facts);
    void counter(std::string track, std::string name, Ns at, double value);

    std::vector<Event> snapshot() const;   // a copy, in recording order
    size_t size() const;
    size_t dropped() const;                // events refused past `limit`
    void clear();
    void setLimit(size_t n);               // default 500,000 events
    int compileIds = 0;                    // compile ids reported so far (the "compile ids" counter)

private:
    void push(Event&& e);
    mutable std::mutex mu_;
    std::vector<Event> events_;
    size_t limit_ = 500000, dropped_ = 0;
    Level level_ = Level::Compile;
};

} // namespace fl::events

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
#include <vector>

namespace fl::events {

using Ns = int64_t; // steady-clock nanoseconds (absolute: the log, the runner and the JIT share the clock)

inline Ns now() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
inline double msBetween(Ns a, Ns b) { return double(b - a) * 1e-6; }

enum class Level : uint8_t { Off = 0, Compile = 1, Calls = 2, Kernels = 3 };

struct Arg {
    std::string key;
    std::string text;   // when !isNumber
    double number = 0;
    bool isNumber = false;
    static Arg str(std::string k, std::string v) { return Arg{std::move(k), std::move(v), 0, false}; }
    static Arg num(std::string k, double v) { return Arg{std::move(k), {}, v, true}; }
};

enum class Kind : uint8_t { Span, Instant, Counter };

struct Event {
    Kind kind = Kind::Span;
    std::string track;     // "script", "compile 0/0", "runtime", "kernels"
    std::string name;      // "trace", "lower", "cpp_fused_gelu_0", "graph break"
    std::string category;  // "phase", "compile", "call", "guard", "graph", "kernel", "extern", "fallback", "break", "recompile"
    Ns begin = 0;          // Span: start; Instant/Counter: time
    Ns dur = 0;            // Span only
    double value = 0;      // Counter only
    std::vector<Arg> args;
    const std::string* arg(const std::string& key) const;   // text arg, or null
    double number(const std::string& key, double fallback = 0) const;
};

class Log {
public:
    Level level() const { return level_; }
    void setLevel(Level l) { level_ = l; }
    bool at(Level l) const { return level_ >= l; }

    void span(std::string track, std::string name, std::string category, Ns begin, Ns dur, std::vector<Arg> args = {});
    void instant(std::string track, std::string name, std::string category, Ns at, std::vector<Arg> args = {});
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

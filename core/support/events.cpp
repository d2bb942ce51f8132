#include "core/support/events.h"

namespace fl::events {

const char* categoryName(Category c) {
    static constexpr const char* names[] = {"phase", "compile", "call", "guard", "graph", "kernel", "extern", "fallback", "break", "recompile", "counter"};
    return names[size_t(c)];
}

namespace {

// The trace file shows a user stack as one string, a frame per line.
std::string joinedStack(const std::vector<std::string>& frames) {
    std::string s;
    for (auto& f : frames) s += f + "\n";
    return s;
}

struct ArgsOf {
    std::vector<Arg>& out;
    void str(const char* k, const std::string& v) { out.push_back(Arg::str(k, v)); }
    void num(const char* k, double v) { out.push_back(Arg::num(k, v)); }
    void operator()(const std::monostate&) {}
    void operator()(const PhaseFacts& f) {
        if (!f.id.empty()) str("id", f.id);
        if (!f.file.empty()) str("file", f.file);
    }
    void operator()(const CompileFacts& f) {
        str("id", f.id), str("function", f.function), str("file", f.file), num("line", f.line), str("status", f.status);
        str("cache", f.cache), str("jit", f.jit), num("kernels", f.kernels), num("phase_sum_ms", f.phaseSumMs);
        num("compile_ms", f.compileMs), str("error", f.error);
    }
    void operator()(const CallFacts& f) {
        str("kind", f.compiling ? "compiling" : "cached"), num("recorded_index", f.recordedIndex), num("new_entries", f.newEntries);
        num("grad_mode", f.gradMode ? 1 : 0);
    }
    void operator()(const GuardFacts& f) { str("hit", f.hit), num("entries", f.entries); }
    void operator()(const GraphFacts& f) { str("id", f.id), str("path", f.reference ? "reference" : "compiled"); }
    void operator()(const KernelFacts& f) {
        str("graph", f.graph);
        if (f.kernel >= 0) num("kernel", f.kernel);
        else num("node", f.node), num("epilogue", f.epilogue);
    }
    void operator()(const BreakFacts& f) {
        str("id", f.id), str("kind", f.kind), str("reason", f.reason), str("explanation", f.explanation), str("context", f.context);
        str("file", f.file), num("line", f.line), str("user_stack", joinedStack(f.userStack)), str("skipped_frame", f.skippedFrame ? "yes" : "no");
    }
    void operator()(const RecompileFacts& f) { str("id", f.id), str("function", f.function), str("file", f.file), num("line", f.line), str("reason", f.reason); }
};

} // namespace

std::vector<Arg> Event::args() const {
    std::vector<Arg> out;
    std::visit(ArgsOf{out}, facts);
    return out;
}

void Log::push(Event&& e) {
    std::lock_guard<std::mutex> lk(mu_);
    if (events_.size() >= limit_) {
        ++dropped_;
        return;
    }
    events_.push_back(std::move(e));
}

void Log::span(std::string track, std::string name, Category category, Ns begin, Ns dur, Facts facts) {
    if (level_ == Level::Off) return;
    Event e;
    e.kind = Kind::Span;
    e.track = std::move(track);
    e.name = std::move(name);
    e.category = category;
    e.begin = begin;
    e.dur = dur < 0 ? 0 : dur;
    e.facts = std::move(facts);
    push(std::move(e));
}

void Log::instant(std::string track, std::string name, Category category, Ns at, Facts facts) {
    if (level_ == Level::Off) return;
    Event e;
    e.kind = Kind::Instant;
    e.track = std::move(track);
    e.name = std::move(name);
    e.category = category;
    e.begin = at;
    e.facts = std::move(facts);
    push(std::move(e));
}

void Log::counter(std::string track, std::string name, Ns at, double value) {
    if (level_ == Level::Off) return;
    Event e;
    e.kind = Kind::Counter;
    e.track = std::move(track);
    e.name = std::move(name);
    e.category = Category::Counter;
    e.begin = at;
    e.value = value;
    push(std::move(e));
}

std::vector<Event> Log::snapshot() const {
    std::lock_guard<std::mutex> lk(mu_);
    return events_;
}

size_t Log::size() const {
    std::lock_guard<std::mutex> lk(mu_);
    return events_.size();
}

size_t Log::dropped() const {
    std::lock_guard<std::mutex> lk(mu_);
    return dropped_;
}

void Log::clear() {
    std::lock_guard<std::mutex> lk(mu_);
    events_.clear();
    dropped_ = 0;
}

void Log::setLimit(size_t n) {
    std::lock_guard<std::mutex> lk(mu_);
    limit_ = n;
}

} // namespace fl::events

#include "profiler/phase_timer.h"

#include <cstdio>

namespace fl::profiler {

void PhaseTimer::begin(const std::string& name) {
    end();
    phases_.push_back({name, 0});
    start_ = std::chrono::steady_clock::now();
    open_ = true;
}

void PhaseTimer::end() {
    if (!open_) return;
    phases_.back().ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
    open_ = false;
}

double PhaseTimer::totalMs() const {
    double t = 0;
    for (auto& p : phases_) t += p.ms;
    return t;
}

std::string PhaseTimer::summary() const {
    std::string out;
    for (auto& p : phases_) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s%s %.1f ms", out.empty() ? "" : ", ", p.name.c_str(), p.ms);
        out += buf;
    }
    return out;
}

} // namespace fl::profiler

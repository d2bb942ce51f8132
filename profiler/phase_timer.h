// Named wall-clock phases (parse, run, ...). The seed of profiler/: later phases come from the
// compiler's event log; the shape of the report stays the same.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace fl::profiler {

struct Phase {
    std::string name;
    double ms = 0;
};

class PhaseTimer {
public:
    void begin(const std::string& name);
    void end(); // ends the open phase, if any
    const std::vector<Phase>& phases() const { return phases_; }
    double totalMs() const;
    std::string summary() const; // "parse 1.2 ms, run 40.1 ms"

private:
    std::vector<Phase> phases_;
    std::chrono::steady_clock::time_point start_;
    bool open_ = false;
};

} // namespace fl::profiler

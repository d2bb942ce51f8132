// Per-kernel GPU timing through CUPTI's activity API (kernel and memcpy records), in the same
// report shape as the CPU kernel timers (KernelTime). Built with CUPTI only where CMake finds the
// CUDA toolkit and CUPTI; elsewhere `built()` is false and `Collector::start` says why.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profiler/profile.h"

namespace fl::profiler::cupti {

struct Record {
    std::string kind;        // "kernel" | "memcpy"
    std::string name;        // kernel name, or "memcpy HtoD" / "memcpy DtoH" / ...
    uint64_t startNs = 0, endNs = 0; // GPU timestamps
    uint32_t deviceId = 0, streamId = 0;
    uint64_t bytes = 0;      // memcpy only
    double ms() const { return double(endNs - startNs) * 1e-6; }
};

bool built();                // compiled against CUPTI

// Process-wide: one collector active at a time. start() enables CONCURRENT_KERNEL and MEMCPY
// activity records; stop() flushes them, disables the kinds and returns what arrived.
class Collector {
public:
    bool start(std::string* error);
    std::vector<Record> stop(std::string* error);
};

// Per-name totals over `calls` calls, shares of `callMs` (pass 0 to leave shares at 0).
std::vector<KernelTime> summarize(const std::vector<Record>& records, int calls, double callMs);

} // namespace fl::profiler::cupti

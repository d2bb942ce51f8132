// The CUPTI records in the profiler's kernel-table shape; built everywhere (no CUDA here).
#include "profiler/cupti.h"

#include <algorithm>
#include <map>

namespace fl::profiler::cupti {

std::vector<KernelTime> summarize(const std::vector<Record>& records, int calls, double callMs) {
    std::map<std::pair<std::string, std::string>, KernelTime> by;
    std::vector<std::pair<std::string, std::string>> order;
    for (auto& r : records) {
        auto key = std::make_pair(r.kind, r.name);
        auto it = by.find(key);
        if (it == by.end()) {
            KernelTime k;
            k.name = r.name;
            k.kind = r.kind;
            it = by.emplace(key, k).first;
            order.push_back(key);
        }
        it->second.count += 1;
        it->second.totalMs += r.ms();
    }
    std::vector<KernelTime> out;
    const double n = std::max(1, calls);
    for (auto& key : order) {
        KernelTime k = by[key];
        k.meanMs = k.count ? k.totalMs / k.count : 0;
        k.count = int((k.count + n - 1) / n);
        k.totalMs /= n;
        k.share = callMs > 0 ? k.totalMs / callMs : 0;
        out.push_back(k);
    }
    std::stable_sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.totalMs > b.totalMs; });
    return out;
}

} // namespace fl::profiler::cupti

// Built where CUDA or CUPTI is absent: the collector says so.
#include "profiler/cupti.h"

namespace fl::profiler::cupti {

bool built() { return false; }

bool Collector::start(std::string* error) {
    if (error) *error = "fuselab was built without CUPTI (no CUDA toolkit with CUPTI found by CMake)";
    return false;
}

std::vector<Record> Collector::stop(std::string* error) {
    if (error) *error = "fuselab was built without CUPTI";
    return {};
}

} // namespace fl::profiler::cupti

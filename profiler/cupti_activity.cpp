// CUPTI's activity API: kernel and memcpy records, delivered in buffers CUPTI asks us for and
// hands back when full or flushed. Built only where CMake found CUDA and CUPTI.
#include "profiler/cupti.h"

#include <cupti.h>

#include <cstdlib>
#include <mutex>

namespace fl::profiler::cupti {

namespace {

#if CUPTI_API_VERSION >= 130000
using KernelRecord = CUpti_ActivityKernel10;
using MemcpyRecord = CUpti_ActivityMemcpy6;
#else
using KernelRecord = CUpti_ActivityKernel9;
using MemcpyRecord = CUpti_ActivityMemcpy5;
#endif

constexpr size_t kBufferBytes = size_t(4) << 20;

struct State {
    std::mutex mu;
    std::vector<Record> records;
    bool active = false;
};
State& state() {
    static auto* s = new State;
    return *s;
}

const char* copyKindName(uint8_t k) {
    switch (k) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "memcpy HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "memcpy DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "memcpy DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return "memcpy HtoH";
    default: return "memcpy";
    }
}

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
    *size = *buffer ? kBufferBytes : 0;
    *maxNumRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t validSize) {
    CUpti_Activity* rec = nullptr;
    std::vector<Record> got;
    while (cuptiActivityGetNextRecord(buffer, validSize, &rec) == CUPTI_SUCCESS) {
        if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || rec->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
            auto* k = reinterpret_cast<const KernelRecord*>(rec);
            Record r;
            r.kind = "kernel";
            r.name = k->name ? k->name : "?";
            r.startNs = k->start;
            r.endNs = k->end;
            r.deviceId = k->deviceId;
            r.streamId = k->streamId;
            got.push_back(r);
        } else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            auto* m = reinterpret_cast<const MemcpyRecord*>(rec);
            Record r;
            r.kind = "memcpy";
            r.name = copyKindName(m->copyKind);
            r.startNs = m->start;
            r.endNs = m->end;
            r.deviceId = m->deviceId;
            r.streamId = m->streamId;
            r.bytes = m->bytes;
            got.push_back(r);
        }
    }
    std::free(buffer);
    std::lock_guard<std::mutex> lk(state().mu);
    for (auto& r : got) state().records.push_back(std::move(r));
}

std::string resultText(CUptiResult r) {
    const char* s = nullptr;
    cuptiGetResultString(r, &s);
    return s ? s : "CUPTI error " + std::to_string(int(r));
}

} // namespace

bool built() { return true; }

bool Collector::start(std::string* error) {
    auto fail = [&](const char* what, CUptiResult r) {
        if (error) *error = std::string(what) + ": " + resultText(r);
        return false;
    };
    {
        std::lock_guard<std::mutex> lk(state().mu);
        if (state().active) {
            if (error) *error = "a CUPTI collector is already active";
            return false;
        }
        state().records.clear();
    }
    if (CUptiResult r = cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted); r != CUPTI_SUCCESS)
        return fail("cuptiActivityRegisterCallbacks", r);
    if (CUptiResult r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); r != CUPTI_SUCCESS)
        return fail("cuptiActivityEnable(CONCURRENT_KERNEL)", r);
    if (CUptiResult r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY); r != CUPTI_SUCCESS) {
        cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        return fail("cuptiActivityEnable(MEMCPY)", r);
    }
    std::lock_guard<std::mutex> lk(state().mu);
    state().active = true;
    return true;
}

std::vector<Record> Collector::stop(std::string* error) {
    CUptiResult r = cuptiActivityFlushAll(1); // CUPTI_ACTIVITY_FLAG_FLUSH_FORCED
    if (r != CUPTI_SUCCESS && error) *error = "cuptiActivityFlushAll: " + resultText(r);
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
    std::lock_guard<std::mutex> lk(state().mu);
    state().active = false;
    std::vector<Record> out;
    out.swap(state().records);
    return out;
}

} // namespace fl::profiler::cupti

// CUPTI activity records from a real kernel launch and memcpy. Compiles a small kernel with NVRTC,
// runs it through the CUDA driver API (loaded with dlopen, so the test starts where no driver is
// installed) and checks that CUPTI delivered kernel and memcpy records with names and durations.
// Without a CUDA device it prints "SKIP: no CUDA device: ..." and exits 77 (SKIP_RETURN_CODE).
#include <cuda.h>
#include <dlfcn.h>
#include <nvrtc.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "profiler/cupti.h"

namespace {

int failures = 0;
void check(bool ok, const std::string& what) {
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
    if (!ok) ++failures;
}

[[noreturn]] void skip(const std::string& why) {
    std::printf("SKIP: no CUDA device: %s\n", why.c_str());
    std::exit(77);
}

struct Driver {
    void* h = nullptr;
    CUresult (*init)(unsigned) = nullptr;
    CUresult (*deviceGetCount)(int*) = nullptr;
    CUresult (*deviceGet)(CUdevice*, int) = nullptr;
    CUresult (*deviceGetName)(char*, int, CUdevice) = nullptr;
    CUresult (*deviceGetAttribute)(int*, CUdevice_attribute, CUdevice) = nullptr;
    CUresult (*primaryCtxRetain)(CUcontext*, CUdevice) = nullptr;
    CUresult (*ctxSetCurrent)(CUcontext) = nullptr;
    CUresult (*moduleLoadData)(CUmodule*, const void*) = nullptr;
    CUresult (*moduleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
    CUresult (*memAlloc)(CUdeviceptr*, size_t) = nullptr;
    CUresult (*memFree)(CUdeviceptr) = nullptr;
    CUresult (*memcpyHtoD)(CUdeviceptr, const void*, size_t) = nullptr;
    CUresult (*memcpyDtoH)(void*, CUdeviceptr, size_t) = nullptr;
    CUresult (*launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void**, void**) = nullptr;
    CUresult (*ctxSynchronize)() = nullptr;
    CUresult (*getErrorString)(CUresult, const char**) = nullptr;

    template <class F>
    bool get(F& f, const char* name) {
        f = reinterpret_cast<F>(dlsym(h, name));
        return f != nullptr;
    }
    std::string error(CUresult r) {
        const char* s = nullptr;
        if (getErrorString) getErrorString(r, &s);
        return s ? s : "CUDA error " + std::to_string(int(r));
    }
};

const char* kSource = R"(
extern "C" __global__ void fuselab_scale_add(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + 1.0f;
}
)";

} // namespace

int main() {
    std::printf("CUPTI built: %s\n", fl::profiler::cupti::built() ? "yes" : "no");
    Driver d;
    d.h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!d.h) skip(std::string("libcuda.so.1 cannot be loaded (no NVIDIA driver): ") + dlerror());
    bool ok = d.get(d.init, "cuInit") && d.get(d.deviceGetCount, "cuDeviceGetCount") && d.get(d.deviceGet, "cuDeviceGet") &&
              d.get(d.deviceGetName, "cuDeviceGetName") && d.get(d.deviceGetAttribute, "cuDeviceGetAttribute") &&
              d.get(d.primaryCtxRetain, "cuDevicePrimaryCtxRetain") && d.get(d.ctxSetCurrent, "cuCtxSetCurrent") &&
              d.get(d.moduleLoadData, "cuModuleLoadData") && d.get(d.moduleGetFunction, "cuModuleGetFunction") && d.get(d.memAlloc, "cuMemAlloc_v2") &&
              d.get(d.memFree, "cuMemFree_v2") && d.get(d.memcpyHtoD, "cuMemcpyHtoD_v2") && d.get(d.memcpyDtoH, "cuMemcpyDtoH_v2") &&
              d.get(d.launch, "cuLaunchKernel") && d.get(d.ctxSynchronize, "cuCtxSynchronize") && d.get(d.getErrorString, "cuGetErrorString");
    if (!ok) skip("libcuda.so.1 lacks a driver API entry point");
    if (CUresult r = d.init(0); r != CUDA_SUCCESS) skip("cuInit failed: " + d.error(r));
    int count = 0;
    if (CUresult r = d.deviceGetCount(&count); r != CUDA_SUCCESS) skip("cuDeviceGetCount failed: " + d.error(r));
    if (count == 0) skip("cuDeviceGetCount returned 0 devices");

    CUdevice dev;
    d.deviceGet(&dev, 0);
    char name[256] = {0};
    d.deviceGetName(name, sizeof name, dev);
    int major = 0, minor = 0;
    d.deviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    d.deviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    std::printf("device 0: %s (sm_%d%d), %d device(s)\n", name, major, minor, count);

    if (!fl::profiler::cupti::built()) {
        std::printf("FAIL: a CUDA device is present but fuselab was built without CUPTI\n");
        return 1;
    }

    // NVRTC: the kernel as a cubin for this device
    nvrtcProgram prog;
    check(nvrtcCreateProgram(&prog, kSource, "scale_add.cu", 0, nullptr, nullptr) == NVRTC_SUCCESS, "nvrtcCreateProgram");
    std::string arch = "--gpu-architecture=sm_" + std::to_string(major) + std::to_string(minor);
    const char* opts[] = {arch.c_str()};
    nvrtcResult cr = nvrtcCompileProgram(prog, 1, opts);
    if (cr != NVRTC_SUCCESS) {
        size_t n = 0;
        nvrtcGetProgramLogSize(prog, &n);
        std::string log(n, '\0');
        nvrtcGetProgramLog(prog, log.data());
        std::printf("FAIL nvrtc: %s\n%s\n", nvrtcGetErrorString(cr), log.c_str());
        return 1;
    }
    size_t cubinSize = 0;
    nvrtcGetCUBINSize(prog, &cubinSize);
    std::vector<char> cubin(cubinSize);
    nvrtcGetCUBIN(prog, cubin.data());
    nvrtcDestroyProgram(&prog);
    check(cubinSize > 0, "NVRTC produced a cubin (" + std::to_string(cubinSize) + " bytes)");

    CUcontext ctx;
    if (CUresult r = d.primaryCtxRetain(&ctx, dev); r != CUDA_SUCCESS) { std::printf("FAIL cuDevicePrimaryCtxRetain: %s\n", d.error(r).c_str()); return 1; }
    d.ctxSetCurrent(ctx);

    fl::profiler::cupti::Collector collector;
    std::string err;
    bool started = collector.start(&err);
    check(started, "CUPTI activity collection started" + (err.empty() ? "" : ": " + err));
    if (!started) return 1;

    CUmodule mod;
    CUfunction fn;
    CUresult r = d.moduleLoadData(&mod, cubin.data());
    check(r == CUDA_SUCCESS, "cuModuleLoadData: " + d.error(r));
    r = d.moduleGetFunction(&fn, mod, "fuselab_scale_add");
    check(r == CUDA_SUCCESS, "cuModuleGetFunction: " + d.error(r));
    const int n = 1 << 20;
    std::vector<float> hx(n), hy(n, 0.f);
    for (int i = 0; i < n; ++i) hx[i] = float(i % 1000) * 0.5f;
    CUdeviceptr dx, dy;
    d.memAlloc(&dx, n * sizeof(float));
    d.memAlloc(&dy, n * sizeof(float));
    r = d.memcpyHtoD(dx, hx.data(), n * sizeof(float));
    check(r == CUDA_SUCCESS, "cuMemcpyHtoD (4 MiB)");
    float a = 3.0f;
    int nn = n;
    void* args[] = {&dx, &dy, &a, &nn};
    for (int rep = 0; rep < 3; ++rep) {
        r = d.launch(fn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr);
        check(r == CUDA_SUCCESS, "cuLaunchKernel #" + std::to_string(rep + 1) + ": " + d.error(r));
    }
    r = d.memcpyDtoH(hy.data(), dy, n * sizeof(float));
    check(r == CUDA_SUCCESS, "cuMemcpyDtoH (4 MiB)");
    d.ctxSynchronize();
    check(hy[10] == 3.0f * hx[10] + 1.0f && hy[n - 1] == 3.0f * hx[n - 1] + 1.0f, "the kernel computed y = 3x + 1");

    std::vector<fl::profiler::cupti::Record> recs = collector.stop(&err);
    if (!err.empty()) std::printf("note: %s\n", err.c_str());
    int kernels = 0, memcpys = 0;
    bool named = false, positive = true;
    for (auto& rec : recs) {
        std::printf("  record: %-7s %-24s %10.4f ms  device %u stream %u  bytes %llu\n", rec.kind.c_str(), rec.name.c_str(), rec.ms(), rec.deviceId,
                    rec.streamId, (unsigned long long)rec.bytes);
        if (rec.kind == "kernel") {
            ++kernels;
            named |= rec.name.find("fuselab_scale_add") != std::string::npos;
        }
        if (rec.kind == "memcpy") ++memcpys;
        if (rec.endNs <= rec.startNs) positive = false;
    }
    check(kernels == 3, "3 kernel records (got " + std::to_string(kernels) + ")");
    check(named, "kernel records carry the kernel's name");
    check(memcpys >= 2, "memcpy records for HtoD and DtoH (got " + std::to_string(memcpys) + ")");
    check(positive && !recs.empty(), "every record has a duration > 0");

    auto table = fl::profiler::cupti::summarize(recs, 1, 0);
    std::printf("  %-28s %-7s %5s %10s %10s\n", "kernel", "kind", "count", "total ms", "mean ms");
    for (auto& k : table) std::printf("  %-28s %-7s %5d %10.4f %10.4f\n", k.name.c_str(), k.kind.c_str(), k.count, k.totalMs, k.meanMs);
    bool rowKernel = false;
    for (auto& k : table)
        if (k.kind == "kernel" && k.count == 3 && k.totalMs > 0 && k.meanMs > 0) rowKernel = true;
    check(rowKernel, "summarize: one kernel row with 3 launches and times > 0");
    d.memFree(dx);
    d.memFree(dy);
    std::printf("%s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}

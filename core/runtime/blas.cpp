#include "core/runtime/blas.h"

#include <dlfcn.h>

#include <cstdlib>

namespace fl::runtime {

namespace {

template <class F>
F openblasSymbol(const char* name) {
    return reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
}

// The OpenBLAS kernels this CPU runs that are better than Prescott's: SkylakeX's need these
// AVX-512 subsets, Haswell's AVX2 and FMA. "" for none (or not x86).
const char* betterKernels() {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
        return "SkylakeX";
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "Haswell";
#endif
    return "";
}

std::string& choiceNote() {
    static std::string note;
    return note;
}

} // namespace

std::string blasCore() {
    if (auto name = openblasSymbol<char* (*)()>("openblas_get_corename")) {
        const char* core = name();
        return core && *core ? core : "OpenBLAS";
    }
    return openblasSymbol<void*>("openblas_get_config") ? "OpenBLAS" : "";
}

void preferNativeBlasKernels() {
    const char* set = std::getenv("OPENBLAS_CORETYPE");
    const char* better = betterKernels();
    if ((set && *set) || !*better || blasCore() != "Prescott") return;
    // OpenBLAS's own entry points of its CPU dispatch (builds with DYNAMIC_ARCH, as Debian's):
    // quit forgets the chosen kernels, init chooses again and reads OPENBLAS_CORETYPE.
    auto quit = openblasSymbol<void (*)()>("gotoblas_dynamic_quit");
    auto init = openblasSymbol<void (*)()>("gotoblas_dynamic_init");
    if (!quit || !init) return;
    setenv("OPENBLAS_CORETYPE", better, 1);
    quit();
    init();
    unsetenv("OPENBLAS_CORETYPE"); // the choice is made; other programs choose for themselves
    choiceNote() = "OpenBLAS chose its Prescott kernels on this CPU; fuselab had it choose " + blasCore();
}

const std::string& blasChoiceNote() { return choiceNote(); }

} // namespace fl::runtime

// The plain C ABI between fuselab_jit (jit.cpp) and the LLVM plugin (llvm_plugin.cpp,
// libfuselab_llvmjit.so). Only C types cross it: the plugin catches every C++ exception and
// reports failures as text. Strings and buffers the plugin returns are released with
// FlLlvmJitApi::release.
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FL_LLVMJIT_ABI_VERSION 2
#define FL_LLVMJIT_ENTRY "fuselab_llvmjit_api" // the one exported symbol

// What one compile produced. On failure module is null and error holds the diagnostics.
typedef struct FlLlvmJitResult {
    void* module;        // opaque: the code living in the plugin's LLJIT; releaseModule frees it
    char* error;         // NUL-terminated; null on success
    char* ir;            // textual LLVM IR of the optimized module
    char* object;        // the relocatable ELF object that LLJIT links (PIC, for the disk cache)
    size_t objectSize;
    double frontendMs;   // C++ -> LLVM IR: parsing, semantic analysis, IR generation
    double codegenMs;    // optimized IR -> relocatable object
    double optimizeMs;   // the optimisation pipeline, and printing the optimized IR
    double loadMs;       // linking the object into LLJIT and looking the symbols up
} FlLlvmJitResult;

typedef struct FlLlvmJitApi {
    int abiVersion;                // FL_LLVMJIT_ABI_VERSION
    const char* clangVersion;      // e.g. "15.0.6": part of the cache identity
    // Compiles one translation unit. driverArgs are clang driver flags (-std, -O, -march, ...);
    // optLevel (0..3) picks the code generator's level. Every symbol must resolve.
    void (*compile)(const char* source, size_t sourceSize, const char* const* driverArgs,
                    size_t driverArgCount, int optLevel, const char* const* symbols,
                    size_t symbolCount, FlLlvmJitResult* out);
    void* (*lookup)(void* module, const char* symbol); // null when absent
    void (*releaseModule)(void* module);
    // Textual IR -> host assembly. Returns null and sets *error on failure.
    char* (*assembly)(const char* ir, size_t irSize, int optLevel, char** error);
    void (*release)(void* memory); // frees any string/buffer above
} FlLlvmJitApi;

typedef const FlLlvmJitApi* (*FlLlvmJitEntry)(void);

#ifdef __cplusplus
}
#endif

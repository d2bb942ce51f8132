// JIT: turns one self-contained C++ translation unit (generated kernels, no headers) into
// callable code. Two backends behind one interface:
//   - "llvm": in-process Clang + LLVM ORC LLJIT, loaded on first use from a plugin
//     (libfuselab_llvmjit.so) so that processes which never compile do not pay for loading LLVM;
//   - "cc": the system C++ compiler (`c++ -shared`), for machines without LLVM's development files.
// Both take the same source. Results are cached in memory and on disk (shared objects under
// $FUSELAB_CACHE_DIR, else $XDG_CACHE_HOME/fuselab, else ~/.cache/fuselab); a disk hit is a
// dlopen, with no compiler and no LLVM loaded. No Qt, no LibTorch here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fl::jit {

// Compiled code for one translation unit. Symbols are extern "C" functions of the source.
class KernelLib {
public:
    virtual ~KernelLib() = default;
    virtual void* lookup(const std::string& symbol) const = 0; // nullptr when absent
    std::string backend;   // "llvm", "cc" or "disk" (loaded from the disk cache)
    std::string llvmIR;    // textual LLVM IR of the module when the llvm backend compiled it
    std::string objectPath; // the cached shared object, when one was written or read
};

struct CompileRequest {
    std::string source;    // the whole translation unit
    std::string key;       // caller's hash of what the source was generated from (graph, inputs)
    std::vector<std::string> symbols; // must all resolve, else the compile fails
};

struct CompileOutcome {
    std::shared_ptr<KernelLib> lib; // null on failure
    std::string error;               // compiler diagnostics on failure
    enum class Cache { Miss, Memory, Disk } cache = Cache::Miss;
    double frontendMs = 0;  // C++ -> LLVM IR before optimisation (llvm) or the whole compiler run (cc)
    double optimizeMs = 0;  // llvm: the optimisation pipeline (and printing the IR)
    double codegenMs = 0;   // IR -> machine code (llvm: the object file)
    double loadMs = 0;      // making the code callable: LLJIT linking + symbol lookup (llvm), dlopen (cc)
    double cacheMs = 0;     // disk lookup / load / store
    double cacheLoadMs = 0; // part of cacheMs: reading, verifying and dlopen'ing a disk entry that hit
    double cacheWriteMs = 0; // part of cacheMs: storing the entry (llvm: linking the object into a .so)
    double pluginLoadMs = 0; // loading the llvm plugin (the first miss in a process)
    double lookupMs = 0;    // hashing the unit and looking it up in the caches (a disk hit's load excluded)
    double totalMs = 0;
    // A disk cache entry found bad (and removed) on the way: "<file> was <why>", else empty. The
    // first one in a process is also told on stderr: "fuselab: compile cache entry <file> was
    // <why>; rebuilt".
    std::string cacheProblem;
};

enum class Backend { Auto, LLVM, SystemCC };

struct Config {
    Backend backend = Backend::Auto;  // Auto: llvm when the plugin loads, else cc
    std::string cacheDir;              // empty: the default location; "-": no disk cache
    int optLevel = 3;
};

// Process-wide, thread-safe.
class Jit {
public:
    static Jit& instance();
    void configure(const Config& c);
    Config config() const;
    CompileOutcome compile(const CompileRequest& req);
    std::string backendName();       // the backend a miss would use now: "llvm" or "cc"
    std::string identity();          // compiler version + flags + CPU features: part of every key
    std::string cacheDir();          // resolved disk cache directory ("" when disabled)
    // Forgets the memory cache (libraries still referenced elsewhere stay valid): the next compile
    // of any unit goes to the disk cache or the compiler, as in a fresh process.
    void clearMemoryCache();
    // While on, compiles see the caches as this process found them when it started: the disk
    // entries this process wrote are passed over (built and written again). With the memory cache
    // cleared first, a compile then takes what it would in a fresh process: `fuselab bench` times
    // its first calls this way, after the script's own run has filled the caches.
    void setFreshProcessView(bool on);
    // Assembly for a compiled unit's LLVM IR (llvm backend only; computed on demand).
    std::string assembly(const KernelLib& lib);

    // Where the llvm plugin was found, whether this process has loaded it (only a compile that
    // misses every cache loads it) and how long dlopen + entry lookup took.
    struct PluginInfo {
        std::string path;   // "" when no plugin file was found
        bool loaded = false;
        std::string error;  // why it did not load, once a load was attempted
        double loadMs = 0;
    };
    PluginInfo plugin();
    // Loads the llvm plugin now rather than at the first miss: a fork server (app/serve.h) does it
    // once, so that its children inherit the loaded plugin. A child whose FUSELAB_LLVM_PLUGIN is
    // not what it was at the load searches again (set to "", it gets the system compiler).
    void preloadPlugin();
};

// 64-bit FNV-1a as 16 hex digits: stable across runs and machines.
std::string hashHex(const std::string& data);

} // namespace fl::jit

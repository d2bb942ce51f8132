// The Jit singleton: caches (memory, disk), the system-compiler backend, and loading of the
// LLVM plugin. No LLVM header or library here: the plugin is reached through the C ABI of
// llvm_plugin_api.h, and only when a compile misses every cache.
//
// Disk cache entry (in cacheDir()):   <hash>.so    the shared object
//                                     <hash>.meta  "fuselab-jit-cache 2" / size / hash / symbols /
//                                                  the entry's whole key material
// with <hash> = hashHex(key material): the caller's key, identity, symbols and the source less its
// comments (keyMaterial). The entry is bound to that material, not only to its file name: a load
// compares the .meta's copy with the request's byte for byte. Each file is written under a unique
// temporary name in the directory, fsync'ed and renamed into place, the .so first and the .meta
// last: a reader that sees a .meta either finds the .so it describes or rejects the entry. Entry
// files are read only when they are regular files of a bounded size, without following symbolic
// links and without blocking; a bad entry is removed, rebuilt, and told once per process.
// Compiles happen in private build directories (".build-*") inside the cache directory (a
// temporary directory without a disk cache), which must allow executable mappings.

#include "core/jit/jit.h"
#include "core/jit/llvm_plugin_api.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>

extern char** environ;

namespace fl::jit {
namespace {

using Clock = std::chrono::steady_clock;
// No std::filesystem here: PyTorch's LibTorch (the wheels' libtorch.so) exports its own copies of
// std::filesystem's functions, which interpose ours at load time; on a machine with such a
// LibTorch, fs::remove_all called through a null pointer. POSIX calls below instead.

// Removes a directory and the files in it (a build directory holds no subdirectories).
void removeFlatDirectory(const std::string& path) {
    if (DIR* d = opendir(path.c_str())) {
        while (dirent* e = readdir(d)) {
            std::string name = e->d_name;
            if (name != "." && name != "..") unlink((path + "/" + name).c_str());
        }
        closedir(d);
    }
    rmdir(path.c_str());
}

// mkdir -p; false when the directory does not exist afterwards.
bool makeDirectories(const std::string& path) {
    for (size_t at = 1; at <= path.size(); ++at)
        if (at == path.size() || path[at] == '/') mkdir(path.substr(0, at).c_str(), 0755);
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

constexpr const char* kPluginFile = "libfuselab_llvmjit.so";
constexpr const char* kMetaHeader = "fuselab-jit-cache 2";
constexpr const char* kMetaHeaderPrefix = "fuselab-jit-cache ";
// Largest entry files read. A .meta holds the unit's source (kilobytes to a few megabytes); a
// kernel library is kilobytes to a few megabytes. Anything far past that is not an entry.
constexpr size_t kMaxMetaBytes = size_t(64) << 20;
constexpr size_t kMaxObjectBytes = size_t(1) << 30;
constexpr const char* kCompiler = "c++";

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

// pid + a process-wide counter: a file name this process never uses twice. dlopen identifies
// loaded libraries by path, so every load must come from a path not used before.
std::string uniqueTag() {
    static std::atomic<unsigned long> counter{0};
    return std::to_string(getpid()) + "-" + std::to_string(counter++);
}

// ---- files ----

bool readFile(const std::string& path, std::string& out) {
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    out.clear();
    char buf[1 << 16];
    bool ok = true;
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n > 0) out.append(buf, size_t(n));
        else if (n == 0) break;
        else if (errno != EINTR) { ok = false; break; }
    }
    close(fd);
    return ok;
}

// Creates path (which must not exist) holding data; fsync'ed when durable.
bool writeNewFile(const std::string& path, const std::string& data, bool durable) {
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    size_t done = 0;
    while (done < data.size()) {
        ssize_t n = write(fd, data.data() + done, data.size() - done);
        if (n > 0) done += size_t(n);
        else if (n < 0 && errno == EINTR) continue;
        else break;
    }
    bool ok = done == data.size() && (!durable || fsync(fd) == 0);
    ok = close(fd) == 0 && ok;
    if (!ok) unlink(path.c_str());
    return ok;
}

// Atomically replaces path with data: unique temp name in the same directory, fsync, rename.
bool writeFileAtomic(const std::string& dir, const std::string& path, const std::string& data) {
    const std::string tmp = dir + "/.tmp-" + uniqueTag();
    if (!writeNewFile(tmp, data, true)) return false;
    if (rename(tmp.c_str(), path.c_str()) != 0) {
        unlink(tmp.c_str());
        return false;
    }
    return true;
}

// What a file that should be a regular one is instead.
std::string fileKind(mode_t mode) {
    if (S_ISLNK(mode)) return "a symbolic link";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

enum class EntryRead { Ok, Absent, Bad };

// Reads one file of a cache entry into out, trusting nothing about it: only a regular file of at
// most maxBytes is read; a symbolic link is not followed (a link to /dev/zero would never end), a
// FIFO or device is never opened (a FIFO would block). On Bad, `why` says what the file was.
EntryRead readEntryFile(const std::string& path, size_t maxBytes, std::string& out, std::string& why) {
    struct stat st;
    if (lstat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) return EntryRead::Absent;
        why = std::string("unreadable (") + std::strerror(errno) + ")";
        return EntryRead::Bad;
    }
    if (!S_ISREG(st.st_mode)) {
        why = fileKind(st.st_mode);
        char target[256];
        if (const ssize_t n = S_ISLNK(st.st_mode) ? readlink(path.c_str(), target, sizeof target) : -1; n > 0 && size_t(n) < sizeof target)
            why += " (to " + std::string(target, size_t(n)) + ")";
        return EntryRead::Bad;
    }
    // Replaced between lstat and open: O_NOFOLLOW and O_NONBLOCK keep a link or FIFO harmless,
    // and fstat sees what was opened.
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ENOENT) return EntryRead::Absent;
        why = errno == ELOOP ? "a symbolic link" : std::string("unreadable (") + std::strerror(errno) + ")";
        return EntryRead::Bad;
    }
    EntryRead result = EntryRead::Ok;
    if (fstat(fd, &st) != 0) {
        why = std::string("unreadable (") + std::strerror(errno) + ")";
        result = EntryRead::Bad;
    } else if (!S_ISREG(st.st_mode)) {
        why = fileKind(st.st_mode);
        result = EntryRead::Bad;
    } else if (size_t(st.st_size) > maxBytes) {
        why = "too large (" + std::to_string(st.st_size) + " bytes; at most " + std::to_string(maxBytes) + " expected)";
        result = EntryRead::Bad;
    } else {
        // One byte past the size fstat gave shows a file that grows while read.
        out.assign(size_t(st.st_size) + 1, '\0');
        size_t done = 0;
        while (done < out.size()) {
            const ssize_t n = read(fd, out.data() + done, out.size() - done);
            if (n > 0) done += size_t(n);
            else if (n == 0) break;
            else if (errno != EINTR) {
                why = std::string("unreadable (") + std::strerror(errno) + ")";
                result = EntryRead::Bad;
                break;
            }
        }
        if (result == EntryRead::Ok && done != size_t(st.st_size)) {
            why = "changing while it was read";
            result = EntryRead::Bad;
        }
        out.resize(done);
    }
    close(fd);
    return result;
}

// A private, uniquely named directory for one compile; removed with its contents.
class BuildDir {
public:
    explicit BuildDir(const std::string& parent) {
        std::string pattern = parent + "/.build-" + uniqueTag() + "-XXXXXX";
        if (mkdtemp(pattern.data())) path_ = pattern;
    }
    ~BuildDir() {
        if (!path_.empty()) removeFlatDirectory(path_);
    }
    BuildDir(const BuildDir&) = delete;
    BuildDir& operator=(const BuildDir&) = delete;
    bool ok() const { return !path_.empty(); }
    const std::string& path() const { return path_; }
    std::string file(const char* name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

// ---- processes ----

struct ProgramResult {
    bool ok = false;     // ran and exited with status 0
    std::string output;  // stdout and stderr together, or why it could not run
};

// Runs argv (argv[0] searched in PATH) without a shell, in cwd when given, stdin from /dev/null.
ProgramResult runProgram(const std::vector<std::string>& argv, const std::string& cwd = {}) {
    ProgramResult result;
    int pipeFds[2];
    if (pipe2(pipeFds, O_CLOEXEC) != 0) {
        result.output = std::string("pipe: ") + std::strerror(errno);
        return result;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 2);
    if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(pipeFds[1]);
    if (rc != 0) {
        close(pipeFds[0]);
        result.output = "cannot run " + argv[0] + ": " + std::strerror(rc);
        return result;
    }
    char buf[4096];
    for (;;) {
        ssize_t n = read(pipeFds[0], buf, sizeof buf);
        if (n > 0) result.output.append(buf, size_t(n));
        else if (n == 0 || errno != EINTR) break;
    }
    close(pipeFds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            result.output += "\nwaitpid: " + std::string(std::strerror(errno));
            return result;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) result.ok = true;
    else if (WIFEXITED(status)) result.output += "\n" + argv[0] + " exited with status " + std::to_string(WEXITSTATUS(status));
    else result.output += "\n" + argv[0] + " killed by signal " + std::to_string(WTERMSIG(status));
    return result;
}

// ---- machine and compiler description (part of every cache key) ----

std::string cpuFeatures() {
    static const std::string features = [] {
        std::string text;
        if (!readFile("/proc/cpuinfo", text)) return std::string("unknown");
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);) {
            if (line.rfind("flags", 0) != 0) continue;
            const auto colon = line.find(':');
            if (colon != std::string::npos) return line.substr(colon + 1);
        }
        return std::string("unknown");
    }();
    return features;
}

std::string systemCompilerVersion() {
    static const std::string version = [] {
        ProgramResult r = runProgram({kCompiler, "--version"});
        if (!r.ok) return std::string("unavailable");
        return r.output.substr(0, r.output.find('\n'));
    }();
    return version;
}

int clampedOpt(int optLevel) { return std::clamp(optLevel, 0, 3); }

// Code-generation flags shared by both backends (clang reads the same driver flags in-process).
// No -fno-signed-zeros (and so no -fassociative-math, which needs it): with it the compilers fold
// x + 0 to x and 0 - x to -x, and pick either zero for max(0, -0), where eager keeps the sign
// of zero; and they reassociate (x - max) - log(sum) into x - (max + log(sum)). Reductions
// vectorize without it: their 64 accumulators and the tree that folds them are written out.
// -ffp-contract=off: eager rounds each op's result, so `a * b + c` of two ops must not become one
// fma (cos of a 2.5e7 argument turns that one ulp into 1.55); the kernel math asks for its fmas
// explicitly (__builtin_fmaf).
std::vector<std::string> codegenFlags(int optLevel) {
    // -mprefer-vector-width=512: -march=native picks 256-bit vectors on AVX-512 machines; the
    // kernels' math is about 1.5-2x faster with 512-bit ones (measured; other CPUs ignore it)
    return {"-std=c++17", "-O" + std::to_string(clampedOpt(optLevel)), "-march=native", "-mprefer-vector-width=512", "-fno-math-errno",
            "-fno-trapping-math", "-ffp-contract=off", "-fPIC"};
}

// How a shared object is linked, by either backend. GCC 12 lacks -nostdlib++; -nodefaultlibs
// plus the C libraries is its equivalent: kernels use no C++ runtime.
const std::vector<std::string> kLinkFlags = {"-shared", "-nodefaultlibs"};
const std::vector<std::string> kLinkLibraries = {"-lm", "-lc", "-lgcc"};

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& s : items) out += (out.empty() ? "" : " ") + s;
    return out;
}

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The source as the compiler reads it, less its comments (each becomes one space; line breaks
// stay): the part of a unit that a cache key covers. Generated kernels name their script's file
// and lines in comments; a copy of the script in another folder compiles to the same code and
// finds the same entry. String, character and raw string literals are copied whole, so a "//"
// inside one is not taken for a comment. Where the text is not plain (a line comment continued by
// a backslash, an unterminated comment or raw string), the rest is kept as it is: a key then
// covers more, never less.
std::string withoutComments(const std::string& src) {
    std::string out;
    out.reserve(src.size());
    const size_t n = src.size();
    size_t i = 0;
    // Copies a literal opened by src[i] (a quote) up to its closing quote, unless a line ends first.
    auto copyQuoted = [&](char quote) {
        size_t j = i + 1;
        while (j < n && src[j] != quote && src[j] != '\n') j += src[j] == '\\' ? 2 : 1;
        j = std::min(j + 1, n);
        out.append(src, i, j - i);
        i = j;
    };
    while (i < n) {
        const char c = src[i];
        const char next = i + 1 < n ? src[i + 1] : '\0';
        if (c == '/' && next == '/') {
            size_t end = src.find('\n', i);
            if (end == std::string::npos) end = n;
            if (src[end - 1] == '\\') { // continued onto the next line
                out.append(src, i, std::string::npos);
                break;
            }
            out += ' ';
            i = end;
        } else if (c == '/' && next == '*') {
            const size_t end = src.find("*/", i + 2);
            if (end == std::string::npos) {
                out.append(src, i, std::string::npos);
                break;
            }
            out += ' ';
            i = end + 2;
        } else if (c == '"') {
            size_t start = i;
            while (start > 0 && isIdentifierChar(src[start - 1])) --start;
            const std::string prefix = src.substr(start, i - start);
            if (prefix == "R" || prefix == "u8R" || prefix == "uR" || prefix == "UR" || prefix == "LR") {
                const size_t open = src.find('(', i + 1);
                const size_t close = open == std::string::npos ? open : src.find(")" + src.substr(i + 1, open - i - 1) + "\"", open);
                if (close == std::string::npos) {
                    out.append(src, i, std::string::npos);
                    break;
                }
                const size_t end = close + (open - i) + 1;
                out.append(src, i, end - i);
                i = end;
            } else {
                copyQuoted('"');
            }
        } else if (c == '\'') {
            size_t start = i;
            while (start > 0 && (isIdentifierChar(src[start - 1]) || src[start - 1] == '.')) --start;
            if (start < i && std::isdigit(static_cast<unsigned char>(src[start]))) { // a digit separator: 1'000
                out += c;
                ++i;
            } else {
                copyQuoted('\'');
            }
        } else {
            out += c;
            ++i;
        }
    }
    return out;
}

// ---- the llvm plugin ----

struct PluginState {
    std::mutex mutex;
    bool searched = false;
    std::optional<std::string> searchedEnv; // FUSELAB_LLVM_PLUGIN when searched (nullopt: unset)
    bool attempted = false;
    std::string path;
    std::string error;
    const FlLlvmJitApi* api = nullptr;
    double loadMs = 0;
};

PluginState& pluginState() {
    static auto* p = new PluginState; // never destroyed: LLVM is never unloaded either
    return *p;
}

std::string exeDirectory() {
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return "";
    std::string exe(buf, size_t(n));
    size_t slash = exe.rfind('/');
    return slash == std::string::npos ? std::string() : exe.substr(0, slash);
}

// $FUSELAB_LLVM_PLUGIN (authoritative when set), else <exe dir>/../lib/, else the build tree.
std::string findPlugin() {
    if (const char* forced = std::getenv("FUSELAB_LLVM_PLUGIN")) return forced;
    std::vector<std::string> candidates;
    if (auto dir = exeDirectory(); !dir.empty()) candidates.push_back(dir + "/../lib/" + kPluginFile);
#ifdef FUSELAB_PLUGIN_DIR
    candidates.push_back(std::string(FUSELAB_PLUGIN_DIR) + "/" + kPluginFile);
#endif
    for (const auto& c : candidates)
        if (access(c.c_str(), R_OK) == 0) return c;
    return "";
}

std::optional<std::string> pluginEnv() {
    const char* v = std::getenv("FUSELAB_LLVM_PLUGIN");
    return v ? std::optional<std::string>(v) : std::nullopt;
}

// Caller holds p.mutex. Searches again when FUSELAB_LLVM_PLUGIN changed since the last search (a
// fork server's child with a value of its own): a plugin loaded before stays mapped but unused.
void searchPlugin(PluginState& p) {
    if (p.searched && p.searchedEnv == pluginEnv()) return;
    if (p.searched) {
        p.attempted = false;
        p.api = nullptr;
        p.error.clear();
        p.loadMs = 0;
    }
    p.searched = true;
    p.searchedEnv = pluginEnv();
    p.path = findPlugin();
    if (p.path.empty()) p.error = std::string("no ") + kPluginFile + " found";
}

// Caller holds p.mutex. dlopen'ed once per process and never closed.
void loadPlugin(PluginState& p) {
    searchPlugin(p);
    if (p.attempted) return;
    p.attempted = true;
    if (p.path.empty()) return;
    const auto t0 = Clock::now();
    void* handle = dlopen(p.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        p.error = dlerror();
        return;
    }
    auto entry = reinterpret_cast<FlLlvmJitEntry>(dlsym(handle, FL_LLVMJIT_ENTRY));
    const FlLlvmJitApi* api = entry ? entry() : nullptr;
    p.loadMs = msSince(t0);
    if (!api) p.error = p.path + ": no " FL_LLVMJIT_ENTRY;
    else if (api->abiVersion != FL_LLVMJIT_ABI_VERSION) p.error = p.path + ": plugin ABI version mismatch";
    else p.api = api;
}

// ---- backends ----

enum class Kind { LLVM, CC, Unavailable }; // Unavailable: llvm was demanded but cannot load

struct Resolved {
    Kind kind = Kind::CC;
    std::string compilerVersion;
    const FlLlvmJitApi* api = nullptr; // set when kind is LLVM and the plugin is loaded
};

// Which backend a miss uses. Without `load`, the plugin is not loaded: its presence on disk and
// the Clang version it was built with stand in for it, so disk hits stay free of LLVM. A loaded
// plugin that reports another version simply yields another identity, hence another key.
Resolved resolveBackend(const Config& cfg, bool load) {
    Resolved r;
    if (cfg.backend == Backend::SystemCC) {
        r.compilerVersion = systemCompilerVersion();
        return r;
    }
    auto& p = pluginState();
    {
        std::lock_guard lock(p.mutex);
        searchPlugin(p);
#ifndef FUSELAB_LLVM_VERSION
        load = true; // no version known without asking the plugin
#endif
        if (load) loadPlugin(p);
        if (p.api) {
            r.kind = Kind::LLVM;
            r.api = p.api;
            r.compilerVersion = std::string("clang ") + p.api->clangVersion;
            return r;
        }
        if (!p.attempted && !p.path.empty()) {
            r.kind = Kind::LLVM;
#ifdef FUSELAB_LLVM_VERSION
            r.compilerVersion = std::string("clang ") + FUSELAB_LLVM_VERSION;
#endif
            return r;
        }
    }
    if (cfg.backend == Backend::LLVM) {
        r.kind = Kind::Unavailable;
        return r;
    }
    r.compilerVersion = systemCompilerVersion();
    return r;
}

std::string kindName(Kind k) { return k == Kind::CC ? "cc" : "llvm"; }

std::string identityOf(const Config& cfg, const Resolved& r) {
    std::vector<std::string> flags = codegenFlags(cfg.optLevel);
    flags.insert(flags.end(), kLinkFlags.begin(), kLinkFlags.end());
    flags.insert(flags.end(), kLinkLibraries.begin(), kLinkLibraries.end());
    return "backend=" + kindName(r.kind) + (r.kind == Kind::Unavailable ? " (unavailable)" : "") +
           "\ncompiler=" + r.compilerVersion + "\nflags=" + joined(flags) +
           "\nopt=" + std::to_string(clampedOpt(cfg.optLevel)) + "\ncpu=" + cpuFeatures();
}

// ---- compiled units ----

// Resolves symbol in the library of handle only, not in its dependencies: asking a kernel library
// for "memset" must not return libc's.
void* definedSymbol(void* handle, const std::string& symbol) {
    void* address = dlsym(handle, symbol.c_str());
    if (!address) return nullptr;
    link_map* own = nullptr;
    link_map* found = nullptr;
    Dl_info info;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &own) != 0 ||
        !dladdr1(address, &info, reinterpret_cast<void**>(&found), RTLD_DL_LINKMAP) || found != own)
        return nullptr;
    return address;
}

class SharedObjectLib final : public KernelLib {
public:
    explicit SharedObjectLib(void* handle) : handle_(handle) {}
    ~SharedObjectLib() override { dlclose(handle_); }
    void* lookup(const std::string& symbol) const override { return definedSymbol(handle_, symbol); }

private:
    void* handle_;
};

class LlvmLib final : public KernelLib {
public:
    LlvmLib(const FlLlvmJitApi* api, void* module, int optLevel) : api_(api), module_(module), optLevel_(optLevel) {}
    ~LlvmLib() override { api_->releaseModule(module_); }
    void* lookup(const std::string& symbol) const override { return api_->lookup(module_, symbol.c_str()); }
    const FlLlvmJitApi* api() const { return api_; }
    int optLevel() const { return optLevel_; }

private:
    const FlLlvmJitApi* api_;
    void* module_;
    int optLevel_;
};

// Empty when every symbol resolves, else the error to report.
std::string missingSymbols(const KernelLib& lib, const std::vector<std::string>& symbols) {
    std::string missing;
    for (const auto& s : symbols)
        if (!lib.lookup(s)) missing += (missing.empty() ? "" : ", ") + s;
    return missing.empty() ? "" : "symbol(s) not defined by the compiled unit: " + missing;
}

// ---- disk cache ----

// All that an entry is bound to: the caller's key, the compiler, flags and machine (identity), the
// symbols asked for, and the source as compiled (comments left out: they say where the script
// lives, not what the code computes). An entry's name is this material's hash, and its .meta holds
// the material itself, compared byte for byte on load.
std::string keyMaterial(const CompileRequest& req, const std::string& identity) {
    return "key=" + req.key + "\n" + identity + "\nsymbols=" + joined(req.symbols) + "\nsource:\n" + withoutComments(req.source);
}

struct Meta {
    size_t size = 0;
    std::string hash;
    std::string material; // the key material the entry was written for
};

// Parses the decimal number that follows `name ` in line.
bool parseField(const std::string& line, const char* name, size_t& value) {
    const std::string prefix = std::string(name) + " ";
    if (line.rfind(prefix, 0) != 0) return false;
    const char* end = line.data() + line.size();
    auto [at, ec] = std::from_chars(line.data() + prefix.size(), end, value);
    return ec == std::errc() && at == end && at != line.data() + prefix.size();
}

// "fuselab-jit-cache 2\nsize N\nhash H\nsymbols S\nkey N\n" and then exactly N bytes of key material.
bool parseMeta(const std::string& text, Meta& meta) {
    size_t at = 0;
    auto line = [&](std::string& l) {
        const size_t end = text.find('\n', at);
        if (end == std::string::npos) return false;
        l = text.substr(at, end - at);
        at = end + 1;
        return true;
    };
    std::string header, size, hash, symbols, key;
    size_t keyBytes = 0;
    if (!line(header) || header != kMetaHeader || !line(size) || !line(hash) || !line(symbols) || !line(key)) return false;
    if (!parseField(size, "size", meta.size) || !parseField(key, "key", keyBytes) || symbols.rfind("symbols ", 0) != 0) return false;
    if (hash.size() != 21 || hash.rfind("hash ", 0) != 0) return false;
    meta.hash = hash.substr(5);
    if (text.size() - at != keyBytes) return false;
    meta.material = text.substr(at);
    return true;
}

// Removes an entry's two files; a directory in their place only when empty (what is in it is not ours).
void removeEntry(const std::string& so, const std::string& meta) {
    std::remove(meta.c_str());
    std::remove(so.c_str());
}

// A disk entry found bad: which file, and what was wrong with it.
struct BadEntry {
    std::string path;
    std::string why; // empty: nothing bad found
};

// The verified entry, or null when absent or bad; a bad entry is removed (the caller compiles and
// rewrites it) and described in `bad`. A .so without .meta is left alone: a writer may be between
// its two renames.
std::shared_ptr<KernelLib> loadEntry(const std::string& dir, const std::string& hash, const std::string& material,
                                     const std::vector<std::string>& symbols, BadEntry& bad) {
    const std::string so = dir + "/" + hash + ".so", metaPath = dir + "/" + hash + ".meta";
    auto reject = [&](const std::string& path, const std::string& why) -> std::shared_ptr<KernelLib> {
        bad = {path, why};
        removeEntry(so, metaPath);
        return nullptr;
    };
    std::string metaText, bytes, why;
    switch (readEntryFile(metaPath, kMaxMetaBytes, metaText, why)) {
    case EntryRead::Absent: return nullptr;
    case EntryRead::Bad: return reject(metaPath, why);
    case EntryRead::Ok: break;
    }
    Meta meta;
    if (!parseMeta(metaText, meta))
        return reject(metaPath, metaText.rfind(kMetaHeaderPrefix, 0) == 0 && metaText.rfind(kMetaHeader, 0) != 0
                                    ? "written by another version of Fuselab"
                                    : "not a Fuselab cache entry (its .meta does not parse)");
    if (meta.material != material)
        return reject(metaPath, "written for another unit (its key is not this unit's; a file swapped or copied in)");
    switch (readEntryFile(so, std::min(meta.size, kMaxObjectBytes), bytes, why)) {
    case EntryRead::Absent: return reject(so, "missing (its .meta is there)");
    case EntryRead::Bad: return reject(so, why);
    case EntryRead::Ok: break;
    }
    if (bytes.size() != meta.size)
        return reject(so, "truncated (" + std::to_string(bytes.size()) + " bytes; its .meta says " + std::to_string(meta.size) + ")");
    if (hashHex(bytes) != meta.hash) return reject(so, "damaged (its bytes do not match the hash in its .meta)");
    // Load exactly the verified bytes, from a path never used before: the entry may be replaced
    // while we run, and dlopen would return an old library for a reused path.
    const std::string privatePath = dir + "/.load-" + uniqueTag() + ".so";
    if (!writeNewFile(privatePath, bytes, false)) return nullptr;
    void* handle = dlopen(privatePath.c_str(), RTLD_NOW | RTLD_LOCAL);
    unlink(privatePath.c_str());
    if (!handle) {
        const char* error = dlerror();
        return reject(so, std::string("not loadable (") + (error ? error : "dlopen failed") + ")");
    }
    auto lib = std::make_shared<SharedObjectLib>(handle);
    lib->backend = "disk";
    lib->objectPath = so;
    if (std::string missing = missingSymbols(*lib, symbols); !missing.empty()) return reject(so, "incomplete: " + missing);
    return lib;
}

// Writes the entry for a finished shared object; returns the .so's path, or "" when it could not
// be written. The bytes are copied, never renamed into place: the build's own file may be mapped
// by this process, and must not share an inode with an entry that anyone may rewrite or damage.
std::string storeEntry(const std::string& dir, const std::string& hash, const std::string& material, const std::string& bytes,
                       const std::vector<std::string>& symbols) {
    const std::string so = dir + "/" + hash + ".so";
    if (!writeFileAtomic(dir, so, bytes)) return "";
    const std::string meta = std::string(kMetaHeader) + "\nsize " + std::to_string(bytes.size()) + "\nhash " + hashHex(bytes) +
                             "\nsymbols " + joined(symbols) + "\nkey " + std::to_string(material.size()) + "\n" + material;
    if (!writeFileAtomic(dir, dir + "/" + hash + ".meta", meta)) return "";
    return so;
}

// Tells the user about a bad entry, once per process: one line on stderr, the first bad entry's.
void tellBadEntry(const std::string& problem, bool rebuilt) {
    static std::atomic<bool> told{false};
    if (told.exchange(true)) return;
    std::fprintf(stderr, "fuselab: compile cache entry %s; %s\n", problem.c_str(), rebuilt ? "rebuilt" : "not used");
    std::fflush(stderr);
}

std::string resolveCacheDir(const Config& cfg) {
    std::string dir = cfg.cacheDir;
    if (dir.empty()) dir = env("FUSELAB_CACHE_DIR");
    if (dir.empty() && !env("XDG_CACHE_HOME").empty()) dir = env("XDG_CACHE_HOME") + "/fuselab";
    if (dir.empty() && !env("HOME").empty()) dir = env("HOME") + "/.cache/fuselab";
    return dir == "-" ? "" : dir;
}

// ---- process-wide state ----

struct State {
    std::mutex mutex;
    std::condition_variable unitDone;                          // signalled when `compiling` shrinks
    Config config;
    std::map<std::string, std::shared_ptr<KernelLib>> memory;  // by entry hash
    std::set<std::string> compiling;                           // entry hashes being looked up/built
    std::set<std::string> written;                             // entry hashes this process stored on disk
    bool freshView = false;                                    // pass over `written` on disk (setFreshProcessView)
};

// Never destroyed: KernelLibs may be released from other static destructors at exit.
State& state() {
    static auto* s = new State;
    return *s;
}

// Holds an entry hash while this thread looks it up and builds it, so that concurrent requests
// for one unit compile it once: the others wait, then hit the memory cache.
class UnitClaim {
public:
    explicit UnitClaim(const std::string& hash) { claim(hash); }
    ~UnitClaim() { release(); }
    UnitClaim(const UnitClaim&) = delete;
    UnitClaim& operator=(const UnitClaim&) = delete;

    void claim(const std::string& hash) {
        release();
        auto& s = state();
        std::unique_lock lock(s.mutex);
        s.unitDone.wait(lock, [&] { return !s.compiling.count(hash); });
        s.compiling.insert(hash);
        hash_ = hash;
    }

private:
    void release() {
        if (hash_.empty()) return;
        auto& s = state();
        {
            std::lock_guard lock(s.mutex);
            s.compiling.erase(hash_);
        }
        s.unitDone.notify_all();
        hash_.clear();
    }
    std::string hash_;
};

// Memory, then disk. True on a hit (outcome filled, possibly with a missing-symbol error). A disk
// entry found bad is described in out.cacheProblem.
bool lookupCaches(const std::string& hash, const std::string& material, const std::string& dir, const CompileRequest& req,
                  CompileOutcome& out) {
    auto& s = state();
    {
        std::lock_guard lock(s.mutex);
        if (auto it = s.memory.find(hash); it != s.memory.end()) {
            out.cache = CompileOutcome::Cache::Memory;
            out.error = missingSymbols(*it->second, req.symbols);
            if (out.error.empty()) out.lib = it->second;
            return true;
        }
    }
    if (dir.empty()) return false;
    {
        std::lock_guard lock(s.mutex);
        if (s.freshView && s.written.count(hash)) return false;
    }
    const auto t0 = Clock::now();
    BadEntry bad;
    auto lib = loadEntry(dir, hash, material, req.symbols, bad);
    out.cacheMs += msSince(t0);
    if (!bad.why.empty() && out.cacheProblem.empty()) out.cacheProblem = bad.path + " was " + bad.why;
    if (!lib) return false;
    out.cacheLoadMs += msSince(t0);
    out.cache = CompileOutcome::Cache::Disk;
    out.lib = lib;
    std::lock_guard lock(s.mutex);
    s.memory.emplace(hash, lib);
    return true;
}

// Links kernel.o into kernel.so in folder `cwd`. The linker itself first (ld -shared: 20 ms): the
// kernels call nothing outside themselves, and the C and math libraries, already in every process
// that loads them, would resolve anything they did. The compiler driver adds 40-50 ms of start-up
// files and library searches (-lm -lc -lgcc), and is the way where no `ld` runs.
bool linkSharedObject(const std::string& cwd) {
    if (runProgram({"ld", "-shared", "-o", "kernel.so", "kernel.o"}, cwd).ok) return true;
    std::vector<std::string> argv{kCompiler};
    argv.insert(argv.end(), kLinkFlags.begin(), kLinkFlags.end());
    for (const char* a : {"-o", "kernel.so", "kernel.o"}) argv.push_back(a);
    argv.insert(argv.end(), kLinkLibraries.begin(), kLinkLibraries.end());
    return runProgram(argv, cwd).ok;
}

// ---- the two compilers ----

void compileWithCC(const CompileRequest& req, const Config& cfg, const std::string& dir,
                   const std::string& hash, const std::string& material, CompileOutcome& out) {
    BuildDir build(dir.empty() ? (env("TMPDIR").empty() ? "/tmp" : env("TMPDIR")) : dir);
    if (!build.ok() || !writeNewFile(build.file("kernel.cpp"), req.source, false)) {
        out.error = "cannot create a build directory: " + std::string(std::strerror(errno));
        return;
    }
    std::vector<std::string> argv{kCompiler};
    for (const auto& f : codegenFlags(cfg.optLevel)) argv.push_back(f);
    for (const char* a : {"-c", "-o", "kernel.o", "kernel.cpp"}) argv.push_back(a);

    const auto t0 = Clock::now();
    ProgramResult run = runProgram(argv, build.path()); // relative names keep the output reproducible
    if (run.ok && !linkSharedObject(build.path())) run = {false, "cannot link kernel.o into a shared object"};
    out.frontendMs = msSince(t0);
    if (!run.ok) {
        out.error = run.output;
        return;
    }
    const std::string built = build.file("kernel.so");
    const auto tLoad = Clock::now();
    void* handle = dlopen(built.c_str(), RTLD_NOW | RTLD_LOCAL); // the path is unique to this build
    if (!handle) {
        out.error = dlerror();
        return;
    }
    auto lib = std::make_shared<SharedObjectLib>(handle);
    lib->backend = "cc";
    out.error = missingSymbols(*lib, req.symbols);
    out.loadMs = msSince(tLoad);
    if (!out.error.empty()) return;
    if (!dir.empty()) {
        const auto t1 = Clock::now();
        if (std::string bytes; readFile(built, bytes)) lib->objectPath = storeEntry(dir, hash, material, bytes, req.symbols);
        out.cacheMs += msSince(t1);
        out.cacheWriteMs += msSince(t1);
    }
    out.lib = lib;
}


// The current process runs the LLJIT code; the object is linked into a .so only for the disk
// cache, so that later processes load it without LLVM.
void compileWithLLVM(const CompileRequest& req, const Config& cfg, const std::string& dir, const std::string& hash,
                     const std::string& material, const FlLlvmJitApi& api, CompileOutcome& out) {
    const std::vector<std::string> flags = codegenFlags(cfg.optLevel);
    std::vector<const char*> flagPtrs, symbolPtrs;
    for (const auto& f : flags) flagPtrs.push_back(f.c_str());
    for (const auto& s : req.symbols) symbolPtrs.push_back(s.c_str());

    FlLlvmJitResult r{};
    api.compile(req.source.data(), req.source.size(), flagPtrs.data(), flagPtrs.size(), clampedOpt(cfg.optLevel),
                symbolPtrs.data(), symbolPtrs.size(), &r);
    const std::string error = r.error ? r.error : "";
    const std::string ir = r.ir ? r.ir : "";
    const std::string object = r.object ? std::string(r.object, r.objectSize) : "";
    for (void* p : {static_cast<void*>(r.error), static_cast<void*>(r.ir), static_cast<void*>(r.object)}) api.release(p);
    out.frontendMs = r.frontendMs;
    out.optimizeMs = r.optimizeMs;
    out.codegenMs = r.codegenMs;
    out.loadMs = r.loadMs;
    if (!r.module) {
        out.error = error.empty() ? "llvm compile failed" : error;
        return;
    }
    auto lib = std::make_shared<LlvmLib>(&api, r.module, clampedOpt(cfg.optLevel));
    lib->backend = "llvm";
    lib->llvmIR = ir;
    if (!dir.empty() && !object.empty()) {
        const auto t0 = Clock::now();
        {
            BuildDir build(dir); // removed at the end of this block: part of the cache write
            std::string linked;
            if (build.ok() && writeNewFile(build.file("kernel.o"), object, false) && linkSharedObject(build.path()) &&
                readFile(build.file("kernel.so"), linked))
                lib->objectPath = storeEntry(dir, hash, material, linked, req.symbols);
        }
        out.cacheMs += msSince(t0);
        out.cacheWriteMs += msSince(t0);
    }
    out.lib = lib;
}

CompileOutcome finish(CompileOutcome out, Clock::time_point t0) {
    out.totalMs = msSince(t0);
    return out;
}

} // namespace

std::string hashHex(const std::string& data) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : data) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

Jit& Jit::instance() {
    static Jit jit; // stateless: the state lives in state() and pluginState()
    return jit;
}

void Jit::configure(const Config& c) {
    std::lock_guard lock(state().mutex);
    state().config = c;
}

Config Jit::config() const {
    std::lock_guard lock(state().mutex);
    return state().config;
}

CompileOutcome Jit::compile(const CompileRequest& req) {
    const auto t0 = Clock::now();
    CompileOutcome out;
    const Config cfg = config();
    const std::string dir = resolveCacheDir(cfg);
    if (!dir.empty()) makeDirectories(dir); // on failure, lookups miss and stores are skipped
    auto materialOf = [&](const Resolved& r) { return keyMaterial(req, identityOf(cfg, r)); };

    Resolved backend = resolveBackend(cfg, false);
    std::string material = materialOf(backend);
    std::string hash = hashHex(material);
    UnitClaim claim(hash);
    if (lookupCaches(hash, material, dir, req, out)) {
        out.lookupMs = msSince(t0) - out.cacheLoadMs;
        return finish(out, t0);
    }

    // Every cache missed: only now load the plugin. Its real version, or its failure to load,
    // may change the identity and so the key: look that one up too.
    const auto tPlugin = Clock::now();
    const bool pluginWasLoaded = plugin().loaded;
    backend = resolveBackend(cfg, true);
    if (!pluginWasLoaded && plugin().loaded) out.pluginLoadMs = msSince(tPlugin);
    if (std::string loaded = materialOf(backend); loaded != material) {
        material = loaded;
        hash = hashHex(material);
        claim.claim(hash);
        if (lookupCaches(hash, material, dir, req, out)) {
            out.lookupMs = msSince(t0) - out.cacheLoadMs - out.pluginLoadMs;
            return finish(out, t0);
        }
    }
    out.lookupMs = msSince(t0) - out.pluginLoadMs;
    switch (backend.kind) {
    case Kind::Unavailable:
        out.error = "llvm backend unavailable: " + plugin().error;
        return finish(out, t0);
    case Kind::CC:
        compileWithCC(req, cfg, dir, hash, material, out);
        break;
    case Kind::LLVM:
        compileWithLLVM(req, cfg, dir, hash, material, *backend.api, out);
        break;
    }
    if (out.lib) {
        std::lock_guard lock(state().mutex);
        state().memory.emplace(hash, out.lib);
        if (!out.lib->objectPath.empty()) state().written.insert(hash);
    }
    if (!out.cacheProblem.empty()) tellBadEntry(out.cacheProblem, out.lib != nullptr);
    return finish(out, t0);
}

void Jit::clearMemoryCache() {
    std::lock_guard lock(state().mutex);
    state().memory.clear();
}

void Jit::setFreshProcessView(bool on) {
    std::lock_guard lock(state().mutex);
    state().freshView = on;
}

std::string Jit::backendName() { return kindName(resolveBackend(config(), false).kind); }

std::string Jit::identity() {
    const Config cfg = config();
    return identityOf(cfg, resolveBackend(cfg, false));
}

std::string Jit::cacheDir() { return resolveCacheDir(config()); }

std::string Jit::assembly(const KernelLib& lib) {
    if (auto* llvmLib = dynamic_cast<const LlvmLib*>(&lib); llvmLib && !lib.llvmIR.empty()) {
        const FlLlvmJitApi& api = *llvmLib->api();
        char* error = nullptr;
        char* text = api.assembly(lib.llvmIR.data(), lib.llvmIR.size(), llvmLib->optLevel(), &error);
        std::string result = text ? text : "assembly failed: " + std::string(error ? error : "unknown error");
        api.release(text);
        api.release(error);
        return result;
    }
    if (!lib.objectPath.empty()) {
        ProgramResult r = runProgram({"objdump", "-d", "--no-show-raw-insn", lib.objectPath});
        return r.ok ? r.output : "objdump failed: " + r.output;
    }
    return "no assembly: this unit has neither LLVM IR nor a cached shared object to disassemble "
           "(the disk cache is disabled)";
}

void Jit::preloadPlugin() {
    auto& p = pluginState();
    std::lock_guard lock(p.mutex);
    loadPlugin(p);
}

Jit::PluginInfo Jit::plugin() {
    auto& p = pluginState();
    std::lock_guard lock(p.mutex);
    searchPlugin(p);
    PluginInfo info;
    info.path = p.path;
    info.loaded = p.api != nullptr;
    info.error = p.error;
    info.loadMs = p.loadMs;
    return info;
}

} // namespace fl::jit

// JIT layer: both backends compile and run a kernel, compile errors come back as text, memory and
// disk cache hits (the disk hit in a fresh process, without loading the LLVM plugin), corrupt,
// swapped, hostile (FIFO, /dev/zero, directory) and foreign cache entries are rejected, told once
// and rewritten, keys ignore comments, "-" disables the disk cache, identity and hashing.
// The test spawns itself (`--child ...`) to act as a second process. `test_jit --bench` prints
// compile and load timings instead. Every cache directory is a fresh mkdtemp one.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/jit/jit.h"

extern char** environ;

using namespace fl::jit;
namespace fs = std::filesystem;

static int passed = 0, failed = 0;
static const char* indent = "";

static void check(bool ok, const std::string& what) {
    if (ok) ++passed;
    else ++failed;
    std::printf("%s%s %s\n", indent, ok ? "ok  " : "FAIL", what.c_str());
    std::fflush(stdout);
}

static const char* kKernel = R"(extern "C" void k(float* __restrict out, const float* __restrict a, long n) {
    for (long i = 0; i < n; ++i) out[i] = a[i] * 2.f + 1.f;
}
)";

// Another unit defining the same symbol k with other arithmetic: its entry, swapped on disk with
// kKernel's, must not pass for kKernel's.
static const char* kOtherKernel = R"(extern "C" void k(float* __restrict out, const float* __restrict a, long n) {
    for (long i = 0; i < n; ++i) out[i] = a[i] * 3.f - 1.f;
}
)";

static CompileRequest kernelRequest(const std::string& key = "test-kernel") { return {kKernel, key, {"k"}}; }
static CompileRequest otherRequest() { return {kOtherKernel, "test-kernel", {"k"}}; }

// True when lib's k computes out = a * mul + add (odd length: exercises the vector loop's tail).
static bool runsCorrectly(const KernelLib& lib, float mul = 2.f, float add = 1.f) {
    using Fn = void (*)(float*, const float*, long);
    auto fn = reinterpret_cast<Fn>(lib.lookup("k"));
    if (!fn) return false;
    std::vector<float> a(1003), out(1003, -1.f);
    for (size_t i = 0; i < a.size(); ++i) a[i] = float(i) * 0.5f - 7.f;
    fn(out.data(), a.data(), long(a.size()));
    for (size_t i = 0; i < a.size(); ++i)
        if (out[i] != a[i] * mul + add) return false;
    return true;
}

// Every directory the test uses lives under one scratch directory, removed at the end.
static std::string scratch;

static std::string makeTempDir() {
    std::string pattern = scratch + "/cache-XXXXXX";
    return mkdtemp(pattern.data()) ? pattern : "";
}

static bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

static std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

static void writeText(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// The names in dir, sorted.
static std::vector<std::string> listDir(const std::string& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

static bool llvmMapped() {
    const std::string maps = readText("/proc/self/maps");
    return contains(maps, "libLLVM") || contains(maps, "libclang-cpp") || contains(maps, "libfuselab_llvmjit");
}

// ---- the test run as a second process ----

static Backend parseBackend(const std::string& s) {
    return s == "llvm" ? Backend::LLVM : s == "cc" ? Backend::SystemCC : Backend::Auto;
}

static const char* cacheName(CompileOutcome::Cache c) {
    return c == CompileOutcome::Cache::Miss ? "miss" : c == CompileOutcome::Cache::Memory ? "memory" : "disk";
}

static std::string benchSource(int variant);

// One unit compiled by a child, checked against what the caller expects.
static void childCompile(Jit& jit, const std::string& backend, const std::string& source, const std::string& expectCache,
                         const std::string& expectLib) {
    CompileRequest req = source == "kernel" ? kernelRequest()
                         : source == "second" ? kernelRequest("second-unit")
                         : source == "other"  ? otherRequest()
                                              : CompileRequest{benchSource(0), "bench", {"softmax_rows"}};
    CompileOutcome out = jit.compile(req);
    if (expectCache == "error") {
        check(!out.lib && contains(out.error, expectLib), "fails with '" + expectLib + "': " + out.error);
        return;
    }
    check(out.lib != nullptr, "compiled (" + backend + "), error: '" + out.error.substr(0, 200) + "'");
    if (!out.lib) return;
    const std::string got = cacheName(out.cache);
    check(expectCache == "any" ? got != "memory" : got == expectCache, source + ": cache result is " + expectCache + " (got " + got + ")");
    if (expectCache != "any")
        check(out.lib->backend == expectLib, "lib backend is " + expectLib + " (got " + out.lib->backend + ")");
    if (source == "kernel" || source == "second") check(runsCorrectly(*out.lib), source + ": kernel runs correctly (a * 2 + 1)");
    if (source == "other") check(runsCorrectly(*out.lib, 3.f, -1.f), "other: kernel runs correctly (a * 3 - 1)");
    if (out.cache == CompileOutcome::Cache::Disk) {
        check(!jit.plugin().loaded, "disk hit did not load the llvm plugin");
        check(!llvmMapped(), "no LLVM library mapped in this process");
    }
    std::printf("%s%s: total %.2f ms (cache %.2f ms, frontend %.2f ms, codegen %.2f ms)\n", indent, got.c_str(),
                out.totalMs, out.cacheMs, out.frontendMs, out.codegenMs);
}

// --child <cacheDir> <auto|llvm|cc> <kernel|second|other|twice|bench> <miss|disk|any> <expected lib backend>
// --child <cacheDir> <auto|llvm|cc> <kernel|bench> error <text the error must contain>
// "twice" compiles the units "kernel" and "second", one after the other.
static int childMain(char** argv) {
    indent = "    [child] ";
    const std::string dir = argv[0], backend = argv[1], source = argv[2], expectCache = argv[3], expectLib = argv[4];
    // A reader that trusts a /dev/zero entry grows without end: stop it at 4 GiB of address space.
    const rlim_t limit = rlim_t(4) << 30;
    const rlimit asLimit{limit, limit};
    setrlimit(RLIMIT_AS, &asLimit);
    Jit& jit = Jit::instance();
    jit.configure({parseBackend(backend), dir, 3});
    if (source == "twice") {
        childCompile(jit, backend, "kernel", expectCache, expectLib);
        childCompile(jit, backend, "second", expectCache, expectLib);
    } else {
        childCompile(jit, backend, source, expectCache, expectLib);
    }
    return failed ? 1 : 0;
}

// Starts this binary with args (and extra NAME=value environment entries; stderr to stderrPath
// when given); returns the pid.
static pid_t startSelf(const std::vector<std::string>& args, const std::vector<std::string>& extraEnv = {},
                       const std::string& stderrPath = "") {
    std::vector<std::string> argvStore{"/proc/self/exe"};
    argvStore.insert(argvStore.end(), args.begin(), args.end());
    std::vector<char*> argvPtrs, envPtrs;
    for (auto& a : argvStore) argvPtrs.push_back(a.data());
    argvPtrs.push_back(nullptr);
    std::vector<std::string> envStore(extraEnv);
    for (char** e = environ; *e; ++e) envStore.emplace_back(*e); // earlier entries win in getenv
    for (auto& e : envStore) envPtrs.push_back(e.data());
    envPtrs.push_back(nullptr);
    std::fflush(stdout);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (!stderrPath.empty())
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argvPtrs.data(), envPtrs.data());
    posix_spawn_file_actions_destroy(&actions);
    return rc == 0 ? pid : -1;
}

// True when the child exits with status 0. A child still running after two minutes is stuck (a
// read that blocks, a file read without end): it is killed and counts as a failure. A compile
// here takes well under a second; this is a hang guard, not a timing.
static bool waitOk(pid_t pid) {
    if (pid <= 0) return false;
    int status = 0;
    for (int waited = 0; waited < 120 * 20; ++waited) {
        const pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) return WIFEXITED(status) && WEXITSTATUS(status) == 0;
        if (r < 0) return false;
        usleep(50 * 1000);
    }
    std::printf("%s(child %d still running after 120 s: killed)\n", indent, int(pid));
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return false;
}

static bool child(const std::string& dir, const std::string& backend, const std::string& expectCache,
                  const std::string& expectLib, const std::vector<std::string>& env = {}) {
    return waitOk(startSelf({"--child", dir, backend, "kernel", expectCache, expectLib}, env));
}

// Runs a child compiling `source` with its stderr captured; returns whether it passed, and its stderr.
static bool childTold(const std::string& dir, const std::string& backend, const std::string& source,
                      const std::string& expectCache, const std::string& expectLib, std::string& err) {
    const std::string errPath = scratch + "/child-stderr-" + std::to_string(getpid());
    const bool ok = waitOk(startSelf({"--child", dir, backend, source, expectCache, expectLib}, {}, errPath));
    err = readText(errPath);
    fs::remove(errPath);
    return ok;
}

// The lines of text that tell the user a cache entry was bad.
static std::vector<std::string> cacheNotices(const std::string& err) {
    std::vector<std::string> lines;
    std::istringstream in(err);
    for (std::string line; std::getline(in, line);)
        if (contains(line, "fuselab: compile cache entry")) lines.push_back(line);
    return lines;
}

// ---- checks ----

static void testHashAndIdentity() {
    std::printf("-- hash, identity, cache directory\n");
    check(hashHex("") == "cbf29ce484222325", "hashHex(\"\") is the FNV-1a offset basis");
    check(hashHex("a") == "af63dc4c8601ec8c", "hashHex(\"a\") matches FNV-1a 64");
    check(hashHex("foobar") == "85944171f73967e8", "hashHex(\"foobar\") matches FNV-1a 64");
    Jit& jit = Jit::instance();
    jit.configure({Backend::SystemCC, "-", 3});
    const std::string id = jit.identity();
    check(id == jit.identity(), "identity() is deterministic");
    check(contains(id, "backend=cc") && contains(id, "-march=native") && contains(id, "cpu="),
          "identity names backend, flags and CPU features");
    jit.configure({Backend::SystemCC, "-", 2});
    check(jit.identity() != id, "identity depends on optLevel");
    check(jit.cacheDir().empty(), "cache dir \"-\" disables the disk cache");
    jit.configure({Backend::SystemCC, "/some/dir", 3});
    check(jit.cacheDir() == "/some/dir", "an explicit cache dir is used as is");
    const std::string saved = std::getenv("FUSELAB_CACHE_DIR");
    jit.configure({Backend::SystemCC, "", 3});
    check(jit.cacheDir() == saved, "empty cache dir: $FUSELAB_CACHE_DIR");
    unsetenv("FUSELAB_CACHE_DIR");
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    check(jit.cacheDir() == "/xdg/fuselab", "then $XDG_CACHE_HOME/fuselab");
    setenv("FUSELAB_CACHE_DIR", saved.c_str(), 1);
}

static void testBackend(const std::string& name, Backend backend) {
    std::printf("-- backend %s\n", name.c_str());
    Jit& jit = Jit::instance();
    const std::string dir = makeTempDir();
    jit.configure({backend, dir, 3});
    check(jit.backendName() == name, "backendName() is " + name);

    CompileOutcome out = jit.compile(kernelRequest());
    check(out.lib && out.error.empty(), "compiles the kernel" + (out.error.empty() ? "" : ": " + out.error));
    if (!out.lib) return;
    check(out.cache == CompileOutcome::Cache::Miss, "first compile is a miss");
    check(out.lib->backend == name, "lib backend is " + name);
    check(runsCorrectly(*out.lib), "kernel runs correctly");
    check(out.frontendMs > 0 && out.totalMs >= out.frontendMs + out.codegenMs, "timings are filled");
    check(!out.lib->objectPath.empty() && fs::exists(out.lib->objectPath), "shared object written to the disk cache");
    const std::string hash = fs::path(out.lib->objectPath).stem().string();
    check(listDir(dir) == std::vector<std::string>{hash + ".meta", hash + ".so"},
          "cache holds exactly <hash>.so and <hash>.meta (no leftovers)");
    const std::string asmText = jit.assembly(*out.lib);
    if (name == "llvm") {
        check(contains(out.lib->llvmIR, "define") && contains(out.lib->llvmIR, "@k("), "LLVM IR kept");
        check(contains(out.lib->llvmIR, "x float>"), "IR is vectorized (clang saw the target)");
        check(out.codegenMs > 0, "codegen time reported");
        check(contains(asmText, "k:") && contains(asmText, "ret"), "assembly from the IR");
    } else {
        check(contains(asmText, "<k>:"), "assembly by objdump of the cached object");
    }

    CompileOutcome again = jit.compile(kernelRequest());
    check(again.cache == CompileOutcome::Cache::Memory && again.lib == out.lib, "second compile hits the memory cache");
    jit.clearMemoryCache();
    CompileOutcome disk = jit.compile(kernelRequest());
    check(disk.cache == CompileOutcome::Cache::Disk && disk.lib && disk.lib->backend == "disk" && runsCorrectly(*disk.lib),
          "after clearMemoryCache(): a disk hit in this process");
    check(out.lib && runsCorrectly(*out.lib), "the earlier library stays valid");
    // Rewrite the entry in this process, then load it again: dlopen must not hand back the
    // library it loaded before from the same entry.
    writeText(out.lib->objectPath, "not an ELF file");
    jit.clearMemoryCache();
    CompileOutcome rebuilt = jit.compile(kernelRequest());
    check(rebuilt.cache == CompileOutcome::Cache::Miss && rebuilt.lib && runsCorrectly(*rebuilt.lib),
          "a corrupt entry is recompiled in the same process");
    jit.clearMemoryCache();
    CompileOutcome reloaded = jit.compile(kernelRequest());
    check(reloaded.cache == CompileOutcome::Cache::Disk && reloaded.lib && runsCorrectly(*reloaded.lib) &&
              reloaded.lib->lookup("k") != disk.lib->lookup("k"),
          "the rewritten entry loads as a new library");
    // as `fuselab bench` times a first call: entries this process wrote are passed over
    jit.clearMemoryCache();
    jit.setFreshProcessView(true);
    CompileOutcome fresh = jit.compile(kernelRequest());
    jit.setFreshProcessView(false);
    check(fresh.cache == CompileOutcome::Cache::Miss && fresh.lib && runsCorrectly(*fresh.lib),
          "setFreshProcessView(true): an entry this process wrote is rebuilt, not loaded");
    jit.clearMemoryCache();
    CompileOutcome seen = jit.compile(kernelRequest());
    check(seen.cache == CompileOutcome::Cache::Disk && seen.lib && runsCorrectly(*seen.lib),
          "setFreshProcessView(false): the disk entry is loaded again");

    CompileOutcome bad = jit.compile({"extern \"C\" void k(float* out) { out[0] = undeclared_thing; }", "bad-" + name, {"k"}});
    check(!bad.lib && contains(bad.error, "undeclared_thing") && contains(bad.error, "error"),
          "compile error returned as text: " + bad.error.substr(0, bad.error.find('\n')));
    CompileOutcome missing = jit.compile({kKernel, "missing-" + name, {"k", "nope"}});
    check(!missing.lib && contains(missing.error, "nope"), "a symbol the unit lacks fails the compile");
    CompileOutcome libc = jit.compile({kKernel, "libc-" + name, {"k", "memset"}});
    check(!libc.lib, "a process symbol (memset) does not count as defined by the unit");

    check(child(dir, name, "disk", "disk"), "a fresh process gets a disk hit");
}

static void testAuto(bool haveLLVM) {
    std::printf("-- backend auto\n");
    Jit& jit = Jit::instance();
    const std::string dir = makeTempDir();
    jit.configure({Backend::Auto, dir, 3});
    const std::string expected = haveLLVM ? "llvm" : "cc";
    check(jit.backendName() == expected, "auto picks " + expected);
    CompileOutcome out = jit.compile(kernelRequest("auto"));
    check(out.lib && out.lib->backend == expected && runsCorrectly(*out.lib), "auto compiles with " + expected);
    check(child(dir, "auto", "miss", expected), "a fresh process compiles another key");
    check(child(dir, "auto", "disk", "disk"), "and the next one loads it from disk, without LLVM");
    check(child(makeTempDir(), "auto", "miss", "cc", {"FUSELAB_LLVM_PLUGIN=/nonexistent/libfuselab_llvmjit.so"}),
          "auto falls back to cc when the plugin cannot load");
    if (haveLLVM)
        check(waitOk(startSelf({"--child", makeTempDir(), "llvm", "kernel", "error", "llvm backend unavailable"},
                               {"FUSELAB_LLVM_PLUGIN=/nonexistent/libfuselab_llvmjit.so"})),
              "backend llvm without a loadable plugin is an error, not a fallback");
}

// Removes whatever is at path (file, symlink, FIFO, directory) and writes text there.
static void replaceWith(const std::string& path, const std::string& text) {
    std::error_code ec;
    fs::remove_all(path, ec);
    writeText(path, text);
}

// Bytes no compiler wrote, of the given length (a fixed xorshift stream).
static std::string randomBytes(size_t n) {
    std::string s(n, '\0');
    std::uint64_t x = 0x9e3779b97f4a7c15ull;
    for (auto& c : s) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        c = char(x >> 56);
    }
    return s;
}

// The .so and .meta of the one entry in dir that is not in `before`.
static std::pair<std::string, std::string> newEntry(const std::string& dir, const std::vector<std::string>& before) {
    std::string so, meta;
    for (const auto& n : listDir(dir)) {
        if (std::find(before.begin(), before.end(), n) != before.end()) continue;
        (n.ends_with(".so") ? so : meta) = dir + "/" + n;
    }
    return {so, meta};
}

static void testCorruption(const std::string& backend, const std::string& expectLib) {
    std::printf("-- corrupt, hostile and foreign entries (%s)\n", backend.c_str());
    const std::string dir = makeTempDir();
    check(child(dir, backend, "miss", expectLib), "entry written");
    const auto [so, meta] = newEntry(dir, {});
    const std::string goodSo = readText(so), goodMeta = readText(meta);

    struct Damage {
        const char* what;
        bool onMeta; // the damaged file: the .meta, else the .so
        void (*apply)(const std::string& path);
    };
    const Damage damages[] = {
        {"truncated .so", false, [](const std::string& p) { fs::resize_file(p, fs::file_size(p) / 2); }},
        {"flipped bytes in .so", false,
         [](const std::string& p) {
             std::string bytes = readText(p);
             for (size_t i = bytes.size() / 3; i < bytes.size() / 3 + 16; ++i) bytes[i] = char(bytes[i] ^ 0x5a);
             writeText(p, bytes);
         }},
        {"one bit flipped in .so", false,
         [](const std::string& p) {
             std::string bytes = readText(p);
             bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x10);
             writeText(p, bytes);
         }},
        {"random bytes of the same size as .so (a foreign file)", false,
         [](const std::string& p) { writeText(p, randomBytes(fs::file_size(p))); }},
        {"random bytes as .meta (a foreign file)", true, [](const std::string& p) { writeText(p, randomBytes(4096)); }},
        {"garbage .meta", true, [](const std::string& p) { writeText(p, "garbage\n\x01\x02 size 7"); }},
        {"empty .so", false, [](const std::string& p) { writeText(p, ""); }},
        {"empty .meta", true, [](const std::string& p) { writeText(p, ""); }},
        {"missing .so", false, [](const std::string& p) { fs::remove(p); }},
        {"a directory in place of the .so", false, [](const std::string& p) { fs::remove(p); fs::create_directory(p); }},
        {"a directory in place of the .meta", true, [](const std::string& p) { fs::remove(p); fs::create_directory(p); }},
        {"a FIFO in place of the .so", false, [](const std::string& p) { fs::remove(p); mkfifo(p.c_str(), 0644); }},
        {"a FIFO in place of the .meta", true, [](const std::string& p) { fs::remove(p); mkfifo(p.c_str(), 0644); }},
        {"the .so a symlink to /dev/zero", false, [](const std::string& p) { fs::remove(p); fs::create_symlink("/dev/zero", p); }},
        {"the .meta a symlink to /dev/zero", true, [](const std::string& p) { fs::remove(p); fs::create_symlink("/dev/zero", p); }},
        {"an unreadable .so (mode 000)", false, [](const std::string& p) { fs::permissions(p, fs::perms::none); }},
    };
    for (const auto& d : damages) {
        const std::string what = d.what;
        // llvm: the loading code is the backend's too; two cases suffice
        if (backend != "cc" && what != "flipped bytes in .so" && what != "a FIFO in place of the .meta") continue;
        if (contains(what, "mode 000") && geteuid() == 0) {
            std::printf("%sskip %s: running as root, permissions do not stop a read\n", indent, d.what);
            continue;
        }
        replaceWith(so, goodSo);
        replaceWith(meta, goodMeta);
        const std::string damaged = d.onMeta ? meta : so;
        d.apply(damaged);
        std::string err;
        check(childTold(dir, backend, "kernel", "miss", expectLib, err), what + ": ignored, recompiled, runs correctly");
        const auto notices = cacheNotices(err);
        check(notices.size() == 1 && contains(notices[0], damaged + " was ") && contains(notices[0], "; rebuilt"),
              what + ": the user is told once, naming the file: " + (notices.empty() ? "(nothing)" : notices[0]));
        check(childTold(dir, backend, "kernel", "disk", "disk", err) && cacheNotices(err).empty(),
              what + ": entry rewritten and loads again, nothing to tell");
    }
    check(listDir(dir).size() == 2, "no temporary files left in the cache dir");

    // Two entries damaged: one process, one line.
    std::vector<std::string> before = listDir(dir);
    check(waitOk(startSelf({"--child", dir, backend, "second", "miss", expectLib})), "a second unit's entry written");
    const auto [so2, meta2] = newEntry(dir, before);
    for (const std::string& p : {so, so2}) {
        std::string bytes = readText(p);
        bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x01);
        writeText(p, bytes);
    }
    std::string err;
    check(!so2.empty() && childTold(dir, backend, "twice", "miss", expectLib, err),
          "two damaged entries in one process: both rebuilt, both run correctly");
    check(cacheNotices(err).size() == 1, "and the user is told once per process (" + std::to_string(cacheNotices(err).size()) + " lines)");
}

// Two units that define the same symbol, their entries swapped on disk: each file is intact (size,
// hash, symbols all check out), but neither belongs under the other's name.
static void testSwappedEntries(const std::string& backend, const std::string& expectLib) {
    std::printf("-- swapped entries (%s)\n", backend.c_str());
    const std::string dir = makeTempDir();
    check(waitOk(startSelf({"--child", dir, backend, "kernel", "miss", expectLib})), "entry of k = a * 2 + 1 written");
    const auto [soA, metaA] = newEntry(dir, {});
    const std::vector<std::string> before = listDir(dir);
    check(waitOk(startSelf({"--child", dir, backend, "other", "miss", expectLib})), "entry of k = a * 3 - 1 written");
    const auto [soB, metaB] = newEntry(dir, before);
    check(!soA.empty() && !soB.empty() && soA != soB, "two entries under two names");
    if (soA.empty() || soB.empty()) return;
    const std::string tmp = dir + "/swap";
    for (const auto& [x, y] : {std::pair{soA, soB}, std::pair{metaA, metaB}}) {
        fs::rename(x, tmp);
        fs::rename(y, x);
        fs::rename(tmp, y);
    }
    writeText(dir + "/notes.txt", randomBytes(300)); // a foreign file beside the entries
    std::string err;
    check(childTold(dir, backend, "kernel", "miss", expectLib, err), "kernel: the swapped entry is not loaded; rebuilt, runs correctly");
    auto notices = cacheNotices(err);
    check(notices.size() == 1 && contains(notices[0], metaA) && contains(notices[0], "another unit") && contains(notices[0], "rebuilt"),
          "and the user is told: " + (notices.empty() ? "(nothing)" : notices[0]));
    check(childTold(dir, backend, "other", "miss", expectLib, err), "other: the swapped entry is not loaded; rebuilt, runs correctly");
    check(childTold(dir, backend, "kernel", "disk", "disk", err) && cacheNotices(err).empty(), "kernel: the rewritten entry loads");
    check(childTold(dir, backend, "other", "disk", "disk", err) && cacheNotices(err).empty(), "other: the rewritten entry loads");
    check(fs::exists(dir + "/notes.txt") && readText(dir + "/notes.txt") == randomBytes(300), "the foreign file is left alone");
}

// A cache key covers what the compiler compiles: comments (which name the script and its lines)
// do not count, string literals that look like comments do.
static void testCommentsAndKeys() {
    std::printf("-- keys ignore comments\n");
    Jit& jit = Jit::instance();
    jit.configure({Backend::SystemCC, makeTempDir(), 3});
    auto commented = [](const std::string& script) {
        return "// kernels of " + script + ", lines 3-4\n" + std::string(kKernel) + "/* from " + script + " */\n";
    };
    CompileOutcome a = jit.compile({commented("/home/a/model.py"), "commented", {"k"}});
    check(a.lib && a.cache == CompileOutcome::Cache::Miss && runsCorrectly(*a.lib), "a commented unit compiles");
    jit.clearMemoryCache();
    CompileOutcome b = jit.compile({commented("/srv/elsewhere/copy of model.py"), "commented", {"k"}});
    check(b.lib && b.cache == CompileOutcome::Cache::Disk && runsCorrectly(*b.lib),
          std::string("the same unit with other comments hits the disk entry (got ") + cacheName(b.cache) + ")");

    using NameFn = const char* (*)();
    const std::string literals[][2] = {
        {"extern \"C\" const char* name() { return \"a // b\"; }\n", "a // b"},
        {"extern \"C\" const char* name() { return \"a // c\"; }\n", "a // c"},
        {"extern \"C\" const char* name() { return \"a /* c */\"; }\n", "a /* c */"},
        {"extern \"C\" const char* name() { return R\"x(// \"d\" )x\"; }\n", "// \"d\" "},
        {"extern \"C\" const char* name() { return R\"x(// \"e\" )x\"; }\n", "// \"e\" "},
        {"extern \"C\" const char* name() { return \"\\\" // f\"; }\n", "\" // f"},
        {"extern \"C\" const char* name() { return \"\\\" // g\"; }\n", "\" // g"},
        {"extern \"C\" const char* name() { return 1'0 == 10 ? \"' // h\" : \"\"; }\n", "' // h"},
        {"extern \"C\" const char* name() { return 1'0 == 10 ? \"' // i\" : \"\"; }\n", "' // i"},
    };
    for (const auto& [source, text] : literals) {
        jit.clearMemoryCache();
        CompileOutcome out = jit.compile({source, "literal", {"name"}});
        auto fn = out.lib ? reinterpret_cast<NameFn>(out.lib->lookup("name")) : nullptr;
        check(fn && out.cache == CompileOutcome::Cache::Miss && std::string(fn()) == text,
              "a unit returning \"" + text + "\" is its own entry (" + cacheName(out.cache) + ")" + (out.error.empty() ? "" : ": " + out.error));
    }
}

static void testConcurrency(bool haveLLVM) {
    std::printf("-- concurrency\n");
    Jit& jit = Jit::instance();
    for (Backend backend : {Backend::SystemCC, Backend::LLVM}) {
        if (backend == Backend::LLVM && !haveLLVM) continue;
        const std::string name = backend == Backend::LLVM ? "llvm" : "cc";
        jit.configure({backend, makeTempDir(), 3});
        CompileOutcome a, b, c;
        std::thread t1([&] { a = jit.compile(kernelRequest("threads")); });
        std::thread t2([&] { b = jit.compile(kernelRequest("threads")); });
        std::thread t3([&] { c = jit.compile(kernelRequest("threads-other")); });
        t1.join();
        t2.join();
        t3.join();
        check(a.lib && a.lib == b.lib, name + ": two threads compiling one unit share one result");
        check((a.cache == CompileOutcome::Cache::Miss) != (b.cache == CompileOutcome::Cache::Miss), name + ": and compile it once");
        check(c.lib && c.lib != a.lib && runsCorrectly(*c.lib) && runsCorrectly(*a.lib), name + ": a third thread compiles another unit");
    }

    // Four processes fill one empty cache at once: all right, no entry taken for a bad one.
    for (const std::string backend : {"cc", "llvm"}) {
        if (backend == "llvm" && !haveLLVM) continue;
        const std::string shared = makeTempDir();
        std::vector<pid_t> pids;
        for (int i = 0; i < 4; ++i)
            pids.push_back(startSelf({"--child", shared, backend, "kernel", "any", backend}, {}, shared + ".err" + std::to_string(i)));
        bool allOk = true;
        size_t notices = 0;
        for (int i = 0; i < 4; ++i) {
            allOk = waitOk(pids[i]) && allOk;
            const std::string errPath = shared + ".err" + std::to_string(i);
            notices += cacheNotices(readText(errPath)).size();
            fs::remove(errPath);
        }
        check(allOk, backend + ": four processes writing one entry concurrently all succeed and run correctly");
        check(notices == 0, backend + ": none of them took a half-written entry for a bad one (" + std::to_string(notices) + " notices)");
        check(child(shared, backend, "disk", "disk"), backend + ": and they leave a valid entry");
        check(listDir(shared).size() == 2, backend + ": and no temporary files");
    }
}

static void testNoDiskCache() {
    std::printf("-- disk cache disabled\n");
    Jit& jit = Jit::instance();
    const std::string envDir = std::getenv("FUSELAB_CACHE_DIR");
    jit.configure({Backend::SystemCC, "-", 3});
    CompileOutcome out = jit.compile(kernelRequest("nodisk"));
    check(out.lib && out.cache == CompileOutcome::Cache::Miss && runsCorrectly(*out.lib), "compiles without a disk cache");
    check(out.lib && out.lib->objectPath.empty(), "no object path");
    check(listDir(envDir).empty(), "nothing written to $FUSELAB_CACHE_DIR");
    check(out.lib && contains(jit.assembly(*out.lib), "no assembly"), "assembly() explains why there is none");
    check(jit.compile(kernelRequest("nodisk")).cache == CompileOutcome::Cache::Memory, "memory cache still works");
    check(child("-", "cc", "miss", "cc"), "a fresh process compiles again");
}

// ---- benchmark ----

// ~100 lines of generated-looking kernels; variant changes constants only.
static std::string benchSource(int variant) {
    std::string s = R"(// fused kernels, variant @V@
extern "C" void bias_gelu(float* __restrict out, const float* __restrict x, const float* __restrict b, long rows, long cols) {
    for (long r = 0; r < rows; ++r)
        for (long c = 0; c < cols; ++c) {
            float v = x[r * cols + c] + b[c];
            float t = 0.7978845608f * (v + 0.044715f * v * v * v);
            float e = __builtin_expf(2.f * t);
            out[r * cols + c] = 0.5f * v * (1.f + (e - 1.f) / (e + 1.f)) * @S@f;
        }
}
extern "C" void softmax_rows(float* __restrict out, const float* __restrict x, long rows, long cols) {
    for (long r = 0; r < rows; ++r) {
        const float* in = x + r * cols;
        float* o = out + r * cols;
        float m = in[0];
        for (long c = 1; c < cols; ++c) m = in[c] > m ? in[c] : m;
        float sum = 0.f;
        for (long c = 0; c < cols; ++c) {
            float e = __builtin_expf((in[c] - m) * @S@f);
            o[c] = e;
            sum += e;
        }
        float inv = 1.f / sum;
        for (long c = 0; c < cols; ++c) o[c] *= inv;
    }
}
extern "C" void layernorm_rows(float* __restrict out, const float* __restrict x, const float* __restrict w,
                               const float* __restrict b, long rows, long cols) {
    for (long r = 0; r < rows; ++r) {
        const float* in = x + r * cols;
        float mean = 0.f, var = 0.f;
        for (long c = 0; c < cols; ++c) mean += in[c];
        mean /= float(cols);
        for (long c = 0; c < cols; ++c) {
            float d = in[c] - mean;
            var += d * d;
        }
        float inv = 1.f / __builtin_sqrtf(var / float(cols) + 1e-5f);
        for (long c = 0; c < cols; ++c) out[r * cols + c] = (in[c] - mean) * inv * w[c] + b[c];
    }
}
extern "C" void matmul(float* __restrict out, const float* __restrict a, const float* __restrict b, long m, long n, long k) {
    for (long i = 0; i < m; ++i) {
        float* o = out + i * n;
        for (long j = 0; j < n; ++j) o[j] = 0.f;
        for (long p = 0; p < k; ++p) {
            float av = a[i * k + p] * @S@f;
            const float* brow = b + p * n;
            for (long j = 0; j < n; ++j) o[j] += av * brow[j];
        }
    }
}
extern "C" void add_relu(float* __restrict out, const float* __restrict a, const float* __restrict b, long n) {
    for (long i = 0; i < n; ++i) {
        float v = a[i] + b[i] * @S@f;
        out[i] = v > 0.f ? v : 0.f;
    }
}
extern "C" void sum_cols(float* __restrict out, const float* __restrict x, long rows, long cols) {
    for (long c = 0; c < cols; ++c) out[c] = 0.f;
    for (long r = 0; r < rows; ++r)
        for (long c = 0; c < cols; ++c) out[c] += x[r * cols + c];
}
extern "C" void adam_step(float* __restrict p, float* __restrict m, float* __restrict v, const float* __restrict g,
                          long n, float lr, float b1, float b2, float eps, long step) {
    float c1 = 1.f, c2 = 1.f;
    for (long s = 0; s < step; ++s) {
        c1 *= b1;
        c2 *= b2;
    }
    for (long i = 0; i < n; ++i) {
        m[i] = b1 * m[i] + (1.f - b1) * g[i];
        v[i] = b2 * v[i] + (1.f - b2) * g[i] * g[i];
        float mh = m[i] / (1.f - c1), vh = v[i] / (1.f - c2);
        p[i] -= lr * mh / (__builtin_sqrtf(vh) + eps) * @S@f;
    }
}
extern "C" void conv1d(float* __restrict out, const float* __restrict x, const float* __restrict w, long n, long taps) {
    for (long i = 0; i + taps <= n; ++i) {
        float acc = 0.f;
        for (long t = 0; t < taps; ++t) acc += x[i + t] * w[t];
        out[i] = acc * @S@f;
    }
}
extern "C" void mse_grad(float* __restrict g, const float* __restrict y, const float* __restrict t, long n) {
    const float scale = 2.f / float(n);
    for (long i = 0; i < n; ++i) g[i] = scale * (y[i] - t[i]) * @S@f;
}
extern "C" float dot(const float* __restrict a, const float* __restrict b, long n) {
    float acc = 0.f;
    for (long i = 0; i < n; ++i) acc += a[i] * b[i];
    return acc * @S@f;
}
)";
    auto replaceAll = [&](const std::string& from, const std::string& to) {
        for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
    };
    replaceAll("@V@", std::to_string(variant));
    replaceAll("@S@", "1.00" + std::to_string(variant));
    return s;
}

static void report(const char* what, const CompileOutcome& out) {
    std::printf("%-44s %s: total %8.2f ms  frontend %8.2f  codegen %7.2f  cache %6.2f%s%s\n", what, cacheName(out.cache),
                out.totalMs, out.frontendMs, out.codegenMs, out.cacheMs, out.error.empty() ? "" : "  ERROR ",
                out.error.substr(0, 200).c_str());
}

static int benchMain() {
    Jit& jit = Jit::instance();
    const std::string dir = makeTempDir();
    const std::vector<std::string> symbols{"bias_gelu", "softmax_rows", "layernorm_rows", "matmul", "add_relu",
                                           "sum_cols", "adam_step", "conv1d", "mse_grad", "dot"};
    int lines = 0;
    for (char c : benchSource(0)) lines += c == '\n';
    std::printf("bench source: %d lines, %zu kernels; cache dir %s\n", lines, symbols.size(), dir.c_str());

    jit.configure({Backend::Auto, dir, 3});
    if (jit.backendName() == "llvm") {
        auto t0 = std::chrono::steady_clock::now();
        CompileOutcome cold = jit.compile({benchSource(0), "bench", symbols});
        double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        report("llvm, cold (first in process, plugin load)", cold);
        std::printf("  plugin dlopen + entry: %.2f ms; wall %.2f ms\n", jit.plugin().loadMs, wall);
        report("llvm, second source, same process", jit.compile({benchSource(1), "bench", symbols}));
        report("llvm, third source, same process", jit.compile({benchSource(2), "bench", symbols}));
        for (int i = 0; i < 3; ++i) {
            std::printf("fresh process, disk hit of the llvm entry:\n");
            waitOk(startSelf({"--child", dir, "auto", "bench", "disk", "disk"}));
        }
    } else {
        std::printf("llvm plugin not available: %s\n", jit.plugin().error.c_str());
    }
    jit.configure({Backend::SystemCC, dir, 3});
    report("cc (system compiler)", jit.compile({benchSource(0), "bench", symbols}));
    report("cc, second source", jit.compile({benchSource(1), "bench", symbols}));
    for (int i = 0; i < 3; ++i) {
        std::printf("fresh process, disk hit of the cc entry:\n");
        waitOk(startSelf({"--child", dir, "cc", "bench", "disk", "disk"}));
    }
    return 0;
}

int main(int argc, char** argv) {
    if (argc >= 7 && std::string(argv[1]) == "--child") return childMain(argv + 2);
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/fuselab-jit-test-XXXXXX";
    if (!mkdtemp(pattern.data())) {
        std::printf("FAIL cannot create a temporary directory\n");
        return 1;
    }
    scratch = pattern;
    // Never touch the user's cache: the default location points into the scratch directory too.
    setenv("FUSELAB_CACHE_DIR", makeTempDir().c_str(), 1);
    if (argc >= 2 && std::string(argv[1]) == "--bench") {
        int rc = benchMain();
        fs::remove_all(scratch);
        return rc;
    }

    testHashAndIdentity();
    Jit& jit = Jit::instance();
    jit.configure({Backend::Auto, "-", 3});
    const Jit::PluginInfo plugin = jit.plugin();
    const bool haveLLVM = !plugin.path.empty();
    std::printf("llvm plugin: %s\n", haveLLVM ? plugin.path.c_str() : "not found (llvm checks skipped)");
    check(!plugin.loaded && !llvmMapped(), "the plugin is not loaded before a compile needs it");
    if (haveLLVM) testBackend("llvm", Backend::LLVM);
    testBackend("cc", Backend::SystemCC);
    testAuto(haveLLVM);
    testCorruption("cc", "cc");
    if (haveLLVM) testCorruption("llvm", "llvm");
    testSwappedEntries("cc", "cc");
    if (haveLLVM) testSwappedEntries("llvm", "llvm");
    testCommentsAndKeys();
    testConcurrency(haveLLVM);
    testNoDiskCache();

    fs::remove_all(scratch);
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

#include "core/script/stdlib.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

#include "core/script/ast.h"
#include "core/script/interp.h"
#include "core/script/stdlib_data.h"

extern "C" char** environ;

namespace fl::script {

const char* bundledModule(const std::string& name) {
    for (const BundledSource* b = kStdlib; b->name; ++b)
        if (name == b->name) return b->source;
    return nullptr;
}

std::shared_ptr<Module> parsedBundled(const std::string& name, const char* source) {
    static std::mutex mu;
    static std::unordered_map<std::string, std::shared_ptr<Module>> cache;
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(name);
    if (it != cache.end()) return it->second;
    auto mod = parseModule(source, "<fuselab:stdlib/" + name + ".py>");
    cache[name] = mod;
    return mod;
}

void parseAllBundled() {
    for (const BundledSource* b = kStdlib; b->name; ++b) parsedBundled(b->name, b->source);
}

namespace {
// MT19937 as its authors published it (init_by_array seeding), the generator of CPython's random.
struct MersenneTwister {
    uint32_t mt[624];
    int i = 625;
    void seedOne(uint32_t s) {
        mt[0] = s;
        for (i = 1; i < 624; ++i) mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + uint32_t(i);
    }
    void seedWords(const std::vector<uint32_t>& key) {
        seedOne(19650218u);
        int a = 1, b = 0;
        size_t n = key.size();
        for (size_t k = std::max<size_t>(624, n); k; --k) {
            mt[a] = (mt[a] ^ ((mt[a - 1] ^ (mt[a - 1] >> 30)) * 1664525u)) + key[size_t(b)] + uint32_t(b);
            ++a, ++b;
            if (a >= 624) { mt[0] = mt[623]; a = 1; }
            if (size_t(b) >= n) b = 0;
        }
        for (int k = 623; k; --k) {
            mt[a] = (mt[a] ^ ((mt[a - 1] ^ (mt[a - 1] >> 30)) * 1566083941u)) - uint32_t(a);
            ++a;
            if (a >= 624) { mt[0] = mt[623]; a = 1; }
        }
        mt[0] = 0x80000000u;
        i = 624;
    }
    uint32_t next() {
        if (i >= 624) {
            for (int k = 0; k < 624; ++k) {
                uint32_t y = (mt[k] & 0x80000000u) | (mt[(k + 1) % 624] & 0x7fffffffu);
                mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
            }
            i = 0;
        }
        uint32_t y = mt[i++];
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680u;
        y ^= (y << 15) & 0xefc60000u;
        y ^= y >> 18;
        return y;
    }
};
} // namespace

// Long: a table, one short entry per helper.
void installStdlibHelpers(Interp& in, std::unordered_map<std::string, Value>& vars) {
    vars["_own_attr"] = in.makeBuiltin("_own_attr", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 3 || !a.pos[0].is(OK::Class) || !a.pos[1].isStr()) in.raiseType("_own_attr(cls, name, default)");
        auto* c = a.pos[0].as<ClassObj>();
        auto it = c->attrs.find(strOf(a.pos[1]));
        return it == c->attrs.end() ? a.pos[2] : it->second;
    });
    vars["_base"] = in.makeBuiltin("_base", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 1 || !a.pos[0].is(OK::Class)) in.raiseType("_base(cls)");
        auto* c = a.pos[0].as<ClassObj>();
        return c->base && c->base.get() != in.objectCls.get() ? Value(c->base) : Value();
    });
    vars["_OrderedDict"] = Value(in.orderedDictCls);
    // for sys and os: what a script may know of its process, and nothing it may change
    {
        std::vector<Value> argv;
        for (auto& x : in.options().argv) argv.push_back(makeStr(x));
        vars["_argv"] = makeList(std::move(argv));
        std::vector<Value> paths;
        for (auto& x : in.options().importPaths) paths.push_back(makeStr(x));
        vars["_import_paths"] = makeList(std::move(paths));
    }
    // _mt(): (seed, genrand32, random) sharing one Mersenne Twister, seeded as CPython's random
    // module seeds it (init_by_array over the seed's 32-bit words), so a script's random.seed(0)
    // gives the numbers python3 gives
    vars["_mt"] = in.makeBuiltin("_mt", [](Interp& in, const Value&, CallArgs&) {
        auto mt = std::make_shared<MersenneTwister>();
        mt->seedWords({0});
        Value seed = in.makeBuiltin("seed", [mt](Interp& in, const Value&, CallArgs& a) {
            if (a.pos.size() != 1 || !a.pos[0].isInt()) in.raiseType("_mt seed expects an int");
            uint64_t v = uint64_t(a.pos[0].i() < 0 ? -(a.pos[0].i() + 1) + 1 : a.pos[0].i()); // abs, INT64_MIN included
            std::vector<uint32_t> words;
            while (v) { words.push_back(uint32_t(v)); v >>= 32; }
            if (words.empty()) words.push_back(0);
            mt->seedWords(words);
            return Value();
        });
        Value gen = in.makeBuiltin("genrand32", [mt](Interp&, const Value&, CallArgs&) { return Value::integer(int64_t(mt->next())); });
        Value rnd = in.makeBuiltin("random", [mt](Interp&, const Value&, CallArgs&) {
            uint32_t a = mt->next() >> 5, b = mt->next() >> 6;
            return Value::real((a * 67108864.0 + b) * (1.0 / 9007199254740992.0));
        });
        return makeTuple({seed, gen, rnd});
    });
    // _clock(0) wall time, (1) a monotonic clock, (2) this process's CPU time, (3, s) sleep s
    // seconds, waking every 10 ms to honour the run's timeout and cancellation
    vars["_clock"] = in.makeBuiltin("_clock", [](Interp& in, const Value&, CallArgs& a) {
        int64_t kind = !a.pos.empty() && a.pos[0].isInt() ? a.pos[0].i() : 0;
        using namespace std::chrono;
        if (kind == 0) return Value::real(duration<double>(system_clock::now().time_since_epoch()).count());
        if (kind == 1) return Value::real(duration<double>(steady_clock::now().time_since_epoch()).count());
        if (kind == 2) return Value::real(double(std::clock()) / CLOCKS_PER_SEC);
        double secs = a.pos.size() > 1 && a.pos[1].isNumber() ? a.pos[1].num() : 0;
        auto until = steady_clock::now() + duration_cast<steady_clock::duration>(duration<double>(std::min(secs, 1e7)));
        while (steady_clock::now() < until) {
            in.poll();
            std::this_thread::sleep_for(std::min<steady_clock::duration>(milliseconds(10), until - steady_clock::now()));
        }
        return Value();
    });
    // _strftime(format, seconds since the epoch, local?): time.strftime / logging's asctime
    vars["_strftime"] = in.makeBuiltin("_strftime", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 3 || !a.pos[0].isStr() || !a.pos[1].isNumber()) in.raiseType("_strftime(format, seconds, local)");
        std::time_t t = std::time_t(a.pos[1].num());
        std::tm tm{};
        if (in.truthy(a.pos[2])) localtime_r(&t, &tm);
        else gmtime_r(&t, &tm);
        char buf[512];
        size_t n = std::strftime(buf, sizeof buf, strOf(a.pos[0]).c_str(), &tm);
        return makeStr(std::string(buf, n));
    });
    // _caller(n): (file, line, source line, function) of the frame n levels up from the bundled function
    // that asks (warnings.warn's stacklevel)
    vars["_caller"] = in.makeBuiltin("_caller", [](Interp& in, const Value&, CallArgs& a) {
        int64_t n = !a.pos.empty() && a.pos[0].isInt() ? a.pos[0].i() : 1;
        auto& fr = in.frames();
        int64_t idx = int64_t(fr.size()) - n;
        if (idx < 0) idx = 0;
        if (fr.empty()) return makeTuple({makeStr("sys"), Value::integer(1), makeStr(""), makeStr("<module>")});
        const Frame& f = fr[size_t(idx)];
        std::string line;
        if (f.module && f.line >= 1 && size_t(f.line) <= f.module->lines.size()) {
            line = f.module->lines[size_t(f.line) - 1];
            size_t b = line.find_first_not_of(" \t"), e = line.find_last_not_of(" \t\r");
            line = b == std::string::npos ? "" : line.substr(b, e - b + 1);
        }
        return makeTuple({makeStr(f.module ? f.module->filename : "sys"), Value::integer(f.line), makeStr(line), makeStr(f.function)});
    });
    // for copy: a new instance of an object's class made without __init__, its attributes as a
    // dict, and setting one without the class's __setattr__ (nn.Module and frozen dataclasses
    // have their own)
    vars["_new_like"] = in.makeBuiltin("_new_like", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 1 || !a.pos[0].is(OK::Instance)) in.raiseType("_new_like(instance)");
        auto o = std::make_shared<InstanceObj>();
        o->cls = a.pos[0].as<InstanceObj>()->cls;
        return Value(o);
    });
    vars["_attrs"] = in.makeBuiltin("_attrs", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 1 || !a.pos[0].is(OK::Instance)) in.raiseType("_attrs(instance)");
        auto d = std::make_shared<DictObj>(); // in the order they were set, as __dict__ has them
        for (auto& [k, v] : a.pos[0].as<InstanceObj>()->attrs) d->map.set(makeStr(k), v);
        return Value(d);
    });
    vars["_set_raw"] = in.makeBuiltin("_set_raw", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 3 || !a.pos[0].is(OK::Instance) || !a.pos[1].isStr()) in.raiseType("_set_raw(instance, name, value)");
        in.setInstanceAttr(a.pos[0].as<InstanceObj>(), strOf(a.pos[1]), a.pos[2]);
        return Value();
    });
    vars["_write"] = in.makeBuiltin("_write", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 2 || !a.pos[0].isInt() || !a.pos[1].isStr()) in.raiseType("_write(stream, text)");
        (a.pos[0].i() == 2 ? in.options().err : in.options().out)(strOf(a.pos[1]));
        return Value::integer(int64_t(strOf(a.pos[1]).size()));
    });
    vars["_environ"] = in.makeBuiltin("_environ", [](Interp& in, const Value&, CallArgs&) {
        auto d = std::make_shared<DictObj>();
        std::vector<std::pair<std::string, std::string>> kv;
        for (char** e = environ; e && *e; ++e) {
            std::string s = *e;
            auto eq = s.find('=');
            if (eq != std::string::npos) kv.emplace_back(s.substr(0, eq), s.substr(eq + 1));
        }
        for (auto& [k, v] : kv) d->map.set(makeStr(k), makeStr(v));
        (void)in;
        return Value(d);
    });
    // _stat(path): 0 missing, 1 file, 2 folder, 3 something else (existence is all a script may learn)
    vars["_stat"] = in.makeBuiltin("_stat", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 1 || !a.pos[0].isStr()) in.raiseType("_stat(path)");
        std::error_code ec;
        auto st = std::filesystem::status(strOf(a.pos[0]), ec);
        if (ec || !std::filesystem::exists(st)) return Value::integer(0);
        return Value::integer(std::filesystem::is_regular_file(st) ? 1 : std::filesystem::is_directory(st) ? 2 : 3);
    });
    vars["_getcwd"] = in.makeBuiltin("_getcwd", [](Interp&, const Value&, CallArgs&) {
        std::error_code ec;
        return makeStr(std::filesystem::current_path(ec).string());
    });
    vars["_cpu_count"] = in.makeBuiltin("_cpu_count", [](Interp&, const Value&, CallArgs&) {
        return Value::integer(int64_t(std::max(1u, std::thread::hardware_concurrency())));
    });
    vars["_recursion_limit"] = in.makeBuiltin("_recursion_limit", [](Interp& in, const Value&, CallArgs& a) {
        if (!a.pos.empty() && a.pos[0].isInt()) {
            if (a.pos[0].i() < 1) in.raiseValue("recursion limit must be greater or equal than 1");
            // deeper than the interpreter's stack allows is refused, not granted
            in.options().recursionLimit = int(std::min<int64_t>(a.pos[0].i(), 5000));
        }
        return Value::integer(in.options().recursionLimit);
    });
    // _params(fn): [(name, kind, default or _empty), ...] of a function of the script's, kinds as
    // inspect.Parameter's (0 positional-only, 1 positional-or-keyword, 2 *args, 3 keyword-only,
    // 4 **kwargs); None for anything else (a builtin has no signature to show)
    vars["_params"] = in.makeBuiltin("_params", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 2) in.raiseType("_params(fn, empty)");
        if (!a.pos[0].is(OK::Function)) return Value();
        auto* fn = a.pos[0].as<FunctionObj>();
        const Arguments& args = fn->args();
        const Value& empty = a.pos[1];
        std::vector<Value> out;
        size_t firstDefault = args.args.size() - fn->defaults.size();
        for (size_t i = 0; i < args.args.size(); ++i) {
            int64_t kind = i < args.posonly ? 0 : 1;
            out.push_back(makeTuple({makeStr(args.args[i].name), Value::integer(kind), i >= firstDefault ? fn->defaults[i - firstDefault] : empty}));
        }
        if (args.vararg) out.push_back(makeTuple({makeStr(args.vararg->name), Value::integer(2), empty}));
        for (size_t i = 0; i < args.kwonly.size(); ++i) {
            Value d = i < fn->kwDefaults.size() && !fn->kwDefaults[i].isMissing() ? fn->kwDefaults[i] : empty;
            out.push_back(makeTuple({makeStr(args.kwonly[i].name), Value::integer(3), d}));
        }
        if (args.kwarg) out.push_back(makeTuple({makeStr(args.kwarg->name), Value::integer(4), empty}));
        return makeList(std::move(out));
    });
    // _names(obj): the attribute names of a script class (its bases' too) or instance, sorted:
    // what dir() would list of them (dir itself is not available to scripts)
    vars["_names"] = in.makeBuiltin("_names", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 1) in.raiseType("_names(obj)");
        std::set<std::string> names;
        const ClassObj* c = nullptr;
        if (a.pos[0].is(OK::Instance)) {
            for (auto& [k, v] : a.pos[0].as<InstanceObj>()->attrs) names.insert(k);
            c = a.pos[0].as<InstanceObj>()->cls.get();
        } else if (a.pos[0].is(OK::Class)) {
            c = a.pos[0].as<ClassObj>();
        }
        for (; c; c = c->base.get())
            for (auto& [k, v] : c->attrs) names.insert(k);
        std::vector<Value> out;
        for (auto& n : names) out.push_back(makeStr(n));
        return makeList(std::move(out));
    });
    vars["_del_own_attr"] = in.makeBuiltin("_del_own_attr", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 2 || !a.pos[0].is(OK::Class) || !a.pos[1].isStr() || a.pos[0].as<ClassObj>()->isBuiltinType) in.raiseType("_del_own_attr(cls, name)");
        a.pos[0].as<ClassObj>()->attrs.erase(strOf(a.pos[1]));
        return Value();
    });
}

// ---------------------------------------------------------------- where imports look
std::vector<std::string> importPathsFor(const std::string& scriptPath, bool environment) {
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    std::error_code ec;
    auto add = [&](const fs::path& p) {
        if (p.empty() || !fs::is_directory(p, ec)) return;
        std::string s = fs::absolute(p, ec).lexically_normal().string();
        if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    };
    if (!scriptPath.empty() && fs::is_regular_file(scriptPath, ec)) {
        fs::path dir = fs::path(scriptPath).parent_path();
        add(dir.empty() ? fs::path(".") : dir);
    }
    if (!environment) return out;
    if (const char* pp = std::getenv("PYTHONPATH")) {
        std::string all = pp;
        for (size_t b = 0; b <= all.size();) {
            size_t e = all.find(':', b);
            if (e == std::string::npos) e = all.size();
            if (e > b) add(all.substr(b, e - b));
            b = e + 1;
        }
    }
    // python3.N: what /usr/bin/python3 names, else the newest /usr/lib/python3.N
    std::string version;
    fs::path target = fs::read_symlink("/usr/bin/python3", ec);
    if (!ec && target.filename().string().rfind("python3.", 0) == 0) version = target.filename().string();
    if (version.empty()) {
        int best = -1;
        for (auto& e : fs::directory_iterator("/usr/lib", ec)) {
            std::string n = e.path().filename().string();
            if (n.rfind("python3.", 0) == 0 && n.find_first_not_of("0123456789", 8) == std::string::npos && n.size() > 8 && std::stoi(n.substr(8)) > best) {
                best = std::stoi(n.substr(8));
                version = n;
            }
        }
    }
    if (const char* venv = std::getenv("VIRTUAL_ENV"); venv && !version.empty()) add(fs::path(venv) / "lib" / version / "site-packages");
    if (const char* home = std::getenv("HOME"); home && !version.empty()) add(fs::path(home) / ".local" / "lib" / version / "site-packages");
    if (!version.empty()) add(fs::path("/usr/local/lib") / version / "dist-packages");
    add("/usr/lib/python3/dist-packages");
    return out;
}

} // namespace fl::script

#include "core/script/stdlib.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
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
    // inspect.Parameter's (1 positional-or-keyword, 2 *args, 3 keyword-only, 4 **kwargs); None
    // for anything else (a builtin has no signature to show)
    vars["_params"] = in.makeBuiltin("_params", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 2) in.raiseType("_params(fn, empty)");
        if (!a.pos[0].is(OK::Function)) return Value();
        auto* fn = a.pos[0].as<FunctionObj>();
        const Arguments& args = fn->args();
        const Value& empty = a.pos[1];
        std::vector<Value> out;
        size_t firstDefault = args.args.size() - fn->defaults.size();
        for (size_t i = 0; i < args.args.size(); ++i)
            out.push_back(makeTuple({makeStr(args.args[i].name), Value::integer(1), i >= firstDefault ? fn->defaults[i - firstDefault] : empty}));
        if (args.vararg) out.push_back(makeTuple({makeStr(args.vararg->name), Value::integer(2), empty}));
        for (size_t i = 0; i < args.kwonly.size(); ++i) {
            Value d = i < fn->kwDefaults.size() && !fn->kwDefaults[i].isMissing() ? fn->kwDefaults[i] : empty;
            out.push_back(makeTuple({makeStr(args.kwonly[i].name), Value::integer(3), d}));
        }
        if (args.kwarg) out.push_back(makeTuple({makeStr(args.kwarg->name), Value::integer(4), empty}));
        return makeList(std::move(out));
    });
    vars["_del_own_attr"] = in.makeBuiltin("_del_own_attr", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 2 || !a.pos[0].is(OK::Class) || !a.pos[1].isStr() || a.pos[0].as<ClassObj>()->isBuiltinType) in.raiseType("_del_own_attr(cls, name)");
        a.pos[0].as<ClassObj>()->attrs.erase(strOf(a.pos[1]));
        return Value();
    });
}

} // namespace fl::script

// The `torch` module tree for model scripts: factories, dtypes, grad mode, torch.nn.functional,
// torch.compile and the torch._dynamo / torch.compiler entry points, and the bundled prelude
// (torch.nn, torch.nn.init, torch.optim written in the script language itself).
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/Reduction.h>
#include <ATen/Parallel.h>
#include <c10/core/GradMode.h>
#include <ATen/Dispatch.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/function.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <iterator>
#include <mutex>

#include "core/script/hooks.h"
#include "core/script/builtins.h"
#include "core/script/prelude_data.h"
#include "core/script/stdlib.h"
#include "core/script/tensor_obj.h"
#include "core/script/torch_dispatch.h"
#include "core/script/torch_api.h"

namespace fl::script {

namespace {

Value nsGet(const Value& module, const std::string& name) { return module.as<ModuleObj>()->ns->vars.at(name); }
void nsSet(const Value& module, const std::string& name, const Value& v) { module.as<ModuleObj>()->ns->vars[name] = v; }

struct FArgs {
    Interp& in;
    std::vector<Value> v;
    const Sig& sig;
    bool has(size_t i) const { return i < v.size() && !v[i].isMissing() && !v[i].isNone(); }
    at::Tensor t(size_t i) { return toTensor(in, v[i], "argument"); }
    c10::optional<at::Tensor> ot(size_t i) { return has(i) ? c10::optional<at::Tensor>(t(i)) : c10::nullopt; }
    int64_t i(size_t k, int64_t d) { return has(k) ? toInt(in, v[k], "argument") : d; }
    double f(size_t k, double d) { return has(k) ? toFloat(in, v[k], "argument") : d; }
    bool b(size_t k, bool d) { return has(k) ? toBoolArg(in, v[k], sig.name(), sig.paramName(k)) : d; }
    std::string s(size_t k, const std::string& d) { return has(k) ? toStr(in, v[k], "argument") : d; }
    std::vector<int64_t> ints(size_t k, int64_t repeat) {
        if (v[k].isIntLike()) return std::vector<int64_t>(size_t(repeat), v[k].i());
        return toIntList(in, v[k], "argument");
    }
};

void defn(Interp& in, const Value& module, const std::string& name, const std::string& sig, std::function<Value(FArgs&)> fn) {
    auto s = std::make_shared<Sig>(name, sig);
    OpInvoke run = [s, fn](Interp& in, CallArgs& ca) {
        FArgs a{in, s->bind(in, ca), *s};
        return guarded(in, [&] { return fn(a); });
    };
    auto target = std::make_shared<std::string>(module.as<ModuleObj>()->name + "." + name);
    nsSet(module, name, in.makeBuiltin(name, [run, target, s](Interp& in, const Value&, CallArgs& ca) {
        if (in.tracer) {
            // the graph records the in-place flag by name, however the call passed it
            s->keywordize(ca, "inplace");
            return traceOp(in, *target, ca, run);
        }
        return run(in, ca);
    }));
}

int64_t reductionOf(Interp& in, FArgs& a, size_t k) {
    std::string r = a.s(k, "mean");
    if (r == "mean") return at::Reduction::Mean;
    if (r == "sum") return at::Reduction::Sum;
    if (r == "none") return at::Reduction::None;
    in.raiseValue(r + " is not a valid value for reduction");
}

// Sets grad mode; inside a trace the change is a graph node, so cached calls replay it.
void setGradEnabled(Interp& in, bool enabled) {
    CallArgs ca;
    ca.pos = {Value::boolean(enabled)};
    traceOp(in, "torch._C._set_grad_enabled", ca, [](Interp&, CallArgs& ca) {
        c10::GradMode::set_enabled(ca.pos[0].b());
        return Value();
    });
}

// torch.compile's keyword arguments, checked like PyTorch checks them.
CompileOptions compileOptions(Interp& in, const std::vector<std::pair<std::string, Value>>& options) {
    CompileOptions o;
    for (auto& [k, v] : options) {
        if (k == "fullgraph") o.fullgraph = in.truthy(v);
        else if (k == "dynamic") o.dynamic = v.isNone() ? -1 : in.truthy(v) ? 1 : 0;
        else if (k == "backend") o.backend = v.isStr() ? strOf(v) : "<callable>";
        else if (k == "mode") {
            if (v.isNone()) continue;
            std::string m = toStr(in, v, "mode");
            static const char* modes[] = {"default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"};
            bool ok = false;
            for (auto* x : modes) ok = ok || m == x;
            if (!ok) in.raise(in.runtimeError, "Unrecognized mode=" + m + ", should be one of: default, reduce-overhead, max-autotune, max-autotune-no-cudagraphs");
            o.mode = m;
        }
    }
    return o;
}

// A context manager that sets grad mode, restoring it on exit; also usable as a decorator.
Value gradModeManager(Interp& in, bool enabled) {
    auto obj = std::make_shared<OpaqueObj>();
    obj->cls = in.builtinClass(enabled ? "enable_grad" : "no_grad");
    obj->state = std::make_shared<std::vector<bool>>();
    return Value(obj);
}

void installGradModeClass(Interp& in, const Value& torch, const std::string& name, bool enabled) {
    ClassP cls = in.makeClass(name, in.objectCls, "torch");
    cls->ctor = [enabled](Interp& in, CallArgs& a) {
        if (!a.pos.empty() || !a.kw.empty()) in.raiseType(std::string(enabled ? "enable_grad" : "no_grad") + "() takes no arguments");
        return gradModeManager(in, enabled);
    };
    in.addMethod(cls, "__enter__", [enabled](Interp& in, const Value&, CallArgs& a) {
        auto* st = static_cast<std::vector<bool>*>(a.pos[0].as<OpaqueObj>()->state.get());
        st->push_back(c10::GradMode::is_enabled());
        setGradEnabled(in, enabled);
        return Value();
    });
    in.addMethod(cls, "__exit__", [](Interp& in, const Value&, CallArgs& a) {
        auto* st = static_cast<std::vector<bool>*>(a.pos[0].as<OpaqueObj>()->state.get());
        if (!st->empty()) {
            setGradEnabled(in, st->back());
            st->pop_back();
        }
        return Value::boolean(false);
    });
    // @torch.no_grad() on a function: run it with grad mode set.
    in.addMethod(cls, "__call__", [enabled](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 2) in.raiseType("decorator expects one function");
        Value fn = a.pos[1];
        return in.makeBuiltin("grad_mode_wrapper", [fn, enabled](Interp& in, const Value&, CallArgs& ca) {
            bool prev = c10::GradMode::is_enabled();
            c10::GradMode::set_enabled(enabled);
            struct Restore { bool p; ~Restore() { c10::GradMode::set_enabled(p); } } r{prev};
            return in.call(fn, ca);
        });
    });
    nsSet(torch, name, Value(cls));
}

// A prelude file's source: the embedded copy, or with FUSELAB_PRELUDE_DIR set (a development aid:
// edit the prelude without rebuilding), that folder's file of the same name when it has one.
const char* preludeSource(const std::string& stem) {
    static std::mutex mu;
    static std::unordered_map<std::string, std::string> fromDisk;
    if (const char* dir = std::getenv("FUSELAB_PRELUDE_DIR"); dir && *dir) {
        std::lock_guard<std::mutex> lock(mu);
        auto it = fromDisk.find(stem);
        if (it == fromDisk.end()) {
            std::ifstream f(std::string(dir) + "/" + stem + ".py", std::ios::binary);
            std::string text;
            if (f) text.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
            it = fromDisk.emplace(stem, f ? text : std::string("\x01")).first;
        }
        if (it->second != "\x01") return it->second.c_str();
    }
    for (const PreludeSource* p = kPrelude; p->name; ++p)
        if (stem == p->name) return p->source;
    return nullptr;
}

// The stems of every prelude file, in name order: the embedded ones, and with
// FUSELAB_PRELUDE_DIR set, that folder's .py files too.
std::vector<std::string> preludeStems() {
    std::set<std::string> stems;
    for (const PreludeSource* p = kPrelude; p->name; ++p) stems.insert(p->name);
    if (const char* dir = std::getenv("FUSELAB_PRELUDE_DIR"); dir && *dir) {
        std::error_code ec;
        for (const auto& e : std::filesystem::directory_iterator(dir, ec))
            if (e.path().extension() == ".py") stems.insert(e.path().stem().string());
    }
    return {stems.begin(), stems.end()};
}

// The prelude is immutable: parse each file once per process.
std::shared_ptr<Module> parsedPrelude(const std::string& stem) {
    static std::mutex mu;
    static std::unordered_map<std::string, std::shared_ptr<Module>> cache;
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(stem);
    if (it != cache.end()) return it->second;
    const char* source = preludeSource(stem);
    auto mod = source ? parseModule(source, "<fuselab:prelude/" + stem + ".py>") : nullptr;
    cache[stem] = mod;
    return mod;
}

Value scopeAsModule(Interp& in, const std::string& name, const ScopeP& scope) {
    Value m = in.newModule(name);
    m.as<ModuleObj>()->ns = scope;
    in.registerModule(name, m);
    return m;
}

const char* kCompilePrelude = R"PY(
class OptimizedModule(Module):
    def __init__(self, mod, options):
        super().__init__()
        self._orig_mod = mod
        object.__setattr__(self, '_compile_options', options)

    def forward(self, *args, **kwargs):
        return _run_compiled(self._orig_mod, self._compile_options, args, kwargs)

    def __getattr__(self, name):
        if name == '_orig_mod':
            return self._modules['_orig_mod']
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(self._modules['_orig_mod'], name)
)PY";

// torch.compile's Python part (OptimizedModule), parsed once per process.
const std::shared_ptr<Module>& parsedCompilePrelude() {
    static const std::shared_ptr<Module> ast = parseModule(kCompilePrelude, "<fuselab:prelude/compile.py>");
    return ast;
}

void loadPrelude(Interp& in, const Value& torch, const Value& F, const Value& orderedDict) {
    Value math = in.findModule("math");
    Value param(in.parameterCls);
    ScopeP initNs = in.runModule(parsedPrelude("init"), "torch.nn.init",
                                 {{"torch", torch}, {"F", F}, {"math", math}, {"Parameter", param}, {"_OrderedDict", orderedDict}});
    Value init = scopeAsModule(in, "torch.nn.init", initNs);
    // More prelude files, each a module of its own whose __all__ joins a namespace (a file that
    // is not there is skipped).
    auto extra = [&](const std::string& stem, const std::string& name, std::vector<std::pair<std::string, Value>> inject, const Value& into) {
        std::shared_ptr<Module> ast = parsedPrelude(stem);
        if (!ast) return Value();
        ScopeP ns = in.runModule(ast, name, std::move(inject));
        Value mod = scopeAsModule(in, name, ns);
        if (!into.isNone()) {
            auto all = ns->vars.find("__all__");
            if (all != ns->vars.end())
                for (const Value& n : in.toVector(all->second)) nsSet(into, strOf(n), ns->vars.at(strOf(n)));
        }
        return mod;
    };
    const std::vector<std::string> stems = preludeStems();
    Value functionalHelpers;
    auto startsWith = [](const std::string& s, const char* p) { return s.rfind(p, 0) == 0; };
    for (const std::string& stem : stems) // functional*.py: more of torch.nn.functional, before nn.py
        if (startsWith(stem, "functional")) {
            Value m = extra(stem.c_str(), "torch.nn._" + stem, {{"torch", torch}, {"F", F}, {"math", math}}, F);
            if (stem == "functional") functionalHelpers = m; // its _single/_pair/... serve the nn_*.py files too
        }
    ScopeP nnNs = in.runModule(parsedPrelude("nn"), "torch.nn",
                               {{"torch", torch}, {"F", F}, {"math", math}, {"Parameter", param}, {"_OrderedDict", orderedDict}, {"init", init}});
    Value nn = scopeAsModule(in, "torch.nn", nnNs);
    nsSet(nn, "functional", F);
    nsSet(nn, "init", init);
    nsSet(nn, "Parameter", param);
    nsSet(torch, "nn", nn);
    ScopeP utilsNs = in.runModule(parsedPrelude("utils"), "torch.nn.utils", {{"torch", torch}, {"math", math}});
    nsSet(nn, "utils", scopeAsModule(in, "torch.nn.utils", utilsNs));
    ScopeP optimNs = in.runModule(parsedPrelude("optim"), "torch.optim", {{"torch", torch}, {"math", math}});
    Value optim = scopeAsModule(in, "torch.optim", optimNs);
    nsSet(torch, "optim", optim);
    Value moduleBase = nnNs->vars.at("Module");
    // _capture_break(kind, detail): a graph break where torch.compile has one inside a library layer
    Value captureBreak = in.makeBuiltin("_capture_break", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() == 2 && a.pos[0].isStr() && a.pos[1].isStr()) maybeBreak(in, strOf(a.pos[0]), strOf(a.pos[1]));
        return Value();
    });
    for (const std::string& stem : stems) { // nn_X.py: torch.nn.modules.X; optim_X.py: more of torch.optim
        if (startsWith(stem, "nn_"))
            extra(stem.c_str(), "torch.nn.modules." + stem.substr(3),
                  {{"torch", torch}, {"F", F}, {"math", math}, {"Parameter", param}, {"_OrderedDict", orderedDict}, {"init", init}, {"nn", nn}, {"Module", moduleBase}, {"_functional", functionalHelpers},
                   {"_capture_break", captureBreak}}, nn);
        if (startsWith(stem, "optim_")) extra(stem.c_str(), "torch.optim._" + stem.substr(6), {{"torch", torch}, {"math", math}, {"optim", optim}}, optim);
    }
    Value parameterMod = in.newModule("torch.nn.parameter"); // from torch.nn.parameter import Parameter
    nsSet(parameterMod, "Parameter", param);
    in.registerModule("torch.nn.parameter", parameterMod);
    nsSet(nn, "parameter", parameterMod);
    Value parallel = in.findModule("torch.nn.modules.parallel"); // import torch.nn.parallel
    if (!parallel.isNone()) {
        in.registerModule("torch.nn.parallel", parallel);
        nsSet(nn, "parallel", parallel);
    }
    Value sched = extra("lr_scheduler", "torch.optim.lr_scheduler", {{"torch", torch}, {"math", math}, {"optim", optim}}, Value());
    if (!sched.isNone()) nsSet(optim, "lr_scheduler", sched);
    Value data = extra("data", "torch.utils.data", {{"torch", torch}, {"math", math}}, Value());
    if (!data.isNone()) {
        Value utils = in.findModule("torch.utils");
        if (utils.isNone()) {
            utils = in.newModule("torch.utils");
            in.registerModule("torch.utils", utils);
        }
        nsSet(utils, "data", data);
        nsSet(torch, "utils", utils);
        // the submodules code imports from (from torch.utils.data.dataloader import default_collate):
        // the same objects, under PyTorch's module names
        auto submodule = [&](const std::string& name, std::initializer_list<const char*> names) {
            Value m = in.newModule(name);
            for (const char* n : names) {
                auto& vars = data.as<ModuleObj>()->ns->vars;
                auto it = vars.find(n);
                if (it != vars.end()) nsSet(m, n, it->second);
            }
            in.registerModule(name, m);
            return m;
        };
        nsSet(data, "dataloader", submodule("torch.utils.data.dataloader", {"DataLoader", "default_collate", "default_convert", "get_worker_info"}));
        nsSet(data, "dataset", submodule("torch.utils.data.dataset", {"Dataset", "IterableDataset", "TensorDataset", "ConcatDataset",
                                                                      "ChainDataset", "Subset", "random_split"}));
        nsSet(data, "sampler", submodule("torch.utils.data.sampler", {"Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler",
                                                                      "WeightedRandomSampler", "BatchSampler"}));
        Value dataUtils = in.newModule("torch.utils.data._utils");
        in.registerModule("torch.utils.data._utils", dataUtils);
        nsSet(data, "_utils", dataUtils);
        nsSet(dataUtils, "collate", submodule("torch.utils.data._utils.collate", {"default_collate", "default_convert", "collate"}));
    }

    Value moduleCls = moduleBase;
    in.registry["torch.nn.Module"] = moduleCls;
    Value runCompiled = in.makeBuiltin("_run_compiled", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 4) in.raiseType("_run_compiled expects 4 arguments");
        CallArgs ca;
        ca.pos = in.toVector(a.pos[2]);
        for (auto& e : a.pos[3].as<DictObj>()->map.entries())
            if (e.live) ca.kw.emplace_back(strOf(e.key), e.val);
        std::vector<std::pair<std::string, Value>> options;
        for (auto& e : a.pos[1].as<DictObj>()->map.entries())
            if (e.live) options.emplace_back(strOf(e.key), e.val);
        // the module's forward is the compiled frame (its hooks are not run, as with Dynamo)
        Value forward = in.getAttr(a.pos[0], "forward");
        if (!in.compileHooks) return in.call(forward, ca); // no capture layer installed: eager
        return in.compileHooks->callCompiled(forward, ca, compileOptions(in, options));
    });
    const std::shared_ptr<Module>& compileAst = parsedCompilePrelude();
    ScopeP compNs = in.runModule(compileAst, "torch._dynamo.eval_frame", {{"Module", moduleCls}, {"_run_compiled", runCompiled}});
    in.registry["OptimizedModule"] = compNs->vars.at("OptimizedModule");
}

} // namespace

// Long: a table, one defn() per torch.nn.functional function.
void installFunctional(Interp& in, const Value& F) {
    defn(in, F, "relu", "input, inplace=", [](FArgs& a) {
        if (a.b(1, false)) { a.t(0).relu_(); return a.v[0]; }
        return wrap(at::relu(a.t(0)));
    });
    defn(in, F, "relu6", "input, inplace=", [](FArgs& a) {
        if (a.b(1, false)) { at::Tensor x = a.t(0); at::hardtanh_(x, 0, 6); return a.v[0]; }
        return wrap(at::hardtanh(a.t(0), 0, 6));
    });
    defn(in, F, "hardtanh", "input, min_val=, max_val=, inplace=", [](FArgs& a) {
        if (a.b(3, false)) { at::Tensor x = a.t(0); at::hardtanh_(x, a.f(1, -1.0), a.f(2, 1.0)); return a.v[0]; }
        return wrap(at::hardtanh(a.t(0), a.f(1, -1.0), a.f(2, 1.0)));
    });
    defn(in, F, "smooth_l1_loss", "input, target, size_average=, reduce=, reduction=, beta=", [](FArgs& a) {
        auto bt = at::broadcast_tensors({a.t(0), a.t(1)});
        return wrap(at::smooth_l1_loss(bt[0], bt[1], reductionOf(a.in, a, 4), a.f(5, 1.0)));
    });
    defn(in, F, "gelu", "input, approximate=", [](FArgs& a) { return wrap(at::gelu(a.t(0), a.s(1, "none"))); });
    defn(in, F, "silu", "input, inplace=", [](FArgs& a) {
        if (a.b(1, false)) { at::Tensor x = a.t(0); at::silu_(x); return a.v[0]; }
        return wrap(at::silu(a.t(0)));
    });
    defn(in, F, "sigmoid", "input", [](FArgs& a) { return wrap(at::sigmoid(a.t(0))); });
    defn(in, F, "tanh", "input", [](FArgs& a) { return wrap(at::tanh(a.t(0))); });
    defn(in, F, "logsigmoid", "input", [](FArgs& a) { return wrap(at::log_sigmoid(a.t(0))); });
    defn(in, F, "softsign", "input", [](FArgs& a) { at::Tensor x = a.t(0); return wrap(x / (x.abs() + 1)); });
    defn(in, F, "hardswish", "input, inplace=", [](FArgs& a) {
        if (a.b(1, false)) { at::Tensor x = a.t(0); at::hardswish_(x); return a.v[0]; }
        return wrap(at::hardswish(a.t(0)));
    });
    defn(in, F, "hardsigmoid", "input, inplace=", [](FArgs& a) {
        if (a.b(1, false)) { at::Tensor x = a.t(0); at::hardsigmoid_(x); return a.v[0]; }
        return wrap(at::hardsigmoid(a.t(0)));
    });
    defn(in, F, "mish", "input, inplace=", [](FArgs& a) {
        if (a.b(1, false)) { at::Tensor x = a.t(0); at::mish_(x); return a.v[0]; }
        return wrap(at::mish(a.t(0)));
    });
    defn(in, F, "softplus", "input, beta=, threshold=", [](FArgs& a) { return wrap(at::softplus(a.t(0), a.f(1, 1.0), a.f(2, 20.0))); });
    defn(in, F, "elu", "input, alpha=, inplace=", [](FArgs& a) {
        if (a.b(2, false)) { at::Tensor x = a.t(0); at::elu_(x, a.f(1, 1.0)); return a.v[0]; }
        return wrap(at::elu(a.t(0), a.f(1, 1.0)));
    });
    defn(in, F, "leaky_relu", "input, negative_slope=, inplace=", [](FArgs& a) {
        if (a.b(2, false)) { at::Tensor x = a.t(0); at::leaky_relu_(x, a.f(1, 0.01)); return a.v[0]; }
        return wrap(at::leaky_relu(a.t(0), a.f(1, 0.01)));
    });
    auto softmaxLike = [&](const std::string& name, bool log) {
        defn(in, F, name, "input, dim=, _stacklevel=, dtype=", [log, name](FArgs& a) {
            if (!a.has(1)) a.in.raiseType(name + "(): dim must be given in model scripts (the implicit choice is deprecated)");
            auto dt = toDtype(a.in, a.has(3) ? a.v[3] : Value());
            c10::optional<at::ScalarType> odt = dt ? c10::optional<at::ScalarType>(*dt) : c10::nullopt;
            return wrap(log ? at::log_softmax(a.t(0), a.i(1, -1), odt) : at::softmax(a.t(0), a.i(1, -1), odt));
        });
    };
    softmaxLike("softmax", false);
    softmaxLike("log_softmax", true);
    defn(in, F, "dropout", "input, p=, training=, inplace=", [](FArgs& a) {
        double p = a.f(1, 0.5);
        if (p < 0 || p > 1) a.in.raiseValue("dropout probability has to be between 0 and 1, but got " + formatValue(a.in, Value::real(p), ""));
        bool training = a.b(2, true);
        if (a.b(3, false)) { at::Tensor x = a.t(0); at::dropout_(x, p, training); return a.v[0]; }
        return wrap(at::dropout(a.t(0), p, training));
    });
    defn(in, F, "linear", "input, weight, bias=", [](FArgs& a) { return wrap(at::linear(a.t(0), a.t(1), a.ot(2))); });
    defn(in, F, "layer_norm", "input, normalized_shape, weight=, bias=, eps=", [](FArgs& a) {
        return wrap(at::layer_norm(a.t(0), toIntList(a.in, a.v[1], "normalized_shape"), a.ot(2), a.ot(3), a.f(4, 1e-5), true));
    });
    defn(in, F, "embedding", "input, weight, padding_idx=, max_norm=, norm_type=, scale_grad_by_freq=, sparse=", [](FArgs& a) {
        at::Tensor w = a.t(1);
        int64_t pad = -1;
        if (a.has(2)) {
            pad = a.i(2, -1);
            if (pad > 0 && pad >= w.size(0)) a.in.raise(a.in.assertionError, "Padding_idx must be within num_embeddings");
            if (pad < 0) {
                if (pad < -w.size(0)) a.in.raise(a.in.assertionError, "Padding_idx must be within num_embeddings");
                pad = w.size(0) + pad;
            }
        }
        if (a.has(3)) {
            c10::GradMode::set_enabled(false);
            struct R { ~R() { c10::GradMode::set_enabled(true); } } r;
            at::embedding_renorm_(w, a.t(0).contiguous(), a.f(3, 0), a.f(4, 2.0));
        }
        return wrap(at::embedding(w, a.t(0), pad, a.b(5, false), a.b(6, false)));
    });
    auto conv = [&](const std::string& name, int dims) {
        defn(in, F, name, "input, weight, bias=, stride=, padding=, dilation=, groups=", [dims](FArgs& a) {
            auto list = [&](size_t k, int64_t d) { return a.has(k) ? a.ints(k, dims) : std::vector<int64_t>(size_t(dims), d); };
            auto stride = list(3, 1), dil = list(5, 1);
            int64_t groups = a.i(6, 1);
            if (a.has(4) && a.v[4].isStr()) {
                std::string p = strOf(a.v[4]);
                return wrap(dims == 1 ? at::conv1d(a.t(0), a.t(1), a.ot(2), stride, p, dil, groups) : at::conv2d(a.t(0), a.t(1), a.ot(2), stride, p, dil, groups));
            }
            auto pad = list(4, 0);
            return wrap(dims == 1 ? at::conv1d(a.t(0), a.t(1), a.ot(2), stride, pad, dil, groups) : at::conv2d(a.t(0), a.t(1), a.ot(2), stride, pad, dil, groups));
        });
    };
    conv("conv1d", 1);
    conv("conv2d", 2);
    defn(in, F, "batch_norm", "input, running_mean, running_var, weight=, bias=, training=, momentum=, eps=", [](FArgs& a) {
        bool training = a.b(5, false);
        at::Tensor x = a.t(0);
        if (training) {
            int64_t n = x.size(0);
            for (int64_t d = 2; d < x.dim(); ++d) n *= x.size(d);
            if (n == 1) a.in.raiseValue("Expected more than 1 value per channel when training, got input size " + a.in.repr(sizeValue(x.sizes())));
        }
        return wrap(at::batch_norm(x, a.ot(3), a.ot(4), a.ot(1), a.ot(2), training, a.f(6, 0.1), a.f(7, 1e-5), true));
    });
    defn(in, F, "mse_loss", "input, target, size_average=, reduce=, reduction=", [](FArgs& a) {
        auto bt = at::broadcast_tensors({a.t(0), a.t(1)});
        return wrap(at::mse_loss(bt[0], bt[1], reductionOf(a.in, a, 4)));
    });
    defn(in, F, "l1_loss", "input, target, size_average=, reduce=, reduction=", [](FArgs& a) {
        auto bt = at::broadcast_tensors({a.t(0), a.t(1)});
        return wrap(at::l1_loss(bt[0], bt[1], reductionOf(a.in, a, 4)));
    });
    defn(in, F, "cross_entropy", "input, target, weight=, size_average=, ignore_index=, reduce=, reduction=, label_smoothing=", [](FArgs& a) {
        return wrap(at::cross_entropy_loss(a.t(0), a.t(1), a.ot(2), reductionOf(a.in, a, 6), a.i(4, -100), a.f(7, 0.0)));
    });
    defn(in, F, "nll_loss", "input, target, weight=, size_average=, ignore_index=, reduce=, reduction=", [](FArgs& a) {
        return wrap(at::nll_loss_nd(a.t(0), a.t(1), a.ot(2), reductionOf(a.in, a, 6), a.i(4, -100)));
    });
    defn(in, F, "binary_cross_entropy", "input, target, weight=, size_average=, reduce=, reduction=", [](FArgs& a) {
        return wrap(at::binary_cross_entropy(a.t(0), a.t(1), a.ot(2), reductionOf(a.in, a, 5)));
    });
    defn(in, F, "binary_cross_entropy_with_logits", "input, target, weight=, size_average=, reduce=, reduction=, pos_weight=", [](FArgs& a) {
        return wrap(at::binary_cross_entropy_with_logits(a.t(0), a.t(1), a.ot(2), a.ot(6), reductionOf(a.in, a, 5)));
    });
    defn(in, F, "max_pool2d", "input, kernel_size, stride=, padding=, dilation=, ceil_mode=, return_indices=", [](FArgs& a) {
        auto k = a.ints(1, 2);
        std::vector<int64_t> st = a.has(2) ? a.ints(2, 2) : std::vector<int64_t>{};
        auto pad = a.has(3) ? a.ints(3, 2) : std::vector<int64_t>{0, 0};
        auto dil = a.has(4) ? a.ints(4, 2) : std::vector<int64_t>{1, 1};
        if (a.b(6, false)) {
            auto r = at::max_pool2d_with_indices(a.t(0), k, st, pad, dil, a.b(5, false));
            return makeTuple({wrap(std::get<0>(r)), wrap(std::get<1>(r))});
        }
        return wrap(at::max_pool2d(a.t(0), k, st, pad, dil, a.b(5, false)));
    });
    defn(in, F, "avg_pool2d", "input, kernel_size, stride=, padding=, ceil_mode=, count_include_pad=, divisor_override=", [](FArgs& a) {
        auto k = a.ints(1, 2);
        std::vector<int64_t> st = a.has(2) ? a.ints(2, 2) : std::vector<int64_t>{};
        auto pad = a.has(3) ? a.ints(3, 2) : std::vector<int64_t>{0, 0};
        c10::optional<int64_t> div;
        if (a.has(6)) div = a.i(6, 1);
        return wrap(at::avg_pool2d(a.t(0), k, st, pad, a.b(4, false), a.b(5, true), div));
    });
    defn(in, F, "adaptive_avg_pool2d", "input, output_size", [](FArgs& a) { return wrap(at::adaptive_avg_pool2d(a.t(0), a.ints(1, 2))); });
    defn(in, F, "pad", "input, pad, mode=, value=", [](FArgs& a) {
        std::string mode = a.s(2, "constant");
        c10::optional<double> value;
        if (a.has(3)) value = a.f(3, 0.0);
        return wrap(at::pad(a.t(0), toIntList(a.in, a.v[1], "pad"), mode, value));
    });
    defn(in, F, "normalize", "input, p=, dim=, eps=", [](FArgs& a) {
        at::Tensor x = a.t(0);
        at::Tensor denom = x.norm(c10::optional<at::Scalar>(a.f(1, 2.0)), {a.i(2, 1)}, true).clamp_min(a.f(3, 1e-12)).expand_as(x);
        return wrap(x / denom);
    });
    defn(in, F, "one_hot", "tensor, num_classes=", [](FArgs& a) { return wrap(at::one_hot(a.t(0), a.i(1, -1))); });
    defn(in, F, "cosine_similarity", "x1, x2, dim=, eps=", [](FArgs& a) { return wrap(at::cosine_similarity(a.t(0), a.t(1), a.i(2, 1), a.f(3, 1e-8))); });
}

// torch.compile(target): modules become an OptimizedModule sharing the original's parameters;
// functions get a wrapper whose calls go through the compile hooks (hooks.h).
Value compileTarget(Interp& in, const Value& target, const std::vector<std::pair<std::string, Value>>& options) {
    auto reg = in.registry.find("torch.nn.Module");
    if (reg != in.registry.end() && in.isInstance(target, reg->second.as<ClassObj>())) {
        auto opts = std::make_shared<DictObj>();
        for (auto& [k, v] : options) opts->map.set(makeStr(k), v);
        return in.call(in.registry.at("OptimizedModule"), {target, Value(opts)});
    }
    bool callable = target.is(OK::Function) || target.is(OK::Builtin) || target.is(OK::BoundMethod);
    if (!callable) in.raiseType("torch.compile() expected a function or an nn.Module, got " + in.typeName(target));
    std::string name = "compiled";
    Value n;
    if (in.tryGetAttr(target, "__name__", n) && n.isStr()) name = strOf(n);
    CompileOptions opts = compileOptions(in, options);
    bool disabled = false;
    for (auto& [k, v] : options)
        if (k == "disable" && in.truthy(v)) disabled = true;
    return in.makeBuiltin(name, [target, opts, disabled](Interp& in, const Value&, CallArgs& a) {
        if (disabled || !in.compileHooks) return in.call(target, a);
        return in.compileHooks->callCompiled(target, a, opts);
    });
}

// x.__add__(y), torch.Tensor.__getitem__(x, i): the operators and protocols as methods. The
// interpreter runs `x + y` and `x[i]` without them; code that names them gets the same operation
// (traced the same way under torch.compile). `self` is Missing for the unbound class attribute.
static bool tensorDunder(Interp& in, const Value& self, const std::string& name, Value& out) {
    if (name.size() < 5 || name.compare(0, 2, "__") != 0 || name.compare(name.size() - 2, 2, "__") != 0) return false;
    const std::string base = name.substr(2, name.size() - 4);
    // the operation, given the tensor and the other arguments; nargs: how many others it takes
    std::function<Value(Interp&, const Value&, const std::vector<Value>&)> op;
    size_t nargs = 1;
    for (int k = 0; k <= int(BinOpKind::BitAnd) && !op; ++k) {
        const BinOpKind kind = BinOpKind(k);
        const std::string d = binOpDunder(kind);
        if (base == d) op = [kind](Interp& in, const Value& t, const std::vector<Value>& a) { return in.binary(kind, t, a[0]); };
        else if (base == "r" + d) op = [kind](Interp& in, const Value& t, const std::vector<Value>& a) { return in.binary(kind, a[0], t); };
        else if (base == "i" + d) op = [kind](Interp& in, const Value& t, const std::vector<Value>& a) { return in.binary(kind, t, a[0], true); };
    }
    for (int k = 0; k <= int(CmpOpKind::GtE) && !op; ++k) {
        const CmpOpKind kind = CmpOpKind(k);
        if (base == cmpOpFunction(kind)) op = [kind](Interp& in, const Value& t, const std::vector<Value>& a) { return in.compare(kind, t, a[0]); };
    }
    auto unary = [&](const char* aten) {
        nargs = 0;
        op = [aten](Interp& in, const Value& t, const std::vector<Value>&) { return tensorUnary(in, aten, t); };
    };
    auto convert = [&](ClassP cls) {
        nargs = 0;
        op = [cls](Interp& in, const Value& t, const std::vector<Value>&) {
            CallArgs ca;
            ca.pos = {t};
            return in.call(Value(cls), ca);
        };
    };
    if (op) {
    } else if (base == "neg") unary("neg");
    else if (base == "pos") unary("positive");
    else if (base == "abs") unary("abs");
    else if (base == "invert") unary("bitwise_not");
    else if (base == "float") convert(in.floatCls);
    else if (base == "int") convert(in.intCls);
    else if (base == "bool") convert(in.boolCls);
    else if (base == "index") {
        nargs = 0;
        op = [](Interp& in, const Value& t, const std::vector<Value>&) {
            const at::Tensor& x = tensorOf(t);
            if (x.numel() != 1 || !at::isIntegralType(x.scalar_type(), /*includeBool=*/true))
                in.raiseType("only integer tensors of a single element can be converted to an index");
            return Value::integer(x.item<int64_t>());
        };
    } else if (base == "getitem") op = [](Interp& in, const Value& t, const std::vector<Value>& a) { return in.getItem(t, a[0]); };
    else if (base == "setitem") {
        nargs = 2;
        op = [](Interp& in, const Value& t, const std::vector<Value>& a) { in.setItem(t, a[0], a[1]); return Value(); };
    } else if (base == "contains") op = [](Interp& in, const Value& t, const std::vector<Value>& a) { return Value::boolean(in.contains(t, a[0])); };
    else if (base == "len" || base == "iter" || base == "repr" || base == "str") {
        nargs = 0;
        op = [base](Interp& in, const Value& t, const std::vector<Value>&) {
            if (base == "len") return Value::integer(in.len(t));
            if (base == "iter") return in.iter(t);
            return makeStr(base == "repr" ? in.repr(t) : in.str(t));
        };
    } else return false;
    auto b = std::make_shared<BuiltinObj>();
    b->name = name;
    b->self = self;
    b->fn = [op, nargs, name](Interp& in, const Value& self, CallArgs& ca) {
        std::vector<Value> args = ca.pos;
        if (self.isMissing()) {
            if (args.empty()) in.raiseType("descriptor '" + name + "' for 'torch._C._TensorBase' objects needs an argument");
            if (!args[0].isTensor())
                in.raiseType("descriptor '" + name + "' for 'torch._C._TensorBase' objects doesn't apply to a '" + in.typeName(args[0]) + "' object");
        } else {
            args.insert(args.begin(), self);
        }
        if (!ca.kw.empty()) in.raiseType(name + "() takes no keyword arguments");
        if (args.size() != nargs + 1)
            in.raiseType(name + "() takes exactly " + std::to_string(nargs) + " argument" + (nargs == 1 ? "" : "s") + " (" +
                         std::to_string(args.size() - 1) + " given)");
        const Value t = args[0];
        args.erase(args.begin());
        return op(in, t, args);
    };
    out = Value(b);
    return true;
}

// Long: a table of torch's functions and namespaces (torch.*, torch._dynamo, torch.compiler), one
// short entry each.
void installTorch(Interp& in) {
    Value torch = in.newModule("torch");
    in.registerModule("torch", torch);

    // ---- classes scripts can name
    in.tensorCls = in.makeClass("Tensor", in.objectCls, "torch");
    in.tensorCls->final_ = true;
    in.parameterCls = in.makeClass("Parameter", in.tensorCls, "torch.nn.parameter");
    in.parameterCls->final_ = true;
    in.dtypeCls = in.makeClass("dtype", in.objectCls, "torch");
    in.dtypeCls->final_ = true;
    in.deviceCls = in.makeClass("device", in.objectCls, "torch");
    in.deviceCls->final_ = true;
    in.sizeCls = in.makeClass("Size", in.tupleCls, "torch");
    in.sizeCls->final_ = true;
    in.sizeCls->ctor = [](Interp& in, CallArgs& a) {
        std::vector<int64_t> s = a.pos.empty() ? std::vector<int64_t>{} : toIntList(in, a.pos[0], "torch.Size");
        return sizeValue(s);
    };
    in.deviceCls->ctor = [](Interp& in, CallArgs& a) {
        if (a.pos.empty() || !a.pos[0].isStr()) in.raiseType("device() received an invalid combination of arguments");
        std::string s = strOf(a.pos[0]);
        auto d = std::make_shared<DeviceObj>();
        parseDeviceString(in, s, d->type, d->index);
        if (a.pos.size() > 1) d->index = int(toInt(in, a.pos[1], "index"));
        return Value(d);
    };
    in.tensorCls->ctor = [](Interp& in, CallArgs& a) {
        if (a.pos.size() == 1 && (a.pos[0].is(OK::List) || a.pos[0].is(OK::Tuple)))
            return guarded(in, [&] { return wrap(tensorFromData(in, a.pos[0], at::kFloat)); });
        std::vector<int64_t> sz;
        for (auto& p : a.pos) sz.push_back(toInt(in, p, "size"));
        checkNumel(in, sz, at::kFloat);
        return guarded(in, [&] { return wrap(at::empty(sz, at::kFloat)); });
    };
    nsSet(torch, "Tensor", Value(in.tensorCls));
    // torch.FloatTensor, torch.LongTensor, ...: the legacy tensor types (constructors of their dtype,
    // isinstance by dtype, x.type(torch.FloatTensor))
    for (const auto& [name, st] : legacyTensorTypes()) {
        ClassP c = in.makeClass(name, in.objectCls, "torch");
        c->tensorDtype = int(st);
        at::ScalarType dt = st;
        c->ctor = [dt](Interp& in, CallArgs& a) {
            if (a.pos.size() == 1 && (a.pos[0].is(OK::List) || (a.pos[0].is(OK::Tuple) && !a.pos[0].as<TupleObj>()->isSize)))
                return guarded(in, [&] { return wrap(tensorFromData(in, a.pos[0], dt)); });
            std::vector<int64_t> sz;
            if (a.pos.size() == 1 && a.pos[0].is(OK::Tuple)) sz = toIntList(in, a.pos[0], "size");
            else
                for (auto& p : a.pos) sz.push_back(toInt(in, p, "size"));
            if (a.pos.empty()) sz = {0};
            checkNumel(in, sz, dt);
            return guarded(in, [&] { return wrap(at::empty(sz, at::TensorOptions().dtype(dt))); });
        };
        nsSet(torch, name, Value(c));
    }
    nsSet(torch, "dtype", Value(in.dtypeCls));
    nsSet(torch, "device", Value(in.deviceCls));
    nsSet(torch, "Size", Value(in.sizeCls));
    nsSet(torch, "__version__", makeStr("1.13.1"));

    struct DtName { const char* name; at::ScalarType st; };
    static const DtName dts[] = {
        {"float32", at::kFloat}, {"float", at::kFloat}, {"float64", at::kDouble}, {"double", at::kDouble},
        {"float16", at::kHalf}, {"half", at::kHalf}, {"bfloat16", at::kBFloat16}, {"uint8", at::kByte},
        {"int8", at::kChar}, {"int16", at::kShort}, {"short", at::kShort}, {"int32", at::kInt}, {"int", at::kInt},
        {"int64", at::kLong}, {"long", at::kLong}, {"bool", at::kBool}, {"complex64", at::kComplexFloat},
        {"cfloat", at::kComplexFloat}, {"complex128", at::kComplexDouble}, {"cdouble", at::kComplexDouble}};
    for (auto& d : dts) nsSet(torch, d.name, dtypeValue(in, d.st));

    in.setAttrHook(OK::Dtype, [](Interp&, const Value& self, const std::string& name, Value& out) {
        auto* d = self.as<DtypeObj>();
        if (name == "is_floating_point") { out = Value::boolean(d->isFloating); return true; }
        if (name == "is_complex") { out = Value::boolean(d->isComplex); return true; }
        if (name == "is_signed") { out = Value::boolean(d->isSigned); return true; }
        if (name == "itemsize") { out = Value::integer(d->itemsize); return true; }
        return false;
    });
    in.setAttrHook(OK::Device, [](Interp&, const Value& self, const std::string& name, Value& out) {
        auto* d = self.as<DeviceObj>();
        if (name == "type") { out = makeStr(d->type); return true; }
        if (name == "index") { out = d->index < 0 ? Value() : Value::integer(d->index); return true; }
        return false;
    });
    in.setAttrHook(OK::Tensor, [](Interp& in, const Value& self, const std::string& name, Value& out) {
        const at::Tensor& t = tensorOf(self);
        if (name == "shape") {
            CallArgs ca;
            ca.pos = {self};
            out = traceOp(in, "Tensor.size", ca, [](Interp&, CallArgs& ca) { return sizeValue(tensorOf(ca.pos[0]).sizes()); });
            return true;
        }
        if (name == "dtype") { out = dtypeValue(in, t.scalar_type()); return true; }
        if (name == "device") { out = Value(std::make_shared<DeviceObj>()); return true; }
        if (name == "ndim") { out = Value::integer(t.dim()); return true; }
        if (name == "requires_grad") { out = Value::boolean(t.requires_grad()); return true; }
        if (name == "is_leaf") { out = Value::boolean(t.is_leaf()); return true; }
        // where it lives and how it is laid out: a CPU tensor, strided, without names
        static const std::set<std::string> kNotHere = {"is_cuda", "is_sparse", "is_quantized", "is_mkldnn", "is_xpu", "is_ipu",
                                                       "is_mps", "is_nested", "is_ort", "is_vulkan", "is_sparse_csr"};
        if (kNotHere.count(name) || name == "is_meta" || name == "is_cpu") {
            out = Value::boolean(name == "is_meta" ? t.is_meta() : name == "is_cpu" ? !t.is_meta() : false);
            return true;
        }
        if (name == "names") {
            auto tup = std::make_shared<TupleObj>();
            tup->items.assign(size_t(t.dim()), Value());
            out = Value(tup);
            return true;
        }
        if (name == "has_names" || name == "is_shared" || name == "get_device") {
            const bool device = name == "get_device";
            out = in.makeBuiltin("Tensor." + name, [device](Interp&, const Value&, CallArgs&) {
                return device ? Value::integer(-1) : Value::boolean(false);
            });
            return true;
        }
        if (name == "grad") {
            const at::Tensor& g = t.grad();
            out = g.defined() ? wrap(g) : Value();
            return true;
        }
        if (name == "data" || name == "T" || name == "mT") {
            CallArgs ca;
            ca.pos = {self};
            out = traceOp(in, "Tensor." + name, ca, [name](Interp& in, CallArgs& ca) {
                const at::Tensor& t = tensorOf(ca.pos[0]);
                if (name == "data") return wrap(t.detach());
                if (name == "mT") return guarded(in, [&] { return wrap(t.transpose(-2, -1)); });
                return guarded(in, [&] { return wrap(t.dim() <= 2 ? t.t() : t.permute([&] { std::vector<int64_t> p; for (int64_t i = t.dim() - 1; i >= 0; --i) p.push_back(i); return p; }())); });
            });
            return true;
        }
        if (name == "grad_fn") {
            auto fn = t.grad_fn();
            if (!fn) { out = Value(); return true; }
            auto o = std::make_shared<OpaqueObj>();
            std::string n = fn->name();
            auto cut = n.rfind("::");
            if (cut != std::string::npos) n = n.substr(cut + 2);
            Value& cls = in.registry["grad_fn:" + n];
            if (cls.isNone()) cls = Value(in.makeClass(n, in.builtinClass("grad_fn"), "torch.autograd"));
            o->cls = std::static_pointer_cast<ClassObj>(cls.objp());
            o->attrs["_name"] = makeStr(n);
            out = Value(o);
            return true;
        }
        return tensorDunder(in, self, name, out) || dispatchTensorAttr(in, self, name, out);
    });
    in.tensorCls->lazyAttr = [](Interp& in, const std::string& name, Value& out) {
        return tensorDunder(in, Value::missing(), name, out) || dispatchTensorAttr(in, Value::missing(), name, out);
    };
    torch.as<ModuleObj>()->lazyAttr = dispatchTorchAttr;
    // torch.linalg, torch.fft, torch.special: the registry's linalg_*, fft_*, special_* operators
    for (const char* sub : {"linalg", "fft", "special"}) {
        std::string name = std::string("torch.") + sub, prefix = std::string(sub) + "_";
        Value m = in.newModule(name);
        in.registerModule(name, m);
        m.as<ModuleObj>()->lazyAttr = [name, prefix](Interp& in, const std::string& attr, Value& out) {
            return dispatchPrefixedAttr(in, name, prefix, attr, out);
        };
        nsSet(torch, sub, m);
    }
    // torch.backends: settings scripts set (cudnn.benchmark = True, ...); nothing here reads them
    {
        Value backends = in.newModule("torch.backends");
        in.registerModule("torch.backends", backends);
        nsSet(torch, "backends", backends);
        auto sub = [&](const char* n, std::vector<std::pair<std::string, Value>> vars, bool available) {
            std::string full = std::string("torch.backends.") + n;
            Value m = in.newModule(full);
            m.as<ModuleObj>()->scriptWritable = true;
            for (auto& [k, v] : vars) nsSet(m, k, v);
            nsSet(m, "is_available", in.makeBuiltin("is_available", [available](Interp&, const Value&, CallArgs&) { return Value::boolean(available); }));
            in.registerModule(full, m);
            nsSet(backends, n, m);
            return m;
        };
        sub("cudnn", {{"enabled", Value::boolean(true)}, {"benchmark", Value::boolean(false)}, {"deterministic", Value::boolean(false)},
                      {"allow_tf32", Value::boolean(true)}}, false);
        nsSet(in.findModule("torch.backends.cudnn"), "version", in.makeBuiltin("version", [](Interp&, const Value&, CallArgs&) { return Value(); }));
        sub("mkldnn", {{"enabled", Value::boolean(true)}}, at::hasMKLDNN());
        sub("mps", {}, false);
        sub("openmp", {}, at::hasOpenMP());
        sub("mkl", {}, at::hasMKL());
        Value bcuda = sub("cuda", {}, false);
        auto matmul = std::make_shared<OpaqueObj>();
        matmul->cls = in.objectCls;
        matmul->attrs["allow_tf32"] = Value::boolean(false);
        matmul->attrs["allow_fp16_reduced_precision_reduction"] = Value::boolean(true);
        nsSet(bcuda, "matmul", Value(matmul));
        nsSet(bcuda, "is_built", in.makeBuiltin("is_built", [](Interp&, const Value&, CallArgs&) { return Value::boolean(false); }));
    }
    // files: a script may not touch them
    for (const char* n : {"save", "load"}) {
        std::string msg = std::string("torch.") + n + " is not available in Fuselab: model scripts cannot " + (n[0] == 's' ? "write" : "read") + " files";
        nsSet(torch, n, in.makeBuiltin(n, [msg](Interp& in, const Value&, CallArgs&) -> Value { in.raise(in.runtimeError, msg); }));
    }
    // tensor.new(...): a tensor of the same dtype, from sizes (uninitialized) or from data
    in.methodsOf(OK::Tensor)["new"] = [](Interp& in, const Value& self, CallArgs& a) {
        const at::Tensor& x = tensorOf(self);
        for (auto& [k, v] : a.kw)
            if (k != "device") in.raiseType("new() got an unexpected keyword argument '" + k + "'");
        if (a.pos.size() == 1 && (a.pos[0].is(OK::List) || (a.pos[0].is(OK::Tuple) && !a.pos[0].as<TupleObj>()->isSize)))
            return guarded(in, [&] { return wrap(tensorFromData(in, a.pos[0], x.scalar_type())); });
        if (a.pos.size() == 1 && a.pos[0].isTensor()) return wrap(tensorOf(a.pos[0]).alias());
        std::vector<int64_t> sz;
        if (a.pos.size() == 1 && a.pos[0].is(OK::Tuple)) sz = toIntList(in, a.pos[0], "size");
        else
            for (auto& p : a.pos) sz.push_back(toInt(in, p, "size"));
        if (a.pos.empty()) sz = {0};
        checkNumel(in, sz, x.scalar_type());
        return guarded(in, [&] { return wrap(at::empty(sz, x.options())); });
    };
    {
        Value C = in.newModule("torch._C");
        in.registerModule("torch._C", C);
        Value nnOps = in.newModule("torch._C._nn");
        in.registerModule("torch._C._nn", nnOps);
        nnOps.as<ModuleObj>()->lazyAttr = dispatchNnAttr;
        nsSet(C, "_nn", nnOps);
        nsSet(torch, "_C", C);
        // torch.linalg.LinAlgError: a RuntimeError subclass that LibTorch's LinAlgError becomes
        ClassP linAlgError = in.makeClass("_LinAlgError", in.runtimeError, "torch._C");
        in.registry["torch.linalg.LinAlgError"] = Value(linAlgError);
        nsSet(C, "_LinAlgError", Value(linAlgError));
        nsSet(in.findModule("torch.linalg"), "LinAlgError", Value(linAlgError));
    }
    {
        ClassP gf = in.makeClass("grad_fn", in.objectCls, "torch.autograd");
        in.addMethod(gf, "name", [](Interp&, const Value&, CallArgs& a) { return a.pos[0].as<OpaqueObj>()->attrs["_name"]; });
        in.addMethod(gf, "__repr__", [](Interp&, const Value&, CallArgs& a) {
            return makeStr("<" + strOf(a.pos[0].as<OpaqueObj>()->attrs["_name"]) + " object>");
        });
    }

    installTensorOps(in, torch);

    // ---- factories
    auto factory = [&](const std::string& name, int kind) {
        defn(in, torch, name, "*size, out=, dtype=, layout=, device=, requires_grad=, generator=, pin_memory=", [kind, name](FArgs& a) {
            auto sz = sizeArgs(a.in, a.v[0], name.c_str(), "size", kind < 3); // randn and rand say "tuple of ints"
            checkDevice(a.in, a.has(4) ? a.v[4] : Value());
            at::ScalarType st = toDtype(a.in, a.has(2) ? a.v[2] : Value()).value_or(at::typeMetaToScalarType(at::get_default_dtype()));
            checkNumel(a.in, sz, st);
            at::TensorOptions o = at::TensorOptions().dtype(st);
            auto gen = toGenerator(a.in, a.has(6) ? a.v[6] : Value());
            at::Tensor t = kind == 0 ? at::zeros(sz, o) : kind == 1 ? at::ones(sz, o) : kind == 2 ? at::empty(sz, o) : kind == 3 ? at::randn(sz, gen, o) : at::rand(sz, gen, o);
            if (a.b(5, false)) t.requires_grad_(true);
            return wrap(t);
        });
    };
    factory("zeros", 0);
    factory("ones", 1);
    factory("empty", 2);
    factory("randn", 3);
    factory("rand", 4);
    auto likeFactory = [&](const std::string& name, int kind) {
        defn(in, torch, name, "input, fill_value=, *, dtype=, layout=, device=, requires_grad=, memory_format=", [kind](FArgs& a) {
            at::Tensor x = a.t(0);
            checkDevice(a.in, a.has(4) ? a.v[4] : Value());
            at::ScalarType st = toDtype(a.in, a.has(2) ? a.v[2] : Value()).value_or(x.scalar_type());
            at::TensorOptions o = x.options().dtype(st);
            at::Tensor t;
            switch (kind) {
            case 0: t = at::zeros_like(x, o); break;
            case 1: t = at::ones_like(x, o); break;
            case 2: t = at::empty_like(x, o); break;
            case 3: t = at::randn_like(x, o); break;
            case 4: t = at::rand_like(x, o); break;
            default: t = at::full_like(x, toScalar(a.in, a.v[1], "fill_value"), o); break;
            }
            if (a.b(5, false)) t.requires_grad_(true);
            return wrap(t);
        });
    };
    likeFactory("zeros_like", 0);
    likeFactory("ones_like", 1);
    likeFactory("empty_like", 2);
    likeFactory("randn_like", 3);
    likeFactory("rand_like", 4);
    likeFactory("full_like", 5);
    defn(in, torch, "full", "size, fill_value, *, out=, dtype=, layout=, device=, requires_grad=", [](FArgs& a) {
        auto sz = toIntList(a.in, a.v[0], "size");
        at::Scalar fill = toScalar(a.in, a.v[1], "fill_value");
        at::ScalarType dflt = a.v[1].isBool() ? at::kBool : a.v[1].isInt() ? at::kLong : at::typeMetaToScalarType(at::get_default_dtype());
        at::ScalarType st = toDtype(a.in, a.has(3) ? a.v[3] : Value()).value_or(dflt);
        checkDevice(a.in, a.has(5) ? a.v[5] : Value());
        checkNumel(a.in, sz, st);
        at::Tensor t = at::full(sz, fill, at::TensorOptions().dtype(st));
        if (a.b(6, false)) t.requires_grad_(true);
        return wrap(t);
    });
    defn(in, torch, "randint", "*args, size=, generator=, dtype=, layout=, device=, requires_grad=, low=, high=", [](FArgs& a) {
        auto& items = a.v[0].as<TupleObj>()->items;
        std::vector<Value> pos = items;
        if (a.has(7)) pos.insert(pos.begin(), a.v[7]); // low= and high= by keyword
        if (a.has(8)) pos.insert(pos.begin() + (a.has(7) ? 1 : 0), a.v[8]);
        Value sizeV = a.has(1) ? a.v[1] : Value();
        if (sizeV.isNone() && !pos.empty() && !pos.back().isIntLike()) { sizeV = pos.back(); pos.pop_back(); }
        if (sizeV.isNone()) a.in.raiseType("randint() missing required argument 'size'");
        int64_t low = 0, high;
        if (pos.size() == 1) high = toInt(a.in, pos[0], "high");
        else if (pos.size() == 2) { low = toInt(a.in, pos[0], "low"); high = toInt(a.in, pos[1], "high"); }
        else a.in.raiseType("randint() received an invalid combination of arguments");
        auto sz = toIntList(a.in, sizeV, "size");
        at::ScalarType st = toDtype(a.in, a.has(3) ? a.v[3] : Value()).value_or(at::kLong);
        checkNumel(a.in, sz, st);
        return wrap(at::randint(low, high, sz, toGenerator(a.in, a.has(2) ? a.v[2] : Value()), at::TensorOptions().dtype(st)));
    });
    defn(in, torch, "randint_like", "input, low=, high=, *, dtype=", [](FArgs& a) {
        int64_t low = 0, high;
        if (a.has(2)) { low = a.i(1, 0); high = a.i(2, 0); }
        else high = a.i(1, 0);
        at::Tensor x = a.t(0);
        return wrap(at::randint_like(x, low, high, x.options().dtype(toDtype(a.in, a.has(3) ? a.v[3] : Value()).value_or(x.scalar_type()))));
    });
    defn(in, torch, "randperm", "n, *, dtype=, generator=", [](FArgs& a) {
        int64_t n = a.i(0, 0);
        at::ScalarType st = toDtype(a.in, a.has(1) ? a.v[1] : Value()).value_or(at::kLong);
        checkNumel(a.in, {n}, st);
        return wrap(at::randperm(n, toGenerator(a.in, a.has(2) ? a.v[2] : Value()), at::TensorOptions().dtype(st)));
    });
    defn(in, torch, "arange", "start, end=, step=, *, out=, dtype=, layout=, device=, requires_grad=", [](FArgs& a) {
        Value start = a.v[0], end = a.v[1], step = a.has(2) ? a.v[2] : Value::integer(1);
        if (!a.has(1)) { end = start; start = Value::integer(0); }
        bool anyFloat = start.isFloat() || end.isFloat() || step.isFloat() ||
                        (start.isTensor() && tensorOf(start).is_floating_point()) || (end.isTensor() && tensorOf(end).is_floating_point());
        at::ScalarType st = toDtype(a.in, a.has(4) ? a.v[4] : Value()).value_or(anyFloat ? at::typeMetaToScalarType(at::get_default_dtype()) : at::kLong);
        double s = toFloat(a.in, start, "start"), e = toFloat(a.in, end, "end"), d = toFloat(a.in, step, "step");
        if (d != 0) {
            double n = std::ceil((e - s) / d);
            if (n > 0) checkNumel(a.in, {int64_t(std::min(n, 9.0e18))}, st);
        }
        at::Tensor t = at::arange(toScalar(a.in, start, "start"), toScalar(a.in, end, "end"), toScalar(a.in, step, "step"), at::TensorOptions().dtype(st));
        if (a.b(7, false)) t.requires_grad_(true);
        return wrap(t);
    });
    defn(in, torch, "linspace", "start, end, steps, *, out=, dtype=, layout=, device=, requires_grad=", [](FArgs& a) {
        int64_t steps = a.i(2, 100);
        at::ScalarType st = toDtype(a.in, a.has(4) ? a.v[4] : Value()).value_or(at::typeMetaToScalarType(at::get_default_dtype()));
        checkNumel(a.in, {steps}, st);
        at::Tensor t = at::linspace(toScalar(a.in, a.v[0], "start"), toScalar(a.in, a.v[1], "end"), steps, at::TensorOptions().dtype(st));
        if (a.b(7, false)) t.requires_grad_(true);
        return wrap(t);
    });
    defn(in, torch, "eye", "n, m=, *, dtype=, layout=, device=, requires_grad=", [](FArgs& a) {
        int64_t n = a.i(0, 0), m = a.i(1, n);
        at::ScalarType st = toDtype(a.in, a.has(2) ? a.v[2] : Value()).value_or(at::typeMetaToScalarType(at::get_default_dtype()));
        checkNumel(a.in, {n, m}, st);
        return wrap(at::eye(n, m, at::TensorOptions().dtype(st)));
    });
    auto tensorCtor = [](FArgs& a) {
        checkDevice(a.in, a.has(2) ? a.v[2] : Value());
        at::Tensor t = tensorFromData(a.in, a.v[0], toDtype(a.in, a.has(1) ? a.v[1] : Value()));
        if (a.b(3, false)) t.requires_grad_(true);
        return wrap(t);
    };
    defn(in, torch, "tensor", "data, *, dtype=, device=, requires_grad=, pin_memory=", tensorCtor);
    defn(in, torch, "as_tensor", "data, dtype=, device=", [](FArgs& a) {
        if (a.v[0].isTensor() && !a.has(1)) return a.v[0];
        checkDevice(a.in, a.has(2) ? a.v[2] : Value());
        return wrap(tensorFromData(a.in, a.v[0], toDtype(a.in, a.has(1) ? a.v[1] : Value())));
    });
    defn(in, torch, "scalar_tensor", "s, *, dtype=, device=", [](FArgs& a) {
        return wrap(at::scalar_tensor(toScalar(a.in, a.v[0], "s"), at::TensorOptions().dtype(toDtype(a.in, a.has(1) ? a.v[1] : Value()).value_or(at::kFloat))));
    });
    // ---- random number generators: torch.Generator, torch.default_generator
    ClassP genCls = in.makeClass("Generator", in.objectCls, "torch._C");
    genCls->ctor = [](Interp& in, CallArgs& a) {
        for (auto& p : a.pos) checkDevice(in, p);
        for (auto& [k, v] : a.kw) {
            if (k != "device") in.raiseType("Generator() got an unexpected keyword argument '" + k + "'");
            checkDevice(in, v);
        }
        return generatorValue(in, at::make_generator<at::CPUGeneratorImpl>());
    };
    auto genOf = [](Interp& in, const Value& self) -> at::Generator {
        auto g = toGenerator(in, self);
        if (!g) in.raiseType("descriptor needs a 'torch._C.Generator' object");
        return *g;
    };
    in.addMethod(genCls, "manual_seed", [genOf](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 2) in.raiseType("manual_seed() takes exactly one argument (" + std::to_string(a.pos.size() - 1) + " given)");
        at::Generator g = genOf(in, a.pos[0]);
        int64_t seed = toInt(in, a.pos[1], "seed");
        std::lock_guard<std::mutex> lock(g.mutex());
        g.set_current_seed(uint64_t(seed));
        return a.pos[0];
    });
    in.addMethod(genCls, "seed", [genOf](Interp& in, const Value&, CallArgs& a) {
        at::Generator g = genOf(in, a.pos[0]);
        std::lock_guard<std::mutex> lock(g.mutex());
        uint64_t s = c10::detail::getNonDeterministicRandom();
        g.set_current_seed(s);
        return Value::integer(int64_t(s));
    });
    in.addMethod(genCls, "initial_seed", [genOf](Interp& in, const Value&, CallArgs& a) {
        return Value::integer(int64_t(genOf(in, a.pos[0]).current_seed()));
    });
    in.addMethod(genCls, "get_state", [genOf](Interp& in, const Value&, CallArgs& a) {
        at::Generator g = genOf(in, a.pos[0]);
        std::lock_guard<std::mutex> lock(g.mutex());
        return wrap(g.get_state());
    });
    in.addMethod(genCls, "set_state", [genOf](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 2 || !a.pos[1].isTensor()) in.raiseType("set_state(): argument 'new_state' must be Tensor");
        at::Generator g = genOf(in, a.pos[0]);
        guarded(in, [&] {
            std::lock_guard<std::mutex> lock(g.mutex());
            g.set_state(tensorOf(a.pos[1]));
            return 0;
        });
        return a.pos[0];
    });
    in.addMethod(genCls, "__repr__", [](Interp&, const Value&, CallArgs& a) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "<torch._C.Generator object at 0x%012llx>", (unsigned long long)(uintptr_t)a.pos[0].obj());
        return makeStr(buf);
    });
    Value defaultGen = generatorValue(in, at::detail::getDefaultCPUGenerator());
    nsSet(torch, "Generator", Value(genCls));
    nsSet(torch, "default_generator", defaultGen);
    defn(in, torch, "manual_seed", "seed", [defaultGen](FArgs& a) {
        int64_t seed = a.i(0, 0);
        auto gen = at::detail::getDefaultCPUGenerator();
        std::lock_guard<std::mutex> lock(gen.mutex());
        gen.set_current_seed(uint64_t(seed));
        return defaultGen;
    });
    defn(in, torch, "get_rng_state", "", [](FArgs&) {
        auto gen = at::detail::getDefaultCPUGenerator();
        std::lock_guard<std::mutex> lock(gen.mutex());
        return wrap(gen.get_state());
    });
    defn(in, torch, "set_rng_state", "new_state", [](FArgs& a) {
        at::Tensor t = a.t(0);
        auto gen = at::detail::getDefaultCPUGenerator();
        guarded(a.in, [&] {
            std::lock_guard<std::mutex> lock(gen.mutex());
            gen.set_state(t);
            return 0;
        });
        return Value();
    });
    defn(in, torch, "seed", "", [](FArgs&) {
        auto gen = at::detail::getDefaultCPUGenerator();
        std::lock_guard<std::mutex> lock(gen.mutex());
        return Value::integer(int64_t(gen.current_seed()));
    });
    defn(in, torch, "initial_seed", "", [](FArgs&) {
        auto gen = at::detail::getDefaultCPUGenerator();
        return Value::integer(int64_t(gen.current_seed()));
    });
    defn(in, torch, "get_default_dtype", "", [](FArgs& a) { return dtypeValue(a.in, at::typeMetaToScalarType(at::get_default_dtype())); });
    defn(in, torch, "set_default_dtype", "d", [](FArgs& a) {
        auto st = toDtype(a.in, a.v[0]);
        if (!st || !at::isFloatingType(*st)) a.in.raiseType("only floating-point types are supported as the default type");
        at::set_default_dtype(c10::scalarTypeToTypeMeta(*st));
        return Value();
    });
    defn(in, torch, "is_tensor", "obj", [](FArgs& a) { return Value::boolean(a.v[0].isTensor()); });
    defn(in, torch, "is_grad_enabled", "", [](FArgs&) { return Value::boolean(c10::GradMode::is_enabled()); });
    defn(in, torch, "set_grad_enabled", "mode", [](FArgs& a) {
        c10::GradMode::set_enabled(a.b(0, true));
        return Value();
    });
    installGradModeClass(in, torch, "no_grad", false);
    installGradModeClass(in, torch, "enable_grad", true);
    nsSet(torch, "inference_mode", nsGet(torch, "no_grad"));
    defn(in, torch, "set_printoptions", "precision=, threshold=, edgeitems=, linewidth=, profile=, sci_mode=", [](FArgs& a) -> Value {
        a.in.raise(a.in.builtinClass("NotImplementedError"), "torch.set_printoptions is not supported in model scripts yet");
    });
    defn(in, torch, "set_num_threads", "n", [](FArgs& a) {
        at::set_num_threads(int(std::max<int64_t>(1, a.i(0, 1))));
        return Value();
    });
    defn(in, torch, "get_num_threads", "", [](FArgs&) { return Value::integer(at::get_num_threads()); });
    defn(in, torch, "get_num_interop_threads", "", [](FArgs&) { return Value::integer(at::get_num_interop_threads()); });
    defn(in, torch, "set_num_interop_threads", "n", [](FArgs& a) -> Value {
        // LibTorch allows this once, before any inter-op work; later it is PyTorch's RuntimeError
        return guarded(a.in, [&] { at::set_num_interop_threads(int(std::max<int64_t>(1, a.i(0, 1)))); return Value(); });
    });

    // ---- constants and the process-wide switches model code reads or sets
    nsSet(torch, "e", Value::real(2.718281828459045));
    nsSet(torch, "pi", Value::real(3.141592653589793));
    nsSet(torch, "inf", Value::real(std::numeric_limits<double>::infinity()));
    nsSet(torch, "nan", Value::real(std::numeric_limits<double>::quiet_NaN()));
    struct Flag { const char* name; bool value; };
    for (const Flag& f : {Flag{"has_cuda", false}, Flag{"has_cudnn", false}, Flag{"has_mps", false}, Flag{"has_spectral", true},
                          Flag{"has_lapack", bool(at::hasLAPACK())}, Flag{"has_mkl", bool(at::hasMKL())},
                          Flag{"has_mkldnn", bool(at::hasMKLDNN())}, Flag{"has_openmp", bool(at::hasOpenMP())}})
        nsSet(torch, f.name, Value::boolean(f.value));
    defn(in, torch, "compiled_with_cxx11_abi", "", [](FArgs&) { return Value::boolean(_GLIBCXX_USE_CXX11_ABI == 1); });
    defn(in, torch, "are_deterministic_algorithms_enabled", "", [](FArgs&) { return Value::boolean(at::globalContext().deterministicAlgorithms()); });
    defn(in, torch, "is_deterministic_algorithms_warn_only_enabled", "", [](FArgs&) {
        return Value::boolean(at::globalContext().deterministicAlgorithmsWarnOnly());
    });
    defn(in, torch, "set_flush_denormal", "mode", [](FArgs& a) {
        if (!a.v[0].isBool()) a.in.raise(a.in.runtimeError, "flush_denormal expects a bool, but got " + a.in.typeName(a.v[0]));
        return Value::boolean(at::globalContext().setFlushDenormal(a.b(0, false)));
    });
    in.registry["float32_matmul_precision"] = makeStr("highest");
    defn(in, torch, "get_float32_matmul_precision", "", [](FArgs& a) { return a.in.registry["float32_matmul_precision"]; });
    defn(in, torch, "set_float32_matmul_precision", "precision", [](FArgs& a) {
        std::string p = toStr(a.in, a.v[0], "precision");
        // 1.13 warns on another value (stderr) and keeps the setting; CPU matmuls do not change with it
        if (p != "highest" && p != "high" && p != "medium")
            a.in.options().err("Warning: " + p + " is not one of 'highest', 'high', or 'medium'; the current setFloat32MatmulPrecision call has no effect.\n");
        else a.in.registry["float32_matmul_precision"] = makeStr(p);
        return Value();
    });
    for (const char* n : {"is_inference_mode_enabled", "is_anomaly_enabled", "is_anomaly_check_nan_enabled", "is_warn_always_enabled",
                          "is_autocast_enabled", "is_autocast_cpu_enabled", "is_autocast_cache_enabled"})
        defn(in, torch, n, "", [n](FArgs&) { return Value::boolean(std::string(n) == "is_autocast_cache_enabled"); });
    defn(in, torch, "is_storage", "obj", [](FArgs&) { return Value::boolean(false); });
    defn(in, torch, "get_device", "input", [](FArgs& a) { a.t(0); return Value::integer(-1); });

    // ---- torch.jit: script and trace give back what they are given (Dynamo traces through them)
    {
        Value jit = in.newModule("torch.jit");
        in.registerModule("torch.jit", jit);
        nsSet(torch, "jit", jit);
        auto identity = [](Interp& in, const Value&, CallArgs& a) -> Value {
            if (a.pos.empty()) in.raiseType("missing required argument 'obj'");
            return a.pos[0];
        };
        for (const char* n : {"script", "trace", "ignore", "unused", "export", "script_if_tracing", "trace_module"})
            nsSet(jit, n, in.makeBuiltin(n, identity));
        nsSet(jit, "is_scripting", in.makeBuiltin("is_scripting", [](Interp&, const Value&, CallArgs&) { return Value::boolean(false); }));
        nsSet(jit, "is_tracing", in.makeBuiltin("is_tracing", [](Interp&, const Value&, CallArgs&) { return Value::boolean(false); }));
    }

    // torch.finfo / torch.iinfo
    auto infoObject = [&](const std::string& clsName) {
        ClassP c = in.makeClass(clsName, in.objectCls, "torch");
        c->ctor = [clsName](Interp& in, CallArgs& a) {
            at::ScalarType st = a.pos.empty() ? at::typeMetaToScalarType(at::get_default_dtype()) : toDtype(in, a.pos[0]).value_or(at::kFloat);
            auto o = std::make_shared<OpaqueObj>();
            o->cls = in.builtinClass(clsName);
            bool isF = clsName == "finfo";
            if (isF != bool(at::isFloatingType(st))) in.raiseType(std::string(isF ? "torch.finfo() requires a floating point input type." : "torch.iinfo() requires an integer input type."));
            o->attrs["dtype"] = makeStr(dtypeValue(in, st).as<DtypeObj>()->name);
            o->attrs["bits"] = Value::integer(int64_t(c10::elementSize(st)) * 8);
            AT_DISPATCH_ALL_TYPES_AND3(at::kHalf, at::kBFloat16, at::kBool, st, "info", [&] {
                using L = std::numeric_limits<scalar_t>;
                if (isF) {
                    o->attrs["eps"] = Value::real(double(L::epsilon()));
                    o->attrs["max"] = Value::real(double(L::max()));
                    o->attrs["min"] = Value::real(double(L::lowest()));
                    o->attrs["tiny"] = Value::real(double(L::min()));
                    o->attrs["smallest_normal"] = Value::real(double(L::min()));
                    o->attrs["resolution"] = Value::real(std::pow(10.0, -std::floor(-std::log10(double(L::epsilon())))));
                } else {
                    o->attrs["max"] = Value::integer(int64_t(L::max()));
                    o->attrs["min"] = Value::integer(int64_t(L::lowest()));
                }
            });
            return Value(o);
        };
        nsSet(torch, clsName, Value(c));
    };
    infoObject("finfo");
    infoObject("iinfo");
    defn(in, torch, "normal", "mean, std=, size=, *, generator=, dtype=", [](FArgs& a) {
        auto gen = toGenerator(a.in, a.has(3) ? a.v[3] : Value());
        if (a.v[0].isTensor() || (a.has(1) && a.v[1].isTensor())) {
            if (a.v[0].isTensor() && a.has(1) && a.v[1].isTensor()) return wrap(at::normal(a.t(0), a.t(1), gen));
            if (a.v[0].isTensor()) return wrap(at::normal(a.t(0), a.f(1, 1.0), gen));
            return wrap(at::normal(a.f(0, 0.0), a.t(1), gen));
        }
        auto sz = toIntList(a.in, a.v[2], "size");
        at::ScalarType st = toDtype(a.in, a.has(4) ? a.v[4] : Value()).value_or(at::typeMetaToScalarType(at::get_default_dtype()));
        checkNumel(a.in, sz, st);
        return wrap(at::normal(a.f(0, 0.0), a.f(1, 1.0), sz, gen, at::TensorOptions().dtype(st)));
    });
    defn(in, torch, "broadcast_shapes", "*shapes", [](FArgs& a) {
        std::vector<int64_t> out;
        for (auto& s : a.v[0].as<TupleObj>()->items) {
            auto sh = toIntList(a.in, s, "shape");
            if (sh.size() > out.size()) out.insert(out.begin(), sh.size() - out.size(), 1);
            for (size_t i = 0; i < sh.size(); ++i) {
                int64_t& o = out[out.size() - sh.size() + i];
                int64_t v = sh[i];
                if (o == 1) o = v;
                else if (v != 1 && v != o) a.in.raise(a.in.runtimeError, "Shape mismatch: objects cannot be broadcast to a single shape.");
            }
        }
        return sizeValue(out);
    });
    Value autograd = in.newModule("torch.autograd");
    defn(in, autograd, "grad", "outputs, inputs, grad_outputs=, retain_graph=, create_graph=, only_inputs=, allow_unused=", [](FArgs& a) {
        auto list = [&](const Value& v) {
            std::vector<at::Tensor> ts;
            if (v.isTensor()) ts.push_back(tensorOf(v));
            else for (auto& x : a.in.toVector(v)) ts.push_back(toTensor(a.in, x, "grad(): argument"));
            return ts;
        };
        auto outs = list(a.v[0]), ins = list(a.v[1]);
        std::vector<at::Tensor> gouts = a.has(2) ? list(a.v[2]) : std::vector<at::Tensor>{};
        c10::optional<bool> retain;
        if (a.has(3)) retain = a.b(3, false);
        auto grads = torch::autograd::grad(outs, ins, gouts, retain, a.b(4, false), a.b(6, false));
        std::vector<Value> r;
        for (auto& g : grads) r.push_back(g.defined() ? wrap(g) : Value());
        return makeTuple(std::move(r));
    });
    in.registerModule("torch.autograd", autograd);
    nsSet(torch, "autograd", autograd);

    // torch.cuda: absent on this machine's eager path
    Value cuda = in.newModule("torch.cuda");
    defn(in, cuda, "is_available", "", [](FArgs&) { return Value::boolean(false); });
    defn(in, cuda, "device_count", "", [](FArgs&) { return Value::integer(0); });
    // seeding CUDA's generators without CUDA does nothing, as in PyTorch (they seed lazily)
    for (const char* n : {"manual_seed", "manual_seed_all"}) defn(in, cuda, n, "seed", [](FArgs&) { return Value(); });
    for (const char* n : {"seed", "seed_all", "empty_cache"}) defn(in, cuda, n, "", [](FArgs&) { return Value(); });
    defn(in, cuda, "is_initialized", "", [](FArgs&) { return Value::boolean(false); });
    in.registerModule("torch.cuda", cuda);
    nsSet(torch, "cuda", cuda);

    // ---- torch.nn.functional
    Value F = in.newModule("torch.nn.functional");
    in.registerModule("torch.nn.functional", F);
    installFunctional(in, F);

    // ---- torch.compile and friends: eager for now; capture fills these in.
    nsSet(torch, "compile", in.makeBuiltin("compile", [](Interp& in, const Value&, CallArgs& a) -> Value {
        static Sig sig("compile", "model=, *, fullgraph=, dynamic=, backend=, mode=, options=, disable=");
        auto b = sig.bind(in, a);
        std::vector<std::pair<std::string, Value>> options;
        static const char* names[] = {"model", "fullgraph", "dynamic", "backend", "mode", "options", "disable"};
        for (size_t i = 1; i < b.size(); ++i)
            if (!b[i].isMissing()) options.emplace_back(names[i], b[i]);
        auto makeCompiled = [options](Interp& in, const Value& target) { return compileTarget(in, target, options); };
        if (b[0].isMissing() || b[0].isNone()) {
            return in.makeBuiltin("compile_decorator", [makeCompiled](Interp& in, const Value&, CallArgs& ca) {
                if (ca.pos.size() != 1) in.raiseType("torch.compile decorator expects one function or module");
                return makeCompiled(in, ca.pos[0]);
            });
        }
        return makeCompiled(in, b[0]);
    }));

    Value dynamo = in.newModule("torch._dynamo");
    Value exc = in.newModule("torch._dynamo.exc");
    in.unsupportedCls = in.makeClass("Unsupported", in.exceptionCls, "torch._dynamo.exc");
    nsSet(exc, "Unsupported", Value(in.unsupportedCls));
    nsSet(dynamo, "exc", exc);
    auto noop = [](Interp&, const Value&, CallArgs&) { return Value(); };
    nsSet(dynamo, "graph_break", in.makeBuiltin("graph_break", [](Interp& in, const Value&, CallArgs&) {
        maybeBreak(in, "graph_break");
        return Value();
    }));
    nsSet(dynamo, "mark_dynamic", in.makeBuiltin("mark_dynamic", [](Interp& in, const Value&, CallArgs& a) {
        static Sig sig("mark_dynamic", "t, index, *, min=, max=");
        auto b = sig.bind(in, a);
        if (!b[0].isTensor()) in.raiseType("mark_dynamic expects a tensor");
        auto* t = b[0].as<TensorObj>();
        std::vector<int64_t> dims = b[1].isIntLike() ? std::vector<int64_t>{b[1].i()} : toIntList(in, b[1], "mark_dynamic(): index");
        for (auto d : dims) {
            if (d < 0) d += t->t.dim();
            if (d < 0 || d >= t->t.dim() || d >= 64) in.raise(in.indexError, "mark_dynamic(): dimension out of range");
            t->markedDynamic |= uint64_t(1) << d;
        }
        return Value();
    }));
    nsSet(dynamo, "mark_static", in.makeBuiltin("mark_static", noop));
    Value resetFn = in.makeBuiltin("reset", [](Interp& in, const Value&, CallArgs&) {
        if (in.compileHooks) in.compileHooks->reset();
        return Value();
    });
    nsSet(dynamo, "reset", resetFn);
    // torch.compiler.disable: calling it from a compiled function breaks the graph, and the
    // function runs eagerly with nothing inside it compiled.
    auto disabledWrapper = [](Interp& in, const Value& fn) {
        std::string name = "disabled";
        Value n;
        if (in.tryGetAttr(fn, "__name__", n) && n.isStr()) name = strOf(n);
        return in.makeBuiltin(name, [fn](Interp& in, const Value&, CallArgs& a) {
            return in.compileHooks ? in.compileHooks->callDisabled(fn, a) : in.call(fn, a);
        });
    };
    auto disable = in.makeBuiltin("disable", [disabledWrapper](Interp& in, const Value&, CallArgs& a) -> Value {
        static Sig sig("disable", "fn=, recursive=");
        auto b = sig.bind(in, a);
        if (b[0].isMissing() || b[0].isNone())
            return in.makeBuiltin("disable_decorator", [disabledWrapper](Interp& in, const Value&, CallArgs& ca) {
                if (ca.pos.size() != 1) in.raiseType("disable decorator expects one function");
                return disabledWrapper(in, ca.pos[0]);
            });
        return disabledWrapper(in, b[0]);
    });
    nsSet(dynamo, "disable", disable);
    Value config = in.newModule("torch._dynamo.config");
    nsSet(config, "capture_scalar_outputs", Value::boolean(false));
    nsSet(config, "recompile_limit", Value::integer(8));
    nsSet(config, "cache_size_limit", Value::integer(8));
    nsSet(dynamo, "config", config);
    in.registerModule("torch._dynamo", dynamo);
    in.registerModule("torch._dynamo.exc", exc);
    in.registerModule("torch._dynamo.config", config);
    nsSet(torch, "_dynamo", dynamo);
    Value compiler = in.newModule("torch.compiler");
    nsSet(compiler, "disable", disable);
    nsSet(compiler, "reset", resetFn);
    nsSet(compiler, "is_compiling", in.makeBuiltin("is_compiling", [](Interp& in, const Value&, CallArgs&) { return Value::boolean(in.tracer != nullptr); }));
    in.registerModule("torch.compiler", compiler);
    nsSet(torch, "compiler", compiler);

    // ---- the prelude: torch.nn.init, torch.nn, torch.optim
    Value parameter = in.makeBuiltin("Parameter", [](Interp& in, const Value&, CallArgs& a) {
        static Sig sig("Parameter", "data=, requires_grad=");
        auto b = sig.bind(in, a);
        // PyTorch's Parameter calls data.detach(): anything else fails on that attribute
        if (!b[0].isMissing() && !b[0].isNone() && !b[0].isTensor())
            in.raise(in.attributeError, "'" + in.typeName(b[0]) + "' object has no attribute 'detach'");
        at::Tensor data = b[0].isMissing() || b[0].isNone() ? at::empty({0}) : tensorOf(b[0]);
        bool rg = b[1].isMissing() ? true : in.truthy(b[1]);
        return guarded(in, [&] {
            at::Tensor p = data.detach();
            p.requires_grad_(rg);
            auto obj = std::make_shared<TensorObj>(p);
            obj->isParameter = true;
            return Value(obj);
        });
    });
    in.parameterCls->ctor = [parameter](Interp& in, CallArgs& a) { return in.call(parameter, a); };
    Value orderedDict = in.makeBuiltin("OrderedDict", [](Interp&, const Value&, CallArgs&) {
        auto d = std::make_shared<DictObj>();
        d->orderedRepr = true;
        return Value(d);
    });
    loadPrelude(in, torch, F, orderedDict);
}

void warmProcessCaches() {
    for (const std::string& stem : preludeStems()) parsedPrelude(stem);
    parsedCompilePrelude();
    parseAllBundled();
    warmRegistryIndex();
}

} // namespace fl::script

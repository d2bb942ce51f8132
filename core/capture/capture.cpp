// Capture: the tracer's hooks, guards, the per-frame cache, graph breaks and resumes, and the
// reference backend that runs a captured graph node by node on LibTorch.
#include "core/capture/capture.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <c10/core/GradMode.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "core/capture/tracer.h"
#include "core/graph/ops.h"
#include "core/script/pyformat.h"
#include "core/script/tensor_obj.h"

namespace fl::capture {

using namespace fl::script;

// ---------------------------------------------------------------- break kinds
const BreakKind& breakKind(const std::string& id) {
    static const std::map<std::string, BreakKind> kinds = {
        {"print", {"print", "gb0059", "Failed to trace builtin operator",
                   "Dynamo does not know how to trace builtin operator `print` with argument types {args} (has_kwargs {kw})",
                   {"Avoid calling builtin `print` with argument types {args}. Consider using an equivalent alternative function/method to `print`.",
                    "If you are attempting to call a logging function (e.g. `print`), you can try adding it to `torch._dynamo.config.reorderable_logging_functions`.",
                    "Please report an issue to PyTorch."}}},
        {"item", {"item", "gb0124", "Unsupported Tensor.item() call with capture_scalar_outputs=False",
                  "Dynamo does not support tracing `Tensor.item()` with config.capture_scalar_outputs=False.",
                  {"Set `torch._dynamo.config.capture_scalar_outputs = True` or `export TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1` to include these operations in the captured graph."}}},
        {"tolist", {"tolist", "gb0135", "Tensor.tolist() with non-integer tensor",
                    "Dynamo currently does not support tracing `tolist()` on non-integer tensors.",
                    {"Ensure the input tensor to `tolist()` is an integer type (e.g., int8, int16, int32, int64)."}}},
        {"data_dependent_op", {"data_dependent_op", "gb0033", "Data dependent operator",
                               "Operator `aten._local_scalar_dense.default` has a non-Tensor output whose value is dependent on the data of Tensor inputs.",
                               {"Enable tracing of data-dependent output operators with `torch._dynamo.config.capture_scalar_outputs = True`"}}},
        {"data_dependent", {"data_dependent", "gb0170", "Data-dependent branching",
                            "Detected data-dependent branching (e.g. `if my_tensor.sum() > 0:`). Dynamo does not support tracing dynamic control flow.",
                            {"This graph break is fundamental - it is unlikely that Dynamo will ever be able to trace through your code. Consider finding a workaround.",
                             "Use `torch.cond` to express dynamic control flow."}}},
        {"graph_break", {"graph_break", "gb0025", "Call to `torch._dynamo.graph_break()`",
                         "User-inserted graph break. Message: None",
                         {"Remove the `torch._dynamo.graph_break()` call."}}},
        {"nonzero", {"nonzero", "gb0036", "Dynamic shape operator",
                     "Operator `aten.nonzero.default`'s output shape depends on input Tensor data.",
                     {"Enable tracing of dynamic shape operators with `torch._dynamo.config.capture_dynamic_output_shape_ops = True`"}}},
        {"backward", {"backward", "gb0123", "Unsupported Tensor.backward() call",
                      "Dynamo currently does not support tracing `Tensor.backward()`.",
                      {"This graph break is fundamental - it is unlikely that Dynamo will ever be able to trace through your code. Consider finding a workaround."}}},
        {"disable", {"disable", "gb0098", "Skip calling `torch.compiler.disable()`d function",
                     "Skip calling function `{fn}` since it was wrapped with `torch.compiler.disable` (reason: None)",
                     {"Remove the `torch.compiler.disable` call"}}},
        {"skipped", {"skipped", "gb0007", "Attempted to call function marked as skipped",
                     "Dynamo developers have intentionally marked that the function `{fn}` in file `torch/_compile.py` should not be traced.",
                     {"Avoid calling the function `{fn}`.",
                      "Apply `@torch._dynamo.dont_skip_tracing` to the function `{fn}` to force tracing into the function. More graph breaks may occur as a result of attempting to trace into the function.",
                      "Please file an issue to PyTorch."}}},
        {"rnn", {"rnn", "gb0014", "Attempted to wrap RNN, GRU, or LSTM", "Dynamo does not support RNN, GRU, or LSTM.",
                 {"Set torch._dynamo.config.allow_rnn=True to enable experimental support for RNN, GRU, and LSTM in Dynamo",
                  "It may be possible to write Dynamo tracing rules for this code. Please report an issue to PyTorch if you encounter this graph break often and it is causing performance issues."}}},
        {"observed_exception", {"observed_exception", "gb0088", "Observed exception",
                                "Dynamo found no exception handler at the top-level compiled function when encountering an exception. Exception will propagate outside the compiled region.",
                                {"Your code may result in an error when running in eager. Please double check that your code doesn't contain a similar error when actually running eager/uncompiled. You can do this by removing the `torch.compile` call, or by using `torch.compiler.set_stance(\"force_eager\")`. ",
                                 "It may be possible to write Dynamo tracing rules for this code. Please report an issue to PyTorch if you encounter this graph break often and it is causing performance issues."}}},
        {"loop", {"loop", "gb7000", "graph break in loop",
                  "torch.compile detected a graph break in a for/while loop. Skipping the frame and falling back to eager, as graph breaks in loops are not supported.",
                  {"This graph break may have been caused by an earlier graph break. Resolving the earlier graph break may resolve this one."}}},
        {"side_effect", {"side_effect", "fuselab", "Side effect on an object from outside the compiled function",
                         "This statement changes {fn}, which existed before the call. torch.compile records such changes and replays them after the graph; Fuselab does not replay them yet, so it runs the statement eagerly and splits the graph here.",
                         {"Keep state changes (appending to lists, setting attributes, assigning globals) outside the compiled function, or return the new values instead."}}},
        {"generator", {"generator", "fuselab", "Generator resumed while tracing",
                       "The statement resumes the generator `{fn}`. torch.compile inlines generators; Fuselab does not trace into them yet, so it runs the statement eagerly and splits the graph here.",
                       {"Consume the generator outside the compiled function (pass a list in), or use a list comprehension inside it."}}},
        {"aten_op", {"aten_op", "fuselab", "Operator capture does not model",
                     "`{fn}` comes from LibTorch's operator registry and mutates or aliases its arguments, draws random numbers or has a data-dependent result shape. torch.compile traces it; Fuselab does not model its effects in a graph yet, so it runs the statement eagerly and splits the graph here.",
                     {"Use an equivalent operator Fuselab captures (see `fuselab api --coverage`), or move the call out of the compiled function."}}},
        {"too_large", {"too_large", "fuselab", "Graph too large",
                       "Fuselab stops tracing a frame past 100000 ops (usually a loop unrolled too far); the frame runs eagerly.",
                       {"Move the long loop out of the compiled function, or compile its body instead."}}},
        {"restart_stop", {"restart_stop", "", "", "", {}}},
    };
    auto it = kinds.find(id);
    if (it == kinds.end()) return kinds.at("skipped");
    return it->second;
}

static std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
    for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
    return s;
}


// ---------------------------------------------------------------- sources
static std::string pyStrLit(const std::string& s) { return reprStr(s); }

static std::string stepText(const SourceStep& st) {
    switch (st.kind) {
    case SourceStep::Attr: return "." + st.name;
    case SourceStep::Item: return st.index >= 0 ? "[" + std::to_string(st.index) + "]" : "[" + pyStrLit(st.name) + "]";
    default: return "";
    }
}

std::string Source::str() const {
    std::string out;
    for (auto& st : steps) {
        if (st.kind == SourceStep::Local || st.kind == SourceStep::Closure) out += "L[" + pyStrLit(st.display.empty() ? st.name : st.display) + "]";
        else if (st.kind == SourceStep::Global) out += "G[" + pyStrLit(st.name) + "]";
        else out += stepText(st);
    }
    return out;
}

std::string Source::userName() const {
    std::string out;
    for (auto& st : steps) {
        if (st.kind == SourceStep::Local || st.kind == SourceStep::Closure) out += st.display.empty() ? st.name : st.display;
        else if (st.kind == SourceStep::Global) out += "G[" + pyStrLit(st.name) + "]";
        else out += stepText(st);
    }
    return out;
}

static std::string placeholderName(const Source& s) {
    std::string out;
    for (auto& st : s.steps) {
        std::string part = st.kind == SourceStep::Local || st.kind == SourceStep::Closure ? "L_" + (st.display.empty() ? st.name : st.display) : st.kind == SourceStep::Global ? "G_" + st.name
                         : st.kind == SourceStep::Attr ? st.name : (st.index >= 0 ? std::to_string(st.index) : st.name);
        size_t a = part.find_first_not_of('_');
        part = a == std::string::npos ? part : part.substr(a);
        if (!out.empty()) out += "_";
        out += part;
    }
    std::string clean;
    for (char c : out) clean += (isalnum(static_cast<unsigned char>(c)) ? c : '_');
    return clean + "_";
}

// ---------------------------------------------------------------- guards
static std::string dtypeShort(int st) { return c10::toString(static_cast<at::ScalarType>(st)); }

static std::string dtypeName(at::ScalarType st) {
    switch (st) {
    case at::kFloat: return "float32";
    case at::kDouble: return "float64";
    case at::kHalf: return "float16";
    case at::kBFloat16: return "bfloat16";
    case at::kLong: return "int64";
    case at::kInt: return "int32";
    case at::kShort: return "int16";
    case at::kChar: return "int8";
    case at::kByte: return "uint8";
    case at::kBool: return "bool";
    default: return c10::toString(st);
    }
}

static std::string intList(const std::vector<int64_t>& v, const std::vector<uint8_t>* dyn = nullptr) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) {
        if (i) out += ", ";
        out += dyn && i < dyn->size() && (*dyn)[i] ? "None" : std::to_string(v[i]);
    }
    return out + "]";
}

static std::string reprConst(const Value& v) {
    if (v.isNone()) return "None";
    if (v.isBool()) return v.b() ? "True" : "False";
    if (v.isInt()) return std::to_string(v.i());
    if (v.isFloat()) return reprFloat(v.f());
    if (v.isStr()) return reprStr(strOf(v));
    if (v.is(OK::Tuple) || v.is(OK::List)) {
        auto& items = v.is(OK::Tuple) ? v.as<TupleObj>()->items : v.as<ListObj>()->items;
        std::string out = v.is(OK::Tuple) ? "(" : "[";
        for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + reprConst(items[i]);
        if (v.is(OK::Tuple) && items.size() == 1) out += ",";
        return out + (v.is(OK::Tuple) ? ")" : "]");
    }
    if (v.is(OK::Dtype)) return "torch." + v.as<DtypeObj>()->name;
    return "<object>";
}

std::string Guard::describe() const {
    std::string s;
    switch (kind) {
    case GuardKind::GradMode: s = std::string("GLOBAL_STATE: ___check_global_state() grad_mode=") + (gradMode ? "True" : "False"); break;
    case GuardKind::Tensor: {
        std::vector<uint8_t> strideDyn(tensor.strides.size());
        for (size_t d = 0; d < strideDyn.size(); ++d) strideDyn[d] = tensor.strideDynamic(d);
        s = "TENSOR_MATCH: check_tensor(" + src.str() + ", torch." + dtypeName(static_cast<at::ScalarType>(tensor.dtype)) +
            ", device=cpu, requires_grad=" + (tensor.requiresGrad ? "True" : "False") + ", size=" + intList(tensor.sizes, &tensor.dynamic) +
            ", stride=" + intList(tensor.strides, &strideDyn) + ")";
        for (size_t i = 0; i < tensor.dynamic.size(); ++i)
            if (tensor.dynamic[i]) s += "; 2 <= " + src.str() + ".size()[" + std::to_string(i) + "]";
        break;
    }
    case GuardKind::Equals: s = "EQUALS_MATCH: " + src.str() + " == " + reprConst(expected); break;
    case GuardKind::IsNone: s = "NONE_MATCH: " + src.str() + " is None"; break;
    case GuardKind::IdMatch: s = "ID_MATCH: ___check_obj_id(" + src.str() + ", " + std::to_string(objId) + ")"; break;
    case GuardKind::Length: s = "LENGTH_CHECK: len(" + src.str() + ") == " + std::to_string(length); break;
    case GuardKind::DictKeys: s = "DICT_KEYS_MATCH: list(" + src.str() + ".keys()) == " + reprConst(expected); break;
    case GuardKind::ScalarType: s = "TYPE_MATCH: ___check_type_id(" + src.str() + ", " + (expected.isFloat() ? "float" : "int") + ")"; break;
    case GuardKind::InstanceType:
        s = "TYPE_MATCH: ___check_type_id(" + src.str() + ", " + std::to_string(objId) + "), type=<class '" + expected.as<ClassObj>()->name + "'>";
        break;
    }
    if (!userLine.empty()) s += "  " + userLine;
    return s;
}

static bool sameConst(const Value& a, const Value& b) {
    if (a.type() != b.type()) {
        // 1 == 1.0 == True in Python, but a changed type is a different program: recompile.
        return false;
    }
    switch (a.type()) {
    case Value::T::None: return true;
    case Value::T::Bool:
    case Value::T::Int: return a.i() == b.i();
    case Value::T::Float: return a.f() == b.f() || (a.f() != a.f() && b.f() != b.f());
    case Value::T::Obj:
        if (a.isStr() && b.isStr()) return strOf(a) == strOf(b);
        if ((a.is(OK::Tuple) && b.is(OK::Tuple)) || (a.is(OK::List) && b.is(OK::List))) {
            auto& x = a.is(OK::Tuple) ? a.as<TupleObj>()->items : a.as<ListObj>()->items;
            auto& y = b.is(OK::Tuple) ? b.as<TupleObj>()->items : b.as<ListObj>()->items;
            if (x.size() != y.size()) return false;
            for (size_t i = 0; i < x.size(); ++i)
                if (!sameConst(x[i], y[i])) return false;
            return true;
        }
        if (a.is(OK::Dtype) && b.is(OK::Dtype)) return a.as<DtypeObj>()->scalarType == b.as<DtypeObj>()->scalarType;
        return a.obj() == b.obj();
    default: return false;
    }
}

// Checks one guard against a value; on failure writes Dynamo's reason.
static bool checkGuard(const Guard& g, bool found, const Value& v, std::string* why) {
    auto fail = [&](std::string r) {
        if (why) *why = std::move(r);
        return false;
    };
    switch (g.kind) {
    case GuardKind::GradMode:
        if (at::GradMode::is_enabled() != g.gradMode) return fail("GLOBAL_STATE changed: grad_mode");
        return true;
    case GuardKind::Tensor: {
        std::string name = "tensor '" + g.src.userName() + "'";
        if (!found || !v.isTensor()) return fail(g.src.userName() + " is not a Tensor");
        const at::Tensor& t = tensorOf(v);
        const TensorSpec& sp = g.tensor;
        if (int(t.scalar_type()) != sp.dtype) return fail(name + " dtype mismatch. expected " + dtypeShort(sp.dtype) + ", actual " + dtypeShort(int(t.scalar_type())));
        if (t.requires_grad() != sp.requiresGrad) return fail(name + " requires_grad mismatch. expected requires_grad=" + (sp.requiresGrad ? "1" : "0"));
        if (t.dim() != int64_t(sp.sizes.size())) return fail(name + " rank mismatch. expected " + std::to_string(sp.sizes.size()) + ", actual " + std::to_string(t.dim()));
        auto sizes = t.sizes();
        bool anyDynamic = false;
        for (size_t i = 0; i < sp.sizes.size(); ++i) {
            if (sp.dynamic[i]) { anyDynamic = true; continue; }
            if (sizes[i] != sp.sizes[i]) return fail(name + " size mismatch at index " + std::to_string(i) + ". expected " + std::to_string(sp.sizes[i]) + ", actual " + std::to_string(sizes[i]));
        }
        {
            auto strides = t.strides();
            int64_t small[8];
            std::vector<int64_t> big;
            int64_t* want = small;
            if (anyDynamic) {
                if (sp.strides.size() > 8) big.resize(sp.strides.size()), want = big.data();
                sp.expectedStrides(sizes.data(), want);
            } else {
                want = const_cast<int64_t*>(sp.strides.data());
            }
            for (size_t i = 0; i < sp.strides.size(); ++i)
                if (strides[i] != want[i]) return fail(name + " stride mismatch at index " + std::to_string(i) + ". expected " + std::to_string(want[i]) + ", actual " + std::to_string(strides[i]));
        }
        for (size_t i = 0; i < sp.sizes.size(); ++i)
            if (sp.dynamic[i] && sizes[i] < 2) return fail("2 <= " + g.src.userName() + ".size()[" + std::to_string(i) + "]");
        return true;
    }
    case GuardKind::Equals:
        if (!found || !sameConst(v, g.expected)) return fail(g.src.userName() + " == " + reprConst(g.expected));
        return true;
    case GuardKind::IsNone:
        if (!found || !v.isNone()) return fail(g.src.userName() + " is None");
        return true;
    case GuardKind::IdMatch:
        if (!found || v.obj() != g.expected.obj()) return fail("___check_obj_id(" + g.src.userName() + ", " + std::to_string(g.objId) + ")");
        return true;
    case GuardKind::Length: {
        int64_t n = !found ? -1 : v.is(OK::List) ? int64_t(v.as<ListObj>()->items.size()) : v.is(OK::Tuple) ? int64_t(v.as<TupleObj>()->items.size())
                  : v.is(OK::Dict) ? int64_t(v.as<DictObj>()->map.size()) : -1;
        if (n != g.length) return fail("len(" + g.src.userName() + ") == " + std::to_string(g.length));
        return true;
    }
    case GuardKind::ScalarType:
        if (!found || v.type() != g.expected.type()) return fail("___check_type_id(" + g.src.userName() + ", " + (g.expected.isFloat() ? "float" : "int") + ")");
        return true;
    case GuardKind::InstanceType:
        if (!found || !v.is(OK::Instance) || v.as<InstanceObj>()->cls.get() != g.expected.as<ClassObj>())
            return fail("___check_type_id(" + g.src.userName() + ", " + std::to_string(g.objId) + ")");
        return true;
    case GuardKind::DictKeys: {
        bool ok = found && v.is(OK::Dict);
        if (ok) {
            auto& keys = g.expected.as<TupleObj>()->items;
            size_t k = 0;
            for (auto& e : v.as<DictObj>()->map.entries()) {
                if (!e.live) continue;
                if (k >= keys.size() || !sameConst(e.key, keys[k])) { ok = false; break; }
                ++k;
            }
            ok = ok && k == keys.size();
        }
        if (!ok) return fail("list(" + g.src.userName() + ".keys()) == " + reprConst(makeList(g.expected.as<TupleObj>()->items)));
        return true;
    }
    }
    return true;
}

// Builds the entry's accessor tree from its guards' and placeholders' sources.
static int slotFor(Entry& e, const Source& src, std::map<std::pair<int, std::string>, int>& index) {
    int parent = -1;
    for (const SourceStep& st : src.steps) {
        std::string key = std::to_string(int(st.kind)) + ":" + st.name + ":" + std::to_string(st.index);
        auto it = index.find({parent, key});
        if (it != index.end()) { parent = it->second; continue; }
        SourceSlot slot;
        slot.parent = parent;
        slot.step = st;
        if (st.kind == SourceStep::Item && st.index < 0) slot.key = makeStr(st.name);
        e.slots.push_back(std::move(slot));
        parent = int(e.slots.size()) - 1;
        index[{slot.parent, key}] = parent;
    }
    return parent;
}

static void planEntry(Entry& e) {
    std::map<std::pair<int, std::string>, int> index;
    e.slots.clear();
    e.guardSlot.assign(e.guards.size(), -1);
    for (size_t i = 0; i < e.guards.size(); ++i)
        if (e.guards[i].kind != GuardKind::GradMode) e.guardSlot[i] = slotFor(e, e.guards[i].src, index);
    std::function<void(ArgT&)> plan = [&](ArgT& a) {
        if (a.kind == ArgT::Src) a.slot = slotFor(e, a.src, index);
        for (auto& x : a.items) plan(x);
    };
    plan(e.exit.ret);
    for (auto& [x, t] : e.exit.subst) plan(t);
    for (auto& [k, t] : e.exit.locals) plan(t);
    e.placeholderSlot.assign(e.graph.nodes.size(), -1);
    for (size_t i = 0; i < e.graph.nodes.size(); ++i) {
        const OpNode& n = e.graph.nodes[i];
        if (n.placeholder && !n.constant) e.placeholderSlot[i] = slotFor(e, n.source, index);
    }
}

// Resolves one slot (its parent first); state: 0 unresolved, 1 found, 2 missing.
static bool resolveSlot(Interp& in, const Entry& e, int i, const Scope* locals, const Scope* globals,
                        std::vector<Value>& vals, std::vector<uint8_t>& state) {
    if (state[i]) return state[i] == 1;
    const SourceSlot& sl = e.slots[i];
    const SourceStep& st = sl.step;
    Value base;
    if (sl.parent >= 0) {
        if (!resolveSlot(in, e, sl.parent, locals, globals, vals, state)) { state[i] = 2; return false; }
        base = vals[sl.parent];
    }
    bool ok = true;
    Value out;
    switch (st.kind) {
    case SourceStep::Local: {
        auto it = locals->vars.find(st.name);
        ok = it != locals->vars.end();
        if (ok) out = it->second;
        break;
    }
    case SourceStep::Global: {
        auto it = globals->vars.find(st.name);
        ok = it != globals->vars.end();
        if (ok) out = it->second;
        break;
    }
    case SourceStep::Closure: {
        ok = false;
        for (const Scope* sc = locals->parent.get(); sc && sc->kind != Scope::ModuleScope; sc = sc->parent.get()) {
            auto it = sc->vars.find(st.name);
            if (it != sc->vars.end()) { out = it->second; ok = true; break; }
        }
        break;
    }
    case SourceStep::Attr:
        if (base.is(OK::Instance)) {
            auto* inst = base.as<InstanceObj>();
            auto it = inst->attrs.find(st.name);
            if (it != inst->attrs.end()) { out = it->second; break; }
        }
        try {
            ok = in.tryGetAttr(base, st.name, out);
        } catch (PyException&) {
            ok = false;
        }
        break;
    case SourceStep::Item:
        if (st.index >= 0) {
            const std::vector<Value>* items = base.is(OK::List) ? &base.as<ListObj>()->items : base.is(OK::Tuple) ? &base.as<TupleObj>()->items : nullptr;
            ok = items && st.index < int64_t(items->size());
            if (ok) out = (*items)[st.index];
        } else {
            const Value* v = base.is(OK::Dict) ? base.as<DictObj>()->map.find(sl.key) : nullptr;
            ok = v != nullptr;
            if (ok) out = *v;
        }
        break;
    }
    state[i] = ok ? 1 : 2;
    if (ok) vals[i] = std::move(out);
    return ok;
}

// Checks an entry's guards; on failure `why`/`comment` get the first failing guard's reason.
// `vals` gets the resolved sources (the graph's inputs come from them).
static bool checkEntry(Interp& in, const Entry& e, const Scope* locals, const Scope* globals, std::string* why, std::string* comment,
                       std::vector<Value>& vals, std::vector<uint8_t>& state) {
    vals.assign(e.slots.size(), Value());
    state.assign(e.slots.size(), 0);
    static const Value kNone;
    for (size_t i = 0; i < e.guards.size(); ++i) {
        const Guard& g = e.guards[i];
        int sl = e.guardSlot[i];
        bool found = sl >= 0 && resolveSlot(in, e, sl, locals, globals, vals, state);
        if (!checkGuard(g, found, found ? vals[sl] : kNone, why)) {
            if (comment) *comment = g.userLine;
            return false;
        }
    }
    return true;
}

static bool checkEntry(Interp& in, const Entry& e, const Scope* locals, const Scope* globals, std::string* why, std::string* comment) {
    std::vector<Value> vals;
    std::vector<uint8_t> state;
    return checkEntry(in, e, locals, globals, why, comment, vals, state);
}

static graph::TensorMeta metaOf(const at::Tensor& t, const std::map<int64_t, std::string>& symbols);

static void recordMeta(Tracer& t, OpNode& n, const Value& r);

// ---------------------------------------------------------------- the tracer
Tracer::Tracer(Session& s_, CFrame& f, Entry& e_, Scope* root, Scope* globals, int depth)
    : s(s_), in(s_.interp()), fr(f), e(e_) {
    rootScope = root;
    userGlobals = globals;
    rootDepth = depth;
}

bool Tracer::atRoot() const { return in.callDepth() == rootDepth; }

void Tracer::beginStmt(const Stmt* st) {
    settleSizes();
    stmt = st;
    done.clear();
    callOcc.clear();
    inIfTest = false;
}

void Tracer::exprDone(const Expr* x, const Value& v) {
    if (loopDepth == 0 && in.callDepth() == rootDepth) done.emplace_back(x, v);
}

void Tracer::beforeRootCall(const CallExpr* c) {
    int occ = ++callOcc[c];
    if (c == stopCall && occ - 1 == stopOcc && path == stopPath && loopDepth == 0) {
        GraphBreakSignal sig = makeSignal("restart_stop", "");
        throw sig;
    }
}

std::string Tracer::userComment() const {
    // the innermost user frame: "# return x * c  # m.py:5 in f"
    auto& frames = in.frames();
    for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
        if (!it->module || it->module->filename.rfind("<fuselab:", 0) == 0) continue;
        std::string src;
        if (it->line >= 1 && it->line <= int(it->module->lines.size())) {
            src = it->module->lines[it->line - 1];
            size_t a = src.find_first_not_of(" \t");
            src = a == std::string::npos ? "" : src.substr(a);
        }
        return "# " + src + "  # " + it->module->filename + ":" + std::to_string(it->line) + " in " + it->function;
    }
    return {};
}

void Tracer::addGuard(Guard g) {
    std::string key = std::to_string(int(g.kind)) + g.src.str();
    if (!guarded.insert(key).second) return;
    if (g.userLine.empty() && g.kind != GuardKind::GradMode) g.userLine = userComment();
    e.guards.push_back(std::move(g));
}

static bool isConstLeaf(const Value& v) {
    return v.isNumber() || v.isNone() || v.isStr() || v.is(OK::Dtype);
}
static bool isConstValue(const Value& v) {
    if (isConstLeaf(v)) return true;
    if (v.is(OK::Tuple)) {
        for (auto& x : v.as<TupleObj>()->items)
            if (!isConstValue(x)) return false;
        return true;
    }
    return false;
}

// Reading a value from a source: constants are guarded; objects remember where they came from.
static void noteValue(Tracer& t, const Source& src, const Value& v, bool guardCallables) {
    if (v.isMissing()) return;
    if (isConstValue(v) && !v.is(OK::Dtype)) {
        Guard g;
        g.src = src;
        if (v.isNone()) g.kind = GuardKind::IsNone;
        else { g.kind = GuardKind::Equals; g.expected = v; }
        t.addGuard(std::move(g));
        return;
    }
    if (!v.isObj()) return;
    // an enum member is a constant to Dynamo: guarded by identity, its attributes read freely
    bool enumMember = v.is(OK::Instance) && v.as<InstanceObj>()->cls->meta && v.as<InstanceObj>()->cls->meta->module == "enum";
    if ((guardCallables && (v.is(OK::Function) || v.is(OK::Builtin) || v.is(OK::Class))) || enumMember) {
        Guard g;
        g.kind = GuardKind::IdMatch;
        g.src = src;
        g.expected = v;
        g.objId = t.s.objectId(v.obj());
        t.addGuard(std::move(g));
        return;
    }
    if (v.is(OK::Tensor) || v.is(OK::List) || v.is(OK::Tuple) || v.is(OK::Dict) || v.is(OK::Instance)) {
        if (!t.sources.count(v.obj())) {
            t.sources.emplace(v.obj(), src);
            t.keep.push_back(v);
        }
    }
    // Whatever the frame does with an object of a script class goes through its class (truth,
    // ==, str, len, callable, hasattr, a method): another class is another program. Guarded at the
    // first read, not only at an attribute read: `if op:` with a class defining __bool__ replayed
    // the first class's answer for another one.
    if (v.is(OK::Instance)) t.guardClass(v);
}

static Source localSource(const Tracer& t, const std::string& name) {
    SourceStep st{SourceStep::Local, name};
    auto a = t.fr.aliases.find(name);
    if (a != t.fr.aliases.end()) st.display = a->second;
    return Source{{st}};
}

void Tracer::onLocalRead(const std::string& name, const Value& v) {
    if (!suspended && symLocals.count(name)) specializeAll = true; // a symbolic size used as a plain int
    if (suspended || !inputs.count(name) || reassigned.count(name)) return;
    noteValue(*this, localSource(*this, name), v, true);
}

void Tracer::onClosureRead(const std::string& name, const Value& v) {
    if (suspended || v.is(OK::Module)) return;
    // a function held by a closure cell is guarded by identity: the same code made by another
    // call of its factory (`make(torch.exp)`, `make(torch.expm1)`) calls something else
    bool callable = v.is(OK::Function) || v.is(OK::Builtin) || v.is(OK::Class);
    noteValue(*this, Source{{SourceStep{SourceStep::Closure, name}}}, v, callable);
}

void Tracer::onGlobalRead(const std::string& name, const Value& v) {
    if (suspended) return;
    if (v.is(OK::Function) || v.is(OK::Builtin) || v.is(OK::Class) || v.is(OK::Module)) return;
    noteValue(*this, Source{{SourceStep{SourceStep::Global, name}}}, v, false);
}

void Tracer::guardClass(const Value& obj) {
    auto it = sources.find(obj.obj());
    if (it == sources.end() || !typeGuarded.insert(obj.obj()).second) return;
    Guard g;
    g.kind = GuardKind::InstanceType;
    g.src = it->second;
    g.expected = Value(obj.as<InstanceObj>()->cls);
    g.objId = s.objectId(g.expected.obj());
    addGuard(std::move(g));
}

static bool isNnModule(Interp& in, const Value& v) {
    auto it = in.registry.find("torch.nn.Module");
    return it != in.registry.end() && v.is(OK::Instance) && v.as<InstanceObj>()->cls->isSubclassOf(it->second.as<ClassObj>());
}

void Tracer::onAttr(const Value& base, const std::string& name, const Value& result) {
    if (suspended || !base.isObj() || base.isTensor()) return;
    auto it = sources.find(base.obj());
    if (it == sources.end()) return;
    Source src = it->second;
    // An object of a script class is traced through its class (its methods, its forward): another
    // class there (nn.Sigmoid where nn.Tanh was) is another program. Dynamo guards the type too.
    if (base.is(OK::Instance)) guardClass(base);
    if (base.is(OK::Instance)) {
        auto* inst = base.as<InstanceObj>();
        if (!inst->attrs.count(name)) {
            for (const char* table : {"_modules", "_parameters", "_buffers"}) {
                auto t = inst->attrs.find(table);
                if (t != inst->attrs.end() && t->second.is(OK::Dict) && t->second.as<DictObj>()->map.find(makeStr(name))) {
                    src.steps.push_back(SourceStep{SourceStep::Attr, table});
                    src.steps.push_back(SourceStep{SourceStep::Item, name});
                    noteValue(*this, src, result, false);
                    return;
                }
            }
        }
    }
    if (result.is(OK::BoundMethod) || result.is(OK::Function) || result.is(OK::Builtin)) return;
    src.steps.push_back(SourceStep{SourceStep::Attr, name});
    noteValue(*this, src, result, false);
}

void Tracer::onItem(const Value& base, const Value& key, const Value& result) {
    if (suspended || !base.isObj() || base.isTensor()) return;
    auto sz = symSizeTuples.find(base.obj());
    if (sz != symSizeTuples.end()) {
        settleSymRead();
        claimSizes(base.obj());
        int64_t n = int64_t(sz->second.second.size());
        int64_t d = key.isInt() ? (key.i() < 0 ? key.i() + n : key.i()) : -1;
        if (d >= 0 && d < n && sz->second.second[d]) {
            symExpr = curExpr;
            symExprRef = ArgT{};
            symExprRef.kind = ArgT::Ref;
            symExprRef.node = sz->second.first;
            symExprRef.index = int(d);
            pendingSpecialize = true;
        } else if (!key.isInt()) {
            specializeAll = true; // a slice of the sizes: a plain tuple from here on
        }
        return;
    }
    auto it = sources.find(base.obj());
    if (it == sources.end()) return;
    SourceStep st{SourceStep::Item, ""};
    if ((base.is(OK::List) || base.is(OK::Tuple)) && key.isInt()) {
        int64_t n = base.is(OK::List) ? base.as<ListObj>()->items.size() : base.as<TupleObj>()->items.size();
        st.index = key.i() < 0 ? key.i() + n : key.i();
    } else if (base.is(OK::Dict) && key.isStr()) {
        st.name = strOf(key);
    } else {
        onSeqUse(base);
        return;
    }
    onSeqUse(base);
    noteValue(*this, it->second.plus(st), result, false);
}

void Tracer::onMutate(const Value& obj) {
    if (suspended || !obj.isObj()) return;
    auto it = sources.find(obj.obj());
    if (it == sources.end()) return;
    breakNow("side_effect", "`" + it->second.userName() + "`");
}

void Tracer::onGlobalStore(const std::string& name) {
    if (suspended) return;
    breakNow("side_effect", "the global `" + name + "`");
}

void Tracer::onSeqUse(const Value& seq) {
    if (suspended || !seq.isObj()) return;
    auto it = sources.find(seq.obj());
    if (it == sources.end()) return;
    // once per container and trace: changing an input container breaks the graph anyway
    if (!seqGuarded.insert(seq.obj()).second) return;
    Guard g;
    g.src = it->second;
    if (seq.is(OK::List) || seq.is(OK::Tuple)) {
        auto& items = seq.is(OK::List) ? seq.as<ListObj>()->items : seq.as<TupleObj>()->items;
        g.kind = GuardKind::Length;
        g.length = int64_t(items.size());
        for (size_t i = 0; i < items.size(); ++i) {
            SourceStep st{SourceStep::Item, ""};
            st.index = int64_t(i);
            // constants too: a copy or a loop reads them where no later guard would see it
            noteValue(*this, g.src.plus(st), items[i], false);
        }
    } else if (seq.is(OK::Dict)) {
        g.kind = GuardKind::DictKeys;
        std::vector<Value> keys;
        for (auto& e : seq.as<DictObj>()->map.entries())
            if (e.live) {
                keys.push_back(e.key);
                SourceStep st{SourceStep::Item, e.key.isStr() ? strOf(e.key) : ""};
                if (e.key.isIntLike()) st.index = e.key.i();
                if (e.key.isStr() || e.key.isIntLike()) noteValue(*this, g.src.plus(st), e.val, false);
            }
        g.expected = makeTuple(std::move(keys));
    } else {
        return;
    }
    addGuard(std::move(g));
}

void Tracer::metadataRead(const Value& tensor) {
    // A size read into Python makes the graph depend on it: dynamic dims are specialised (the
    // entry's guards then pin every size). torch.compile keeps them symbolic instead.
    // An input read before any op uses it becomes a placeholder here, with its dynamic dims.
    if (tensor.isTensor() && !tensorRef.count(tensor.obj()) && sources.count(tensor.obj())) argOf(tensor);
    if (tensorRef.count(tensor.obj()) && hasDynamicDims()) specializeAll = true;
}

std::vector<std::string> Tracer::userStack(bool withSource) const {
    std::vector<std::string> out;
    for (auto& f : in.frames()) {
        if (!f.module || f.module->filename.rfind("<fuselab:", 0) == 0) continue;
        std::string s = "File \"" + f.module->filename + "\", line " + std::to_string(f.line) + ", in " + f.function;
        if (withSource && f.line >= 1 && f.line <= int(f.module->lines.size())) {
            std::string src = f.module->lines[f.line - 1];
            size_t a = src.find_first_not_of(" \t");
            if (a != std::string::npos) s += "\n  " + src.substr(a);
        }
        out.push_back(s);
    }
    return out;
}

GraphBreakSignal Tracer::makeSignal(const std::string& kindId, const std::string& detail) {
    GraphBreakSignal sig;
    sig.kind = breakKind(kindId);
    sig.kind.explanation = replaceAll(sig.kind.explanation, "{fn}", detail);
    for (auto& h : sig.kind.hints) h = replaceAll(h, "{fn}", detail);
    if (kindId == "print") {
        std::string args = detail.empty() ? "[]" : detail;
        sig.kind.explanation = replaceAll(replaceAll(sig.kind.explanation, "{args}", args), "{kw}", "False");
        for (auto& h : sig.kind.hints) h = replaceAll(h, "{args}", args);
    }
    sig.context = kindId == "data_dependent" ? "" : "CALL: a function call, e.g. f(x, y)";
    sig.depth = in.callDepth();
    sig.inLoop = loopDepth > 0;
    sig.userStack = userStack(true);
    for (auto it = in.frames().rbegin(); it != in.frames().rend(); ++it) {
        if (!it->module || it->module->filename.rfind("<fuselab:", 0) == 0) continue;
        sig.file = it->module->filename;
        sig.line = it->line;
        break;
    }
    return sig;
}

void Tracer::breakNow(const std::string& kindId, const std::string& detail) { throw makeSignal(kindId, detail); }

void TensorSpec::expectedStrides(const int64_t* actual, int64_t* out) const {
    // strideFrom points at a dim of smaller traced stride, so one pass in that order settles all;
    // a chain is at most rank long, and rank passes cover any order
    size_t r = strides.size();
    for (size_t d = 0; d < r; ++d) out[d] = strides[d];
    for (size_t pass = 0; pass < r; ++pass)
        for (size_t d = 0; d < r; ++d)
            if (strideFrom[d] >= 0) out[d] = out[strideFrom[d]] * (dynamic[strideFrom[d]] ? actual[strideFrom[d]] : sizes[strideFrom[d]]);
}

bool TensorSpec::strideDynamic(size_t d) const {
    for (size_t n = 0; n <= strides.size() && d < strides.size(); ++n) {
        if (strideFrom[d] < 0) return false;
        if (dynamic[strideFrom[d]]) return true;
        d = size_t(strideFrom[d]);
    }
    return false;
}

static TensorSpec specOf(const at::Tensor& t) {
    TensorSpec sp;
    sp.dtype = int(t.scalar_type());
    sp.requiresGrad = t.requires_grad();
    sp.sizes = t.sizes().vec();
    sp.strides = t.strides().vec();
    sp.dynamic.assign(sp.sizes.size(), 0);
    // each stride from the next smaller one (innermost first; a dim of size 1 only when no other
    // fits), as a dense or sliced layout's are
    size_t r = sp.sizes.size();
    sp.strideFrom.assign(r, -1);
    std::vector<int> order(r);
    for (size_t d = 0; d < r; ++d) order[d] = int(d);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return sp.strides[a] < sp.strides[b] || (sp.strides[a] == sp.strides[b] && a > b); });
    for (size_t k = 1; k < r; ++k) {
        int d = order[k];
        for (int pick = 0; pick < 2 && sp.strideFrom[d] < 0; ++pick)
            for (size_t q = k; q-- > 0;) {
                int j = order[q];
                if ((pick == 0) == (sp.sizes[j] == 1)) continue;
                if (sp.sizes[j] * sp.strides[j] == sp.strides[d] && sp.strides[d] != 0) { sp.strideFrom[d] = int8_t(j); break; }
            }
    }
    return sp;
}

int Tracer::placeholderFor(const Value& v) {
    auto& nodes = e.graph.nodes;
    auto src = sources.find(v.obj());
    OpNode n;
    n.placeholder = true;
    if (src != sources.end()) {
        n.source = src->second;
        std::string key = n.source.str();
        auto known = tensorInputs.find(key);
        if (known != tensorInputs.end()) return known->second;
        tensorInputs.emplace(key, int(nodes.size()));
        Guard g;
        g.kind = GuardKind::Tensor;
        g.src = n.source;
        const at::Tensor& t = tensorOf(v);
        g.tensor = specOf(t);
        // dynamic dims: dynamic=True, mark_dynamic, or a size that changed since the first compile
        auto& seen = fr.seenSizes[key];
        auto& dyn = fr.dynamicDims[key];
        if (seen.empty()) seen = g.tensor.sizes;
        if (dyn.size() != g.tensor.sizes.size()) dyn.assign(g.tensor.sizes.size(), 0);
        uint64_t marked = v.as<TensorObj>()->markedDynamic;
        for (size_t d = 0; d < g.tensor.sizes.size(); ++d) {
            if (fr.opts.dynamic == 0) break;
            if (seen.size() == g.tensor.sizes.size() && seen[d] != g.tensor.sizes[d]) dyn[d] = 1;
            bool want = fr.opts.dynamic == 1 || dyn[d] || (d < 64 && (marked >> d) & 1);
            if (want && g.tensor.sizes[d] >= 2) g.tensor.dynamic[d] = 1;
        }
        for (size_t d = 0; d < g.tensor.sizes.size(); ++d)
            if (g.tensor.dynamic[d] && !symbols.count(g.tensor.sizes[d])) symbols[g.tensor.sizes[d]] = "s" + std::to_string(symbols.size());
        addGuard(std::move(g));
    } else {
        n.constant = true;
        n.constValue = v;
    }
    n.meta.push_back(metaOf(tensorOf(v), symbols));
    nodes.push_back(std::move(n));
    int id = int(nodes.size()) - 1;
    placeholderValues[id] = v;
    tensorRef[v.obj()] = {id, -1};
    keep.push_back(v);
    return id;
}

ArgT Tracer::argOf(const Value& v) {
    ArgT a;
    if (v.isTensor()) {
        auto it = tensorRef.find(v.obj());
        a.kind = ArgT::Ref;
        if (it != tensorRef.end()) { a.node = it->second.first; a.index = it->second.second; }
        else a.node = placeholderFor(v);
        return a;
    }
    if (v.is(OK::List) || (v.is(OK::Tuple) && !isConstValue(v))) {
        a.kind = v.is(OK::List) ? ArgT::List : ArgT::Tuple;
        for (auto& x : v.is(OK::List) ? v.as<ListObj>()->items : v.as<TupleObj>()->items) a.items.push_back(argOf(x));
        return a;
    }
    if (v.is(OK::Dict)) {
        a.kind = ArgT::Dict;
        for (auto& en : v.as<DictObj>()->map.entries())
            if (en.live) { a.keys.push_back(en.key); a.items.push_back(argOf(en.val)); }
        return a;
    }
    a.c = v;
    return a;
}

// For exit templates: objects that came from outside the frame keep their identity (found again
// through their source on each call); values made inside are rebuilt.
ArgT Tracer::templateOf(const Value& v) {
    if (v.isObj() && !v.isTensor() && !isConstValue(v)) {
        auto it = sources.find(v.obj());
        if (it != sources.end()) {
            ArgT a;
            a.kind = ArgT::Src;
            a.src = it->second;
            return a;
        }
    }
    if (v.is(OK::List) || v.is(OK::Tuple)) {
        ArgT a;
        a.kind = v.is(OK::List) ? ArgT::List : ArgT::Tuple;
        for (auto& x : v.is(OK::List) ? v.as<ListObj>()->items : v.as<TupleObj>()->items) a.items.push_back(templateOf(x));
        if (v.is(OK::Tuple) && isConstValue(v)) return argOf(v);
        return a;
    }
    if (v.is(OK::Dict)) {
        ArgT a;
        a.kind = ArgT::Dict;
        for (auto& en : v.as<DictObj>()->map.entries())
            if (en.live) { a.keys.push_back(en.key); a.items.push_back(templateOf(en.val)); }
        return a;
    }
    return argOf(v);
}

static bool isInplace(const std::string& target, const CallArgs& ca) {
    bool flag = false;
    for (auto& [k, v] : ca.kw) flag = flag || (k == "inplace" && v.isBool() && v.b());
    return graph::mutatesInPlace(target, flag);
}

bool Tracer::isSymName(const std::string& name) const {
    if (suspended) return false;
    if (symLocals.count(name)) return true;
    return dynamicScalars.count(name) && inputs.count(name) && !reassigned.count(name);
}

Value Tracer::sizeOp(CallArgs& ca, const OpInvoke& run) {
    argOf(ca.pos[0]); // an input becomes a placeholder here, with its dynamic dims
    auto it = tensorRef.find(ca.pos[0].obj());
    std::vector<uint8_t> dyn;
    if (it != tensorRef.end()) dyn = sizeDependence(it->second.first, it->second.second);
    bool anyDyn = false;
    for (auto d : dyn) anyDyn = anyDyn || d;
    Value r;
    {
        ++suspended;
        struct Un { int& s; ~Un() { --s; } } un{suspended};
        r = run(in, ca);
    }
    if (!anyDyn) return r;
    settleSymRead();
    OpNode n;
    n.target = "Tensor.size";
    n.invoke = run;
    for (auto& v : ca.pos) n.pos.push_back(argOf(v));
    recordMeta(*this, n, r);
    e.graph.nodes.push_back(std::move(n));
    int id = int(e.graph.nodes.size()) - 1;
    if (r.is(OK::Tuple)) {
        symSizeTuples[r.obj()] = {id, dyn};
        unclaimedSizes.push_back(r.obj());
        keep.push_back(r);
    } else if (ca.pos.size() > 1 && ca.pos[1].isInt()) {
        int64_t d = ca.pos[1].i() < 0 ? ca.pos[1].i() + int64_t(dyn.size()) : ca.pos[1].i();
        if (d >= 0 && d < int64_t(dyn.size()) && dyn[d]) {
            symExpr = curExpr;
            symExprRef = ArgT{};
            symExprRef.kind = ArgT::Ref;
            symExprRef.node = id;
            pendingSpecialize = true;
        }
    }
    return r;
}

void Tracer::afterAssign(const Expr* target, const Expr* value, const Value& v) {
    if (target->kind == ExprKind::Name) {
        const std::string& name = static_cast<const NameExpr*>(target)->id;
        if (pendingSpecialize && symExpr == value && v.isInt()) {
            symLocals[name] = symExprRef;
            pendingSpecialize = false;
        }
        return;
    }
    if ((target->kind == ExprKind::Tuple || target->kind == ExprKind::List) && v.is(OK::Tuple)) {
        auto st = symSizeTuples.find(v.obj());
        if (st == symSizeTuples.end()) return;
        claimSizes(v.obj());
        auto& elts = target->kind == ExprKind::Tuple ? static_cast<const TupleExpr*>(target)->elts : static_cast<const ListExpr*>(target)->elts;
        for (size_t i = 0; i < elts.size() && i < st->second.second.size(); ++i) {
            if (elts[i]->kind != ExprKind::Name || !st->second.second[i]) continue;
            ArgT a;
            a.kind = ArgT::Ref;
            a.node = st->second.first;
            a.index = int(i);
            symLocals[static_cast<const NameExpr*>(elts[i].get())->id] = a;
        }
    }
}

ArgT Tracer::scalarArg(const std::string& name, const Value& v) {
    auto sl = symLocals.find(name);
    if (sl != symLocals.end()) return sl->second;
    Source src = localSource(*this, name);
    std::string key = src.str();
    auto& nodes = e.graph.nodes;
    ArgT a;
    a.kind = ArgT::Ref;
    auto known = scalarInputs.find(key);
    if (known != scalarInputs.end()) { a.node = known->second; return a; }
    scalarInputs.emplace(key, int(nodes.size()));
    OpNode n;
    n.placeholder = true;
    n.scalar = true;
    n.source = src;
    nodes.push_back(std::move(n));
    a.node = int(nodes.size()) - 1;
    placeholderValues[a.node] = v;
    Guard g;
    g.kind = GuardKind::ScalarType;
    g.src = src;
    g.expected = v;
    addGuard(std::move(g));
    return a;
}

ArgT Tracer::symBinaryArg(BinOpKind op, const Value& l, const ArgT& lt, const Value& r, const ArgT& rt, Value& out) {
    ++suspended;
    {
        struct Un { int& s; ~Un() { --s; } } un{suspended};
        out = in.binary(op, l, r);
    }
    OpNode n;
    n.target = std::string("operator.") + binOpFunction(op);
    n.invoke = [op](Interp& in, CallArgs& ca) { return in.binary(op, ca.pos[0], ca.pos[1]); };
    n.pos = {lt, rt};
    recordMeta(*this, n, out);
    e.graph.nodes.push_back(std::move(n));
    ArgT a;
    a.kind = ArgT::Ref;
    a.node = int(e.graph.nodes.size()) - 1;
    return a;
}

void Tracer::specializeName(const std::string& name) {
    if (symLocals.count(name)) { specializeAll = true; return; }
    if (!inputs.count(name) || reassigned.count(name)) return;
    auto it = rootScope->vars.find(name);
    if (it == rootScope->vars.end()) return;
    noteValue(*this, localSource(*this, name), it->second, false);
}

static std::string modulePathOf(const Source& src) {
    std::string out;
    for (size_t i = 1; i < src.steps.size(); ++i) {
        const SourceStep& st = src.steps[i];
        if (st.kind == SourceStep::Item && !st.name.empty() && src.steps[i - 1].kind == SourceStep::Attr && src.steps[i - 1].name == "_modules")
            out += (out.empty() ? "" : ".") + st.name;
    }
    return out;
}

static void recordMeta(Tracer& t, OpNode& n, const Value& r);
// Shape, source line, module path and user stack of a node, for the printed graph and the window.
static void recordMeta(Tracer& t, OpNode& n, const Value& r) {
    auto metaFor = [&](const Value& v) {
        if (v.isTensor()) n.meta.push_back(metaOf(tensorOf(v), t.symbols));
    };
    metaFor(r);
    if (r.is(OK::Tuple))
        for (auto& x : r.as<TupleObj>()->items) metaFor(x);
    auto& frames = t.in.frames();
    bool innermostIsUser = false;
    for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
        if (!it->module || it->module->filename.rfind("<fuselab:", 0) == 0) continue;
        n.span.file = it->module->filename;
        n.span.line = it->line;
        innermostIsUser = it == frames.rbegin();
        break;
    }
    if (innermostIsUser && t.curExpr && t.curExpr->span.line == n.span.line) {
        n.span.col = t.curExpr->span.col;
        n.span.endCol = t.curExpr->span.endLine == t.curExpr->span.line ? t.curExpr->span.endCol : t.curExpr->span.col;
    }
    for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
        if (!it->firstArg.isObj()) continue;
        auto s = t.sources.find(it->firstArg.obj());
        if (s == t.sources.end()) continue;
        n.modulePath = modulePathOf(s->second);
        break;
    }
    n.userStack = t.userStack(false);
}

// unbind / split / chunk along a dynamic dim: how many parts there are depends on its size.
bool Tracer::splitDimIsDynamic(const std::string& target, const CallArgs& ca) {
    // where the dim is passed positionally; hsplit / vsplit / dsplit pick theirs by rank
    static const std::map<std::string, size_t> dimPos = {{"unbind", 1}, {"split", 2}, {"chunk", 2}, {"tensor_split", 2},
                                                         {"split_with_sizes", 2}, {"unsafe_split", 2}, {"unsafe_chunk", 2}};
    static const std::set<std::string> byRank = {"hsplit", "vsplit", "dsplit"};
    std::string base = target.substr(target.rfind('.') + 1);
    auto dp = dimPos.find(base);
    if ((dp == dimPos.end() && !byRank.count(base)) || ca.pos.empty() || !ca.pos[0].isTensor()) return false;
    auto it = tensorRef.find(ca.pos[0].obj());
    if (it == tensorRef.end()) return false;
    const OpNode& src = e.graph.nodes[it->second.first];
    int k = it->second.second < 0 ? 0 : it->second.second;
    if (k >= int(src.meta.size())) return false;
    const auto& shape = src.meta[k].shape;
    int64_t rank = int64_t(shape.size());
    if (dp == dimPos.end()) { // hsplit/vsplit/dsplit: any dynamic dim, conservatively
        for (auto& d : shape)
            if (d.isSymbolic()) return true;
        return false;
    }
    int64_t dim = 0;
    if (dp->second < ca.pos.size() && ca.pos[dp->second].isIntLike()) dim = ca.pos[dp->second].i();
    for (auto& [k2, v] : ca.kw)
        if (k2 == "dim" && v.isIntLike()) dim = v.i();
    if (dim < 0) dim += rank;
    if (dim < 0 || dim >= rank) return false;
    if (shape[dim].isSymbolic()) return true;
    // a size computed from a dynamic one (x[::2], a flatten, a cat along it) is recorded as a
    // number; q, k, v = x.split(C, dim=2) in attention splits a static dim and stays dynamic
    std::vector<uint8_t> dep = sizeDependence(it->second.first, it->second.second);
    return size_t(dim) < dep.size() && dep[dim];
}

std::vector<uint8_t> Tracer::sizeDependence(int node, int item) {
    const auto& nodes = e.graph.nodes;
    std::vector<uint8_t> dep;
    const OpNode& target = nodes[node];
    int k = item < 0 ? 0 : item;
    if (k >= int(target.meta.size())) return dep;
    const auto& shape = target.meta[k].shape;
    for (auto& d : shape) dep.push_back(d.isSymbolic() ? 1 : 0);
    if (!hasDynamicDims()) return dep;
    for (auto& env : shadowEnv)
        if (env.size() < nodes.size()) env.resize(nodes.size());
    {
        ++suspended;
        struct Un { int& s; ~Un() { --s; } } un{suspended};
        while (!shadowFailed && shadowDone <= size_t(node)) {
            size_t i = shadowDone;
            const OpNode& n = nodes[i];
            for (int k = 0; k < kShadows && !shadowFailed; ++k) {
                std::vector<Value>& env = shadowEnv[k];
                try {
                    if (n.placeholder) {
                        auto pv = placeholderValues.find(int(i));
                        Value v = n.constant ? n.constValue : pv != placeholderValues.end() ? pv->second : Value();
                        if (v.isTensor()) {
                            const at::Tensor& t = tensorOf(v);
                            std::vector<int64_t> sz = t.sizes().vec();
                            if (n.meta.size() == 1 && n.meta[0].shape.size() == sz.size())
                                for (size_t d = 0; d < sz.size(); ++d)
                                    if (n.meta[0].shape[d].isSymbolic()) sz[d] = k == 0 ? sz[d] * 2 : k == 1 ? sz[d] + 1 : sz[d] > 2 ? 2 : 3;
                            v = wrap(at::empty(sz, t.options().device(at::kMeta)));
                        }
                        env[i] = v;
                    } else {
                        CallArgs ca;
                        for (auto& a : n.pos) ca.pos.push_back(instantiateArg(a, env, nullptr));
                        for (auto& [key, a] : n.kw) ca.kw.emplace_back(key, instantiateArg(a, env, nullptr));
                        env[i] = n.invoke(in, ca);
                    }
                } catch (...) {
                    shadowFailed = true; // an op with no meta kernel, or one the moved sizes do not fit
                }
            }
            if (!shadowFailed) ++shadowDone;
        }
    }
    for (int k = 0; k < kShadows; ++k) {
        Value sv = shadowFailed ? Value() : shadowEnv[k][node];
        if (item >= 0) sv = sv.is(OK::Tuple) && size_t(item) < sv.as<TupleObj>()->items.size() ? sv.as<TupleObj>()->items[item] : Value();
        bool known = sv.isTensor() && tensorOf(sv).dim() == int64_t(shape.size());
        for (size_t d = 0; d < shape.size(); ++d)
            // not known (an op without a meta kernel): any size may come from a dynamic one, a 1
            // too (x[::2] of 2 rows)
            if (!shape[d].isSymbolic() && (!known || tensorOf(sv).size(int64_t(d)) != shape[d].value)) dep[d] = 1;
    }
    return dep;
}

bool Tracer::hasDynamicDims() const {
    for (auto& g : e.guards)
        if (g.kind == GuardKind::Tensor)
            for (auto d : g.tensor.dynamic)
                if (d) return true;
    return false;
}

Value Tracer::op(const std::string& target, CallArgs& ca, const OpInvoke& run) {
    if (suspended) return run(in, ca);
    const graph::TargetFacts facts = graph::targetFacts(target);
    const bool onTensor = !ca.pos.empty() && ca.pos[0].isTensor();
    if (facts.role == graph::CaptureRole::Size && onTensor) return sizeOp(ca, run);
    settleSymRead();
    // ---- operations that break the graph
    switch (facts.role) {
    case graph::CaptureRole::Break: breakNow(facts.breakKind, ""); break;
    case graph::CaptureRole::BreakTolist:
        breakNow(onTensor && at::isFloatingType(tensorOf(ca.pos[0]).scalar_type()) ? "tolist" : facts.breakKind, "");
        break;
    case graph::CaptureRole::Skipped: breakNow("skipped", target.substr(target.find('.') + 1)); break;
    default: break;
    }
    // x[mask] with a bool (or uint8) tensor: how many values come out depends on the data
    if (graph::opOfTarget(target) == graph::Op::Getitem && ca.pos.size() > 1) {
        auto isMask = [](const Value& v) {
            if (!v.isTensor()) return false;
            auto st = tensorOf(v).scalar_type();
            return st == at::kBool || st == at::kByte;
        };
        bool mask = isMask(ca.pos[1]);
        if (ca.pos[1].is(OK::Tuple))
            for (auto& x : ca.pos[1].as<TupleObj>()->items) mask = mask || isMask(x);
        if (mask) breakNow("nonzero", "");
    }
    // ---- metadata reads: Python values, no node
    if (facts.role == graph::CaptureRole::Metadata || facts.role == graph::CaptureRole::SizedMetadata ||
        facts.role == graph::CaptureRole::Size) {
        if (onTensor && facts.role == graph::CaptureRole::SizedMetadata) metadataRead(ca.pos[0]);
        ++suspended;
        struct Un { int& s; ~Un() { --s; } } un{suspended};
        return run(in, ca);
    }
    // ---- an in-place op on an input: keep its old contents in case the trace restarts
    if (isInplace(target, ca) && !ca.pos.empty() && ca.pos[0].isTensor()) {
        auto it = tensorRef.find(ca.pos[0].obj());
        bool fromInput = it == tensorRef.end() || e.graph.nodes[it->second.first].placeholder;
        if (fromInput && undone.insert(ca.pos[0].obj()).second) undo.emplace_back(ca.pos[0], wrap(tensorOf(ca.pos[0]).detach().clone()));
    }
    if (e.graph.nodes.size() >= 100000) breakNow("too_large", "");
    OpNode n;
    n.target = target;
    n.invoke = run;
    for (auto& v : ca.pos) n.pos.push_back(argOf(v));
    for (auto& [k, v] : ca.kw) n.kw.emplace_back(k, argOf(v));
    if ((pendingCall && pendingCall == &ca) || (pendingBinary && target.rfind("operator.", 0) == 0)) {
        size_t shift = pendingCall ? ca.pos.size() - pendingCount : 0;
        for (auto& [i, t] : pendingPos)
            if (i + shift < n.pos.size()) n.pos[i + shift] = symArg(t);
        for (auto& [k, t] : pendingKw)
            for (auto& kv : n.kw)
                if (kv.first == k) kv.second = symArg(t);
        pendingPos.clear();
        pendingKw.clear();
        pendingCall = nullptr;
        pendingBinary = false;
    }
    Value r;
    {
        ++suspended;
        struct Un { int& s; ~Un() { --s; } } un{suspended};
        r = run(in, ca);
    }
    if (r.is(OK::Tuple) && splitDimIsDynamic(target, ca)) specializeAll = true; // the number of parts is a size
    bool tensorResult = r.isTensor();
    if (r.is(OK::Tuple))
        for (auto& x : r.as<TupleObj>()->items) tensorResult = tensorResult || x.isTensor();
    if (!tensorResult && target != "torch._assert" && target != "torch._C._set_grad_enabled") {
        // A Python value computed from tensor data (torch.equal, allclose, ...): like item().
        bool fromTensor = false;
        for (auto& v : ca.pos) fromTensor = fromTensor || v.isTensor();
        if (fromTensor && !r.isNone()) breakNow("data_dependent_op", "");
        return r;
    }
    // an op returning one of its inputs unchanged (x.cpu(), x.to(x.dtype)) adds nothing, unless
    // that rests on the layout (x.contiguous()) and the entry has dynamic sizes: their strides are
    // not guarded, and x[::2] of an [s0] input is contiguous at s0 = 2 but not at s0 = 3
    const auto opId = graph::opOfTarget(target);
    const bool layoutDependent = opId && graph::info(*opId).copies() && hasDynamicDims();
    if (r.isTensor() && !isInplace(target, ca) && !layoutDependent)
        for (auto& v : ca.pos)
            if (v.isTensor() && v.obj() == r.obj()) return r;
    auto& nodes = e.graph.nodes;
    nodes.push_back(std::move(n));
    int id = int(nodes.size()) - 1;
    if (r.isTensor()) {
        tensorRef[r.obj()] = {id, -1};
        keep.push_back(r);
    } else if (r.is(OK::Tuple)) {
        auto& items = r.as<TupleObj>()->items;
        for (size_t i = 0; i < items.size(); ++i)
            if (items[i].isTensor()) { tensorRef[items[i].obj()] = {id, int(i)}; keep.push_back(items[i]); }
    }
    recordMeta(*this, nodes[id], r);
    return r;
}


// ---------------------------------------------------------------- the reference backend
struct SrcCtx {
    Interp& in;
    const Entry& e;
    const Scope* locals;
    const Scope* globals;
    std::vector<Value>& vals;
    std::vector<uint8_t>& state;
};
static bool resolveSlot(Interp& in, const Entry& e, int i, const Scope* locals, const Scope* globals,
                        std::vector<Value>& vals, std::vector<uint8_t>& state);

static Value instantiate(const ArgT& a, const std::vector<Value>& env, SrcCtx* ctx = nullptr) {
    switch (a.kind) {
    case ArgT::Src:
        if (!ctx || a.slot < 0 || !resolveSlot(ctx->in, ctx->e, a.slot, ctx->locals, ctx->globals, ctx->vals, ctx->state))
            throw std::runtime_error("compiled frame: " + a.src.str() + " is gone");
        return ctx->vals[a.slot];
    case ArgT::Const: return a.c;
    case ArgT::Ref: {
        if (a.node < 0 || size_t(a.node) >= env.size()) throw std::runtime_error("compiled frame: a graph value is missing");
        const Value& v = env[a.node];
        if (a.index < 0) return v;
        if (!v.is(OK::Tuple) || size_t(a.index) >= v.as<TupleObj>()->items.size())
            throw std::runtime_error("compiled frame: a graph value has the wrong structure");
        return v.as<TupleObj>()->items[a.index];
    }
    case ArgT::List:
    case ArgT::Tuple: {
        std::vector<Value> items;
        items.reserve(a.items.size());
        for (auto& x : a.items) items.push_back(instantiate(x, env, ctx));
        return a.kind == ArgT::List ? makeList(std::move(items)) : makeTuple(std::move(items));
    }
    case ArgT::Dict: {
        auto d = std::make_shared<DictObj>();
        for (size_t i = 0; i < a.items.size(); ++i) d->map.set(a.keys[i], instantiate(a.items[i], env, ctx));
        return Value(d);
    }
    }
    return Value();
}

Value instantiateArg(const ArgT& a, std::vector<Value>& env, const std::function<void(int)>& ensure) {
    if (ensure) {
        std::function<void(const ArgT&)> walk = [&](const ArgT& x) {
            if (x.kind == ArgT::Ref) ensure(x.node);
            for (auto& y : x.items) walk(y);
        };
        walk(a);
    }
    return instantiate(a, env);
}

// Runs the captured graph node by node with LibTorch (backend="eager"); returns the node values.
static std::vector<Value> runGraph(Interp& in, const Entry& e, const Scope* locals, const Scope* globals,
                                  std::vector<Value>& vals, std::vector<uint8_t>& state) {
    const CapturedGraph& g = e.graph;
    std::vector<Value> env(g.nodes.size());
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const OpNode& n = g.nodes[i];
        if (!n.placeholder) continue;
        if (n.constant) env[i] = n.constValue;
        else if (!resolveSlot(in, e, e.placeholderSlot[i], locals, globals, vals, state))
            in.raise(in.runtimeError, "compiled graph input " + n.source.str() + " is missing");
        else env[i] = vals[e.placeholderSlot[i]];
    }
    auto noteIO = [&] {
        Session::LastGraph lg;
        lg.entry = &e;
        for (size_t i = 0; i < g.nodes.size(); ++i)
            if (g.nodes[i].placeholder && env[i].isTensor()) lg.bytesIn += int64_t(tensorOf(env[i]).nbytes());
        for (auto& o : g.outputs) {
            const Value& v = env[o.node];
            if (o.index < 0 && v.isTensor()) lg.bytesOut += int64_t(tensorOf(v).nbytes());
        }
        session(in).lastGraph = lg;
    };
    events::Log& log = session(in).events;
    const bool timed = log.at(events::Level::Calls);
    const events::Ns t0 = timed ? events::now() : 0;
    if (e.compiled && e.compiled->execute(in, g, env)) {
        noteIO();
        if (timed) log.span("runtime", "graph", events::Category::Graph, t0, events::now() - t0, events::GraphFacts{e.id, false});
        return env;
    }
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const OpNode& n = g.nodes[i];
        if (n.placeholder) continue;
        CallArgs ca;
        ca.pos.reserve(n.pos.size());
        for (auto& a : n.pos) ca.pos.push_back(instantiate(a, env));
        for (auto& [k, a] : n.kw) ca.kw.emplace_back(k, instantiate(a, env));
        env[i] = n.invoke(in, ca);
    }
    noteIO();
    if (timed) log.span("runtime", "graph", events::Category::Graph, t0, events::now() - t0, events::GraphFacts{e.id, true});
    return env;
}

// ---------------------------------------------------------------- printable graph
static graph::TensorMeta metaOf(const at::Tensor& t, const std::map<int64_t, std::string>& symbols) {
    graph::TensorMeta m;
    for (auto s : t.sizes()) {
        auto it = symbols.find(s);
        m.shape.push_back(it != symbols.end() ? graph::Dim::sym(it->second) : graph::Dim::constant(s));
    }
    m.dtype = dtypeName(t.scalar_type());
    m.requiresGrad = t.requires_grad();
    m.strides = t.strides().vec();
    return m;
}

// A constant as data for the graph (lowering reads it); the graph's text for it is made apart.
static graph::Const constOf(Interp& in, const Value& v) {
    using graph::Const;
    if (v.isNone()) return Const::none();
    if (v.isBool()) return Const::boolean(v.b());
    if (v.isInt()) return Const::integer(v.i());
    if (v.isFloat()) return Const::real(v.f());
    if (script::isBigInt(v)) return Const::bigInt(v.as<script::BigIntObj>()->v.negative());
    if (v.isStr()) return Const::str(strOf(v));
    if (v.is(OK::Dtype)) return Const::dtype(v.as<DtypeObj>()->name);
    if (v.is(OK::Ellipsis)) return Const::ellipsis();
    if (v.is(OK::Slice)) {
        auto* sl = v.as<script::SliceObj>();
        return Const::slice(constOf(in, sl->start), constOf(in, sl->stop), constOf(in, sl->step));
    }
    if (v.is(OK::Tuple)) {
        std::vector<Const> items;
        for (auto& x : v.as<TupleObj>()->items) items.push_back(constOf(in, x));
        return Const::tuple(std::move(items));
    }
    return Const::opaque(in.typeName(v));
}

static graph::Arg printableArg(Interp& in, const ArgT& a, const std::vector<graph::Node*>& map) {
    switch (a.kind) {
    case ArgT::Ref: {
        // an item of a tuple result (split's) stays a reference: the graph keeps the edge
        return a.index >= 0 ? graph::Arg::item(map[a.node], a.index) : graph::Arg::ref(map[a.node]);
    }
    case ArgT::List:
    case ArgT::Tuple:
    case ArgT::Dict: {
        graph::Arg r;
        r.kind = a.kind == ArgT::List ? graph::Arg::Kind::List : a.kind == ArgT::Tuple ? graph::Arg::Kind::Tuple : graph::Arg::Kind::Dict;
        for (auto& x : a.items) r.items.push_back(printableArg(in, x, map));
        return r;
    }
    case ArgT::Src: return graph::Arg::lit(a.src.str());
    case ArgT::Const: {
        const Value& v = a.c;
        if (isConstValue(v)) return graph::Arg::lit(reprConst(v), constOf(in, v));
        if (v.is(OK::Slice) || v.is(OK::Ellipsis)) return graph::Arg::lit(in.repr(v), constOf(in, v));
        return graph::Arg::lit("<" + in.typeName(v) + ">", constOf(in, v));
    }
    }
    return graph::Arg::none();
}

static void collectRefs(const ArgT& a, std::vector<ArgT>& out, std::set<std::pair<int, int>>& seen, const std::vector<OpNode>& nodes) {
    if (a.kind == ArgT::Ref && !nodes[a.node].placeholder && seen.emplace(a.node, a.index).second) out.push_back(a);
    for (auto& x : a.items) collectRefs(x, out, seen, nodes);
}

void Tracer::finishGraph(const std::vector<ArgT*>& exits) {
    CapturedGraph& g = e.graph;
    if (specializeAll) {
        for (auto& gd : e.guards)
            if (gd.kind == GuardKind::Tensor) std::fill(gd.tensor.dynamic.begin(), gd.tensor.dynamic.end(), 0);
        // every size is pinned now: the meta says so (s0 is the value it had), so that the graph's
        // shapes agree with the sizes its ops were called with (a view's plain-int sizes)
        std::map<std::string, int64_t> valueOf;
        for (auto& [v, name] : symbols) valueOf[name] = v;
        for (auto& n : g.nodes)
            for (auto& m : n.meta)
                for (auto& d : m.shape)
                    if (d.isSymbolic() && valueOf.count(d.symbol)) d = graph::Dim::constant(valueOf[d.symbol]);
    }
    std::set<std::pair<int, int>> seen;
    for (auto& o : g.outputs) seen.emplace(o.node, o.index);
    for (auto* x : exits) collectRefs(*x, g.outputs, seen, g.nodes);
    g.ops = 0;
    std::vector<graph::Node*> map(g.nodes.size(), nullptr);
    int constants = 0;
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        OpNode& n = g.nodes[i];
        graph::Node* pn;
        if (n.placeholder) {
            std::string name = n.constant ? "_tensor_constant" + std::to_string(constants++) : placeholderName(n.source);
            pn = &g.printable.addPlaceholder(name, n.meta.empty() ? graph::TensorMeta{} : n.meta[0]);
            if (n.scalar) pn->meta.clear();
        } else {
            ++g.ops;
            std::vector<graph::Arg> args;
            for (auto& a : n.pos) args.push_back(printableArg(in, a, map));
            std::vector<std::pair<std::string, graph::Arg>> kwargs;
            for (auto& [k, a] : n.kw) kwargs.emplace_back(k, printableArg(in, a, map));
            std::string target = n.target.rfind("Tensor.", 0) == 0 ? "torch." + n.target : n.target;
            pn = &g.printable.addCall(target, std::move(args), std::move(kwargs));
            pn->meta = n.meta;
        }
        pn->span = n.span;
        pn->modulePath = n.modulePath;
        pn->userStack = n.userStack;
        map[i] = pn;
    }
    std::vector<graph::Arg> outs;
    for (auto& o : g.outputs) outs.push_back(printableArg(in, o, map));
    g.printable.setOutput(std::move(outs));
    if (g.ops == 0) e.status = EntryStatus::Empty;
}

// ---------------------------------------------------------------- session
Session::Session(Interp& in, Backend* b) : backend(b), in_(in) { logs = LogChannels::fromEnv(); }

const char* statusName(EntryStatus s) {
    switch (s) {
    case EntryStatus::Compiled: return "compiled";
    case EntryStatus::Empty: return "empty";
    case EntryStatus::Error: return "error";
    case EntryStatus::Eager: return "eager";
    }
    return "?";
}

Session& install(Interp& in, Backend* backend) {
    in.compileHooks = std::make_unique<Session>(in, backend);
    return session(in);
}

Session& session(Interp& in) {
    // every run core/run makes has one; an interpreter made without install() has none
    if (!in.compileHooks) throw std::logic_error("capture::session: no capture session is installed in this interpreter");
    return static_cast<Session&>(*in.compileHooks);
}
const Session& session(const Interp& in) { return session(const_cast<Interp&>(in)); }
Session::~Session() = default;

LogChannels LogChannels::fromEnv() {
    LogChannels c;
    const char* v = std::getenv("FUSELAB_LOGS");
    if (!v || !*v) v = std::getenv("TORCH_LOGS");
    if (!v) return c;
    std::string s = v;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) {
        while (!item.empty() && (item[0] == ' ' || item[0] == '+')) item.erase(0, 1);
        while (!item.empty() && item.back() == ' ') item.pop_back();
        if (item == "graph_breaks") c.graphBreaks = true;
        else if (item == "recompiles") c.recompiles = true;
        else if (item == "recompiles_verbose") c.recompilesVerbose = true;
        else if (item == "guards") c.guards = true;
        else if (item == "graph_code" || item == "graph") c.graphCode = true;
        else if (item == "aot_graphs") c.aotGraphs = true;
        else if (item == "aot_joint_graph") c.aotJointGraph = true;
        else if (item == "aot") c.aotGraphs = c.aotJointGraph = true;
        else if (item == "dynamo") c.graphBreaks = c.recompiles = c.guards = c.graphCode = true;
        else if (item == "all") c.graphBreaks = c.recompiles = c.guards = c.graphCode = c.aotGraphs = c.aotJointGraph = true;
    }
    return c;
}

void Session::log(const std::string& cid, const std::string& channel, const std::string& text) {
    std::string out;
    std::stringstream ss(text);
    std::string line;
    while (std::getline(ss, line)) out += "[" + cid + "] " + (channel.empty() ? "" : "[__" + channel + "] ") + line + "\n";
    if (logSink) logSink(out);
    else in_.options().err(out);
}

int64_t Session::objectId(const Obj* o) {
    auto it = objIds_.find(o);
    if (it != objIds_.end()) return it->second;
    int64_t id = int64_t(objIds_.size()) + 1;
    objIds_[o] = id;
    return id;
}

std::vector<Session::GuardTiming> Session::timeGuards(int iterations, int repeats) {
    std::vector<GuardTiming> out;
    for (CFrame* fr : order_) {
        if (fr->entries.empty() || !fr->lastScope) continue;
        Entry& e = *fr->entries.back();
        const Scope* globals = fr->lastScope->globals.get();
        GuardTiming t;
        t.id = e.id;
        t.guards = int(e.guards.size());
        t.passed = checkEntry(in_, e, fr->lastScope.get(), globals, nullptr, nullptr);
        std::vector<double> batches;
        std::vector<Value> vals;
        std::vector<uint8_t> state;
        for (int r = 0; r < repeats; ++r) {
            auto t0 = std::chrono::steady_clock::now();
            bool ok = true;
            for (int i = 0; i < iterations; ++i) ok &= checkEntry(in_, e, fr->lastScope.get(), globals, nullptr, nullptr, vals, state);
            auto t1 = std::chrono::steady_clock::now();
            if (!ok) t.passed = false;
            batches.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / iterations);
        }
        std::sort(batches.begin(), batches.end());
        t.nanos = batches[batches.size() / 2];
        out.push_back(t);
    }
    return out;
}

int Session::graphCount() const {
    int n = 0;
    for (auto* f : order_)
        for (auto& e : f->entries)
            if (e->status == EntryStatus::Compiled) ++n;
    return n;
}

static std::string pathKey(const std::vector<int>& p) {
    std::string s;
    for (size_t i = 0; i < p.size(); ++i) s += (i ? "." : "") + std::to_string(p[i]);
    return s;
}

// A frame's code object: a def, or a lambda (whose body is one expression).
static const void* codeOf(const FunctionObj* fn) { return fn->def ? static_cast<const void*>(fn->def) : static_cast<const void*>(fn->lambda); }

static int firstLine(const FunctionObj* fn) {
    if (!fn->def) return fn->lambda->span.line;
    int line = fn->def->span.line;
    for (auto& d : fn->def->decorators) line = std::min(line, d->span.line);
    return line;
}

CFrame& Session::frameFor(const FrameKey& key, FunctionObj* fn, const std::vector<int>& path, int breakLine) {
    auto it = frames_.find(key);
    if (it != frames_.end()) return *it->second;
    auto fr = std::make_unique<CFrame>();
    fr->key = key;
    fr->path = path;
    fr->file = fn->ast ? fn->ast->filename : "";
    fr->function = fn->name;
    fr->qualname = fn->qualname.empty() ? fn->name : fn->qualname;
    fr->line = firstLine(fn);
    if (!path.empty()) {
        // named like Dynamo's resume functions: after the statement that broke
        fr->line = breakLine > 0 ? breakLine : Interp::stmtAt(fn->def->body, path)->span.line;
        fr->function = "torch_dynamo_resume_in_" + fn->name + "_at_" + std::to_string(fr->line);
    }
    CFrame& ref = *fr;
    frames_.emplace(key, std::move(fr));
    return ref;
}

Value Session::callCompiled(const Value& fnValue, CallArgs& args, const CompileOptions& opts) {
    if (!enabled || in_.tracer) return in_.call(fnValue, args); // inside a trace: inlined
    if (recordCalls && interceptDepth_ == 0) {
        recorded.push_back(RecordedCall{fnValue, args, opts, at::GradMode::is_enabled(), in_.frames()});
    }
    Value fn = fnValue;
    CallArgs a = args;
    if (fn.is(OK::BoundMethod)) {
        a.pos.insert(a.pos.begin(), fn.as<BoundMethodObj>()->self);
        fn = fn.as<BoundMethodObj>()->func;
    }
    // a generator function's call only makes the generator: nothing to capture (its body runs
    // eagerly when the generator is resumed)
    if (!fn.is(OK::Function) || (!fn.as<FunctionObj>()->def && !fn.as<FunctionObj>()->lambda) ||
        (fn.as<FunctionObj>()->def && fn.as<FunctionObj>()->def->isGenerator))
        return in_.call(fnValue, args);
    auto* fo = fn.as<FunctionObj>();
    if (interceptDepth_ == 0 && events.at(events::Level::Calls)) return callTimed(fo, a, opts);
    ScopeP sc = in_.bindCall(fo, a);
    struct Depth { int& d; CompileOptions& cur; CompileOptions saved; ~Depth() { --d; cur = saved; } } depth{interceptDepth_, currentOpts_, currentOpts_};
    ++interceptDepth_;
    currentOpts_ = opts;
    return runFrame(fo, {}, sc, opts);
}

// callCompiled with the event log at Calls: one span per top-level call, saying whether it
// compiled anything (a first call) or ran cached code.
static size_t entryCount(const std::vector<CFrame*>& order) {
    size_t n = 0;
    for (auto* f : order) n += f->entries.size();
    return n;
}

Value Session::callTimed(FunctionObj* fo, CallArgs& a, const CompileOptions& opts) {
    const events::Ns t0 = events::now();
    const size_t before = entryCount(order_);
    const int index = recordCalls ? int(recorded.size()) - 1 : -1;
    struct Emit {
        Session& s;
        FunctionObj* fo;
        events::Ns t0;
        size_t before;
        int index;
        bool gradMode = at::GradMode::is_enabled(); // shown with the call in the trace
        ~Emit() {
            try {
                const size_t after = entryCount(s.order_);
                std::string name = fo->qualname.empty() ? fo->name : fo->qualname;
                s.events.span("runtime", std::move(name), events::Category::Call, t0, events::now() - t0,
                              events::CallFacts{after > before, index, int(after - before), gradMode});
            } catch (...) { // unwinding: a lost event, never a second exception
            }
        }
    } emit{*this, fo, t0, before, index};
    ScopeP sc = in_.bindCall(fo, a);
    struct Depth { int& d; CompileOptions& cur; CompileOptions saved; ~Depth() { --d; cur = saved; } } depth{interceptDepth_, currentOpts_, currentOpts_};
    ++interceptDepth_;
    currentOpts_ = opts;
    return runFrame(fo, {}, sc, opts);
}

void Session::resetFrames() {
    lastGraph = LastGraph{};
    order_.clear();
    frames_.clear();
    report_ = Report{};
    compiledFns_ = 0;
}

Value Session::callAsFrame(FunctionObj* fn, CallArgs& args) {
    ScopeP sc = in_.bindCall(fn, args);
    return runFrame(fn, {}, sc, currentOpts_);
}

Value Session::callDisabled(const Value& fn, CallArgs& args) {
    if (in_.tracer) maybeBreak(in_, "disable", in_.repr(fn));
    int saved = interceptDepth_;
    interceptDepth_ = 0;
    struct Restore { int& d; int s; ~Restore() { d = s; } } restore{interceptDepth_, saved};
    return in_.call(fn, args);
}

static std::string compileId(const CFrame& fr, int n) { return std::to_string(fr.index) + "/" + std::to_string(n); }

Value Session::runFrame(FunctionObj* fn, const std::vector<int>& path, const ScopeP& scope, const CompileOptions& opts, int breakLine) {
    CFrame& fr = frameFor(FrameKey{codeOf(fn), pathKey(path)}, fn, path, breakLine);
    ++fr.calls;
    fr.lastScope = scope;
    const size_t live = fr.entries.size() - fr.resetAt;
    if (live == 0 && !fr.skip) fr.opts = opts;
    if (fr.skip) return runEager(fr, fn, scope);
    const Scope* globals = fn->globals.get();
    const bool timed = events.at(events::Level::Calls) && live != 0;
    const events::Ns tGuards = timed ? events::now() : 0;
    for (size_t k = fr.entries.size(); k-- > fr.resetAt;) {
        Entry& e = *fr.entries[k];
        if (e.status == EntryStatus::Error) continue;
        std::vector<Value> vals;
        std::vector<uint8_t> state;
        if (checkEntry(in_, e, scope.get(), globals, nullptr, nullptr, vals, state)) {
            if (timed)
                events.span("runtime", "guards", events::Category::Guard, tGuards, events::now() - tGuards,
                            events::GuardFacts{e.id, int(live)});
            return replay(e, fr, fn, scope, vals, state);
        }
    }
    if (timed)
        events.span("runtime", "guards", events::Category::Guard, tGuards, events::now() - tGuards, events::GuardFacts{"none", int(live)});
    std::vector<std::string> reasons, comments;
    for (size_t k = fr.entries.size(); k-- > fr.resetAt;) {
        Entry& e = *fr.entries[k];
        if (e.status == EntryStatus::Error) continue;
        std::string why, cmt;
        checkEntry(in_, e, scope.get(), globals, &why, &cmt);
        reasons.push_back(e.id + ": " + why);
        comments.push_back(cmt);
    }
    if (fr.limitHit) return runEager(fr, fn, scope);
    if (!reasons.empty()) {
        std::string cid = compileId(fr, fr.compiles);
        RecompileEvent rev{cid, fr.function, fr.file, fr.line, reasons, comments};
        // the user line that made this call (a resume frame is called by its own function)
        for (auto it = in_.frames().rbegin(); path.empty() && it != in_.frames().rend(); ++it)
            if (it->module && it->module->filename.rfind("<fuselab:", 0) != 0) {
                rev.callFile = it->module->filename, rev.callLine = it->line;
                break;
            }
        report_.recompiles.push_back(rev);
        if (events.at(events::Level::Compile)) {
            std::string joined;
            for (size_t i = 0; i < reasons.size(); ++i) joined += (i ? "; " : "") + reasons[i];
            events.instant("compile " + cid, "recompile", events::Category::Recompile, events::now(),
                           events::RecompileFacts{cid, fr.function, fr.file, fr.line, joined});
        }
        std::string head = "Recompiling function " + fr.function + " in " + fr.file + ":" + std::to_string(fr.line) + "\n    triggered by the following guard failure(s):\n";
        if (logs.recompilesVerbose) {
            std::string body;
            for (size_t i = 0; i < reasons.size(); ++i)
                body += (i ? "\n" : "") + std::string("    guard ") + std::to_string(i) + " failures:\n    - " + reasons[i] + (comments[i].empty() ? "" : "  " + comments[i]) + "\n";
            log(cid, "recompiles_verbose", head + body);
        } else if (logs.recompiles) {
            std::string body;
            for (size_t i = 0; i < reasons.size(); ++i) body += "    - " + reasons[i] + (comments[i].empty() ? "" : "  " + comments[i]) + "\n";
            log(cid, "recompiles", head + body);
        }
        if (int(live) >= recompileLimit) {
            fr.limitHit = true;
            fr.limitCall = fr.calls;
            LimitEvent ev{cid, fr.function, fr.file, fr.line, reasons.front()};
            report_.limits.push_back(ev);
            events.instant("compile " + cid, "recompile limit", events::Category::Recompile, events::now(),
                           events::RecompileFacts{cid, fr.function, fr.file, fr.line,
                                                  "recompile_limit (" + std::to_string(recompileLimit) + ") hit; last reason: " + reasons.front()});
            std::string msg = "torch._dynamo hit config.recompile_limit (" + std::to_string(recompileLimit) + ")\n"
                              "   function: '" + fr.function + "' (" + fr.file + ":" + std::to_string(fr.line) + ")\n"
                              "   last reason: " + reasons.front() + (comments.front().empty() ? "" : "  " + comments.front()) + "\n"
                              "To log all recompilation reasons, use TORCH_LOGS=\"recompiles\".\n"
                              "To diagnose recompilation issues, see https://docs.pytorch.org/docs/main/user_guide/torch_compiler/compile/programming_model.recompilation.html";
            log(cid, "", msg);
            return runEager(fr, fn, scope);
        }
    }
    return trace(fr, fn, scope);
}

void Session::reset() {
    for (auto& [key, fr] : frames_) {
        fr->resetAt = fr->entries.size();
        fr->skip = false;
        fr->limitHit = false;
        fr->seenSizes.clear();
        fr->dynamicDims.clear();
        fr->seenScalars.clear();
        fr->dynamicScalars.clear();
    }
}

Value Session::runEager(CFrame& fr, FunctionObj* fn, const ScopeP& scope) {
    ++interceptDepth_;
    struct D { int& d; ~D() { --d; } } dd{interceptDepth_};
    return in_.execFunctionFrom(fn, scope, fr.path);
}

// Values a broken statement's finished sub-expressions may be replaced by: constants, tensors and
// tuples of them (lists and other objects are re-evaluated: their identity matters).
static bool substitutable(const Value& v) {
    if (isConstValue(v) || v.isTensor()) return true;
    if (v.is(OK::Tuple)) {
        for (auto& x : v.as<TupleObj>()->items)
            if (!substitutable(x)) return false;
        return true;
    }
    return false;
}

Value Session::replay(Entry& e, CFrame& fr, FunctionObj* fn, const ScopeP& scope, std::vector<Value>& vals, std::vector<uint8_t>& state) {
    std::vector<Value> env = runGraph(in_, e, scope.get(), fn->globals.get(), vals, state);
    SrcCtx ctx{in_, e, scope.get(), fn->globals.get(), vals, state};
    if (e.exit.kind == ExitPlan::Return) return instantiate(e.exit.ret, env, &ctx);
    std::vector<std::pair<std::string, Value>> locals;
    for (auto& [name, t] : e.exit.locals) locals.emplace_back(name, instantiate(t, env, &ctx)); // all read before any is set
    for (auto& [name, v] : locals) scope->vars[name] = v;
    std::vector<std::pair<const Expr*, Value>> subst;
    subst.reserve(e.exit.subst.size());
    for (auto& [x, t] : e.exit.subst) subst.emplace_back(x, instantiate(t, env, &ctx));
    return afterGraph(e, fr, fn, scope, subst);
}

Value Session::afterGraph(Entry& e, CFrame& fr, FunctionObj* fn, const ScopeP& scope, std::vector<std::pair<const Expr*, Value>>& subst) {
    ++interceptDepth_;
    struct D { int& d; ~D() { --d; } } dd{interceptDepth_};
    const ExitPlan& ex = e.exit;
    // a lambda's body is one expression: after its graph the expression finishes eagerly, and
    // there is nothing to resume
    if (fn->lambda) return in_.evalLambdaSubst(fn, scope, subst);
    std::vector<int> next;
    if (ex.kind == ExitPlan::AfterStmt) {
        Value ret;
        if (in_.execStmtSubst(fn, scope, ex.path, subst, ret)) return ret;
        next = Interp::nextPath(fn->def->body, ex.path);
    } else {
        bool b = in_.evalIfTestSubst(fn, scope, ex.path, subst);
        auto* ifs = static_cast<const IfStmt*>(Interp::stmtAt(fn->def->body, ex.path));
        const Body& br = b ? ifs->body : ifs->orelse;
        if (br.empty()) next = Interp::nextPath(fn->def->body, ex.path);
        else { next = ex.path; next.push_back(b ? 0 : 1); next.push_back(0); }
    }
    if (next.empty()) return Value();
    int breakLine = Interp::stmtAt(fn->def->body, ex.path)->span.line;
    FrameKey key{fn->def, pathKey(next)};
    if (!ex.stackAlias.empty() && !frames_.count(key)) {
        // `name = call()` broke at that call: Dynamo's resume function receives the call's
        // value as ___stack0 and stores it; its guards name it so.
        frameFor(key, fn, next, breakLine).aliases[ex.stackAlias] = "___stack0";
    }
    return runFrame(fn, next, scope, fr.opts, breakLine);
}

events::BreakFacts breakFacts(const std::string& id, const BreakKind& kind) {
    events::BreakFacts b;
    b.id = id, b.kind = kind.id, b.gb = kind.gb, b.reason = kind.reason, b.explanation = kind.explanation, b.hints = kind.hints;
    return b;
}

// A break as TORCH_LOGS=graph_breaks prints it.
static std::string breakLogText(const events::BreakFacts& b) {
    std::string out = "Graph break in user code at " + b.file + ":" + std::to_string(b.line) + "\n";
    std::string block = b.reason + "\n  Explanation: " + b.explanation + "\n";
    for (auto& h : b.hints) block += "  Hint: " + h + "\n";
    block += "\n For more details about this graph break, please visit: https://meta-pytorch.github.io/compile-graph-break-site/gb/" + b.gb + ".html\n";
    if (b.kind == "observed_exception") {
        out += "Graph Break Reason: Failed to handle graph break gracefully. Skipping the function and falling back to eager. Graph break encountered:\n\n" + block;
    } else if (b.skippedFrame) {
        const BreakKind& loop = breakKind("loop");
        out += "Graph Break Reason: Failed to handle graph break gracefully. Skipping the function and falling back to eager. Graph break encountered:\n\n" + block +
               "\n*** While handling this graph break, another graph break occurred: ***\n\n" + loop.reason + "\n  Explanation: " + loop.explanation + "\n";
        for (auto& h : loop.hints) out += "  Hint: " + h + "\n";
    } else if (b.context.empty()) {
        out += "Graph Break Reason: " + block;
    } else {
        out += "Graph Break Reason: Encountered graph break when attempting to trace " + b.context + ":\n\n" + block;
    }
    out += "\nUser code traceback:\n";
    for (auto& f : b.userStack) {
        std::stringstream ss(f);
        std::string l;
        while (std::getline(ss, l)) out += "  " + l + "\n";
    }
    return out;
}

// Every submodule, parameter and buffer reachable from a module input gets its source
// (L['self']._modules['fc']._parameters['weight']), so parameters become named graph inputs and
// attributes read on submodules are guarded, however the code reaches them.
static void registerModuleTree(Tracer& T, const Value& mod, const Source& src, int depth) {
    if (depth > 64) return;
    auto* inst = mod.as<InstanceObj>();
    for (const char* table : {"_modules", "_parameters", "_buffers"}) {
        auto t = inst->attrs.find(table);
        if (t == inst->attrs.end() || !t->second.is(OK::Dict)) continue;
        for (auto& e : t->second.as<DictObj>()->map.entries()) {
            if (!e.live || !e.key.isStr() || !e.val.isObj()) continue;
            Source child = src.plus(SourceStep{SourceStep::Attr, table}).plus(SourceStep{SourceStep::Item, strOf(e.key)});
            if (!T.sources.emplace(e.val.obj(), child).second) continue;
            T.keep.push_back(e.val);
            if (std::string(table) == "_modules" && e.val.is(OK::Instance)) registerModuleTree(T, e.val, child, depth + 1);
        }
    }
}

void Session::recordBreak(events::BreakFacts b) {
    report_.breaks.push_back(std::move(b));
    const events::BreakFacts& r = report_.breaks.back();
    if (events.at(events::Level::Compile)) events.instant("compile " + r.id, "graph break", events::Category::Break, events::now(), r);
    if (logs.graphBreaks) log(r.id, "graph_breaks", breakLogText(r));
}

// The phases of one compile id, measured where they happen, reported as events when the compile
// id is done (its graph committed and, on a full-graph return, its first run over).
struct CompileRecord {
    events::Log& log;
    const Entry& entry;
    const CFrame& fr;
    events::Ns begin = events::now();
    std::vector<PhaseSpan> phases;
    bool done = false;
    void phase(const char* name, events::Ns b, events::Ns e) { phases.push_back({name, b, double(e - b) * 1e-6}); }
    void finish() {
        if (done) return;
        done = true;
        if (!log.at(events::Level::Compile)) return;
        const events::Ns end = events::now();
        const std::string track = "compile " + entry.id;
        const CompiledCode* c = entry.compiled.get();
        std::string cache = !c ? "none" : c->cache == "miss" ? "miss" : "hit (" + c->cache + ")";
        double sum = 0, compileMs = 0;
        for (auto& p : phases) {
            sum += p.ms;
            if (p.name != "first run") compileMs += p.ms;
        }
        log.span(track, "compile " + entry.id, events::Category::Compile, begin, end - begin,
                 events::CompileFacts{entry.id, fr.function, fr.file, fr.line, statusName(entry.status), cache, c ? c->jitBackend : "",
                                      c ? int(c->kernelCount()) : 0, sum, compileMs, c ? c->error : ""});
        for (auto& p : phases) log.span(track, p.name, events::Category::Phase, p.beginNs, int64_t(p.ms * 1e6), events::PhaseFacts{entry.id, "", events::ScriptStep::None});
        log.counter("counters", "compile ids", end, double(++log.compileIds));
    }
    ~CompileRecord() {
        try {
            finish();
        } catch (...) { // unwinding: a lost event, never a second exception
        }
    }
};

// Long: one trace with its commit, break and restart paths, which share the entry being built and
// the state to restore; the steps are commented in order.
Value Session::trace(CFrame& fr, FunctionObj* fn, const ScopeP& scope) {
    if (fr.index < 0) {
        fr.index = int(order_.size());
        order_.push_back(&fr);
    }
    auto entryP = std::make_unique<Entry>();
    Entry& entry = *entryP;
    entry.id = compileId(fr, fr.compiles++);
    CompileRecord rec{events, entry, fr};
    auto savedVars = scope->vars;
    at::Generator gen = at::detail::getDefaultCPUGenerator();
    at::Tensor rngState = gen.get_state();
    const bool gradAtStart = at::GradMode::is_enabled(); // a break unwinds `with no_grad()` without its exit
    const CallExpr* stopCall = nullptr;
    std::vector<int> stopPath;
    int stopOcc = 0;
    bool noteBreak = true;

    const auto traceStart = std::chrono::steady_clock::now();
    auto commit = [&] {
        rec.phase("trace", rec.begin, events::now());
        if (entry.status == EntryStatus::Compiled && !entry.graph.nodes.empty() && entry.graph.ops > 0 && backend &&
            (fr.opts.backend == "inductor" || fr.opts.backend.empty())) {
            double traceMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - traceStart).count();
            entry.compiled = backend->compile(entry, traceMs);
            entry.compiled->compileId = entry.id;
            for (auto& p : entry.compiled->phaseSpans) rec.phases.push_back(p);
        }
        if (entry.status == EntryStatus::Compiled && logs.graphCode)
            log(entry.id, "graph_code", "TRACED GRAPH\n ===== __compiled_fn_" + std::to_string(++compiledFns_) + " =====\n" +
                                        graph::printGraph(entry.graph.printable, "forward"));
        if (entry.status == EntryStatus::Compiled && logs.guards) {
            std::string text = "GUARDS:\n";
            for (auto& g : entry.guards) text += "+- " + g.describe() + "\n";
            log(entry.id, "guards", text);
        }
        const events::Ns tGuards = events::now();
        planEntry(entry);
        rec.phase("guard build", tGuards, events::now());
        fr.entries.push_back(std::move(entryP));
    };

    for (int attempt = 0;; ++attempt) {
        entry.graph = CapturedGraph{};
        entry.guards.clear();
        entry.exit = ExitPlan{};
        Tracer T(*this, fr, entry, scope.get(), fn->globals.get(), 0);
        for (auto& [k, v] : scope->vars) {
            T.inputs.insert(k);
            if (!(v.isInt() || v.isFloat()) || fr.opts.dynamic == 0) continue;
            std::string key = Source{{SourceStep{SourceStep::Local, k}}}.str();
            auto seen = fr.seenScalars.find(key);
            if (seen == fr.seenScalars.end()) fr.seenScalars[key] = v;
            else if (!sameConst(seen->second, v)) fr.dynamicScalars.insert(key);
            bool dyn = fr.opts.dynamic == 1 || fr.dynamicScalars.count(key);
            if (dyn && !(v.isInt() && (v.i() == 0 || v.i() == 1))) T.dynamicScalars.insert(k);
        }
        {
            Guard g;
            g.kind = GuardKind::GradMode;
            g.gradMode = at::GradMode::is_enabled();
            T.addGuard(g);
        }
        // inputs: where every object and tensor reachable through them comes from
        for (auto& [k, v] : scope->vars) {
            Source src = localSource(T, k);
            if (v.isObj() && !isConstValue(v)) { T.sources.emplace(v.obj(), src); T.keep.push_back(v); }
            if (isNnModule(in_, v)) registerModuleTree(T, v, src, 0);
        }
        T.stopCall = stopCall;
        T.stopPath = stopPath;
        T.stopOcc = stopOcc;
        script::TraceHooks* saved = in_.tracer;
        in_.tracer = &T;
        struct Reset { Interp& in; script::TraceHooks* t; ~Reset() { in.tracer = t; } } reset{in_, saved};
        auto restore = [&] {
            at::GradMode::set_enabled(gradAtStart);
            scope->vars = savedVars;
            gen.set_state(rngState);
            for (auto& [t, old] : T.undo) {
                at::NoGradGuard ng;
                tensorOf(t).copy_(tensorOf(old));
            }
        };
        try {
            Value r = in_.execFunctionFrom(fn, scope, fr.path);
            T.settleSizes();
            in_.tracer = saved;
            entry.exit.kind = ExitPlan::Return;
            entry.exit.ret = T.templateOf(r);
            T.finishGraph({&entry.exit.ret});
            commit();
            // Like torch.compile, the first call returns what the compiled code computes (the trace
            // computed it with eager ops): rerun it when running the graph twice changes nothing.
            Entry& committed = *fr.entries.back();
            if (committed.compiled && committed.compiled->rerunnable()) {
                const events::Ns tRun = events::now();
                scope->vars = savedVars; // the inputs as the call received them
                std::vector<Value> vals;
                std::vector<uint8_t> state;
                if (checkEntry(in_, committed, scope.get(), fn->globals.get(), nullptr, nullptr, vals, state)) {
                    Value first = replay(committed, fr, fn, scope, vals, state);
                    rec.phase("first run", tRun, events::now());
                    rec.finish();
                    return first;
                }
            }
            rec.finish();
            return r;
        } catch (GraphBreakSignal& b) {
            in_.tracer = saved;
            bool stop = std::string(b.kind.id) == "restart_stop";
            bool nested = !stop && b.depth > T.rootDepth;
            if (!stop && noteBreak) {
                if (fr.opts.fullgraph) {
                    std::string msg = b.kind.reason + "\n  Explanation: " + b.kind.explanation + "\n";
                    for (auto& h : b.kind.hints) msg += "  Hint: " + h + "\n";
                    entry.status = EntryStatus::Error;
                    commit();
                    at::GradMode::set_enabled(gradAtStart);
                    in_.raise(in_.unsupportedCls, msg);
                }
                events::BreakFacts ev = breakFacts(entry.id, b.kind);
                ev.context = b.context, ev.file = b.file, ev.line = b.line, ev.userStack = b.userStack, ev.skippedFrame = b.inLoop;
                recordBreak(std::move(ev));
                if (std::string(b.kind.id) == "item") {
                    std::string w = "Graph break from `Tensor.item()`, consider setting:\n    torch._dynamo.config.capture_scalar_outputs = True\nor:\n    env TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1\nto include these operations in the captured graph.\n";
                    log(entry.id, "", w);
                }
                noteBreak = false;
            }
            // torch.compile runs a frame that calls an RNN, GRU or LSTM module eagerly (observed on 2.11: no graph)
            if (b.inLoop || (nested && !T.rootCall) || std::string(b.kind.id) == "rnn") {
                // cannot resume inside a loop / with / try: the whole frame runs eagerly
                restore();
                fr.skip = true;
                entry.status = EntryStatus::Eager;
                commit();
                rec.finish();
                return runEager(fr, fn, scope);
            }
            if (nested) {
                // break inside an inlined call: compile up to that call, which then runs eagerly
                stopCall = T.rootCall;
                stopPath = T.rootCallPath;
                stopOcc = T.rootCallOcc;
                restore();
                continue;
            }
            T.settleSizes();
            ExitPlan& ex = entry.exit;
            ex.kind = T.inIfTest ? ExitPlan::IfTest : ExitPlan::AfterStmt;
            ex.path = T.path;
            if (ex.kind == ExitPlan::AfterStmt && T.stmt && T.stmt->kind == StmtKind::Assign) {
                auto* as = static_cast<const AssignStmt*>(T.stmt);
                const Expr* breaking = stop ? static_cast<const Expr*>(stopCall) : T.curExpr;
                if (as->targets.size() == 1 && as->targets[0]->kind == ExprKind::Name && as->value.get() == breaking)
                    ex.stackAlias = static_cast<const NameExpr*>(as->targets[0].get())->id;
            }
            std::vector<std::pair<const Expr*, Value>> real;
            for (auto& [x, v] : T.done) {
                if (!substitutable(v)) continue;
                real.emplace_back(x, v);
                ex.subst.emplace_back(x, T.templateOf(v));
            }
            for (auto& [k, v] : scope->vars) {
                auto sl = T.symLocals.find(k);
                ex.locals.emplace_back(k, sl != T.symLocals.end() ? sl->second : T.templateOf(v));
            }
            std::sort(ex.locals.begin(), ex.locals.end(), [](auto& a, auto& b) { return a.first < b.first; });
            std::vector<ArgT*> exits;
            for (auto& [x, t] : ex.subst) exits.push_back(&t);
            for (auto& [k, t] : ex.locals) exits.push_back(&t);
            T.finishGraph(exits);
            commit();
            rec.finish();
            Entry& committed = *fr.entries.back();
            return afterGraph(committed, fr, fn, scope, real);
        } catch (PyException& ex) {
            in_.tracer = saved;
            entry.status = EntryStatus::Error;
            if (noteBreak && !ex.traceback.empty()) {
                events::BreakFacts ev = breakFacts(entry.id, breakKind("observed_exception"));
                ev.skippedFrame = true; // Dynamo: "Failed to handle graph break gracefully. Skipping the function"
                for (auto it = ex.traceback.rbegin(); it != ex.traceback.rend(); ++it)
                    if (it->file.rfind("<fuselab:", 0) != 0) { ev.file = it->file; ev.line = it->line; break; }
                for (auto& t : ex.traceback)
                    if (t.file.rfind("<fuselab:", 0) != 0) ev.userStack.push_back("File \"" + t.file + "\", line " + std::to_string(t.line) + ", in " + t.function + "\n  " + t.sourceLine);
                if (!ev.file.empty()) recordBreak(std::move(ev));
            }
            commit();
            throw;
        } catch (...) {
            in_.tracer = saved;
            entry.status = EntryStatus::Error;
            commit();
            throw;
        }
    }
}

} // namespace fl::capture

#include "core/graph/ops.h"
#include <algorithm>

#include <array>
#include <mutex>
#include <unordered_map>

namespace fl::graph {
namespace {

constexpr OpInfo kOps[] = {
#define FL_OP_INFO(id, name, family, flags) {Op::id, name, Family::family, uint8_t(flags)},
    FL_OPS(FL_OP_INFO)
#undef FL_OP_INFO
};

// Names PyTorch also accepts for an op of the table.
constexpr std::pair<const char*, Op> kAliases[] = {
    {"truediv", Op::Div},      {"divide", Op::Div},       {"subtract", Op::Sub},         {"multiply", Op::Mul},
    {"and_", Op::LogicalAnd},  {"or_", Op::LogicalOr},    {"clip", Op::Clamp},           {"swapaxes", Op::Transpose},
    {"swapdims", Op::Transpose},
};

const std::unordered_map<std::string_view, Op>& byName() {
    static const std::unordered_map<std::string_view, Op> names = [] {
        std::unordered_map<std::string_view, Op> m;
        for (const OpInfo& i : kOps) m.emplace(i.name, i.op);
        for (const auto& [alias, op] : kAliases) m.emplace(alias, op);
        return m;
    }();
    return names;
}

std::string_view lastPart(std::string_view target) {
    auto p = target.rfind('.');
    return p == std::string_view::npos ? target : target.substr(p + 1);
}

} // namespace

const char* familyName(Family f) {
    static constexpr const char* names[] = {"none",   "unary math", "activation", "arith",  "compare", "logical", "select",
                                            "convert", "reduce",    "normalize",  "matmul", "reshape", "index",
                                            "generate"};
    return names[size_t(f)];
}

const OpInfo& info(Op op) { return kOps[size_t(op)]; }

std::optional<Op> opNamed(std::string_view name) {
    auto it = byName().find(name);
    if (it == byName().end()) return std::nullopt;
    return it->second;
}

std::optional<Op> opOfTarget(std::string_view target) { return opNamed(lastPart(target)); }

std::string baseName(std::string_view target) {
    std::string_view b = lastPart(target);
    if (auto op = opNamed(b)) return info(*op).name;
    return std::string(b);
}

bool mutatesInPlace(std::string_view target, bool inplaceFlag) {
    if (inplaceFlag || target == "operator.setitem") return true;
    if (target.rfind("operator.", 0) == 0) {
        // the augmented assignments (operator.iadd); not operator.invert, index, is_, is_not, ...
        static const std::string_view kAugmented[] = {"iadd", "isub", "imul", "imatmul", "itruediv", "ifloordiv", "imod",
                                                      "ipow", "iand", "ior", "ixor", "ilshift", "irshift"};
        std::string_view b = target.substr(9);
        return std::find(std::begin(kAugmented), std::end(kAugmented), b) != std::end(kAugmented);
    }
    std::string_view b = lastPart(target);
    return b.size() > 1 && b.back() == '_' && b[b.size() - 2] != '_' && b.front() != '_';
}

bool impure(std::string_view target) {
    auto op = opOfTarget(target);
    return (op && info(*op).impure()) || mutatesInPlace(target, false);
}

TargetFacts targetFacts(std::string_view target) {
    using R = CaptureRole;
    static constexpr TargetFacts kTargets[] = {
        {"Tensor.size", R::Size, nullptr},
        {"Tensor.item", R::Break, "item"},
        {"Tensor.tolist", R::BreakTolist, "data_dependent_op"},
        {"torch.nonzero", R::Break, "nonzero"},
        {"Tensor.nonzero", R::Break, "nonzero"},
        {"torch.argwhere", R::Break, "nonzero"},
        {"Tensor.argwhere", R::Break, "nonzero"},
        {"torch.masked_select", R::Break, "nonzero"},
        {"Tensor.masked_select", R::Break, "nonzero"},
        {"torch.unique", R::Break, "nonzero"},
        {"Tensor.unique", R::Break, "nonzero"},
        {"Tensor.backward", R::Break, "backward"},
        {"torch.autograd.grad", R::Break, "backward"},
        {"torch.manual_seed", R::Skipped, nullptr},
        {"torch.seed", R::Skipped, nullptr},
        {"torch.set_rng_state", R::Skipped, nullptr},
        {"torch.get_rng_state", R::Skipped, nullptr},
        {"Tensor.dim", R::Metadata, nullptr},
        {"Tensor.ndimension", R::Metadata, nullptr},
        {"Tensor.numel", R::SizedMetadata, nullptr},
        {"torch.numel", R::SizedMetadata, nullptr},
        {"Tensor.nelement", R::Metadata, nullptr},
        {"Tensor.stride", R::SizedMetadata, nullptr},
        {"Tensor.is_contiguous", R::Metadata, nullptr},
        {"Tensor.is_floating_point", R::Metadata, nullptr},
        {"torch.is_floating_point", R::Metadata, nullptr},
        {"Tensor.element_size", R::Metadata, nullptr},
        {"Tensor.storage_offset", R::Metadata, nullptr},
        {"Tensor.is_complex", R::Metadata, nullptr},
        {"torch.is_complex", R::Metadata, nullptr},
    };
    for (const TargetFacts& t : kTargets)
        if (t.target == target) return t;
    return TargetFacts{target, R::Node, nullptr};
}

namespace {
struct EagerOnly {
    std::mutex mu;
    std::array<std::optional<std::string>, kOpCount> why;
};
EagerOnly& eagerOnly() {
    static EagerOnly e;
    return e;
}
} // namespace

void setEagerOnly(Op op, std::string why) {
    std::lock_guard<std::mutex> lock(eagerOnly().mu);
    eagerOnly().why[size_t(op)] = std::move(why);
}

const std::string* eagerOnlyReason(Op op) {
    std::lock_guard<std::mutex> lock(eagerOnly().mu);
    const auto& w = eagerOnly().why[size_t(op)];
    return w ? &*w : nullptr; // entries are set once, before compiling, and never erased
}

} // namespace fl::graph

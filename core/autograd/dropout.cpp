// Dropout in training mode, as AOTAutograd functionalizes it: the mask the backward multiplies by
// becomes a value of the forward graph (saved, never drawn twice). rewriteForward makes the call
// torch.ops.fuselab.dropout_with_noise(x, p): eager's dropout with its noise returned, a tuple
// (x * noise, noise) where noise is 0 or 1 / (1 - p) per element, drawn as eager's CPU dropout
// draws it (core/runtime/training.cpp runs it as at::dropout of ones shaped and laid out as x:
// the same bernoulli_ on the same generator). For one torch.manual_seed the compiled step then
// keeps the elements eager keeps and scales them by the same float, so results and gradients are
// eager's bit for bit. (LibTorch's native_dropout is not that: its CPU mask is drawn on a bool
// tensor, another order for a transposed input, and it scales by 1 / (1 - p) rounded once, one
// ulp off eager's for p = 0.15 and 14 other p of two decimals.)
#include "core/autograd/autograd.h"
#include "core/autograd/rules.h"

#include "core/graph/ops.h"

namespace fl::autograd {

const char* const kDropoutWithNoise = "torch.ops.fuselab.dropout_with_noise";

namespace detail {

namespace {

const Arg* argOf(const graph::Node& n, size_t pos, std::initializer_list<const char*> kws) {
    if (pos < n.args.size()) return &n.args[pos];
    for (auto& [k, a] : n.kwargs)
        for (const char* kw : kws)
            if (k == kw) return &a;
    return nullptr;
}

} // namespace

bool rewriteDropout(graph::Node& fwd, const NeedsGrad& needsGrad) {
    // a dropout that draws a mask (0 < p < 1, constants) and passes a gradient on; eval mode and
    // p = 0 pass the gradient through, p = 1 draws nothing, in place has no rule
    if (graph::opOfTarget(fwd.target) != graph::Op::Dropout || fwd.meta.size() != 1) return false;
    const Arg* in = argOf(fwd, 0, {"input"});
    if (!in || in->kind != Arg::Kind::NodeRef || !needsGrad(*in)) return false;
    const Arg* inplace = argOf(fwd, 3, {"inplace"});
    if (inplace && (!inplace->isConst() || inplace->value.truth())) return false;
    const Arg* tr = argOf(fwd, 2, {"training", "train"});
    if (tr && (!tr->isConst() || !tr->value.truth())) return false;
    const Arg* pa = argOf(fwd, 1, {"p"});
    if (pa && !pa->isNoneConst() && !(pa->isConst() && pa->value.isNumber())) return false;
    double p = !pa || pa->isNoneConst() ? 0.5 : pa->value.num();
    if (!(p > 0 && p < 1)) return false;
    graph::TensorMeta noise = fwd.meta[0]; // x's shape, dtype and layout (empty_like(x))
    noise.requiresGrad = false;
    if (const graph::TensorMeta* m = metaOf(*in)) noise.strides = m->strides;
    fwd.target = kDropoutWithNoise;
    fwd.args = {*in, Builder::num(p)};
    fwd.kwargs.clear();
    fwd.meta.push_back(noise);
    return true;
}

} // namespace detail

} // namespace fl::autograd

// The fusion scheduler alone: graphs built by hand and lowered, then fuse::schedule() and
// fuse::executionOrder(); the groups and the recorded decisions are checked as data. Links
// fuselab_fuse and what it depends on (lower, graph) only.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "../support/check.h"
#include "../support/hand_graphs.h"

using namespace fl;

static std::vector<const fuse::Group*> live(const fuse::Schedule& s) {
    std::vector<const fuse::Group*> r;
    for (auto& g : s.groups)
        if (g.alive) r.push_back(&g);
    return r;
}
static int computeNodes(const lower::Program& p) {
    int n = 0;
    for (auto& nd : p.nodes) n += nd.kind == lower::NodeKind::Pointwise || nd.kind == lower::NodeKind::Reduction;
    return n;
}

int main() {
    // softmax: its reductions and the output fuse into one kernel over rows of 1024
    auto sm = hand::softmax(64, 1024);
    const lower::Program& p = sm.program();
    auto groups = live(sm.schedule);
    check(sm.lowered.ok && computeNodes(p) >= 3, "softmax lowers to reductions and a pointwise output");
    check(sm.schedule.initial.size() == size_t(computeNodes(p)), "one initial group per compute node");
    check(groups.size() == 1 && int(groups[0]->nodes.size()) == computeNodes(p), "softmax: one kernel holds every node");
    if (groups.size() == 1) {
        const fuse::Domain& d = groups[0]->domain;
        check(d.isReduction() && lower::shapeStr(d.outer) == "[64]" && lower::shapeStr(d.inner) == "[1024]", "softmax: rows [64], reduced [1024]");
        int stored = 0;
        for (int n : groups[0]->nodes) stored += sm.schedule.stored[n];
        check(stored == 1, "softmax: only the output is stored, the rest computed where it is read");
        check(sm.order == std::vector<int>{groups[0]->id}, "softmax: the order runs that kernel");
    }
    bool vertical = false, reasons = true;
    for (auto& d : sm.schedule.decisions) {
        vertical = vertical || (d.kind == "vertical" && d.fused);
        reasons = reasons && !d.reason.empty();
    }
    check(!sm.schedule.decisions.empty() && vertical && reasons, "softmax: the decisions, each with its reason, fused vertically");

    // fusion off: one kernel per node, every value stored
    fuse::Options off;
    off.enabled = false;
    hand::Builder b;
    auto x = b.input("L_x_", {64, 1024});
    auto sg = b.call("torch.sigmoid", {hand::ref(x)}, {64, 1024});
    auto th = b.call("torch.tanh", {hand::ref(sg)}, {64, 1024});
    b.g.setOutput({hand::ref(th)});
    auto apart = hand::schedule(b.g, off);
    check(live(apart.schedule).size() == 2 && apart.order.size() == 2, "fusion off: sigmoid and tanh in two kernels, in order");
    auto together = hand::schedule(b.g);
    check(live(together.schedule).size() == 1, "fusion on: one kernel for both");

    // the chain: four pointwise nodes over the same loops, one kernel storing only the sum
    auto ch = hand::chain(64, 65536);
    auto cg = live(ch.schedule);
    check(cg.size() == 1 && !cg[0]->domain.isReduction() && cg[0]->nodes.size() == 4, "chain: one pointwise kernel of four nodes");

    std::printf("fuse: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

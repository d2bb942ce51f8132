// `fuselab kernels`: what the compiler made of each captured graph. No LibTorch here.
#include "core/inspect/report.h"

#include <sstream>

#include "core/jit/jit.h"

namespace fl::inspect {

using runtime::Compiled;
using runtime::compiledOf;

using namespace lower;

std::string describeNodes(const Program& p, const std::vector<int>& nodes) {
    std::string r;
    for (int n : nodes) r += (r.empty() ? "" : " + ") + p.nodes[n].name + "(" + p.nodes[n].what + ")";
    return r;
}

namespace {

// One compiled graph: its run order, decisions and plan on request, kernel sources.
void printCompiled(std::ostringstream& out, const Compiled& c, const std::string& title, const KernelsOptions& o) {
    const Program& p = c.lowered.program;
    int externs = 0, fallbacks = 0;
    for (auto& n : p.nodes) {
        externs += n.kind == NodeKind::Extern;
        fallbacks += isEagerOp(n);
    }
    out << "== " << title << ": " << c.kernels.size() << " kernels, " << externs << " library calls, " << fallbacks << " eager ops";
    if (c.ok) out << "; compiled by " << c.jitBackend << " (cache " << c.cache << ")";
    out << "\n";
    if (!c.ok) out << "   runs op by op on LibTorch: " << c.error << "\n";
    out << "   run order:\n";
    std::map<int, size_t> kernelOf;
    for (size_t i = 0; i < c.kernels.size(); ++i) kernelOf[c.kernels[i].group] = i;
    for (int unit : c.order) {
        if (unit >= 0) {
            out << "     kernel " << c.kernels[kernelOf[unit]].name << ": " << describeNodes(p, c.schedule.groups[unit].nodes) << "\n";
            continue;
        }
        const Node& n = p.nodes[-1 - unit];
        if (n.kind == NodeKind::Extern) out << "     library " << n.what << " -> " << n.name << " " << dtypeName(n.dtype) << shapeStr(n.shape) << " (LibTorch)\n";
        else if (n.itemOf >= 0) out << "     item    " << p.nodes[n.itemOf].name << "[" << n.item << "] -> " << n.name << " " << dtypeName(n.dtype) << shapeStr(n.shape) << "\n";
        else out << "     eager   " << n.opText << " -> " << n.name << ": " << n.note << "\n";
    }
    if (o.decisions) {
        out << "   fusion decisions:\n";
        for (auto& d : c.schedule.decisions)
            out << "     " << d.step << ". [" << d.kind << "] " << describeNodes(p, d.a) << "  |  " << describeNodes(p, d.b) << "  score "
                << d.score << ": " << d.reason << "\n";
    }
    if (o.plan) {
        out << "   codegen plan:\n";
        for (auto& kn : c.kernels) {
            out << "     " << kn.name << (kn.plan.empty() ? ": plain loops\n" : ":\n");
            for (auto& ch : kn.plan) out << "       - " << codegen::choiceName(ch.kind) << " " << ch.subject << ": " << ch.reason << "\n";
        }
    }
    for (size_t i = 0; i < c.kernels.size(); ++i) out << "\n" << c.kernels[i].source;
    if (o.ir && c.lib) out << "\n-- LLVM IR --\n" << (c.lib->llvmIR.empty() ? "(not available: compiled by " + c.jitBackend + ")\n" : c.lib->llvmIR);
    if (o.assembly && c.lib) out << "\n-- assembly --\n" << jit::Jit::instance().assembly(*c.lib);
    out << "\n";
}

// Compiled training of an entry: the partition, then the training forward and the backward.
void printTraining(std::ostringstream& out, const runtime::TrainingCode& tc, const std::string& title, const KernelsOptions& o) {
    if (!tc.error.empty()) {
        out << "== " << title << " backward: eager (" << tc.error << ")\n\n";
        return;
    }
    if (o.decisions) {
        out << "== " << title << " partition (what the backward reads of the forward):\n";
        size_t step = 0;
        for (auto& d : tc.graphs.decisions)
            out << "     " << ++step << ". " << (d.saved ? "saved      " : "recomputed ") << d.name << " (" << d.bytes << " bytes): " << d.reason << "\n";
        out << "\n";
    }
    if (tc.forward) printCompiled(out, *tc.forward, title + " training forward", o);
    if (tc.backward) printCompiled(out, *tc.backward, title + " backward", o);
    else out << "== " << title << " backward: not compiled yet (no backward() ran)\n\n";
}

} // namespace

std::string kernelsText(const capture::Session& s, const KernelsOptions& o) {
    std::ostringstream out;
    int graphs = 0;
    for (const capture::CFrame* fr : s.framesInOrder())
        for (auto& e : fr->entries) {
            if (!compiledOf(*e)) continue;
            const Compiled& c = *compiledOf(*e);
            ++graphs;
            std::string title = "[" + e->id + "] " + fr->function + " (" + fr->file + ":" + std::to_string(fr->line) + ")";
            printCompiled(out, c, title, o);
            if (c.training) printTraining(out, *c.training, "[" + e->id + "]", o);
        }
    if (!graphs) out << "no compiled graphs: the script made no calls into torch.compile'd code that captured ops\n";
    return out.str();
}

} // namespace fl::inspect

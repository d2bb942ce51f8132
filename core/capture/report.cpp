// `fuselab explain`: the capture report as text and as JSON, from the session's event log.
#include <map>
#include <set>
#include <sstream>

#include "core/capture/capture.h"

namespace fl::capture {

namespace {

std::string jsonStr(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                char buf[8];
                snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += char(c);
            }
        }
    }
    return out + "\"";
}

std::string jsonList(const std::vector<std::string>& v) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + jsonStr(v[i]);
    return out + "]";
}

std::string shapeText(const std::vector<graph::TensorMeta>& meta) {
    std::string out;
    for (size_t i = 0; i < meta.size(); ++i) out += (i ? ", " : "") + graph::formatMeta(meta[i]);
    return out;
}

} // namespace

std::vector<Problem> problems(const Session& s) {
    const Report& rep = s.report();
    std::vector<Problem> out;
    // distinct breaks: (file, line, reason), in the order first seen
    std::vector<Problem> breaks;
    std::map<std::tuple<std::string, int, std::string>, size_t> at;
    std::vector<int> counts;
    for (auto& b : rep.breaks) {
        auto key = std::make_tuple(b.file, b.line, b.reason);
        auto it = at.find(key);
        if (it == at.end()) {
            at[key] = breaks.size();
            Problem p{"graph break", b.id, b.file, b.line, b.reason};
            p.text += b.skippedFrame ? ": inside a loop, so the whole frame runs eagerly" : ": the graph ends here and a new one starts after it";
            breaks.push_back(p);
            counts.push_back(1);
        } else {
            breaks[it->second].ids += ", " + b.id;
            ++counts[it->second];
        }
    }
    for (size_t i = 0; i < breaks.size(); ++i) {
        if (counts[i] > 1) breaks[i].text += " (" + std::to_string(counts[i]) + " times)";
        out.push_back(breaks[i]);
    }
    for (const CFrame* fr : s.framesInOrder()) {
        const std::string prefix = std::to_string(fr->index) + "/";
        std::vector<const RecompileEvent*> mine;
        for (auto& r : rep.recompiles)
            if (r.id.rfind(prefix, 0) == 0) mine.push_back(&r);
        if (!mine.empty()) {
            Problem p{"recompiles", "", fr->file, fr->line, ""};
            for (auto* r : mine) p.ids += (p.ids.empty() ? "" : ", ") + r->id;
            p.text = fr->function + " recompiled on " + std::to_string(mine.size()) + " of its " + std::to_string(fr->calls) +
                     " calls; the last because " + (mine.back()->reasons.empty() ? std::string("its guards failed") : mine.back()->reasons.front());
            out.push_back(p);
        }
        if (fr->limitHit)
            for (auto& l : rep.limits)
                if (l.id.rfind(prefix, 0) == 0) {
                    out.push_back(Problem{"recompile limit", l.id, l.file, l.line,
                                          fr->function + " hit the recompile limit on call " + std::to_string(fr->limitCall) +
                                              ": later calls that match no entry run eagerly"});
                    break;
                }
    }
    return out;
}

std::string explainJson(const Session& s, const std::string& file, const std::string& output) {
    std::ostringstream o;
    o << "{\"file\": " << jsonStr(file) << ",\n \"graph_count\": " << s.graphCount() << ",\n \"problems\": [";
    std::vector<Problem> probs = problems(s);
    for (size_t i = 0; i < probs.size(); ++i)
        o << (i ? ",\n  " : "\n  ") << "{\"kind\": " << jsonStr(probs[i].kind) << ", \"ids\": " << jsonStr(probs[i].ids) << ", \"file\": " << jsonStr(probs[i].file)
          << ", \"line\": " << probs[i].line << ", \"text\": " << jsonStr(probs[i].text) << "}";
    o << "],\n \"frames\": [";
    bool firstFrame = true;
    for (const CFrame* fr : s.framesInOrder()) {
        for (const auto& e : fr->entries) {
            o << (firstFrame ? "\n  " : ",\n  ");
            firstFrame = false;
            std::vector<std::string> guards;
            for (auto& g : e->guards) guards.push_back(g.describe());
            o << "{\"id\": " << jsonStr(e->id) << ", \"function\": " << jsonStr(fr->function) << ", \"file\": " << jsonStr(fr->file)
              << ", \"line\": " << fr->line << ", \"status\": " << jsonStr(statusName(e->status)) << ", \"ops\": " << e->graph.ops
              << ", \"options\": {\"fullgraph\": " << (fr->opts.fullgraph ? "true" : "false") << ", \"dynamic\": "
              << (fr->opts.dynamic < 0 ? "null" : fr->opts.dynamic ? "true" : "false") << ", \"backend\": " << jsonStr(fr->opts.backend)
              << ", \"mode\": " << jsonStr(fr->opts.mode) << "}"
              << ", \"guards\": " << jsonList(guards) << ", \"graph_code\": " << jsonStr(e->status == EntryStatus::Compiled ? graph::printGraph(e->graph.printable) : "")
              << ", \"nodes\": [";
            bool firstNode = true;
            for (auto& n : e->graph.printable.nodes()) {
                if (n->kind == graph::NodeKind::Output) continue;
                o << (firstNode ? "" : ", ");
                firstNode = false;
                o << "{\"name\": " << jsonStr(n->name) << ", \"op\": " << jsonStr(n->kind == graph::NodeKind::Placeholder ? "placeholder" : n->target)
                  << ", \"shape\": " << jsonStr(shapeText(n->meta)) << ", \"line\": " << n->span.line << ", \"col\": " << n->span.col
                  << ", \"end_col\": " << n->span.endCol << ", \"module\": " << jsonStr(n->modulePath) << "}";
            }
            o << "]}";
        }
    }
    o << "],\n \"graph_breaks\": [";
    for (size_t i = 0; i < s.report().breaks.size(); ++i) {
        const events::BreakFacts& b = s.report().breaks[i];
        o << (i ? ",\n  " : "\n  ") << "{\"id\": " << jsonStr(b.id) << ", \"kind\": " << jsonStr(b.kind) << ", \"file\": " << jsonStr(b.file)
          << ", \"line\": " << b.line << ", \"reason\": " << jsonStr(b.reason) << ", \"explanation\": " << jsonStr(b.explanation)
          << ", \"hints\": " << jsonList(b.hints) << ", \"frame_skipped\": " << (b.skippedFrame ? "true" : "false")
          << ", \"user_stack\": " << jsonList(b.userStack) << "}";
    }
    o << "],\n \"recompiles\": [";
    for (size_t i = 0; i < s.report().recompiles.size(); ++i) {
        const RecompileEvent& r = s.report().recompiles[i];
        o << (i ? ",\n  " : "\n  ") << "{\"id\": " << jsonStr(r.id) << ", \"function\": " << jsonStr(r.function) << ", \"file\": " << jsonStr(r.file)
          << ", \"line\": " << r.line << ", \"reasons\": " << jsonList(r.reasons) << ", \"user_lines\": " << jsonList(r.comments) << "}";
    }
    o << "],\n \"recompile_limit_hits\": [";
    for (size_t i = 0; i < s.report().limits.size(); ++i) {
        const LimitEvent& l = s.report().limits[i];
        o << (i ? ",\n  " : "\n  ") << "{\"id\": " << jsonStr(l.id) << ", \"function\": " << jsonStr(l.function) << ", \"file\": " << jsonStr(l.file)
          << ", \"line\": " << l.line << ", \"last_reason\": " << jsonStr(l.lastReason) << "}";
    }
    o << "],\n \"output\": " << jsonStr(output) << "}\n";
    return o.str();
}

std::string explainText(const Session& s, const std::string& file, const std::string& output) {
    const Report& rep = s.report();
    std::ostringstream o;
    int frames = 0;
    for (const CFrame* fr : s.framesInOrder()) frames += int(fr->entries.size());
    // distinct breaks: (file, line, reason)
    std::map<std::tuple<std::string, int, std::string>, std::vector<const events::BreakFacts*>> distinct;
    std::vector<std::tuple<std::string, int, std::string>> order;
    for (auto& b : rep.breaks) {
        auto key = std::make_tuple(b.file, b.line, b.reason);
        if (!distinct.count(key)) order.push_back(key);
        distinct[key].push_back(&b);
    }
    o << "Explain: " << file << "\n";
    o << "  graphs compiled:      " << s.graphCount() << "\n";
    o << "  compiles (entries):   " << frames << "\n";
    o << "  graph breaks:         " << rep.breaks.size() << " (" << order.size() << " distinct)\n";
    o << "  recompiles:           " << rep.recompiles.size() << "\n";
    o << "  recompile limit hits: " << rep.limits.size() << "\n";
    std::vector<Problem> probs = problems(s);
    o << "\nProblems" << (probs.empty() ? ": none (one graph per frame, no recompiles)" : "") << "\n";
    for (auto& p : probs) o << "  " << p.kind << "  " << p.file << ":" << p.line << "  " << p.text << "  [" << p.ids << "]\n";
    if (!order.empty()) {
        o << "\nGraph breaks\n";
        for (auto& key : order) {
            const events::BreakFacts& b = *distinct[key].front();
            std::string ids;
            for (auto* x : distinct[key]) ids += (ids.empty() ? "" : ", ") + x->id;
            o << "  " << b.file << ":" << b.line << "  " << b.reason << "  [" << ids << "]" << (b.skippedFrame ? "  (in a loop: the frame runs eagerly)" : "") << "\n";
            if (!b.userStack.empty()) {
                std::string last = b.userStack.back();
                auto nl = last.find('\n');
                if (nl != std::string::npos) o << "      " << last.substr(nl + 1 + last.substr(nl + 1).find_first_not_of(' ')) << "\n";
            }
            o << "    Explanation: " << b.explanation << "\n";
            for (auto& h : b.hints) o << "    Hint: " << h << "\n";
        }
    }
    if (!rep.recompiles.empty()) {
        o << "\nRecompiles\n";
        for (auto& r : rep.recompiles) {
            o << "  " << r.id << "  " << r.function << " (" << r.file << ":" << r.line << ") because:\n";
            for (size_t i = 0; i < r.reasons.size(); ++i) o << "    - " << r.reasons[i] << (r.comments[i].empty() ? "" : "  " + r.comments[i]) << "\n";
        }
    }
    for (auto& l : rep.limits)
        o << "\nRecompile limit hit: " << l.function << " (" << l.file << ":" << l.line << ") runs eagerly from " << l.id << "; last reason: " << l.lastReason << "\n";
    o << "\nFrames\n";
    for (const CFrame* fr : s.framesInOrder()) {
        for (const auto& e : fr->entries) {
            o << "  [" << e->id << "] " << fr->function << " (" << fr->file << ":" << fr->line << ")  " << statusName(e->status);
            if (e->status == EntryStatus::Compiled || e->status == EntryStatus::Empty) o << ", " << e->graph.ops << " ops, " << e->guards.size() << " guards";
            o << "\n";
            if (e->status == EntryStatus::Compiled) {
                std::istringstream code(graph::printGraph(e->graph.printable));
                std::string line;
                while (std::getline(code, line)) o << "      " << line << "\n";
            }
            if (e->status == EntryStatus::Compiled || e->status == EntryStatus::Empty) {
                o << "    guards:\n";
                for (auto& g : e->guards) o << "      " << g.describe() << "\n";
            }
        }
    }
    o << "\nScript output\n";
    std::istringstream out(output);
    std::string line;
    while (std::getline(out, line)) o << "  " << line << "\n";
    return o.str();
}

} // namespace fl::capture

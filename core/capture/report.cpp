// `fuselab explain`: the capture report as text and as JSON, from the session's event log.
#include <cctype>
#include <cstdlib>
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

// "File \"m.py\", line 20, in forward\n  h = log_stats(h)" -> file, line, function.
struct StackEntry {
    std::string file, function;
    int line = 0;
};
StackEntry parseStackEntry(const std::string& e) {
    StackEntry out;
    const std::string head = e.substr(0, e.find('\n'));
    size_t q1 = head.find('"'), q2 = head.find('"', q1 + 1), ln = head.find(", line "), in = head.find(", in ");
    if (q1 == std::string::npos || q2 == std::string::npos || ln == std::string::npos || in == std::string::npos) return out;
    out.file = head.substr(q1 + 1, q2 - q1 - 1);
    out.line = std::atoi(head.c_str() + ln + 7);
    out.function = head.substr(in + 5);
    return out;
}

// A resume function is named after the function it resumes: torch_dynamo_resume_in_forward_at_20.
std::string resumedFunction(const std::string& name) {
    const std::string prefix = "torch_dynamo_resume_in_";
    if (name.rfind(prefix, 0) != 0) return name;
    std::string rest = name.substr(prefix.size());
    size_t at = rest.rfind("_at_");
    return at == std::string::npos ? rest : rest.substr(0, at);
}

// Two breaks are the same when they happen in the same chain of calls for the same reason.
std::string breakKey(const Session& s, const events::BreakFacts& b) {
    std::string key = b.reason;
    for (const std::string& e : breakChain(s, b)) key += "\n" + e;
    if (b.userStack.empty()) key += "\n" + b.file + ":" + std::to_string(b.line);
    return key;
}

// "n: 1 → 2 → 3": at most six values, the middle elided.
std::string valuesText(const std::vector<std::string>& v) {
    std::string out;
    for (size_t i = 0; i < v.size(); ++i) {
        if (v.size() > 6 && i == 3) {
            out += " → …";
            i = v.size() - 3;
            continue;
        }
        out += (i ? " → " : "") + v[i];
    }
    return out;
}

// What reads `name` in a line of code: the function whose call's parentheses hold it ("range"
// for `for _ in range(n):`), else "".
std::string callReading(const std::string& code, const std::string& name) {
    auto isWord = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (size_t at = code.find(name); at != std::string::npos; at = code.find(name, at + 1)) {
        if ((at > 0 && isWord(code[at - 1])) || (at + name.size() < code.size() && isWord(code[at + name.size()]))) continue;
        int depth = 0;
        for (size_t i = at; i-- > 0;) {
            if (code[i] == ')') ++depth;
            if (code[i] != '(') continue;
            if (depth-- > 0) continue;
            size_t end = i, begin = i;
            while (begin > 0 && (isWord(code[begin - 1]) || code[begin - 1] == '.')) --begin;
            if (begin < end) return code.substr(begin, end - begin);
            break;
        }
    }
    return "";
}

} // namespace

std::vector<std::string> breakChain(const Session& s, const events::BreakFacts& b) {
    std::set<std::pair<std::string, std::string>> compiled; // (file, function) of every compiled frame
    for (const CFrame* fr : s.framesInOrder()) compiled.insert({fr->file, resumedFunction(fr->function)});
    std::vector<std::string> heads;
    size_t first = b.userStack.size();
    for (size_t i = 0; i < b.userStack.size(); ++i) {
        StackEntry e = parseStackEntry(b.userStack[i]);
        if (first == b.userStack.size() && compiled.count({e.file, e.function})) first = i;
        heads.push_back(b.userStack[i].substr(0, b.userStack[i].find('\n')));
    }
    if (first == b.userStack.size()) first = 0;
    return std::vector<std::string>(heads.begin() + long(first), heads.end());
}

std::string ChangedArgument::describe() const {
    return name + ": " + valuesText(values) + (by.empty() ? "" : ", specialized by " + by);
}

std::vector<ChangedArgument> changedArguments(const CFrame& fr) {
    std::vector<ChangedArgument> out;
    std::map<std::string, size_t> at; // source -> index in out
    for (const auto& e : fr.entries)
        for (const Guard& g : e->guards) {
            if (g.kind != GuardKind::Equals) continue;
            std::string d = g.describe();
            if (!g.userLine.empty()) d = d.substr(0, d.size() - g.userLine.size() - 2);
            size_t eq = d.find(" == ");
            if (eq == std::string::npos) continue;
            std::string key = g.src.str(), value = d.substr(eq + 4);
            auto it = at.find(key);
            if (it == at.end()) {
                it = at.emplace(key, out.size()).first;
                ChangedArgument a;
                a.name = g.src.userName();
                // "# for _ in range(n):  # m.py:6 in f"
                size_t tail = g.userLine.rfind("  # ");
                std::string code = g.userLine.substr(g.userLine.rfind("# ", 0) == 0 ? 2 : 0, tail == std::string::npos ? std::string::npos : tail - 2);
                if (std::string fn = callReading(code, a.name); !fn.empty()) a.by = fn + "()";
                if (tail != std::string::npos) {
                    std::string where = g.userLine.substr(tail + 4);
                    where = where.substr(0, where.find(" in "));
                    size_t colon = where.rfind(':');
                    if (colon != std::string::npos) a.file = where.substr(0, colon), a.line = std::atoi(where.c_str() + colon + 1);
                }
                out.push_back(a);
            }
            std::vector<std::string>& v = out[it->second].values;
            if (v.empty() || v.back() != value) v.push_back(value);
        }
    std::vector<ChangedArgument> changed;
    for (auto& a : out)
        if (std::set<std::string>(a.values.begin(), a.values.end()).size() > 1) changed.push_back(a);
    return changed;
}

std::vector<Problem> problems(const Session& s) {
    const Report& rep = s.report();
    std::vector<Problem> out;
    // distinct breaks: (chain of calls, reason), in the order first seen
    std::vector<Problem> breaks;
    std::map<std::string, size_t> at;
    std::vector<int> counts;
    for (auto& b : rep.breaks) {
        std::string key = breakKey(s, b);
        auto it = at.find(key);
        if (it == at.end()) {
            at[key] = breaks.size();
            Problem p{"graph break", b.id, b.file, b.line, b.reason};
            // a break inside a helper: the graph of the compiled frame ends at the helper's call
            std::vector<std::string> chain = breakChain(s, b);
            if (chain.size() > 1) {
                StackEntry outer = parseStackEntry(chain.front()), inner = parseStackEntry(chain.back());
                p.callFile = outer.file, p.callLine = outer.line;
                p.text += " in " + inner.function + ", called from " + outer.function + " at " +
                          (outer.file == b.file ? "line " + std::to_string(outer.line) : outer.file + ":" + std::to_string(outer.line));
            }
            p.text += b.skippedFrame       ? ": inside a loop, so the whole frame runs eagerly"
                      : chain.size() > 1 ? ": the graph of " + parseStackEntry(chain.front()).function + " ends at that call and a new one starts after it"
                                         : ": the graph ends here and a new one starts after it";
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
            // what changed from call to call, and what read it
            for (const ChangedArgument& a : changedArguments(*fr))
                p.text += "; " + a.describe() + (a.line > 0 ? " at line " + std::to_string(a.line) : "");
            for (auto* r : mine)
                if (r->callLine > 0) p.callFile = r->callFile, p.callLine = r->callLine;
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
            o << "], \"backward\": ";
            BackwardFacts bf = e->compiled ? e->compiled->backwardFacts() : BackwardFacts{};
            if (!bf.present) o << "null";
            else
                o << "{\"compiled\": " << (bf.compiled ? "true" : "false") << ", \"reason\": " << jsonStr(bf.why) << ", \"nodes\": " << bf.nodes
                  << ", \"saved\": " << bf.saved << ", \"recomputed\": " << bf.recomputed << ", \"kernels\": " << bf.kernels
                  << ", \"calls\": " << bf.calls << ", \"backward_calls\": " << bf.backwardCalls
                  << ", \"backward_fallbacks\": " << bf.backwardFallbacks << "}";
            o << "}";
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
    // distinct breaks: (chain of calls, reason)
    std::map<std::string, std::vector<const events::BreakFacts*>> distinct;
    std::vector<std::string> order;
    for (auto& b : rep.breaks) {
        std::string key = breakKey(s, b);
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
            if (std::vector<std::string> chain = breakChain(s, b); chain.size() > 1) {
                StackEntry outer = parseStackEntry(chain.front()), inner = parseStackEntry(chain.back());
                o << "      in " << inner.function << ", called from " << outer.function << " at " << outer.file << ":" << outer.line << "\n";
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
            if (BackwardFacts bf = e->compiled ? e->compiled->backwardFacts() : BackwardFacts{}; bf.present) {
                if (bf.compiled)
                    o << "    backward: compiled, " << bf.nodes << " ops; " << bf.saved << " values saved for it, " << bf.recomputed << " recomputed; "
                      << (bf.kernels < 0 ? std::string("not run yet") : std::to_string(bf.kernels) + " kernels, " + std::to_string(bf.backwardCalls) + " backward() calls" +
                                                   (bf.backwardFallbacks ? " (" + std::to_string(bf.backwardFallbacks) + " ran op by op)" : std::string()))
                      << "\n";
                else
                    o << "    backward: eager (" << bf.why << ")\n";
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

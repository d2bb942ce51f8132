#include "core/graph/graph.h"

#include <algorithm>
#include <cctype>

namespace fl::graph {

namespace {
// Python identifier from an op target: "torch.nn.functional.gelu" -> "gelu", "operator.mul" -> "mul".
std::string baseName(const std::string& target) {
    std::string b = target.substr(target.rfind('.') == std::string::npos ? 0 : target.rfind('.') + 1);
    std::string out;
    for (char c : b) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
    if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "_" + out;
    return out;
}

const char* dtypeShort(const std::string& d) {
    static const std::pair<const char*, const char*> names[] = {
        {"float32", "f32"}, {"float64", "f64"}, {"float16", "f16"}, {"bfloat16", "bf16"}, {"int64", "i64"},
        {"int32", "i32"}, {"int16", "i16"}, {"int8", "i8"}, {"uint8", "u8"}, {"bool", "b8"}};
    for (auto& [l, s] : names)
        if (d == l) return s;
    return d.c_str();
}

std::string formatArg(const Arg& a) {
    switch (a.kind) {
    case Arg::Kind::NodeRef: return a.index >= 0 ? a.node->name + "[" + std::to_string(a.index) + "]" : a.node->name;
    case Arg::Kind::Constant: return a.constant;
    case Arg::Kind::Dict: return "{...}";
    case Arg::Kind::List:
    case Arg::Kind::Tuple: {
        std::string s = a.kind == Arg::Kind::List ? "[" : "(";
        for (size_t i = 0; i < a.items.size(); ++i) s += (i ? ", " : "") + formatArg(a.items[i]);
        if (a.kind == Arg::Kind::Tuple && a.items.size() == 1) s += ",";
        return s + (a.kind == Arg::Kind::List ? "]" : ")");
    }
    }
    return "?";
}
} // namespace

// FX's naming: `base`, else the first free `base_1`, `base_2`, ... Names are never removed, so
// the suffixes already found taken for a base need not be tried again.
std::string Graph::uniqueName(const std::string& base) {
    ++nameProbes_;
    if (names_.insert(base).second) return base;
    int& k = nextSuffix_[base];
    if (k == 0) k = 1;
    for (;; ++k) {
        ++nameProbes_;
        std::string name = base + "_" + std::to_string(k);
        if (names_.insert(name).second) {
            ++k;
            return name;
        }
    }
}

Node& Graph::addPlaceholder(const std::string& name, TensorMeta meta) {
    auto n = std::make_unique<Node>();
    n->id = int(nodes_.size());
    n->kind = NodeKind::Placeholder;
    n->name = uniqueName(name);
    n->target = name;
    n->meta.push_back(std::move(meta));
    nodes_.push_back(std::move(n));
    return *nodes_.back();
}

Node& Graph::addCall(const std::string& target, std::vector<Arg> args, std::vector<std::pair<std::string, Arg>> kwargs) {
    auto n = std::make_unique<Node>();
    n->id = int(nodes_.size());
    n->kind = NodeKind::Call;
    n->name = uniqueName(baseName(target));
    n->target = target;
    n->args = std::move(args);
    n->kwargs = std::move(kwargs);
    nodes_.push_back(std::move(n));
    return *nodes_.back();
}

Node& Graph::setOutput(std::vector<Arg> results) {
    auto n = std::make_unique<Node>();
    n->id = int(nodes_.size());
    n->kind = NodeKind::Output;
    n->name = "output";
    n->target = "output";
    n->args = std::move(results);
    nodes_.push_back(std::move(n));
    return *nodes_.back();
}

int Graph::callCount() const {
    return int(std::count_if(nodes_.begin(), nodes_.end(), [](const auto& n) { return n->kind == NodeKind::Call; }));
}

std::string formatMeta(const TensorMeta& m) {
    std::string s = std::string(dtypeShort(m.dtype)) + "[";
    for (size_t i = 0; i < m.shape.size(); ++i)
        s += (i ? ", " : "") + (m.shape[i].isSymbolic() ? m.shape[i].symbol : std::to_string(m.shape[i].value));
    return s + "]";
}

std::string printGraph(const Graph& g, const std::string& fnName) {
    std::string header = "def " + fnName + "(self";
    std::vector<std::string> body;
    for (const auto& n : g.nodes()) {
        switch (n->kind) {
        case NodeKind::Placeholder:
            header += ", " + n->name + (n->meta.empty() ? "" : ": \"" + formatMeta(n->meta[0]) + "\"");
            break;
        case NodeKind::Call: {
            std::string line = n->name + " = " + n->target + "(";
            bool first = true;
            for (const auto& a : n->args) { line += (first ? "" : ", ") + formatArg(a); first = false; }
            for (const auto& [k, a] : n->kwargs) { line += (first ? "" : ", ") + k + " = " + formatArg(a); first = false; }
            line += ")";
            std::string note;
            if (!n->meta.empty()) note += formatMeta(n->meta[0]);
            if (!n->span.file.empty()) note += (note.empty() ? "" : " ") + n->span.file + ":" + std::to_string(n->span.line);
            if (!n->modulePath.empty()) note += (note.empty() ? "" : " ") + n->modulePath;
            if (!note.empty()) line += "  # " + note;
            body.push_back(line);
            break;
        }
        case NodeKind::Output: {
            std::string line = "return (";
            for (size_t i = 0; i < n->args.size(); ++i) line += (i ? ", " : "") + formatArg(n->args[i]);
            if (n->args.size() == 1) line += ",";
            body.push_back(line + ")");
            break;
        }
        }
    }
    std::string out = header + "):\n";
    for (auto& l : body) out += "    " + l + "\n";
    return out;
}

} // namespace fl::graph

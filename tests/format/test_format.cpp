// Checks pyformat and tensor_repr against cases.txt, whose expected text gen_cases.py took from
// CPython 3.11 and PyTorch 1.13. Usage: test_format path/to/cases.txt

#include <ATen/ATen.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/script/pyformat.h"
#include "core/script/tensor_repr.h"

using namespace fl::script;

namespace {

std::vector<std::string> splitTabs(const std::string& line) {
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        size_t tab = line.find('\t', start);
        out.push_back(line.substr(start, tab - start));
        if (tab == std::string::npos) return out;
        start = tab + 1;
    }
}

std::string unhex(const std::string& h) {
    std::string out;
    for (size_t i = 0; i + 1 < h.size(); i += 2) out += char(std::stoi(h.substr(i, 2), nullptr, 16));
    return out;
}

// Inverse of gen_cases.py's esc().
std::string unescape(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '\\' || i + 1 == s.size()) {
            out += s[i];
            continue;
        }
        char c = s[++i];
        if (c == 'n') out += '\n';
        else if (c == 't') out += '\t';
        else if (c == 'x') { out += char(std::stoi(s.substr(i + 1, 2), nullptr, 16)); i += 2; }
        else out += c;
    }
    return out;
}

double doubleFromHex(const std::string& h) {
    uint64_t bits = std::stoull(h, nullptr, 16);
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

std::vector<int64_t> intList(const std::string& s) {
    std::vector<int64_t> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) out.push_back(std::stoll(item));
    return out;
}

// Python's repr of a string, for readable failure messages.
std::string show(const std::string& s) { return reprStr(s); }

// Runs a format call the way Python would: its result, or the exception kind and message.
std::pair<std::string, std::string> outcome(const std::function<std::string()>& fn) {
    try {
        return {"ok", fn()};
    } catch (const FormatError& e) {
        return {e.overflow ? "OverflowError" : "ValueError", e.message};
    }
}

at::ScalarType dtypeOf(const std::string& name) {
    static const std::map<std::string, at::ScalarType> kinds = {
        {"float32", at::kFloat}, {"float64", at::kDouble}, {"float16", at::kHalf}, {"bfloat16", at::kBFloat16},
        {"int8", at::kChar},     {"int16", at::kShort},    {"int32", at::kInt},    {"int64", at::kLong},
        {"uint8", at::kByte},    {"bool", at::kBool},      {"complex64", at::kComplexFloat},
        {"complex128", at::kComplexDouble},
    };
    return kinds.at(name);
}

// The ops of gen_cases.py's OPS.
at::Tensor applyOp(const std::string& op, const at::Tensor& x) {
    // Python passes the number as a wrapped 0-dim tensor (mul.Tensor -> MulBackward0), not as a Scalar.
    auto number = [&](double v) { return at::scalar_tensor(v, x.options().requires_grad(false)); };
    if (op == "mul2") return x * number(2);
    if (op == "add1") return x + number(1);
    if (op == "neg") return x.neg();
    if (op == "relu") return x.relu();
    if (op == "sum") return x.sum();
    if (op == "mean") return x.mean();
    if (op == "view") return x.view(-1);
    if (op == "t") return x.t();
    if (op == "transpose") return x.transpose(0, 1);
    if (op == "select0") return x.select(0, 0);
    if (op == "clone") return x.clone();
    if (op == "double") return x.to(at::kDouble);
    if (op == "unsqueeze") return x.unsqueeze(0);
    if (op == "setitem0") {
        at::Tensor y = x.clone();
        y.select(0, 0).fill_(0); // Python's y[0] = 0
        return y;
    }
    throw std::runtime_error("unknown op " + op);
}

// tensor <name> <dtype> <storage hex> <size> <stride> <offset> <flags> <expected>
std::string runTensorCase(const std::vector<std::string>& f) {
    at::ScalarType st = dtypeOf(f[2]);
    std::string bytes = unhex(f[3]);
    int64_t elems = int64_t(bytes.size() / at::elementSize(st));
    at::Tensor storage = at::from_blob(bytes.data(), {elems}, at::TensorOptions().dtype(st)).clone();
    at::Tensor t = storage.as_strided(intList(f[4]), intList(f[5]), std::stoll(f[6]));

    bool rg = false, param = false, meta = false;
    int sparseDims = -1;
    std::string op;
    std::stringstream ss(f[7]);
    std::string flag;
    while (std::getline(ss, flag, ',')) {
        if (flag == "rg") rg = true;
        else if (flag == "param") param = true;
        else if (flag == "meta") meta = true;
        else if (flag.rfind("sparse", 0) == 0) sparseDims = flag.size() > 6 ? std::stoi(flag.substr(6)) : 0;
        else if (flag.rfind("op=", 0) == 0) op = flag.substr(3);
    }
    if (sparseDims == 0) return reprTensor(t.to_sparse());
    if (sparseDims > 0) return reprTensor(t.to_sparse(sparseDims));
    if (meta) return reprTensor(at::empty(t.sizes(), at::TensorOptions().dtype(st).device(at::kMeta)));
    if (rg) t = t.detach().requires_grad_(true);
    if (!op.empty()) t = applyOp(op, t);
    return reprTensor(t, param);
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: test_format cases.txt\n";
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::cerr << "cannot open " << argv[1] << "\n";
        return 2;
    }
    int passed = 0, failed = 0;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> f = splitTabs(line);
        const std::string& kind = f[0];
        std::string expected = unescape(f.back());
        std::string got, label;
        try {
            if (kind == "repr_float") {
                got = reprFloat(doubleFromHex(f[1]));
                label = "repr(float " + f[1] + ")";
            } else if (kind == "repr_str") {
                got = reprStr(unhex(f[1]));
                label = "repr(str " + f[1] + ")";
            } else if (kind.rfind("format_", 0) == 0) {
                std::string spec = unhex(f[2]);
                std::pair<std::string, std::string> r;
                if (kind == "format_int") {
                    int64_t v = std::stoll(f[1]);
                    r = outcome([&] { return formatInt(v, spec); });
                    label = "format(" + f[1] + ", " + show(spec) + ")";
                } else if (kind == "format_float") {
                    double v = doubleFromHex(f[1]);
                    r = outcome([&] { return formatFloat(v, spec); });
                    label = "format(" + reprFloat(v) + ", " + show(spec) + ")";
                } else {
                    std::string v = unhex(f[1]);
                    r = outcome([&] { return formatStr(v, spec); });
                    label = "format(" + show(v) + ", " + show(spec) + ")";
                }
                got = r.first == "ok" ? r.second : r.first + ": " + r.second;
                if (f[3] != "ok") expected = f[3] + ": " + expected;
            } else if (kind == "tensor") {
                label = "tensor " + f[1];
                got = runTensorCase(f);
            } else {
                std::cerr << "line " << lineNo << ": unknown case kind " << kind << "\n";
                ++failed;
                continue;
            }
        } catch (const std::exception& e) {
            got = std::string("<exception: ") + e.what() + ">";
        } catch (const FormatError& e) {
            got = "<uncaught FormatError: " + e.message + ">";
        }
        if (got == expected) {
            ++passed;
        } else {
            ++failed;
            std::cout << "FAIL line " << lineNo << ": " << label << "\n  expected: " << show(expected)
                      << "\n  got:      " << show(got) << "\n";
            if (kind == "tensor") std::cout << "--- expected\n" << expected << "\n--- got\n" << got << "\n";
        }
    }
    std::cout << passed << " passed, " << failed << " failed\n";
    return failed ? 1 : 0;
}

#include "core/script/tensor_repr.h"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/function.h> // Node::name(), for grad_fn=<...>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <vector>

#include "core/script/pyformat.h"

namespace fl::script {
namespace {

// torch._tensor_str.PRINT_OPTS defaults; precision 4 is in the format specs.
constexpr const char* kSciSpec = ".4e";
constexpr const char* kFixedSpec = ".4f";
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr int64_t kLineWidth = 80;

std::string dtypeName(at::ScalarType st) {
    switch (st) {
    case at::kFloat: return "torch.float32";
    case at::kDouble: return "torch.float64";
    case at::kHalf: return "torch.float16";
    case at::kBFloat16: return "torch.bfloat16";
    case at::kComplexHalf: return "torch.complex32";
    case at::kComplexFloat: return "torch.complex64";
    case at::kComplexDouble: return "torch.complex128";
    case at::kByte: return "torch.uint8";
    case at::kChar: return "torch.int8";
    case at::kShort: return "torch.int16";
    case at::kInt: return "torch.int32";
    case at::kLong: return "torch.int64";
    case at::kBool: return "torch.bool";
    default: return std::string("torch.") + c10::toString(st);
    }
}

// str(tuple(shape)): "(0, 3)", "(0,)".
std::string shapeTuple(at::IntArrayRef sizes) {
    std::string out = "(";
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (i) out += ", ";
        out += std::to_string(sizes[i]);
    }
    if (sizes.size() == 1) out += ",";
    return out + ")";
}

// torch._tensor_str._Formatter over the values of one real tensor (contiguous double, long or bool).
class Formatter {
public:
    explicit Formatter(at::Tensor values) : t_(std::move(values)) {
        const int64_t n = t_.numel();
        if (t_.scalar_type() != at::kDouble) {
            for (int64_t k = 0; k < n; ++k) width_ = std::max(width_, raw(k).size());
            return;
        }
        const double* v = t_.data_ptr<double>();
        std::vector<double> nz; // nonzero finite values
        for (int64_t k = 0; k < n; ++k)
            if (std::isfinite(v[k]) && v[k] != 0) nz.push_back(v[k]);
        if (nz.empty()) return; // int mode, width 1
        double lo = INFINITY, hi = 0;
        for (double x : nz) {
            lo = std::min(lo, std::fabs(x));
            hi = std::max(hi, std::fabs(x));
            if (x != std::ceil(x)) intMode_ = false;
        }
        // Integer-valued floats print as "3." unless the range calls for scientific notation.
        sciMode_ = hi / lo > 1000.0 || hi > 1.0e8 || (!intMode_ && lo < 1.0e-4);
        for (double x : nz) width_ = std::max(width_, floatText(x).size());
    }

    size_t width() const { return width_; }

    // The k-th value, right-aligned to width() (never cut when longer).
    std::string format(int64_t k) const {
        std::string s = raw(k);
        return std::string(width_ > s.size() ? width_ - s.size() : 0, ' ') + s;
    }

private:
    std::string raw(int64_t k) const {
        switch (t_.scalar_type()) {
        case at::kBool: return t_.data_ptr<bool>()[k] ? "True" : "False";
        case at::kLong: return std::to_string(t_.data_ptr<int64_t>()[k]);
        default: break;
        }
        return floatText(t_.data_ptr<double>()[k]);
    }

    std::string floatText(double x) const {
        if (sciMode_) return formatFloat(x, kSciSpec);
        if (intMode_) return formatFloat(x, ".0f") + (std::isfinite(x) ? "." : "");
        return formatFloat(x, kFixedSpec);
    }

    at::Tensor t_;
    bool intMode_ = true;
    bool sciMode_ = false;
    size_t width_ = 1;
};

// Lays out the printed elements. The data is the summarized tensor (every element that gets printed,
// contiguous); cut[d] marks dimensions shortened to their first and last kEdgeItems rows, where
// "..." goes in between.
class Layout {
public:
    Layout(at::IntArrayRef shape, std::vector<bool> cut, const Formatter& re, const Formatter* im)
        : shape_(shape.vec()), cut_(std::move(cut)), re_(re), im_(im), strides_(shape.size(), 1) {
        for (size_t d = shape_.size(); d-- > 1;) strides_[d - 1] = strides_[d] * shape_[d];
    }

    std::string value(int64_t k) const {
        std::string re = re_.format(k);
        if (!im_) return re;
        std::string im = im_->format(k) + "j";
        im.erase(0, im.find_first_not_of(' '));
        return im[0] == '+' || im[0] == '-' ? re + im : re + "+" + im;
    }

    std::string str(size_t d, int64_t base, int64_t indent) const {
        const size_t ndim = shape_.size();
        std::vector<std::string> items;
        for (int64_t i = 0; i < shape_[d]; ++i) {
            if (cut_[d] && i == kEdgeItems) items.push_back(d + 1 == ndim ? " ..." : "...");
            int64_t at = base + i * strides_[d];
            items.push_back(d + 1 == ndim ? value(at) : str(d + 1, at, indent + 1));
        }
        std::string out = "[";
        if (d + 1 == ndim) {
            // One row: as many elements per line as fit in the line width.
            int64_t elementLength = int64_t(re_.width()) + 2 + (im_ ? int64_t(im_->width()) + 1 : 0);
            int64_t perLine =
                std::max<int64_t>(1, int64_t(std::floor(double(kLineWidth - indent) / double(elementLength))));
            for (size_t i = 0; i < items.size(); ++i) {
                if (i) out += i % perLine ? ", " : ",\n" + std::string(size_t(indent + 1), ' ');
                out += items[i];
            }
        } else {
            std::string sep = "," + std::string(ndim - d - 1, '\n') + std::string(size_t(indent + 1), ' ');
            for (size_t i = 0; i < items.size(); ++i) {
                if (i) out += sep;
                out += items[i];
            }
        }
        return out + "]";
    }

private:
    std::vector<int64_t> shape_;
    std::vector<bool> cut_;
    const Formatter& re_;
    const Formatter* im_;
    std::vector<int64_t> strides_;
};

// The elements get_summarized_data keeps: the first and last kEdgeItems of every dimension longer
// than 2 * kEdgeItems.
at::Tensor summarizedData(at::Tensor t, std::vector<bool>& cut) {
    for (int64_t d = 0; d < t.dim(); ++d) {
        int64_t n = t.size(d);
        if (n <= 2 * kEdgeItems) continue;
        cut[size_t(d)] = true;
        at::Tensor idx = at::cat({at::arange(kEdgeItems, at::kLong), at::arange(n - kEdgeItems, n, at::kLong)});
        t = t.index_select(d, idx);
    }
    return t;
}

// Python's real-valued view as printing data: double for floating types, else long or bool.
at::Tensor printable(const at::Tensor& t) {
    at::ScalarType st = at::isFloatingType(t.scalar_type()) ? at::kDouble
                        : t.scalar_type() == at::kBool     ? at::kBool
                                                           : at::kLong;
    return t.to(st).contiguous();
}

// torch._tensor_str._tensor_str for a non-empty tensor.
std::string tensorStr(at::Tensor self, int64_t indent) {
    const bool summarize = self.numel() > kThreshold;
    self = self.resolve_conj().resolve_neg();
    if (self.scalar_type() == at::kComplexHalf) self = self.to(at::kComplexFloat);
    std::vector<bool> cut(size_t(self.dim()), false);
    at::Tensor data = summarize ? summarizedData(self, cut) : self;

    std::optional<Formatter> re, im;
    if (data.is_complex()) {
        re.emplace(printable(at::real(data)));
        im.emplace(printable(at::imag(data)));
    } else {
        re.emplace(printable(data));
    }
    Layout layout(data.sizes(), std::move(cut), *re, im ? &*im : nullptr);
    return self.dim() == 0 ? layout.value(0) : layout.str(0, 0, indent);
}

// torch._tensor_str._add_suffixes: ", suffix", or a new line when the current one would pass 80.
std::string addSuffixes(std::string s, const std::vector<std::string>& suffixes, int64_t indent, bool forceNewline) {
    size_t nl = s.rfind('\n');
    // Python: len(s) - s.rfind("\n") + 1, where rfind gives -1 when there is no newline.
    int64_t lastLineLen = int64_t(s.size()) - (nl == std::string::npos ? -1 : int64_t(nl)) + 1;
    for (const std::string& suffix : suffixes) {
        int64_t len = int64_t(suffix.size());
        if (forceNewline || lastLineLen + len + 2 > kLineWidth) {
            s += ",\n" + std::string(size_t(indent), ' ') + suffix;
            lastLineLen = indent + len;
            forceNewline = false;
        } else {
            s += ", " + suffix;
            lastLineLen += len + 2;
        }
    }
    return s + ")";
}

// The indices= / values= parts of a sparse COO tensor.
std::string sparsePart(const at::Tensor& t, int64_t indent) {
    if (t.numel() == 0) return "[], size=" + shapeTuple(t.sizes());
    return tensorStr(t, indent);
}

} // namespace

std::string reprTensor(const at::Tensor& input, bool isParameter) {
    if (!input.defined()) return "None";
    const std::string prefix = "tensor(";
    const int64_t indent = int64_t(prefix.size());
    std::vector<std::string> suffixes;

    at::Tensor self = input.detach();
    const at::ScalarType st = self.scalar_type();
    const bool defaultDtype = st == at::kFloat || st == at::kComplexFloat || st == at::kLong || st == at::kBool;
    if (self.device().type() != at::kCPU) {
        suffixes.push_back("device='" + self.device().str() + "'");
        if (!self.is_meta()) self = self.cpu();
    }

    std::string body;
    if (self.is_sparse()) {
        suffixes.push_back("size=" + shapeTuple(self.sizes()));
        suffixes.push_back("nnz=" + std::to_string(self._nnz()));
        if (!defaultDtype) suffixes.push_back("dtype=" + dtypeName(st));
        const std::string indicesPrefix = "indices=tensor(", valuesPrefix = "values=tensor(";
        body = indicesPrefix + sparsePart(self._indices(), indent + int64_t(indicesPrefix.size())) + "),\n" +
               std::string(size_t(indent), ' ') + valuesPrefix +
               sparsePart(self._values(), indent + int64_t(valuesPrefix.size())) + ")";
    } else if (self.layout() != at::kStrided) {
        throw std::invalid_argument("reprTensor: compressed sparse layouts are not supported");
    } else if (self.is_meta()) {
        suffixes.push_back("size=" + shapeTuple(self.sizes()));
        if (st != at::kFloat) suffixes.push_back("dtype=" + dtypeName(st));
        body = "...";
    } else if (self.numel() == 0) {
        // Empty: show the shape unless it is (0,), and any dtype but float32 (nothing to infer it from).
        if (self.dim() != 1) suffixes.push_back("size=" + shapeTuple(self.sizes()));
        if (st != at::kFloat) suffixes.push_back("dtype=" + dtypeName(st));
        body = "[]";
    } else {
        if (!defaultDtype) suffixes.push_back("dtype=" + dtypeName(st));
        body = tensorStr(self, indent);
    }
    if (self.is_sparse()) suffixes.push_back("layout=torch.sparse_coo");

    if (const auto& fn = input.grad_fn()) {
        std::string name = fn->name(); // e.g. "MulBackward0", "torch::autograd::CopySlices"
        if (size_t p = name.rfind("::"); p != std::string::npos) name.erase(0, p + 2);
        suffixes.push_back("grad_fn=<" + name + ">");
    } else if (input.requires_grad()) {
        suffixes.push_back("requires_grad=True");
    }

    std::string out = addSuffixes(prefix + body, suffixes, indent, self.is_sparse());
    return isParameter ? "Parameter containing:\n" + out : out;
}

} // namespace fl::script

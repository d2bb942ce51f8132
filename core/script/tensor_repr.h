// repr(tensor) / str(tensor) exactly as PyTorch 1.13 prints them (torch/_tensor_str.py) with the
// default print options. Light header: no torch includes.
#pragma once

#include <string>

namespace at {
class Tensor;
}

namespace fl::script {

// `tensor([...], dtype=..., requires_grad=True)`: PyTorch's _Formatter rules (integer, fixed or
// scientific mode, precision 4), linewidth 80, summarization above 1000 elements, the size/dtype/
// device/grad_fn/requires_grad suffixes. isParameter prefixes "Parameter containing:\n" as
// nn.Parameter.__repr__ does. Strided tensors of real, bool and complex dtypes, meta tensors and
// sparse COO tensors; other layouts (CSR, ...) throw std::invalid_argument.
std::string reprTensor(const at::Tensor& t, bool isParameter = false);

} // namespace fl::script

// The public names of torch 1.13's namespaces (tools/api_names.py writes them from `dir()`):
// what `fuselab api --coverage` measures Fuselab against, and what a missing attribute's error
// message consults to say that PyTorch has the name and Fuselab does not yet.
#pragma once

#include <string>
#include <vector>

namespace fl::script {

struct ApiNamespace {
    std::string name;               // "torch", "torch.Tensor", "torch.nn", ...
    std::vector<std::string> names; // sorted
};

const std::vector<ApiNamespace>& torchApiNames();
// Whether torch 1.13's namespace `ns` has the public name `name`.
bool torchApiHas(const std::string& ns, const std::string& name);

} // namespace fl::script

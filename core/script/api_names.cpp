#include "core/script/api_names.h"

#include <algorithm>
#include <sstream>

namespace fl::script {

namespace {
struct RawNamespace { const char* name; const char* names; };
const RawNamespace kRaw[] = {
#include "core/script/api_names.inc"
};
} // namespace

const std::vector<ApiNamespace>& torchApiNames() {
    static const std::vector<ApiNamespace> all = [] {
        std::vector<ApiNamespace> out;
        for (const RawNamespace& r : kRaw) {
            ApiNamespace ns{r.name, {}};
            std::istringstream ss(r.names);
            for (std::string n; ss >> n;) ns.names.push_back(n);
            std::sort(ns.names.begin(), ns.names.end());
            out.push_back(std::move(ns));
        }
        return out;
    }();
    return all;
}

bool torchApiHas(const std::string& ns, const std::string& name) {
    for (const ApiNamespace& a : torchApiNames())
        if (a.name == ns) return std::binary_search(a.names.begin(), a.names.end(), name);
    return false;
}

} // namespace fl::script

// The standard-library modules Fuselab writes in the script language (core/script/stdlib/*.py):
// found by name before the import path is searched, parsed once per process, run on first
// import in each interpreter.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>

#include "core/script/value.h"

namespace fl::script {

struct Module;
class Interp;

// The source of the bundled module `name`, or null.
const char* bundledModule(const std::string& name);
// Its parsed tree ("<fuselab:stdlib/NAME.py>"), parsed on first use.
std::shared_ptr<Module> parsedBundled(const std::string& name, const char* source);
// Parses every bundled module now (a fork server's warm-up: interp.h's warmProcessCaches).
void parseAllBundled();
// Names a bundled module's code may use that scripts cannot: `_own_attr(cls, name, default)`
// (the class's own attribute, not an inherited one) and `_base(cls)` (its base class or None).
void installStdlibHelpers(Interp& in, std::unordered_map<std::string, Value>& vars);

} // namespace fl::script

// Structural pattern matching (the `case` clauses of a `match` statement, PEP 634): whether a
// subject matches a pattern, and the names it binds. Every test goes through the interpreter's
// own operations (==, isinstance, len, items, attributes) and tells the trace hooks what it read,
// so a traced frame gets the guards the same test written with if and isinstance would give it.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/script/ast.h"
#include "core/script/value.h"

namespace fl::script {

class Interp;

// Evaluates an expression of the pattern (a value to compare with, a class, a mapping key) in
// the scope of the match statement.
using PatternEval = std::function<Value(const Expr*)>;
using PatternBindings = std::vector<std::pair<std::string, Value>>;

// The names a pattern binds, in the order CPython's compiler collects them (an OR pattern's
// from its first alternative).
void patternNames(const Pattern& p, std::vector<std::string>& out);

// True when `subject` matches `p`; `binds` then holds the names to bind, in the order CPython
// binds them (nothing is bound on a failed match). Raises TypeError / ValueError as CPython does
// for a bad class pattern or duplicate mapping keys.
bool matchPattern(Interp& in, const Pattern& p, const Value& subject, const PatternEval& eval, PatternBindings& binds);

} // namespace fl::script

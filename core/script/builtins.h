// Python builtins (functions, types, exceptions, str/list/dict/set methods), the math and typing
// modules, and the formatting helpers the interpreter needs.
#pragma once

#include <string>
#include <vector>

#include "core/script/ast.h"
#include "core/script/value.h"

namespace fl::script {

class Interp;

void installBuiltins(Interp& in);
// str's methods that need Unicode data (str_methods.cpp), installed over the byte-wise ones.
void installStrUnicodeMethods(Interp& in);

std::string formatValue(Interp& in, const Value& v, const std::string& spec); // format(v, spec)
std::string percentFormat(Interp& in, const std::string& fmt, const Value& args); // "%.3f" % x
int64_t utf8Length(const std::string& s);
std::vector<std::string> utf8Chars(const std::string& s);
Value setOperation(Interp& in, BinOpKind op, const Value& a, const Value& b);
Value setCompare(Interp& in, CmpOpKind op, const Value& a, const Value& b);
// CPython iterates small non-negative int sets in ascending order; emulate that one observable case.
bool setIterSorted(const ValueMap& m, std::vector<Value>& out);

} // namespace fl::script

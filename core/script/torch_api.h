// The interpreter's window onto eager tensors. Implemented in the torch binding files, which are
// the only ones that include LibTorch headers.
#pragma once

#include <string>

#include "core/script/ast.h"
#include "core/script/value.h"

namespace fl::script {

class Interp;

void installTorch(Interp& in); // the torch, torch.nn, torch.nn.functional, torch.optim modules

// Fills the process-wide caches that interpreters otherwise fill on first use: every prelude
// file and bundled standard module parsed, the operator registry's index built. A fork server
// (app/serve.h) calls it once, so that each child starts with them instead of rebuilding them.
void warmProcessCaches();

Value tensorUnary(Interp& in, const char* op, const Value& t);
Value tensorBinary(Interp& in, BinOpKind op, const Value& a, const Value& b, bool inplace);
Value tensorCompare(Interp& in, CmpOpKind op, const Value& a, const Value& b);
bool tensorTruth(Interp& in, const Value& t);
int64_t tensorLen(Interp& in, const Value& t);
Value tensorIter(Interp& in, const Value& t);
bool tensorContains(Interp& in, const Value& t, const Value& item);
std::string tensorRepr(Interp& in, const Value& t);
Value tensorGetItem(Interp& in, const Value& t, const Value& key);
void tensorSetItem(Interp& in, const Value& t, const Value& key, const Value& v);
bool tensorSetAttr(Interp& in, const Value& t, const std::string& name, const Value& v);
bool tensorIsParameter(const Value& t);
Value tensorToIndex(Interp& in, const Value& t); // int(t) for an integer one-element tensor
double tensorToFloat(Interp& in, const Value& t);
std::string tensorFormat(Interp& in, const Value& t, const std::string& spec); // Tensor.__format__

} // namespace fl::script

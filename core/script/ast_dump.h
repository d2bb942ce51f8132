// A compact S-expression dump of the script AST, for tests and debugging.
//
//   x = f(a, *b, k=1)[1:2]   ->   (= x:store ([] (call f a (* b) (kw k 1)) (slice 1 2 _)))
//
// Names print bare (`x`, `x:store`, `x:del`), constants as Python would write them
// (`1`, `2.5`, `"s"`, `None`, `...`), everything else as `(head children...)`. With
// `withSpans`, every node also shows its span as `@line:col-endLine:endCol`.
#pragma once

#include "core/script/ast.h"

#include <string>

namespace fl::script {

// One line per top-level statement.
std::string dumpAst(const Module& module, bool withSpans = false);
std::string dumpStmt(const Stmt& stmt, bool withSpans = false);
std::string dumpExpr(const Expr& expr, bool withSpans = false);

} // namespace fl::script

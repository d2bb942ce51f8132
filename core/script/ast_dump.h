// A compact S-expression dump of the script AST, for tests and debugging.
//
//   x = f(a, *b, k=1)[1:2]   ->   (= x:store ([] (call f a (* b) (kw k 1)) (slice 1 2 _)))
//
// Names print bare (`x`, `x:store`, `x:del`), constants as Python's repr would (`1`, `2.5`,
// `"s"`, `None`, `...`; ints past int64 as `digits#big`), a missing child as `_`, everything
// else as `(head children...)`. Less obvious heads: `.` attribute, `[]` subscript, `u-` `u+`
// `~` `not` unary operators, `cmp` a comparison chain, `f` an f-string whose parts are strings
// and `(fmt value [!r] [(spec parts...)] [=])` fields, `kw` a keyword argument (`**` for
// unpacking), `args` a parameter list. With `withSpans`, every node also shows its span as
// `@line:col-endLine:endCol` right after its head (or after the name / constant).
#pragma once

#include "core/script/ast.h"

#include <string>

namespace fl::script {

// One line per top-level statement.
std::string dumpAst(const Module& module, bool withSpans = false);
std::string dumpStmt(const Stmt& stmt, bool withSpans = false);
std::string dumpExpr(const Expr& expr, bool withSpans = false);

} // namespace fl::script

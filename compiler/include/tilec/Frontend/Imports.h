//===- Imports.h - Device functions imported from other files ---*- C++ -*-===//
//
// `from helpers import f`, `from .helpers import f as g`, `import helpers as
// h` (then `h.f(...)`) and `from helpers import BLOCK` read helpers.tile or
// helpers.py when it sits beside the importing file or in a search directory
// (tilec -I), parse it, and bind what the import names. The imported
// functions see their own file's names. An import whose file is not found
// stays a foreign import: using a name it binds is an error that says where
// tilec looked.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_IMPORTS_H
#define TILEC_FRONTEND_IMPORTS_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Diagnostics.h"

#include <string>
#include <vector>

namespace tilec {

/// Resolves the foreign imports of `module`, read from the file
/// `importingPath` (when that names no file, as "<stdin>" or a JIT source's
/// name: only `searchPaths` are searched for absolute imports, relative ones
/// are not found), and of the modules they
/// read, recursively (files may import each other). Appends every file read
/// to `dependencies`, and to `misses` the files an import looked for, and did
/// not find, before the one it read (a cache must notice when one appears).
/// Returns false after an error (a file that cannot be read or does not
/// parse).
bool resolveImports(Module &module, const std::string &importingPath,
                    const std::vector<std::string> &searchPaths, DiagnosticEngine &diag,
                    std::vector<std::string> &dependencies, std::vector<std::string> &misses);

} // namespace tilec

#endif // TILEC_FRONTEND_IMPORTS_H

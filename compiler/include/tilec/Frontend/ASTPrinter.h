//===- ASTPrinter.h - Readable dumps of the AST (--emit=ast) ------*- C++ -*-===//
//
// An indented tree, one node per line, with types when Sema has set them.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_ASTPRINTER_H
#define TILEC_FRONTEND_ASTPRINTER_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Sema.h"

#include "llvm/Support/raw_ostream.h"

namespace tilec {

/// Prints a parsed module (syntactic tree).
void printModule(const Module &module, llvm::raw_ostream &os);
/// Prints a specialized kernel: options, parameters, typed body.
void printKernel(const KernelInstance &kernel, llvm::raw_ostream &os);
/// Prints one expression subtree at `indent` levels (two spaces each).
void printExpr(const Expr &expr, llvm::raw_ostream &os, unsigned indent = 0);
/// Prints one statement subtree at `indent` levels.
void printStmt(const Stmt &stmt, llvm::raw_ostream &os, unsigned indent = 0);

} // namespace tilec

#endif // TILEC_FRONTEND_ASTPRINTER_H

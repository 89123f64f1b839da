//===- Parser.h - Recursive-descent parser for .tile files -------*- C++ -*-===//
//
// Entry point: parseFile. The parser accepts the whole syntax of LANGUAGE.md
// (Sema decides what is implemented). It stops at the first syntax error,
// like Python, so no error cascades; nesting deeper than kMaxNesting is an
// error ("nesting too deep"), never a stack overflow.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_PARSER_H
#define TILEC_FRONTEND_PARSER_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Diagnostics.h"

#include <memory>

namespace tilec {

/// Maximum nesting of brackets, parenthesized/unary expressions and blocks.
constexpr unsigned kMaxNesting = 256;
/// Maximum height of one expression tree (long operator chains such as
/// `a + b + ... + z` count one level per operator).
constexpr unsigned kMaxExprHeight = 1024;

/// Lexes and parses buffer `bufferId` of diag's SourceMgr. Returns null iff
/// an error was reported to `diag`.
std::unique_ptr<Module> parseFile(unsigned bufferId, DiagnosticEngine &diag);

} // namespace tilec

#endif // TILEC_FRONTEND_PARSER_H

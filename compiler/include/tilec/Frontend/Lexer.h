//===- Lexer.h - Tokenizer for .tile files -----------------------*- C++ -*-===//
//
// Turns a source buffer into tokens, Python style: NEWLINE ends a logical
// line, INDENT/DEDENT bracket blocks, no NEWLINE/INDENT inside brackets,
// `\` joins lines, `#` starts a comment. Tabs advance to the next multiple of
// 8 columns; CRLF and CR line ends are accepted.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_LEXER_H
#define TILEC_FRONTEND_LEXER_H

#include "tilec/Frontend/Diagnostics.h"

#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace tilec {

/// Token kinds. Keyword kinds are `kw_<spelling>`.
enum class TokenKind {
  Eof, Newline, Indent, Dedent,
  /// A mistake inside one token (its message in `stringValue`).
  Invalid,
  Identifier, Int, Float, String,
  // Keywords.
  kw_and, kw_as, kw_assert, kw_break, kw_class, kw_continue, kw_def, kw_del,
  kw_elif, kw_else, kw_except, kw_False, kw_finally, kw_for, kw_from,
  kw_global, kw_if, kw_import, kw_in, kw_is, kw_lambda, kw_None,
  kw_nonlocal, kw_not, kw_or, kw_pass, kw_raise, kw_return, kw_True, kw_try,
  kw_while, kw_with, kw_yield,
  // Brackets and punctuation.
  LParen, RParen, LSquare, RSquare, LBrace, RBrace, Comma, Colon, Semi, Dot,
  Ellipsis, Arrow, At, Equal,
  // Operators.
  Plus, Minus, Star, Slash, SlashSlash, Percent, StarStar, LessLess,
  GreaterGreater, Amp, Pipe, Caret, Tilde, Less, Greater, LessEqual,
  GreaterEqual, EqualEqual, NotEqual,
  // Augmented assignment.
  PlusEqual, MinusEqual, StarEqual, SlashEqual, SlashSlashEqual, PercentEqual,
  StarStarEqual, AmpEqual, PipeEqual, CaretEqual, LessLessEqual,
  GreaterGreaterEqual, AtEqual,
};

/// A human-readable name for diagnostics: "identifier", "'('", "newline".
llvm::StringRef getTokenKindName(TokenKind kind);

/// One token. `text` points into the source buffer.
struct Token {
  TokenKind kind = TokenKind::Eof;
  llvm::StringRef text;
  SourceLoc loc;
  uint64_t intValue = 0;   ///< For Int.
  double floatValue = 0;   ///< For Float.
  std::string stringValue; ///< For String: the decoded contents.

  bool is(TokenKind k) const { return kind == k; }
};

/// Tokenizes the whole buffer `bufferId` of the engine's SourceMgr. Errors
/// of the file's structure (unterminated strings, inconsistent dedent,
/// unclosed brackets) are reported to `diag`; a mistake inside one token
/// (a stray character, a bad number, an f-string) becomes an Invalid token
/// that the parser reports if it belongs to code tilec compiles. The result
/// always ends with NEWLINE? DEDENT* EOF so the parser never runs off the end.
std::vector<Token> lex(unsigned bufferId, DiagnosticEngine &diag);

} // namespace tilec

#endif // TILEC_FRONTEND_LEXER_H

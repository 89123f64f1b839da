//===- Lexer.cpp - Tokenizer for .tile files ------------------------------===//
//
// Python-style tokenization with INDENT/DEDENT, implicit line joining inside
// brackets, `\` continuations, comments, strings, numbers and operators.
// The whole buffer is tokenized up front; errors are reported and lexing
// goes on (stopping after kMaxErrors so random bytes do not flood output).
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilec;

namespace {
struct Spelling {
  TokenKind kind;
  llvm::StringRef text;
};

/// Keywords, then punctuation sorted so that longer spellings come first.
const Spelling kKeywords[] = {
    {TokenKind::kw_and, "and"},       {TokenKind::kw_as, "as"},
    {TokenKind::kw_assert, "assert"}, {TokenKind::kw_break, "break"},
    {TokenKind::kw_class, "class"},   {TokenKind::kw_continue, "continue"},
    {TokenKind::kw_def, "def"},       {TokenKind::kw_del, "del"},
    {TokenKind::kw_elif, "elif"},     {TokenKind::kw_else, "else"},
    {TokenKind::kw_except, "except"}, {TokenKind::kw_False, "False"},
    {TokenKind::kw_finally, "finally"}, {TokenKind::kw_for, "for"},
    {TokenKind::kw_from, "from"},     {TokenKind::kw_global, "global"},
    {TokenKind::kw_if, "if"},         {TokenKind::kw_import, "import"},
    {TokenKind::kw_in, "in"},         {TokenKind::kw_is, "is"},
    {TokenKind::kw_lambda, "lambda"}, {TokenKind::kw_None, "None"},
    {TokenKind::kw_nonlocal, "nonlocal"}, {TokenKind::kw_not, "not"},
    {TokenKind::kw_or, "or"},         {TokenKind::kw_pass, "pass"},
    {TokenKind::kw_raise, "raise"},   {TokenKind::kw_return, "return"},
    {TokenKind::kw_True, "True"},     {TokenKind::kw_try, "try"},
    {TokenKind::kw_while, "while"},   {TokenKind::kw_with, "with"},
    {TokenKind::kw_yield, "yield"},
};

const Spelling kPunctuation[] = {
    {TokenKind::StarStarEqual, "**="}, {TokenKind::SlashSlashEqual, "//="},
    {TokenKind::LessLessEqual, "<<="}, {TokenKind::GreaterGreaterEqual, ">>="},
    {TokenKind::Ellipsis, "..."},      {TokenKind::StarStar, "**"},
    {TokenKind::SlashSlash, "//"},     {TokenKind::LessLess, "<<"},
    {TokenKind::GreaterGreater, ">>"}, {TokenKind::LessEqual, "<="},
    {TokenKind::GreaterEqual, ">="},   {TokenKind::EqualEqual, "=="},
    {TokenKind::NotEqual, "!="},       {TokenKind::Arrow, "->"},
    {TokenKind::PlusEqual, "+="},      {TokenKind::MinusEqual, "-="},
    {TokenKind::StarEqual, "*="},      {TokenKind::SlashEqual, "/="},
    {TokenKind::PercentEqual, "%="},   {TokenKind::AmpEqual, "&="},
    {TokenKind::PipeEqual, "|="},      {TokenKind::CaretEqual, "^="},
    {TokenKind::AtEqual, "@="},        {TokenKind::LParen, "("},
    {TokenKind::RParen, ")"},          {TokenKind::LSquare, "["},
    {TokenKind::RSquare, "]"},         {TokenKind::LBrace, "{"},
    {TokenKind::RBrace, "}"},          {TokenKind::Comma, ","},
    {TokenKind::Colon, ":"},           {TokenKind::Semi, ";"},
    {TokenKind::Dot, "."},             {TokenKind::At, "@"},
    {TokenKind::Equal, "="},           {TokenKind::Plus, "+"},
    {TokenKind::Minus, "-"},           {TokenKind::Star, "*"},
    {TokenKind::Slash, "/"},           {TokenKind::Percent, "%"},
    {TokenKind::Amp, "&"},             {TokenKind::Pipe, "|"},
    {TokenKind::Caret, "^"},           {TokenKind::Tilde, "~"},
    {TokenKind::Less, "<"},            {TokenKind::Greater, ">"},
};

constexpr unsigned kMaxErrors = 20;

bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

class Lexer {
public:
  Lexer(unsigned bufferId, DiagnosticEngine &diag) : diag(diag) {
    llvm::StringRef buffer =
        diag.getSourceMgr().getMemoryBuffer(bufferId)->getBuffer();
    cur = buffer.begin();
    end = buffer.end();
  }

  std::vector<Token> run();

private:
  void error(const char *at, const llvm::Twine &message) {
    ++numErrors;
    diag.error(llvm::SMLoc::getFromPointer(at), message);
  }
  /// Makes `token` an Invalid token: a mistake inside one token, reported
  /// by the parser only if it reads the token (Python host code around the
  /// kernels may hold what tilec does not lex, such as f-strings).
  static void markInvalid(Token &token, const llvm::Twine &message) {
    token.kind = TokenKind::Invalid;
    token.stringValue = message.str();
  }
  void pushInvalid(const char *start, const char *stop, const llvm::Twine &message) {
    markInvalid(push(TokenKind::Invalid, start, stop), message);
  }
  Token &push(TokenKind kind, const char *start, const char *stop) {
    Token token;
    token.kind = kind;
    token.text = llvm::StringRef(start, stop - start);
    token.loc = llvm::SMLoc::getFromPointer(start);
    tokens.push_back(std::move(token));
    return tokens.back();
  }
  bool atNewline() const { return cur != end && (*cur == '\n' || *cur == '\r'); }
  void skipNewline() {
    if (*cur == '\r' && cur + 1 != end && cur[1] == '\n')
      ++cur;
    ++cur;
  }
  void lexIndentation();
  void lexNumber();
  void lexString(const char *start, bool raw);
  void lexIdentifierOrKeyword();
  void lexPunctuation();
  bool decodeEscape(std::string &out);

  DiagnosticEngine &diag;
  const char *cur, *end;
  std::vector<Token> tokens;
  llvm::SmallVector<unsigned, 16> indents{0};
  /// The same levels with a tab counted as one column (Python's TabError).
  llvm::SmallVector<unsigned, 16> altIndents{0};
  llvm::SmallVector<const char *, 16> brackets;
  bool atLineStart = true;
  bool lineHasTokens = false;
  unsigned numErrors = 0;
};
} // namespace

std::vector<Token> Lexer::run() {
  while (numErrors < kMaxErrors) {
    if (atLineStart && brackets.empty())
      lexIndentation();
    atLineStart = false;
    while (cur != end && (*cur == ' ' || *cur == '\t' || *cur == '\f'))
      ++cur;
    if (cur == end)
      break;
    char c = *cur;
    if (c == '#') {
      while (cur != end && !atNewline())
        ++cur;
      continue;
    }
    if (atNewline()) {
      if (brackets.empty() && lineHasTokens)
        push(TokenKind::Newline, cur, cur + 1);
      skipNewline();
      atLineStart = true;
      lineHasTokens = false;
      continue;
    }
    if (c == '\\') {
      ++cur;
      if (atNewline()) {
        skipNewline();
        continue;
      }
      error(cur - 1, "unexpected character after line continuation character '\\'");
      continue;
    }
    size_t before = tokens.size();
    if (isIdentStart(c))
      lexIdentifierOrKeyword();
    else if (llvm::isDigit(c) || (c == '.' && cur + 1 != end && llvm::isDigit(cur[1])))
      lexNumber();
    else if (c == '\'' || c == '"')
      lexString(cur, /*raw=*/false);
    else
      lexPunctuation();
    if (tokens.size() != before)
      lineHasTokens = true;
  }
  const char *eofPtr = end;
  if (numErrors < kMaxErrors && !brackets.empty())
    error(brackets.back(), "'" + llvm::Twine(*brackets.back()) + "' was never closed");
  if (lineHasTokens)
    push(TokenKind::Newline, eofPtr, eofPtr);
  for (size_t i = 1; i < indents.size(); ++i)
    push(TokenKind::Dedent, eofPtr, eofPtr);
  push(TokenKind::Eof, eofPtr, eofPtr);
  return std::move(tokens);
}

void Lexer::lexIndentation() {
  // Python 3's rule: `column` counts a tab up to the next multiple of 8,
  // `altColumn` counts it as 1; a line whose indentation compares differently
  // under the two (tabs and spaces mixed inconsistently) is a TabError.
  const char *lineStart = cur;
  unsigned column = 0, altColumn = 0;
  for (; cur != end; ++cur) {
    if (*cur == ' ') {
      ++column;
      ++altColumn;
    } else if (*cur == '\t') {
      column = (column / 8 + 1) * 8;
      ++altColumn;
    } else if (*cur == '\f') {
      column = altColumn = 0;
    } else {
      break;
    }
  }
  // Blank and comment-only lines do not affect indentation.
  if (cur == end || *cur == '#' || atNewline())
    return;
  auto inconsistent = [&] {
    error(lineStart, "inconsistent use of tabs and spaces in indentation");
  };
  if (column > indents.back()) {
    if (altColumn <= altIndents.back())
      inconsistent();
    indents.push_back(column);
    altIndents.push_back(altColumn);
    push(TokenKind::Indent, lineStart, cur);
    return;
  }
  while (column < indents.back()) {
    indents.pop_back();
    altIndents.pop_back();
    push(TokenKind::Dedent, cur, cur);
  }
  if (column != indents.back()) {
    error(cur, "unindent does not match any outer indentation level");
    indents.push_back(column);
    altIndents.push_back(altColumn);
  } else if (altColumn != altIndents.back()) {
    inconsistent();
  }
}

void Lexer::lexIdentifierOrKeyword() {
  const char *start = cur;
  while (cur != end && isIdentChar(*cur))
    ++cur;
  llvm::StringRef text(start, cur - start);
  // String prefixes: r'..', b'..', f'..', u'..' and combinations.
  if (cur != end && (*cur == '\'' || *cur == '"') && text.size() <= 2) {
    std::string lower = text.lower();
    if (lower == "r" || lower == "u") {
      lexString(start, lower == "r");
      return;
    }
    if (lower.find_first_not_of("rbf") == std::string::npos) {
      lexString(start, /*raw=*/true);
      if (!tokens.empty() && tokens.back().text.data() == start)
        markInvalid(tokens.back(), lower.find('f') != std::string::npos
                                       ? "f-strings are not supported"
                                       : "bytes literals are not supported");
      return;
    }
  }
  for (const Spelling &keyword : kKeywords) {
    if (keyword.text == text) {
      push(keyword.kind, start, cur);
      return;
    }
  }
  push(TokenKind::Identifier, start, cur);
}

void Lexer::lexNumber() {
  const char *start = cur;
  bool isFloatLiteral = false;
  unsigned radix = 10;
  if (*cur == '0' && cur + 1 != end &&
      llvm::StringRef("xXbBoO").contains(cur[1])) {
    char r = llvm::toLower(cur[1]);
    radix = r == 'x' ? 16 : r == 'b' ? 2 : 8;
    cur += 2;
    while (cur != end && (llvm::isHexDigit(*cur) || *cur == '_'))
      ++cur;
  } else {
    while (cur != end && (llvm::isDigit(*cur) || *cur == '_'))
      ++cur;
    if (cur != end && *cur == '.') {
      isFloatLiteral = true;
      ++cur;
      while (cur != end && (llvm::isDigit(*cur) || *cur == '_'))
        ++cur;
    }
    if (cur != end && (*cur == 'e' || *cur == 'E')) {
      const char *p = cur + 1;
      if (p != end && (*p == '+' || *p == '-'))
        ++p;
      if (p != end && llvm::isDigit(*p)) {
        isFloatLiteral = true;
        cur = p;
        while (cur != end && (llvm::isDigit(*cur) || *cur == '_'))
          ++cur;
      }
    }
  }
  // A number glued to letters (`1abc`, `1e`, `0x`) is one bad literal.
  bool bad = false;
  while (cur != end && isIdentChar(*cur)) {
    bad = true;
    ++cur;
  }
  llvm::StringRef text(start, cur - start);
  Token &token = push(isFloatLiteral ? TokenKind::Float : TokenKind::Int, start, cur);
  llvm::StringRef digits = radix == 10 ? text : text.drop_front(2);
  bool badUnderscore = digits.contains("__") || digits.starts_with("_") ||
                       digits.ends_with("_") || digits.contains("_.") ||
                       digits.contains("._") || digits.contains("_e") ||
                       digits.contains("_E");
  if (bad || badUnderscore || digits.empty() ||
      (radix != 10 && !llvm::all_of(digits, [&](char c) {
         return c == '_' || llvm::hexDigitValue(c) < radix;
       }))) {
    markInvalid(token, "invalid numeric literal '" + text + "'");
    return;
  }
  std::string clean;
  for (char c : digits)
    if (c != '_')
      clean += c;
  if (isFloatLiteral) {
    if (llvm::StringRef(clean).getAsDouble(token.floatValue))
      markInvalid(token, "invalid float literal '" + text + "'");
    return;
  }
  if (radix == 10 && clean.size() > 1 && clean[0] == '0' &&
      clean.find_first_not_of('0') != std::string::npos) {
    markInvalid(token, "leading zeros in decimal integer literals are not permitted; "
                       "use 0o for octal");
    return;
  }
  if (llvm::StringRef(clean).getAsInteger(radix, token.intValue))
    markInvalid(token, "integer literal '" + text + "' does not fit in 64 bits");
}

bool Lexer::decodeEscape(std::string &out) {
  // `cur` is just past the backslash.
  char c = *cur++;
  switch (c) {
  case 'n': out += '\n'; return true;
  case 't': out += '\t'; return true;
  case 'r': out += '\r'; return true;
  case '0': out += '\0'; return true;
  case 'a': out += '\a'; return true;
  case 'b': out += '\b'; return true;
  case 'f': out += '\f'; return true;
  case 'v': out += '\v'; return true;
  case '\\': case '\'': case '"': out += c; return true;
  case '\n': return true; // Escaped newline: line continuation in a string.
  case '\r':
    if (cur != end && *cur == '\n')
      ++cur;
    return true;
  case 'x':
    if (end - cur >= 2 && llvm::isHexDigit(cur[0]) && llvm::isHexDigit(cur[1])) {
      out += static_cast<char>(llvm::hexFromNibbles(cur[0], cur[1]));
      cur += 2;
      return true;
    }
    error(cur - 2, "invalid \\x escape: expected two hexadecimal digits");
    return false;
  default:
    out += '\\';
    out += c;
    return true;
  }
}

void Lexer::lexString(const char *start, bool raw) {
  // `start` is at the prefix (if any), `cur` at the opening quote.
  char quote = *cur;
  bool triple = end - cur >= 3 && cur[1] == quote && cur[2] == quote;
  cur += triple ? 3 : 1;
  std::string value;
  for (;;) {
    if (cur == end || (!triple && atNewline())) {
      error(start, triple ? "unterminated triple-quoted string literal"
                          : "unterminated string literal");
      return;
    }
    if (*cur == quote &&
        (!triple || (end - cur >= 3 && cur[1] == quote && cur[2] == quote))) {
      cur += triple ? 3 : 1;
      break;
    }
    if (*cur == '\\' && cur + 1 != end) {
      if (raw) {
        value += *cur++;
        value += *cur++;
      } else {
        ++cur;
        if (!decodeEscape(value))
          return;
      }
      continue;
    }
    value += *cur++;
  }
  push(TokenKind::String, start, cur).stringValue = std::move(value);
}

void Lexer::lexPunctuation() {
  llvm::StringRef rest(cur, end - cur);
  if (rest.starts_with(":=")) {
    pushInvalid(cur, cur + 2, "assignment expressions (':=') are not supported");
    cur += 2;
    return;
  }
  for (const Spelling &punct : kPunctuation) {
    if (!rest.starts_with(punct.text))
      continue;
    const char *start = cur;
    cur += punct.text.size();
    char c = *start;
    if (c == '(' || c == '[' || c == '{') {
      if (brackets.size() >= 256) {
        error(start, "nesting too deep (more than 256 open brackets)");
        cur = end;
        return;
      }
      brackets.push_back(start);
    } else if (c == ')' || c == ']' || c == '}') {
      char open = c == ')' ? '(' : c == ']' ? '[' : '{';
      if (brackets.empty()) {
        error(start, "unmatched '" + llvm::Twine(c) + "'");
        return;
      }
      if (*brackets.back() != open) {
        error(start, "closing '" + llvm::Twine(c) + "' does not match '" +
                         llvm::Twine(*brackets.back()) + "'");
        brackets.pop_back();
        return;
      }
      brackets.pop_back();
    }
    push(punct.kind, start, cur);
    return;
  }
  unsigned char c = *cur;
  std::string hex = {llvm::hexdigit(c >> 4, /*LowerCase=*/true),
                     llvm::hexdigit(c & 15, /*LowerCase=*/true)};
  if (c >= 0x80) {
    const char *start = cur;
    while (cur != end && static_cast<unsigned char>(*cur) >= 0x80)
      ++cur;
    pushInvalid(start, cur, "unexpected byte 0x" + hex +
                                "; only ASCII is allowed outside strings and comments");
    return;
  }
  if (llvm::isPrint(c))
    pushInvalid(cur, cur + 1,
                "unexpected character '" + llvm::Twine(static_cast<char>(c)) + "'");
  else
    pushInvalid(cur, cur + 1, "unexpected byte 0x" + hex);
  ++cur;
}

std::vector<Token> tilec::lex(unsigned bufferId, DiagnosticEngine &diag) {
  return Lexer(bufferId, diag).run();
}

llvm::StringRef tilec::getTokenKindName(TokenKind kind) {
  switch (kind) {
  case TokenKind::Eof: return "end of file";
  case TokenKind::Newline: return "end of line";
  case TokenKind::Indent: return "indent";
  case TokenKind::Dedent: return "dedent";
  case TokenKind::Identifier: return "identifier";
  case TokenKind::Int: return "integer literal";
  case TokenKind::Float: return "float literal";
  case TokenKind::String: return "string literal";
  case TokenKind::Invalid: return "invalid token";
  default: break;
  }
  for (const Spelling &keyword : kKeywords)
    if (keyword.kind == kind)
      return keyword.text;
  for (const Spelling &punct : kPunctuation)
    if (punct.kind == kind)
      return punct.text;
  return "token";
}

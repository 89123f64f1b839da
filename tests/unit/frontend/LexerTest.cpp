//===- LexerTest.cpp - Tests of the .tile tokenizer ------------------------===//
#include "FrontendTestUtils.h"

using namespace tilec;
using namespace tilec::test;

namespace {
/// Token kinds of `source`, without the final EOF.
std::vector<TokenKind> kindsOf(Compilation &c) {
  std::vector<TokenKind> kinds;
  for (const Token &token : c.lexTokens())
    if (!token.is(TokenKind::Eof))
      kinds.push_back(token.kind);
  return kinds;
}

using K = TokenKind;

TEST(Lexer, IndentAndDedent) {
  Compilation c("def f():\n    x = 1\n    if x:\n        y\n    z\nw\n");
  std::vector<K> expected = {
      K::kw_def, K::Identifier, K::LParen, K::RParen, K::Colon, K::Newline,
      K::Indent, K::Identifier, K::Equal, K::Int, K::Newline,
      K::kw_if, K::Identifier, K::Colon, K::Newline,
      K::Indent, K::Identifier, K::Newline,
      K::Dedent, K::Identifier, K::Newline,
      K::Dedent, K::Identifier, K::Newline};
  EXPECT_EQ(kindsOf(c), expected);
  EXPECT_EQ(c.numErrors(), 0u);
}

TEST(Lexer, DedentsAtEndOfFileWithoutNewline) {
  Compilation c("def f():\n    if x:\n        y");
  std::vector<K> expected = {K::kw_def, K::Identifier, K::LParen, K::RParen,
                             K::Colon, K::Newline, K::Indent, K::kw_if,
                             K::Identifier, K::Colon, K::Newline, K::Indent,
                             K::Identifier, K::Newline, K::Dedent, K::Dedent};
  EXPECT_EQ(kindsOf(c), expected);
}

TEST(Lexer, BlankAndCommentLinesDoNotIndent) {
  Compilation c("a\n\n      # comment\n   \nb  # trailing\n");
  std::vector<K> expected = {K::Identifier, K::Newline, K::Identifier, K::Newline};
  EXPECT_EQ(kindsOf(c), expected);
}

TEST(Lexer, ImplicitAndExplicitLineJoining) {
  Compilation c("f(a,\n      b)\nx = 1 + \\\n  2\n");
  std::vector<K> expected = {K::Identifier, K::LParen, K::Identifier, K::Comma,
                             K::Identifier, K::RParen, K::Newline,
                             K::Identifier, K::Equal, K::Int, K::Plus, K::Int,
                             K::Newline};
  EXPECT_EQ(kindsOf(c), expected);
  EXPECT_EQ(c.numErrors(), 0u);
}

TEST(Lexer, TabsAndCRLF) {
  Compilation c("def f():\r\n\tx = 1\r\n\ty = 2\r\n");
  std::vector<Token> tokens = c.lexTokens();
  EXPECT_EQ(c.numErrors(), 0u);
  EXPECT_EQ(llvm::count_if(tokens, [](const Token &t) { return t.is(K::Indent); }), 1);
  EXPECT_EQ(llvm::count_if(tokens, [](const Token &t) { return t.is(K::Newline); }), 3);
}

TEST(Lexer, TabErrorOnInconsistentIndentation) {
  // Python 3's TabError: a tab and eight spaces reach the same column only
  // if a tab counts as eight, so they may not stand for one another.
  for (const char *source : {"def f():\n\tx = 1\n        y = 2\n",
                             "def f():\n        x = 1\n\ty = 2\n",
                             "def f():\n    if a:\n\tx = 1\n"}) {
    Compilation c(source);
    c.lexTokens();
    EXPECT_EQ(c.numErrors(), 1u) << source;
    EXPECT_NE(c.output().find("inconsistent use of tabs and spaces in indentation"),
              std::string::npos)
        << c.output();
  }
  // Consistent mixes are fine: the same prefix on every line of a block.
  Compilation c("def f():\n\t    x = 1\n\t    y = 2\n");
  c.lexTokens();
  EXPECT_EQ(c.numErrors(), 0u) << c.output();
}

TEST(Lexer, Numbers) {
  Compilation c("123 1_000 0x1F 0b101 0o17 0 1.0 1e-3 .5 2. 1_0.2_5 3E+2\n");
  std::vector<Token> tokens = c.lexTokens();
  ASSERT_EQ(c.numErrors(), 0u) << c.output();
  uint64_t ints[] = {123, 1000, 31, 5, 15, 0};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(tokens[i].kind, K::Int) << i;
    EXPECT_EQ(tokens[i].intValue, ints[i]) << i;
  }
  double floats[] = {1.0, 1e-3, 0.5, 2.0, 10.25, 300.0};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(tokens[6 + i].kind, K::Float) << i;
    EXPECT_DOUBLE_EQ(tokens[6 + i].floatValue, floats[i]) << i;
  }
}

TEST(Lexer, Strings) {
  Compilation c("'a\\tb' \"q\\\"\" r'\\n' '''doc\nstring''' \"\"\"x\"\"\"\n");
  std::vector<Token> tokens = c.lexTokens();
  ASSERT_EQ(c.numErrors(), 0u) << c.output();
  EXPECT_EQ(tokens[0].stringValue, "a\tb");
  EXPECT_EQ(tokens[1].stringValue, "q\"");
  EXPECT_EQ(tokens[2].stringValue, "\\n");
  EXPECT_EQ(tokens[3].stringValue, "doc\nstring");
  EXPECT_EQ(tokens[4].stringValue, "x");
}

TEST(Lexer, OperatorsLongestMatch) {
  Compilation c("a **= b // c //= d ** e -> f @ g != h <<= i >> j ... k += 1\n");
  std::vector<K> expected = {
      K::Identifier, K::StarStarEqual, K::Identifier, K::SlashSlash,
      K::Identifier, K::SlashSlashEqual, K::Identifier, K::StarStar,
      K::Identifier, K::Arrow, K::Identifier, K::At, K::Identifier,
      K::NotEqual, K::Identifier, K::LessLessEqual, K::Identifier,
      K::GreaterGreater, K::Identifier, K::Ellipsis, K::Identifier,
      K::PlusEqual, K::Int, K::Newline};
  EXPECT_EQ(kindsOf(c), expected);
}

TEST(Lexer, PointerAnnotationTokens) {
  Compilation c("x: *fp32\n");
  std::vector<K> expected = {K::Identifier, K::Colon, K::Star, K::Identifier,
                             K::Newline};
  EXPECT_EQ(kindsOf(c), expected);
}

TEST(Lexer, KeywordsAndLocations) {
  Compilation c("if x:\n  return None\n");
  std::vector<Token> tokens = c.lexTokens();
  EXPECT_EQ(tokens[0].kind, K::kw_if);
  EXPECT_EQ(tokens[5].kind, K::kw_return);
  EXPECT_EQ(c.lineCol(tokens[5].loc), "2:3");
  EXPECT_EQ(tokens[6].kind, K::kw_None);
  EXPECT_EQ(c.lineCol(tokens[6].loc), "2:10");
}

struct LexError {
  const char *source;
  const char *message;
};

class LexerErrors : public ::testing::TestWithParam<LexError> {};

TEST_P(LexerErrors, ReportsWithLocation) {
  Compilation c(GetParam().source);
  c.lexTokens();
  EXPECT_GE(c.numErrors(), 1u);
  EXPECT_EQ(c.firstError(), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    All, LexerErrors,
    ::testing::Values(
        LexError{"x = 'abc\n",
                 "test.tile:1:5: error: unterminated string literal"},
        LexError{"x = '''abc\n\n",
                 "test.tile:1:5: error: unterminated triple-quoted string literal"},
        LexError{"if x:\n        a\n    b\n",
                 "test.tile:3:5: error: unindent does not match any outer "
                 "indentation level"},
        LexError{"f(1,\n  2\n",
                 "test.tile:1:2: error: '(' was never closed"},
        LexError{"x = 1)\n",
                 "test.tile:1:6: error: unmatched ')'"},
        LexError{"x = [1)\n",
                 "test.tile:1:7: error: closing ')' does not match '['"},
        LexError{"x = 1 \\ 2\n",
                 "test.tile:1:7: error: unexpected character after line "
                 "continuation character '\\'"}));

/// A mistake inside one token is an Invalid token, reported where a kernel
/// reads it (host code around kernels may hold such tokens).
class InvalidTokens : public ::testing::TestWithParam<LexError> {};

TEST_P(InvalidTokens, ReportedInKernels) {
  Compilation lexed(GetParam().source);
  std::vector<Token> tokens = lexed.lexTokens();
  EXPECT_EQ(lexed.numErrors(), 0u) << lexed.output();
  EXPECT_TRUE(llvm::any_of(tokens, [](const Token &t) { return t.is(K::Invalid); }));

  Compilation c(std::string("@kernel\ndef k():\n    ") + GetParam().source);
  EXPECT_EQ(c.parse(), nullptr);
  EXPECT_EQ(c.numErrors(), 1u);
  EXPECT_EQ(c.firstError(), GetParam().message);

  // In host code the same line is skipped.
  Compilation host(std::string("def host():\n    ") + GetParam().source);
  EXPECT_NE(host.parse(), nullptr) << host.output();
}

INSTANTIATE_TEST_SUITE_P(
    All, InvalidTokens,
    ::testing::Values(
        LexError{"x = $\n",
                 "test.tile:3:9: error: unexpected character '$'"},
        LexError{"x = 1 ? 2\n",
                 "test.tile:3:11: error: unexpected character '?'"},
        LexError{"x\x01\n",
                 "test.tile:3:6: error: unexpected byte 0x01"},
        LexError{"x = \xc3\xa9\n",
                 "test.tile:3:9: error: unexpected byte 0xc3; only ASCII is allowed outside strings and comments"},
        LexError{"x = 1abc\n",
                 "test.tile:3:9: error: invalid numeric literal '1abc'"},
        LexError{"x = 1__0\n",
                 "test.tile:3:9: error: invalid numeric literal '1__0'"},
        LexError{"x = 0x\n",
                 "test.tile:3:9: error: invalid numeric literal '0x'"},
        LexError{"x = 0b102\n",
                 "test.tile:3:9: error: invalid numeric literal '0b102'"},
        LexError{"x = 012\n",
                 "test.tile:3:9: error: leading zeros in decimal integer literals are not permitted; use 0o for octal"},
        LexError{"x = 99999999999999999999\n",
                 "test.tile:3:9: error: integer literal '99999999999999999999' does not fit in 64 bits"},
        LexError{"x = f'a'\n",
                 "test.tile:3:9: error: f-strings are not supported"},
        LexError{"x := 1\n",
                 "test.tile:3:7: error: assignment expressions (':=') are not supported"}));

TEST(Lexer, DiagnosticShowsSourceLineAndCaret) {
  Compilation c("x = 1\ny = 'abc\n");
  c.lexTokens();
  EXPECT_EQ(c.output(), "test.tile:2:5: error: unterminated string literal\n"
                        "y = 'abc\n"
                        "    ^\n");
}

TEST(Lexer, StopsAfterTooManyErrors) {
  std::string source;
  for (int i = 0; i < 100; ++i)
    source += "x = 1 \\ 2\n";
  Compilation c(source);
  c.lexTokens();
  EXPECT_EQ(c.numErrors(), 20u);
}
} // namespace

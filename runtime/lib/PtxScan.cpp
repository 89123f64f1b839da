//===- PtxScan.cpp - What the runtime reads out of PTX text ---------------===//
//
// A tokenizer (identifiers, directives, numbers, strings, punctuation; PTX's
// comments skipped) and a scanner that picks out function headers, function
// bodies' identifiers and .shared declarations. Everything else is skipped:
// module-level statements such as `.version 8.0` have no terminator, so the
// scanner reacts only to `.entry`, `.func` and `.shared`.
//
//===----------------------------------------------------------------------===//
#include "PtxScan.h"

#include "tile/Error.h"

#include <cctype>
#include <limits>

namespace tile {
namespace ptx {

namespace {

struct Token {
  enum Kind { Ident, Directive, Number, String, Punct, End };
  Kind K = End;
  std::string_view Text;
  unsigned Line = 0;

  bool is(char C) const {
    return K == Punct && Text.size() == 1 && Text[0] == C;
  }
  bool isDirective(std::string_view D) const {
    return K == Directive && Text == D;
  }
};

bool isIdentChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '_' || C == '$';
}

/// Splits PTX text into tokens; comments and whitespace are dropped.
class Lexer {
public:
  explicit Lexer(std::string_view Text) : Text(Text) {}

  Token next() {
    skipSpaceAndComments();
    Token T;
    T.Line = Line;
    if (Pos >= Text.size())
      return T;
    std::size_t Start = Pos;
    char C = Text[Pos];
    if (C == '"') {
      for (++Pos; Pos < Text.size() && Text[Pos] != '"'; ++Pos) {
        if (Text[Pos] == '\\')
          ++Pos;
        else if (Text[Pos] == '\n')
          ++Line;
      }
      Pos = Pos < Text.size() ? Pos + 1 : Pos;
      T.K = Token::String;
    } else if (C == '.' && Pos + 1 < Text.size() &&
               isIdentChar(Text[Pos + 1])) {
      for (++Pos; Pos < Text.size() && isIdentChar(Text[Pos]);)
        ++Pos;
      T.K = Token::Directive;
    } else if (std::isdigit(static_cast<unsigned char>(C))) {
      while (Pos < Text.size() && (isIdentChar(Text[Pos]) || Text[Pos] == '.'))
        ++Pos;
      T.K = Token::Number;
    } else if (isIdentChar(C) || C == '%') {
      for (++Pos; Pos < Text.size() && isIdentChar(Text[Pos]);)
        ++Pos;
      T.K = Token::Ident;
    } else {
      ++Pos;
      T.K = Token::Punct;
    }
    T.Text = Text.substr(Start, Pos - Start);
    return T;
  }

private:
  void skipSpaceAndComments() {
    while (Pos < Text.size()) {
      char C = Text[Pos];
      if (C == '\n') {
        ++Line;
        ++Pos;
      } else if (std::isspace(static_cast<unsigned char>(C))) {
        ++Pos;
      } else if (Text.compare(Pos, 2, "//") == 0) {
        while (Pos < Text.size() && Text[Pos] != '\n')
          ++Pos;
      } else if (Text.compare(Pos, 2, "/*") == 0) {
        std::size_t End = Text.find("*/", Pos + 2);
        End = End == std::string_view::npos ? Text.size() : End + 2;
        for (; Pos < End; ++Pos)
          Line += Text[Pos] == '\n';
      } else {
        return;
      }
    }
  }

  std::string_view Text;
  std::size_t Pos = 0;
  unsigned Line = 1;
};

/// Size in bytes of a fundamental type directive such as ".u64"; 0 when
/// \p Type is not one.
unsigned typeBytes(std::string_view Type) {
  static const struct {
    const char *Name;
    unsigned Bytes;
  } Types[] = {{".b8", 1},    {".s8", 1},     {".u8", 1},   {".b16", 2},
               {".s16", 2},   {".u16", 2},    {".f16", 2},  {".bf16", 2},
               {".b32", 4},   {".s32", 4},    {".u32", 4},  {".f32", 4},
               {".f16x2", 4}, {".bf16x2", 4}, {".b64", 8},  {".s64", 8},
               {".u64", 8},   {".f64", 8},    {".b128", 16}};
  for (const auto &T : Types)
    if (Type == T.Name)
      return T.Bytes;
  return 0;
}

/// Reads a token stream into a Module.
class Scanner {
public:
  explicit Scanner(std::string_view Text) : Lex(Text) { advance(); }

  Module run() {
    Module M;
    while (Tok.K != Token::End) {
      if (Tok.isDirective(".entry") || Tok.isDirective(".func")) {
        M.Functions.push_back(function());
      } else if (Tok.isDirective(".shared")) {
        sharedDecl(M.Shared);
      } else if (Tok.is('{')) {
        skipBalanced('{', '}'); // An initializer.
      } else {
        advance();
      }
    }
    return M;
  }

private:
  void advance() { Tok = Lex.next(); }

  [[noreturn]] void fail(const std::string &Message) const {
    throw Error("line " + std::to_string(Tok.Line) + ": " + Message);
  }

  std::string describe() const {
    return Tok.K == Token::End ? "end of file"
                               : "'" + std::string(Tok.Text) + "'";
  }

  std::uint64_t number() {
    if (Tok.K != Token::Number)
      fail("expected a number, got " + describe());
    std::string_view Digits = Tok.Text;
    unsigned Base = 10;
    if (Digits.size() > 2 && Digits[0] == '0' &&
        (Digits[1] == 'x' || Digits[1] == 'X')) {
      Digits.remove_prefix(2);
      Base = 16;
    }
    std::uint64_t V = 0;
    for (char C : Digits) {
      int D = std::isdigit(static_cast<unsigned char>(C)) ? C - '0'
              : Base == 16 && std::isxdigit(static_cast<unsigned char>(C))
                  ? std::tolower(static_cast<unsigned char>(C)) - 'a' + 10
                  : -1;
      if (D < 0 || V > (std::numeric_limits<std::uint64_t>::max() - D) / Base)
        fail("expected an integer, got " + describe());
      V = V * Base + static_cast<std::uint64_t>(D);
    }
    advance();
    return V;
  }

  /// Skips from the opening \p Open (the current token) past its match.
  void skipBalanced(char Open, char Close) {
    unsigned Depth = 0;
    do {
      if (Tok.K == Token::End)
        fail(std::string("unbalanced '") + Open + "'");
      Depth += Tok.is(Open);
      Depth -= Tok.is(Close);
      advance();
    } while (Depth != 0);
  }

  /// Reads `[N]` suffixes; returns the element count, or nullopt for `[]`.
  std::optional<std::uint64_t> arrayDims() {
    std::optional<std::uint64_t> Count = 1;
    while (Tok.is('[')) {
      advance();
      if (Tok.is(']')) {
        Count.reset();
      } else {
        std::uint64_t N = number();
        if (Count)
          Count = *Count * N;
      }
      if (!Tok.is(']'))
        fail("expected ']', got " + describe());
      advance();
    }
    return Count;
  }

  /// `.shared [.align N] [.v2|.v4] .type name[dims] [, name[dims]]... ;`
  void sharedDecl(std::vector<SharedVar> &Out) {
    advance();
    unsigned ElemBytes = 0, Vector = 1;
    while (Tok.K == Token::Directive) {
      if (Tok.isDirective(".align")) {
        advance();
        number();
        continue;
      }
      if (Tok.isDirective(".v2") || Tok.isDirective(".v4"))
        Vector = Tok.Text[2] - '0';
      else if (unsigned B = typeBytes(Tok.Text))
        ElemBytes = B;
      advance();
    }
    if (ElemBytes == 0)
      fail(".shared declaration without a known type before " + describe());
    for (;;) {
      if (Tok.K != Token::Ident)
        fail("expected a .shared variable name, got " + describe());
      SharedVar V;
      V.Name = std::string(Tok.Text);
      advance();
      if (std::optional<std::uint64_t> Count = arrayDims())
        V.Bytes = *Count * ElemBytes * Vector;
      Out.push_back(std::move(V));
      if (!Tok.is(','))
        break;
      advance();
    }
    if (!Tok.is(';'))
      fail("expected ';' after a .shared declaration, got " + describe());
    advance();
  }

  Param param() {
    if (!Tok.isDirective(".param") && !Tok.isDirective(".reg"))
      fail("expected .param, got " + describe());
    Param P;
    advance();
    while (Tok.K == Token::Directive) {
      P.Text += (P.Text.empty() ? "" : " ") + std::string(Tok.Text);
      if (Tok.isDirective(".ptr")) {
        P.IsPointer = true;
      } else if (Tok.isDirective(".align")) {
        advance();
        P.Text += " " + std::to_string(number());
        continue;
      } else if (unsigned B = typeBytes(Tok.Text)) {
        P.Type = std::string(Tok.Text);
        P.ElemBytes = B;
      }
      advance();
    }
    if (Tok.K != Token::Ident)
      fail("expected a parameter name, got " + describe());
    advance();
    bool IsArray = Tok.is('[');
    std::optional<std::uint64_t> Count = arrayDims();
    if (!Count)
      fail("unsized array parameter");
    if (IsArray)
      P.Text += "[" + std::to_string(*Count) + "]";
    P.Count = *Count;
    return P;
  }

  ThreadDims threadDims() {
    advance();
    ThreadDims Dims{1, 1, 1};
    for (std::size_t I = 0; I < Dims.size(); ++I) {
      Dims[I] = number();
      if (!Tok.is(','))
        break;
      advance();
    }
    return Dims;
  }

  Function function() {
    Function F;
    F.IsEntry = Tok.isDirective(".entry");
    advance();
    if (!F.IsEntry && Tok.is('('))
      skipBalanced('(', ')'); // The return value.
    if (Tok.K != Token::Ident)
      fail(std::string("expected a name after ") +
           (F.IsEntry ? ".entry" : ".func") + ", got " + describe());
    F.Name = std::string(Tok.Text);
    advance();
    if (Tok.is('(')) {
      advance();
      while (!Tok.is(')')) {
        F.Params.push_back(param());
        if (Tok.is(','))
          advance();
        else if (!Tok.is(')'))
          fail("expected ',' or ')' in the parameters of " + F.Name + ", got " +
               describe());
      }
      advance();
    }
    while (!Tok.is('{') && !Tok.is(';')) {
      if (Tok.K == Token::End)
        fail("the header of " + F.Name + " ends without a body or ';'");
      if (Tok.isDirective(".reqntid"))
        F.Reqntid = threadDims();
      else if (Tok.isDirective(".maxntid"))
        F.Maxntid = threadDims();
      else
        advance();
    }
    if (Tok.is('{'))
      body(F);
    else
      advance();
    return F;
  }

  /// Records the identifiers of a body and its `.shared` declarations.
  void body(Function &F) {
    F.HasBody = true;
    advance();
    unsigned Depth = 1;
    bool StatementStart = true;
    while (Depth != 0) {
      if (Tok.K == Token::End)
        fail("the body of " + F.Name + " has no closing '}'");
      if (Tok.is('{') || Tok.is('}')) {
        Depth += Tok.is('{') ? 1 : -1;
        StatementStart = true;
      } else if (Tok.is(';') || Tok.is(':')) {
        StatementStart = true; // After a statement or a label.
      } else if (StatementStart && Tok.isDirective(".shared")) {
        sharedDecl(F.Local);
        continue;
      } else if (Tok.isDirective(".loc")) {
        // `.loc file line col[, ...]` ends at the end of its line.
        unsigned Line = Tok.Line;
        while (Tok.K != Token::End && Tok.Line == Line)
          advance();
        StatementStart = true;
        continue;
      } else {
        if (Tok.K == Token::Ident && Tok.Text[0] != '%')
          F.Refs.insert(std::string(Tok.Text));
        StatementStart = false;
      }
      advance();
    }
  }

  Lexer Lex;
  Token Tok;
};

} // namespace

const Function *Module::findEntry(std::string_view Name) const {
  for (const Function &F : Functions)
    if (F.IsEntry && F.Name == Name)
      return &F;
  return nullptr;
}

const Function *Module::findDefinition(std::string_view Name) const {
  for (const Function &F : Functions)
    if (F.HasBody && F.Name == Name)
      return &F;
  return nullptr;
}

Module scan(std::string_view Text) { return Scanner(Text).run(); }

} // namespace ptx
} // namespace tile

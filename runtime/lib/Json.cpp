//===- Json.cpp - A small, strict JSON reader -----------------------------===//
//
// Recursive-descent parser for RFC 8259 JSON with line/column tracking.
//
//===----------------------------------------------------------------------===//
#include "Json.h"

#include "tile/Error.h"

#include <cerrno>
#include <cstdlib>
#include <string>

namespace tile {
namespace json {

const char *Value::kindName() const noexcept {
  switch (K) {
  case Kind::Null:
    return "null";
  case Kind::Bool:
    return "a boolean";
  case Kind::Int:
    return "an integer";
  case Kind::Float:
    return "a floating-point number";
  case Kind::String:
    return "a string";
  case Kind::Array:
    return "an array";
  case Kind::Object:
    return "an object";
  }
  return "a value";
}

const Value *Value::find(std::string_view Key) const noexcept {
  for (const auto &[Name, V] : Members)
    if (Name == Key)
      return &V;
  return nullptr;
}

namespace {

constexpr unsigned MaxDepth = 64;

class Parser {
public:
  Parser(std::string_view Text, const std::string &Origin)
      : Text(Text), Origin(Origin) {}

  Value parseDocument() {
    skipSpace();
    Value V = parseValue(0);
    skipSpace();
    if (Pos != Text.size())
      fail("unexpected " + describeNext() + " after the JSON value");
    return V;
  }

private:
  [[noreturn]] void fail(const std::string &Message) const {
    throw Error(Origin + ":" + std::to_string(Line) + ":" +
                std::to_string(Pos - LineStart + 1) + ": " + Message);
  }

  std::string describeNext() const {
    if (Pos >= Text.size())
      return "end of input";
    unsigned char C = Text[Pos];
    if (C < 0x20 || C >= 0x7F) {
      static const char Hex[] = "0123456789abcdef";
      return std::string("byte 0x") + Hex[C >> 4] + Hex[C & 15];
    }
    return std::string("'") + static_cast<char>(C) + "'";
  }

  bool atEnd() const { return Pos >= Text.size(); }
  char peek() const { return atEnd() ? '\0' : Text[Pos]; }

  void advance() {
    if (Text[Pos] == '\n') {
      ++Line;
      LineStart = Pos + 1;
    }
    ++Pos;
  }

  void skipSpace() {
    while (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')
      advance();
  }

  void expect(char C, const char *What) {
    if (peek() != C)
      fail(std::string("expected ") + What + ", got " + describeNext());
    advance();
  }

  Value parseValue(unsigned Depth) {
    if (Depth > MaxDepth)
      fail("nesting deeper than " + std::to_string(MaxDepth) + " levels");
    Value V;
    V.Line = Line;
    V.Col = static_cast<unsigned>(Pos - LineStart + 1);
    switch (peek()) {
    case '{':
      parseObject(V, Depth);
      break;
    case '[':
      parseArray(V, Depth);
      break;
    case '"':
      V.K = Value::Kind::String;
      V.Str = parseString();
      break;
    case 't':
      parseKeyword("true");
      V.K = Value::Kind::Bool;
      V.Bool = true;
      break;
    case 'f':
      parseKeyword("false");
      V.K = Value::Kind::Bool;
      break;
    case 'n':
      parseKeyword("null");
      break;
    default:
      if (peek() == '-' || (peek() >= '0' && peek() <= '9'))
        parseNumber(V);
      else
        fail("expected a JSON value, got " + describeNext());
    }
    return V;
  }

  void parseKeyword(std::string_view Word) {
    if (Text.substr(Pos, Word.size()) != Word)
      fail("expected '" + std::string(Word) + "', got " + describeNext());
    Pos += Word.size();
  }

  void parseObject(Value &V, unsigned Depth) {
    V.K = Value::Kind::Object;
    advance(); // '{'
    skipSpace();
    if (peek() == '}') {
      advance();
      return;
    }
    while (true) {
      skipSpace();
      if (peek() != '"')
        fail("expected a string key, got " + describeNext());
      std::size_t KeyPos = Pos;
      std::string Key = parseString();
      if (V.find(Key)) {
        Pos = KeyPos;
        fail("duplicate key '" + Key + "'");
      }
      skipSpace();
      expect(':', "':'");
      skipSpace();
      Value Member = parseValue(Depth + 1);
      V.Members.emplace_back(std::move(Key), std::move(Member));
      skipSpace();
      if (peek() == '}') {
        advance();
        return;
      }
      expect(',', "',' or '}'");
    }
  }

  void parseArray(Value &V, unsigned Depth) {
    V.K = Value::Kind::Array;
    advance(); // '['
    skipSpace();
    if (peek() == ']') {
      advance();
      return;
    }
    while (true) {
      skipSpace();
      V.Items.push_back(parseValue(Depth + 1));
      skipSpace();
      if (peek() == ']') {
        advance();
        return;
      }
      expect(',', "',' or ']'");
    }
  }

  unsigned parseHex4() {
    unsigned Code = 0;
    for (int I = 0; I < 4; ++I) {
      char C = peek();
      unsigned Digit;
      if (C >= '0' && C <= '9')
        Digit = C - '0';
      else if (C >= 'a' && C <= 'f')
        Digit = C - 'a' + 10;
      else if (C >= 'A' && C <= 'F')
        Digit = C - 'A' + 10;
      else
        fail("expected a hex digit in \\u escape, got " + describeNext());
      Code = Code * 16 + Digit;
      advance();
    }
    return Code;
  }

  static void appendUtf8(std::string &Out, unsigned Code) {
    if (Code < 0x80) {
      Out += static_cast<char>(Code);
    } else if (Code < 0x800) {
      Out += static_cast<char>(0xC0 | (Code >> 6));
      Out += static_cast<char>(0x80 | (Code & 0x3F));
    } else if (Code < 0x10000) {
      Out += static_cast<char>(0xE0 | (Code >> 12));
      Out += static_cast<char>(0x80 | ((Code >> 6) & 0x3F));
      Out += static_cast<char>(0x80 | (Code & 0x3F));
    } else {
      Out += static_cast<char>(0xF0 | (Code >> 18));
      Out += static_cast<char>(0x80 | ((Code >> 12) & 0x3F));
      Out += static_cast<char>(0x80 | ((Code >> 6) & 0x3F));
      Out += static_cast<char>(0x80 | (Code & 0x3F));
    }
  }

  unsigned parseEscapedCodePoint() {
    unsigned Code = parseHex4();
    if (Code >= 0xDC00 && Code <= 0xDFFF)
      fail("unpaired low surrogate in \\u escape");
    if (Code < 0xD800 || Code > 0xDBFF)
      return Code;
    if (Text.substr(Pos, 2) != "\\u")
      fail("unpaired high surrogate in \\u escape");
    advance();
    advance();
    unsigned Low = parseHex4();
    if (Low < 0xDC00 || Low > 0xDFFF)
      fail("unpaired high surrogate in \\u escape");
    return 0x10000 + ((Code - 0xD800) << 10) + (Low - 0xDC00);
  }

  std::string parseString() {
    advance(); // '"'
    std::string Out;
    while (true) {
      if (atEnd())
        fail("unterminated string");
      char C = peek();
      if (C == '"') {
        advance();
        return Out;
      }
      if (static_cast<unsigned char>(C) < 0x20)
        fail("unescaped control character " + describeNext() + " in string");
      advance();
      if (C != '\\') {
        Out += C;
        continue;
      }
      if (atEnd())
        fail("unterminated string");
      char E = peek();
      advance();
      switch (E) {
      case '"':
      case '\\':
      case '/':
        Out += E;
        break;
      case 'b':
        Out += '\b';
        break;
      case 'f':
        Out += '\f';
        break;
      case 'n':
        Out += '\n';
        break;
      case 'r':
        Out += '\r';
        break;
      case 't':
        Out += '\t';
        break;
      case 'u':
        appendUtf8(Out, parseEscapedCodePoint());
        break;
      default:
        Pos -= 2;
        fail("invalid escape '\\" + std::string(1, E) + "' in string");
      }
    }
  }

  void digits(const char *After) {
    if (!(peek() >= '0' && peek() <= '9'))
      fail(std::string("expected a digit ") + After + ", got " +
           describeNext());
    while (peek() >= '0' && peek() <= '9')
      advance();
  }

  void parseNumber(Value &V) {
    std::size_t Start = Pos;
    bool IsInt = true;
    if (peek() == '-')
      advance();
    if (peek() == '0') {
      advance();
      if (peek() >= '0' && peek() <= '9')
        fail("leading zeros are not allowed in numbers");
    } else {
      digits("in number");
    }
    if (peek() == '.') {
      IsInt = false;
      advance();
      digits("after '.'");
    }
    if (peek() == 'e' || peek() == 'E') {
      IsInt = false;
      advance();
      if (peek() == '+' || peek() == '-')
        advance();
      digits("in exponent");
    }
    std::string Spelling(Text.substr(Start, Pos - Start));
    errno = 0;
    if (IsInt) {
      V.K = Value::Kind::Int;
      V.Int = std::strtoll(Spelling.c_str(), nullptr, 10);
    } else {
      V.K = Value::Kind::Float;
      V.Float = std::strtod(Spelling.c_str(), nullptr);
    }
    if (errno == ERANGE) {
      Pos = Start;
      fail("number " + Spelling + " is out of range");
    }
  }

  std::string_view Text;
  const std::string &Origin;
  std::size_t Pos = 0;
  std::size_t LineStart = 0;
  unsigned Line = 1;
};

} // namespace

Value parse(std::string_view Text, const std::string &Origin) {
  return Parser(Text, Origin).parseDocument();
}

} // namespace json
} // namespace tile

//===- SemaOptions.cpp - Parsing -D, --specialize and --signature ---------===//
//
// The text forms of SemaOptions that the command line and the compiler
// library accept: `NAME=VALUE` constexpr values, `NAME=16|1|none`
// specializations and `NAME=TYPE[:16|:1|:none]` signatures, whose types
// include Triton's host tensor descriptors (`tensordesc<fp16[64, 64]>`).
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Sema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace tilec;

/// True when `name` is an identifier.
static bool isIdentifier(llvm::StringRef name) {
  return !name.empty() && !llvm::isDigit(name[0]) &&
         llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// The value of a -D: a bool, an int, a float, None, a dtype name, a
/// parenthesized or bracketed tuple of values, or else a string.
static ConstValue parseDefineValue(llvm::StringRef value) {
  value = value.trim();
  int64_t intValue;
  double floatValue;
  if (value == "True" || value == "true" || value == "False" || value == "false")
    return ConstValue::getBool(value[0] == 'T' || value[0] == 't');
  if (value == "None")
    return ConstValue::getNone();
  if (!value.getAsInteger(0, intValue))
    return ConstValue::getInt(intValue);
  if (!value.empty() && !value.getAsDouble(floatValue))
    return ConstValue::getFloat(floatValue);
  if (std::optional<ScalarKind> dtype = parseScalarKindName(value))
    return ConstValue::getDType(*dtype);
  if (value.size() >= 2 && ((value.front() == '(' && value.back() == ')') ||
                            (value.front() == '[' && value.back() == ']'))) {
    llvm::SmallVector<llvm::StringRef> items;
    value.drop_front().drop_back().split(items, ',');
    if (!items.empty() && items.back().trim().empty())
      items.pop_back(); // "(4,)"
    std::vector<ConstValue> elements;
    for (llvm::StringRef item : items)
      elements.push_back(parseDefineValue(item));
    return ConstValue::getTuple(std::move(elements));
  }
  if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
      value.back() == value.front())
    return ConstValue::getString(value.drop_front().drop_back());
  return ConstValue::getString(value);
}

bool tilec::parseDefine(llvm::StringRef text,
                        std::pair<std::string, ConstValue> &result,
                        std::string &error) {
  auto [name, value] = text.split('=');
  name = name.trim();
  if (!text.contains('=') || !isIdentifier(name)) {
    error = "expected NAME=VALUE in -D '" + text.str() + "'";
    return false;
  }
  result.first = name.str();
  result.second = parseDefineValue(value);
  return true;
}

/// Parses one specialization value: "16", "1" or "none" (0).
static std::optional<unsigned> parseSpecializationValue(llvm::StringRef value) {
  if (value == "16")
    return 16;
  if (value == "1")
    return 1;
  if (value == "none")
    return 0;
  return std::nullopt;
}

/// Appends `name` with `value` to `result`; false (with `error`) when the
/// name is already there.
static bool addSpecialization(llvm::StringRef name, unsigned value,
                              std::vector<std::pair<std::string, unsigned>> &result,
                              std::string &error) {
  for (const auto &[other, ignored] : result)
    if (other == name) {
      error = "'" + name.str() + "' is specialized twice";
      return false;
    }
  result.push_back({name.str(), value});
  return true;
}

bool tilec::parseSpecializations(
    llvm::StringRef text, std::vector<std::pair<std::string, unsigned>> &result,
    std::string &error) {
  llvm::SmallVector<llvm::StringRef> items;
  text.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (items.empty()) {
    error = "expected NAME=16, NAME=1 or NAME=none items separated by commas";
    return false;
  }
  for (llvm::StringRef item : items) {
    auto [name, value] = item.split('=');
    name = name.trim();
    std::optional<unsigned> number = parseSpecializationValue(value.trim());
    if (!item.contains('=') || !isIdentifier(name) || !number) {
      error = "expected NAME=16 (divisible by 16), NAME=1 (equal to 1) or "
              "NAME=none (nothing assumed), got '" +
              item.trim().str() + "'";
      return false;
    }
    if (!addSpecialization(name, *number, result, error))
      return false;
  }
  return true;
}

/// `text` cut at the commas outside brackets (`<...>`, `[...]`).
static llvm::SmallVector<llvm::StringRef> splitTopLevel(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> items;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    depth += (c == '<' || c == '[') - (c == '>' || c == ']');
    if (c == ',' && depth == 0) {
      items.push_back(text.slice(start, i));
      start = i + 1;
    }
  }
  items.push_back(text.substr(start));
  llvm::erase_if(items, [](llvm::StringRef item) { return item.trim().empty(); });
  return items;
}

/// Triton's signature type of a host tensor descriptor, `tensordesc<fp16[64,
/// 64]>`: a tensor descriptor of that element and block shape (zeros where
/// a block leaves the tensor). None when `text` is not of that form.
static std::optional<Type> parseTensorDescriptorType(llvm::StringRef text) {
  if (!text.consume_front("tensordesc<") || !text.consume_back(">"))
    return std::nullopt;
  auto [elemText, dimsText] = text.split('[');
  std::optional<ScalarKind> elem = parseScalarKindName(elemText.trim());
  dimsText = dimsText.trim();
  if (!elem || !dimsText.consume_back("]"))
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef> dims;
  dimsText.split(dims, ',');
  Shape blockShape;
  for (llvm::StringRef dim : dims) {
    int64_t value;
    if (dim.trim().getAsInteger(10, value) || value <= 0)
      return std::nullopt;
    blockShape.push_back(value);
  }
  return Type::getBlockPointer(*elem, blockShape, Type::Padding::Zero);
}

bool tilec::parseSignature(
    llvm::StringRef text, std::vector<std::pair<std::string, Type>> &signature,
    std::vector<std::pair<std::string, unsigned>> &specializations,
    std::string &error) {
  llvm::SmallVector<llvm::StringRef> items = splitTopLevel(text);
  if (items.empty()) {
    error = "expected NAME=TYPE items separated by commas";
    return false;
  }
  for (llvm::StringRef item : items) {
    auto [name, rest] = item.split('=');
    name = name.trim();
    if (rest.trim().starts_with("tensordesc")) {
      // `:16`: every dimension of the tensor is a multiple of 16.
      llvm::StringRef whole = rest.trim();
      auto [typeText, suffix] = whole.rsplit('>');
      if (!whole.contains('>'))
        typeText = "";
      std::optional<Type> descriptor =
          parseTensorDescriptorType((typeText + ">").str());
      suffix = suffix.trim();
      bool divisible = suffix.consume_front(":") && suffix.trim() == "16";
      if (descriptor && descriptor->getShape().size() > 5) {
        error = "'" + name.str() + "': a tensor descriptor has 1 to 5 dimensions, got " +
                std::to_string(descriptor->getShape().size());
        return false;
      }
      if (!isIdentifier(name) || !descriptor || (!suffix.empty() && !divisible)) {
        error = "expected NAME=tensordesc<ELEMENT[BLOCK0, BLOCK1, ...]> (a host "
                "tensor descriptor, such as a=tensordesc<fp16[64, 64]>), optionally "
                "followed by :16 (every dimension a multiple of 16), got '" +
                item.trim().str() + "'";
        return false;
      }
      if (divisible && !addSpecialization(name, 16, specializations, error))
        return false;
      for (const auto &[other, ignored] : signature)
        if (other == name) {
          error = "'" + name.str() + "' is given twice";
          return false;
        }
      signature.push_back({name.str(), *descriptor});
      continue;
    }
    auto [typeText, suffix] = rest.split(':');
    typeText = typeText.trim();
    bool pointer = typeText.consume_front("*");
    std::optional<ScalarKind> kind = parseScalarKindName(typeText.trim());
    std::optional<unsigned> number =
        item.contains(':') ? parseSpecializationValue(suffix.trim()) : std::nullopt;
    if (!item.contains('=') || !isIdentifier(name) || !kind ||
        (item.contains(':') && !number)) {
      error = "expected NAME=TYPE with a scalar or pointer type (n=i32, "
              "x_ptr=*fp16) or a tensor descriptor (a=tensordesc<fp16[64, 64]>), "
              "optionally followed by :16, :1 or :none, got '" +
              item.trim().str() + "'";
      return false;
    }
    for (const auto &[other, ignored] : signature)
      if (other == name) {
        error = "'" + name.str() + "' is given twice";
        return false;
      }
    signature.push_back({name.str(), Type::getScalar(*kind, pointer)});
    if (number && !addSpecialization(name, *number, specializations, error))
      return false;
  }
  return true;
}

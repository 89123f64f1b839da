//===- Json.h - A small, strict JSON reader ----------------------*- C++
//-*-===//
//
// Parses RFC 8259 JSON into a tree of json::Value, remembering the line and
// column of every value for error messages. Private to the runtime (it reads
// the compiler's metadata files).
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_JSON_H
#define TILE_LIB_JSON_H

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tile {
namespace json {

/// One JSON value. Numbers without fraction or exponent are Int.
struct Value {
  enum class Kind { Null, Bool, Int, Float, String, Array, Object };

  Kind K = Kind::Null;
  bool Bool = false;
  std::int64_t Int = 0;
  double Float = 0;
  std::string Str;
  std::vector<Value> Items;                           ///< Array elements.
  std::vector<std::pair<std::string, Value>> Members; ///< In file order.
  unsigned Line = 1; ///< Where the value starts (1-based).
  unsigned Col = 1;  ///< Where the value starts (1-based).

  /// Returns "an integer", "a string", ... for error messages.
  const char *kindName() const noexcept;
  /// Returns the member \p Key of an object, or nullptr.
  const Value *find(std::string_view Key) const noexcept;
};

/// Parses \p Text as one JSON value. Throws tile::Error
/// "Origin:line:col: message" on any syntax error, a duplicate key, an
/// integer outside int64, or nesting deeper than 64.
Value parse(std::string_view Text, const std::string &Origin);

} // namespace json
} // namespace tile

#endif // TILE_LIB_JSON_H

//===- PtxScan.h - PTX as the runtime reads it ------------------*- C++ -*-===//
//
// A scanner for the parts of a PTX module the metadata check needs: each
// function's name and parameter declarations, its .reqntid/.maxntid, the
// names its body refers to, and the .shared variables with their sizes.
// Private to the runtime; instruction bodies are not parsed.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_PTXSCAN_H
#define TILE_LIB_PTXSCAN_H

#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace tile {
namespace ptx {

/// One `.param` of a function, e.g. `.param .u64 .ptr .global .align 16 p`.
struct Param {
  std::string Type;        ///< The fundamental type: ".u64", ".f32", ".b16".
  unsigned ElemBytes = 0;  ///< Size of Type in bytes (0: unknown type).
  std::uint64_t Count = 1; ///< Elements: the array size for `p[16]`.
  bool IsPointer = false;  ///< Declared with `.ptr`.
  std::string Text;        ///< The declaration without the name.

  /// Bytes the parameter occupies: ElemBytes * Count.
  std::uint64_t bytes() const { return ElemBytes * Count; }
};

/// A `.shared` variable; Bytes is empty for an unsized `.extern` array (the
/// dynamic shared memory a launch provides).
struct SharedVar {
  std::string Name;
  std::optional<std::uint64_t> Bytes;
};

/// Thread counts of a .reqntid or .maxntid directive; missing ones are 1.
using ThreadDims = std::array<std::uint64_t, 3>;

/// A `.entry` (kernel) or `.func`.
struct Function {
  std::string Name;
  bool IsEntry = false;
  bool HasBody = false;
  std::vector<Param> Params;
  std::optional<ThreadDims> Reqntid;
  std::optional<ThreadDims> Maxntid;
  std::set<std::string> Refs;   ///< Identifiers used in the body.
  std::vector<SharedVar> Local; ///< `.shared` variables declared inside.
};

/// The scanned module.
struct Module {
  std::vector<Function> Functions; ///< In file order.
  std::vector<SharedVar> Shared;   ///< Module-scope `.shared` variables.

  /// Returns the `.entry` named \p Name, or nullptr.
  const Function *findEntry(std::string_view Name) const;
  /// Returns the function (with a body) named \p Name, or nullptr.
  const Function *findDefinition(std::string_view Name) const;
};

/// Scans \p Text. Throws tile::Error with a message (naming the line, without
/// a file name) when a function header or `.shared` declaration is malformed.
Module scan(std::string_view Text);

} // namespace ptx
} // namespace tile

#endif // TILE_LIB_PTXSCAN_H

//===- SourceFile.h - Reading a .tile source --------------------*- C++ -*-===//
//
// compileFile's reader: a regular file of bounded size, read whole.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_DRIVER_SOURCEFILE_H
#define TILEC_LIB_DRIVER_SOURCEFILE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tilec {

/// The largest .tile source the compiler reads.
constexpr uint64_t kMaxSourceBytes = uint64_t(16) << 20;

/// The contents of the regular file `path`, or None with `error` set (not a
/// regular file, larger than kMaxSourceBytes, unreadable).
std::optional<std::string> readSourceFile(llvm::StringRef path, std::string &error);

} // namespace tilec

#endif // TILEC_LIB_DRIVER_SOURCEFILE_H

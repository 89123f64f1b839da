//===- Prelude.h - triton.language functions written in the language --*- C++ -*-===//
//
// Parts of triton.language that are ordinary device functions in Triton too
// (its random numbers, cumprod, xor_sum) are written in the tile language and
// compiled like a user's helpers: `tl.rand(seed, offsets)` calls the
// prelude's `rand`.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_PRELUDE_H
#define TILEC_FRONTEND_PRELUDE_H

#include "llvm/ADT/StringRef.h"

namespace tilec {

/// The prelude's source text (a .tile module of device functions).
llvm::StringRef getPreludeSource();

/// The buffer name the prelude's diagnostics carry.
inline constexpr const char *kPreludeBufferName = "<triton.language>";

/// True if `name` (without a module prefix) is a function of the prelude.
bool isPreludeFunction(llvm::StringRef name);

} // namespace tilec

#endif // TILEC_FRONTEND_PRELUDE_H

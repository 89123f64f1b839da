//===- Libdevice.h - The libdevice functions a kernel may call ----*- C++ -*-===//
//
// The functions of triton.language.extra.cuda.libdevice (also reached as
// tl.math.NAME and tl.libdevice.NAME, as older Triton spelled them), each
// with its typed forms: which argument types select which `__nv_` symbol of
// NVIDIA's libdevice, and the result type.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_LIBDEVICE_H
#define TILEC_FRONTEND_LIBDEVICE_H

#include "tilec/Frontend/Types.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tilec {

/// One typed form of a libdevice function.
struct LibdeviceOverload {
  llvm::SmallVector<ScalarKind, 4> args;
  std::string symbol;
  ScalarKind result;
};

/// A function of the libdevice module: its name in the language and its
/// forms, tried in order.
struct LibdeviceFunction {
  std::string name;
  std::vector<LibdeviceOverload> overloads;
  /// The function answers a yes/no question with an i32 (isnan, isinf):
  /// the language gives an i1, as Triton does.
  bool returnsBool = false;
  /// The function reads its arguments' bits (popc, brev, float_as_int,
  /// mulhi ...): they are never widened or converted to another width.
  bool onBits = false;

  size_t getArity() const { return overloads.front().args.size(); }
  /// "(fp32, i32), (fp64, fp64)": the accepted argument types, for errors.
  std::string describeForms() const;
};

/// The function named `name` (without any module prefix), or null.
const LibdeviceFunction *lookupLibdeviceFunction(llvm::StringRef name);

/// Every function, in table order (tests check their symbols against
/// libdevice.10.bc).
llvm::ArrayRef<LibdeviceFunction> getLibdeviceFunctions();

/// True if `module` (a dotted path without the function name) is a module
/// whose attributes are libdevice functions: triton.language.extra.cuda.libdevice,
/// triton.language.extra.libdevice, triton.language.libdevice and
/// triton.language.math, with `tl` for `triton.language`.
bool isLibdeviceModule(llvm::StringRef module);

} // namespace tilec

#endif // TILEC_FRONTEND_LIBDEVICE_H

//===- HostFunctions.h - libdevice and math on the host ---------*- C++ -*-===//
//
// The host versions of the libdevice functions tile.extern_elementwise
// calls and of the math dialect's ops: one element at a time, fp32 forms
// computed in float and fp64 forms in double, as the device does.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_INTERPRETER_HOSTFUNCTIONS_H
#define TILEC_LIB_INTERPRETER_HOSTFUNCTIONS_H

#include "TileValue.h"

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace tilec::interp {

/// Computes one element from its arguments (types as the op's operands)
/// into the result type.
using ElementFunction = Scalar (*)(const Scalar *args, const ElemType *argTypes,
                                   const ElemType &result);

/// The host version of libdevice's `symbol` ("__nv_expf"), or null.
ElementFunction lookupLibdeviceFunction(llvm::StringRef symbol);

/// The host version of the math dialect op `opName` ("math.exp"), or null.
ElementFunction lookupMathFunction(llvm::StringRef opName);

/// The math dialect ops that have a host version.
std::vector<llvm::StringRef> getMathOpNames();

} // namespace tilec::interp

#endif // TILEC_LIB_INTERPRETER_HOSTFUNCTIONS_H

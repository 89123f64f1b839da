//===- Passes.h - Conversions between tilec's stages ------------*- C++ -*-===//
//
// Declarations and registration of the conversion passes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_PASSES_H
#define TILEC_CONVERSION_PASSES_H

#include "tilec/Analysis/ThreadWork.h"
#include "tilec/Dialect/TileGPU/IR/Dialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tilec {

#define GEN_PASS_DECL
#include "tilec/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilec/Conversion/Passes.h.inc"

} // namespace mlir::tilec

#endif // TILEC_CONVERSION_PASSES_H

//===- TypeConverter.h - Types of the tilegpu-to-LLVM lowering --*- C++ -*-===//
//
// A tile with a layout becomes, in each thread, a literal LLVM struct of the
// elements that thread holds; `!tile.ptr<T>` becomes `!llvm.ptr<1>`.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_TILEGPUTOLLVM_TYPECONVERTER_H
#define TILEC_CONVERSION_TILEGPUTOLLVM_TYPECONVERTER_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"

namespace mlir::tilec {

/// Converts tile and tilegpu types to LLVM dialect types.
class TileGPUToLLVMTypeConverter : public LLVMTypeConverter {
public:
  explicit TileGPUToLLVMTypeConverter(MLIRContext *context);
};

} // namespace mlir::tilec

#endif // TILEC_CONVERSION_TILEGPUTOLLVM_TYPECONVERTER_H

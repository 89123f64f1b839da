//===- TypeConverter.cpp - Types of the tilegpu-to-LLVM lowering ----------===//
//
// Tiles (blocked or slice layouts) become per-thread structs of their
// elements (fp8 elements as i8 bytes); pointers become global (address space
// 1) LLVM pointers, shared-memory slots (memdesc) shared (address space 3)
// ones, and tensor maps generic ones.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/TypeConverter.h"

#include "tilec/Dialect/TileGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

using namespace mlir;
using namespace mlir::tilec;

/// Address space of global memory in NVVM.
constexpr unsigned kGlobalAddressSpace = 1;
/// Address space of shared memory in NVVM.
constexpr unsigned kSharedAddressSpace = 3;

TileGPUToLLVMTypeConverter::TileGPUToLLVMTypeConverter(MLIRContext *context)
    : LLVMTypeConverter(context) {
  // LLVM has no fp8: its values are bytes (FP8OpToLLVM.cpp converts them).
  addConversion([context](FloatType type) -> std::optional<Type> {
    if (type.getWidth() != 8)
      return std::nullopt;
    return IntegerType::get(context, 8);
  });
  addConversion([context](tile::PointerType) -> Type {
    return LLVM::LLVMPointerType::get(context, kGlobalAddressSpace);
  });
  // A CUtensorMap parameter: the generic address of the 128 bytes the kernel
  // receives by value (TileGPUToLLVM.cpp marks it byval and grid_constant).
  addConversion([context](tile::TensorMapType) -> Type {
    return LLVM::LLVMPointerType::get(context);
  });
  // Slots in shared memory: their first byte.
  addConversion([context](tilegpu::MemDescType) -> Type {
    return LLVM::LLVMPointerType::get(context, kSharedAddressSpace);
  });
  addConversion([this](RankedTensorType type) -> std::optional<Type> {
    Attribute layout = type.getEncoding();
    if (!tilegpu::isDistributedLayout(layout))
      return std::nullopt;
    Type element = convertType(type.getElementType());
    if (!element)
      return std::nullopt;
    SmallVector<Type> members(
        tilegpu::getTotalElemsPerThread(layout, type.getShape()), element);
    return LLVM::LLVMStructType::getLiteral(type.getContext(), members);
  });
}

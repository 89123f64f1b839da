//===- SharedMemory.cpp - Shared memory in the LLVM lowering --------------===//
//
// The kernel's dynamic shared memory is one module-level array,
// `@tilegpu_shared : !llvm.array<0 x i8>` in address space 3 with external
// linkage (CUDA's `extern __shared__` idiom): its size is chosen at launch
// (the metadata's shared_bytes). Each op's scratch buffer is that array plus
// the byte offset the allocation pass recorded on the op.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/SharedMemory.h"

#include "tilec/Analysis/Allocation.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::tilec;

/// Name of the dynamic shared-memory array.
static constexpr StringLiteral kSharedArrayName = "tilegpu_shared";

/// NVPTX's shared address space.
static constexpr unsigned kSharedAddressSpace = 3;

/// The module's shared-memory array, created on first use.
static LLVM::GlobalOp
getOrCreateSharedArray(Location loc, RewriterBase &rewriter, ModuleOp module) {
  if (auto global = module.lookupSymbol<LLVM::GlobalOp>(kSharedArrayName))
    return global;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  auto arrayType = LLVM::LLVMArrayType::get(rewriter.getI8Type(), 0);
  return LLVM::GlobalOp::create(
      rewriter, loc, arrayType, /*isConstant=*/false, LLVM::Linkage::External,
      kSharedArrayName, /*value=*/Attribute(),
      /*alignment=*/kSwizzleAtomAlignment, kSharedAddressSpace);
}

Value mlir::tilec::getScratchBase(Location loc, RewriterBase &rewriter,
                                  Operation *op) {
  auto offset = op->getAttrOfType<IntegerAttr>(kScratchOffsetAttr);
  auto module = op->getParentOfType<ModuleOp>();
  if (!offset || !module) {
    op->emitError(
        "internal error: no shared memory was allocated for this operation");
    return {};
  }
  LLVM::GlobalOp array = getOrCreateSharedArray(loc, rewriter, module);
  auto ptrType =
      LLVM::LLVMPointerType::get(rewriter.getContext(), kSharedAddressSpace);
  Value base =
      LLVM::AddressOfOp::create(rewriter, loc, ptrType, array.getSymName());
  if (offset.getInt() == 0)
    return base;
  return LLVM::GEPOp::create(
      rewriter, loc, ptrType, rewriter.getI8Type(), base,
      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset.getInt())});
}

void mlir::tilec::emitBarrier(Location loc, RewriterBase &rewriter) {
  NVVM::Barrier0Op::create(rewriter, loc);
}

void mlir::tilec::emitAsyncProxyFence(Location loc, RewriterBase &rewriter) {
  emitAsm(loc, rewriter, {}, {}, "fence.proxy.async.shared::cta;", {});
}

void mlir::tilec::recordSharedBytes(LLVM::LLVMFuncOp func) {
  moveToPassthrough(func, kSharedBytesAttr, kSharedBytesFnAttr);
}

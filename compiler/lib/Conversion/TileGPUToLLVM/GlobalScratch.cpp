//===- GlobalScratch.cpp - Per-program global memory of a kernel ----------===//
//
// The scratch parameter and the offsets of the ops that use it, assigned
// before the LLVM conversion; the address of an op's scratch in the calling
// program during it.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/GlobalScratch.h"
#include "tilec/Conversion/TileGPUToLLVM/Utility.h"

#include "tilec/Dialect/Tile/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tilec;

namespace {
/// On an op: [offset, bytes per program] of its global scratch.
constexpr StringLiteral kGlobalScratchAttr = "tile.global_scratch";
/// On a kernel: its global scratch bytes per program.
constexpr StringLiteral kGlobalScratchBytesAttr = "tile.global_scratch_bytes";
} // namespace

void mlir::tilec::assignGlobalScratch(func::FuncOp func) {
  SmallVector<Operation *> users;
  func.walk([&](tile::MakeTensorMapOp op) { users.push_back(op); });
  if (users.empty())
    return;
  Builder builder(func.getContext());
  int64_t bytes = kTensorMapScratchBytes * static_cast<int64_t>(users.size());
  for (auto [index, op] : llvm::enumerate(users))
    op->setAttr(kGlobalScratchAttr,
                builder.getDenseI64ArrayAttr(
                    {kTensorMapScratchBytes * static_cast<int64_t>(index), bytes}));
  func->setAttr(kGlobalScratchBytesAttr, builder.getI64IntegerAttr(bytes));
  requirePtxVersion(func, 83); // tensormap.replace, fence.proxy.tensormap.
  (void)func.insertArgument(func.getNumArguments(),
                            LLVM::LLVMPointerType::get(func.getContext(), 1),
                            DictionaryAttr(), func.getLoc());
}

Value mlir::tilec::getGlobalScratch(Location loc, RewriterBase &rewriter, Operation *op) {
  auto slot = op->getAttrOfType<DenseI64ArrayAttr>(kGlobalScratchAttr);
  auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
  if (!slot || slot.size() != 2 || !func || func.getNumArguments() == 0) {
    op->emitError("has no global scratch (the kernel's scratch parameter was not "
                  "assigned)");
    return nullptr;
  }
  Value scratch = func.getArgument(func.getNumArguments() - 1);
  // The program's index in the grid, x fastest, in 64 bits.
  Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
  auto wide = [&](Value value) { return LLVM::ZExtOp::create(rewriter, loc, i64, value); };
  Value x = wide(NVVM::BlockIdXOp::create(rewriter, loc, i32));
  Value y = wide(NVVM::BlockIdYOp::create(rewriter, loc, i32));
  Value z = wide(NVVM::BlockIdZOp::create(rewriter, loc, i32));
  Value nx = wide(NVVM::GridDimXOp::create(rewriter, loc, i32));
  Value ny = wide(NVVM::GridDimYOp::create(rewriter, loc, i32));
  Value program = LLVM::AddOp::create(
      rewriter, loc, x,
      LLVM::MulOp::create(rewriter, loc, nx,
                          LLVM::AddOp::create(rewriter, loc, y,
                                              LLVM::MulOp::create(rewriter, loc, ny, z))));
  Value offset = LLVM::AddOp::create(
      rewriter, loc,
      LLVM::MulOp::create(rewriter, loc, program,
                          LLVM::ConstantOp::create(rewriter, loc, i64, slot[1])),
      LLVM::ConstantOp::create(rewriter, loc, i64, slot[0]));
  return LLVM::GEPOp::create(rewriter, loc, scratch.getType(), rewriter.getI8Type(),
                             scratch, ValueRange{offset});
}

void mlir::tilec::recordGlobalScratchBytes(LLVM::LLVMFuncOp func) {
  moveToPassthrough(func, kGlobalScratchBytesAttr, kGlobalScratchFnAttr);
}


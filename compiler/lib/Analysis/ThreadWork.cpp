//===- ThreadWork.cpp - Bounding the code each thread runs ----------------===//
//
// Weights: one per element for most ops; math that libdevice implements
// (inlined function bodies of tens of instructions) counts 40; a dot counts
// its K products per element of its result (K / 16 on tensor cores).
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/ThreadWork.h"

#include "tilec/Dialect/Tile/IR/Dialect.h"
#include "tilec/Dialect/TileGPU/IR/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::tilec;

/// Scalar instructions per element of `op`'s result (per product for dot).
static int64_t weightOf(Operation *op) {
  Type element = op->getNumResults() ? getElementTypeOrSelf(op->getResult(0)) : Type();
  if (isa<math::SinOp, math::CosOp, math::TanhOp, math::ErfOp, math::LogOp,
          math::Log2Op, math::Log1pOp, math::PowFOp>(op))
    return 40;
  if (isa<math::ExpOp, math::Exp2Op, math::RsqrtOp>(op) && element && element.isF64())
    return 40;
  if (auto dot = dyn_cast<tile::DotOp>(op)) {
    int64_t k = cast<RankedTensorType>(dot.getA().getType()).getShape().back();
    // On tensor cores one instruction makes at least 64 products per thread
    // (mma.sync m16n8k16 over a warp); count 4 for it and its operand reads.
    if (isa_and_nonnull<tilegpu::MmaEncodingAttr>(
            cast<RankedTensorType>(dot.getType()).getEncoding()))
      return std::max<int64_t>(1, k / 16);
    return k;
  }
  return 1;
}

/// Elements of the largest tile among `op`'s results and operands.
static int64_t tileElements(Operation *op) {
  int64_t elements = 0;
  for (Type type : llvm::concat<const Type>(op->getResultTypes(), op->getOperandTypes()))
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      elements = std::max(elements, tensor.getNumElements());
  return elements;
}

ThreadWork mlir::tilec::estimateThreadWork(Operation *func) {
  int64_t threads = std::max(1, tilegpu::TileGPUDialect::getThreadsPerProgram(func));
  ThreadWork result;
  func->walk([&](Operation *op) {
    int64_t elements = tileElements(op);
    if (elements == 0)
      return;
    int64_t perThread = std::max<int64_t>(1, elements / threads);
    if (perThread > result.maxElements) {
      result.maxElements = perThread;
      result.largest = op;
    }
    // A dot's products are K per element of its result, whatever the size of
    // its operands.
    int64_t work = weightOf(op);
    if (auto dot = dyn_cast<tile::DotOp>(op))
      work *= std::max<int64_t>(
          1, cast<RankedTensorType>(dot.getType()).getNumElements() / threads);
    else
      work *= perThread;
    result.work += work;
    if (work > result.heaviestWork) {
      result.heaviestWork = work;
      result.heaviest = op;
    }
  });
  return result;
}

LogicalResult mlir::tilec::checkThreadWork(ModuleOp module, int64_t maxWork) {
  bool ok = true;
  module.walk([&](func::FuncOp func) {
    ThreadWork work = estimateThreadWork(func);
    int64_t threads = tilegpu::TileGPUDialect::getThreadsPerProgram(func);
    if (work.maxElements > kMaxElementsPerThread) {
      work.largest->emitError()
          << "this tile gives each thread " << work.maxElements
          << " elements (" << threads << " threads per program); the limit is "
          << kMaxElementsPerThread
          << " elements per thread, so that compiling stays fast: use a smaller "
             "tile or more warps (num_warps)";
      ok = false;
    } else if (work.work > maxWork) {
      work.heaviest->emitError()
          << "kernel '" << func.getSymName() << "' needs about " << work.work
          << " scalar operations per thread (" << work.heaviestWork
          << " here, " << threads << " threads per program); the limit is "
          << maxWork
          << ", so that compiling stays fast: use smaller tiles or more warps "
             "(num_warps)";
      ok = false;
    }
  });
  return success(ok);
}

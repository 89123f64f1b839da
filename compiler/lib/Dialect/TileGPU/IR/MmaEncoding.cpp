//===- MmaEncoding.cpp - Tensor-core register layouts ---------------------===//
//
// Verification and shape arithmetic of #tilegpu.mma (the accumulator of
// mma.sync and wgmma) and #tilegpu.dot_op (the operands it reads from registers).
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/Dialect.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

LogicalResult
MmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned version, ArrayRef<unsigned> warpsPerCTA,
                        ArrayRef<unsigned> instrShape) {
  if (version != 2 && version != 3)
    return emitError() << "MMA layouts are version 2 (mma.sync) or 3 (wgmma)";
  if (version == 3 && (warpsPerCTA.size() != 2 || warpsPerCTA[1] != 1 ||
                       warpsPerCTA[0] % 4 != 0))
    return emitError() << "a version 3 (wgmma) MMA layout puts whole "
                          "warpgroups along M: warpsPerCTA = [4k, 1]";
  if (warpsPerCTA.size() != 2 || instrShape.size() != 2)
    return emitError() << "an MMA layout is 2-D: warpsPerCTA and instrShape "
                          "need two entries";
  if (instrShape[0] != 16 || instrShape[1] != 8)
    return emitError() << "mma.sync tiles are 16x8 (instrShape = [16, 8])";
  for (unsigned warps : warpsPerCTA)
    if (!llvm::isPowerOf2_32(warps))
      return emitError() << "warpsPerCTA must be powers of two";
  return success();
}

SmallVector<int64_t>
MmaEncodingAttr::getRepetitions(ArrayRef<int64_t> shape) const {
  return {std::max<int64_t>(1, shape[0] / getCTATileSize(0)),
          std::max<int64_t>(1, shape[1] / getCTATileSize(1))};
}

LogicalResult
DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               unsigned opIdx, Attribute parent,
                               unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "opIdx is 0 (a) or 1 (b)";
  if (!isa<MmaEncodingAttr>(parent))
    return emitError() << "the parent of a dot operand layout must be an MMA "
                          "layout";
  if (kWidth != 1 && kWidth != 2 && kWidth != 4)
    return emitError() << "kWidth is 1 (tf32), 2 (16-bit) or 4 (8-bit)";
  return success();
}

SmallVector<int64_t>
DotOperandEncodingAttr::getRepetitions(ArrayRef<int64_t> shape) const {
  MmaEncodingAttr mma = getMmaParent();
  int64_t k =
      std::max<int64_t>(1, shape[getOpIdx() == 0 ? 1 : 0] / getInstrK());
  if (getOpIdx() == 0)
    return {std::max<int64_t>(1, shape[0] / mma.getCTATileSize(0)), k};
  return {k, std::max<int64_t>(1, shape[1] / mma.getCTATileSize(1))};
}

//===- AccelerateDot.cpp - tilegpu-accelerate-dot -------------------------===//
//
// Moves tl.dot onto the tensor cores: picks the instruction from the target
// and the operand types (wgmma on sm_90a where the tile allows, mma.sync
// otherwise), spreads the warps over the result, and converts
// the accumulator into the layout the instruction writes; the lowering
// reads the operands into their dot operand layouts (docs/architecture.md,
// "Tensor cores").
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUACCELERATEDOT
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// Warps along M and N for an [m, n] result computed in 16x8 tiles: each
/// doubling goes to the dimension with more elements per warp that still
/// has a whole instruction tile per warp; warps that fit nowhere replicate
/// along M.
std::pair<unsigned, unsigned> chooseWarps(int64_t m, int64_t n,
                                          unsigned numWarps) {
  unsigned warpsM = 1, warpsN = 1;
  for (unsigned left = numWarps; left > 1; left /= 2) {
    bool splitM = m / (2 * warpsM) >= 16, splitN = n / (2 * warpsN) >= 8;
    if (splitM && (!splitN || m / warpsM >= n / warpsN))
      warpsM *= 2;
    else if (splitN)
      warpsN *= 2;
    else
      warpsM *= 2;
  }
  return {warpsM, warpsN};
}

/// `value` converted to `layout` (no op when it has it already).
Value convertTo(OpBuilder &builder, Value value, Attribute layout) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getEncoding() == layout)
    return value;
  auto target =
      RankedTensorType::get(type.getShape(), type.getElementType(), layout);
  return ConvertLayoutOp::create(builder, value.getLoc(), target, value);
}

struct AccelerateDotPass
    : tilegpu::impl::TileGPUAccelerateDotBase<AccelerateDotPass> {
  using Base::Base;

  void runOnOperation() override {
    if (getComputeCapability(target) < 80)
      return;
    getOperation().walk([&](tile::DotOp dot) { accelerate(dot); });
  }

  /// Whether an [m, n] += [m, k] x [k, n] product of 16-bit operands runs
  /// on wgmma: sm_90a, whole warpgroups along M with 64 rows each at least
  /// (m a multiple of 16 per warp), n at most one instruction's 256, and
  /// operand tiles of whole 1024-byte swizzle atoms.
  bool canUseWgmma(int64_t m, int64_t n, int64_t k, unsigned numWarps) const {
    return StringRef(target) == "sm_90a" && numWarps % 4 == 0 &&
           m % (16 * numWarps) == 0 && n <= 256 && n % 8 == 0 &&
           (m * k * 2) % 1024 == 0 && (k * n * 2) % 1024 == 0;
  }

  /// Rewrites `dot` for wgmma (sm_90a) or mma.sync m16n8k16 when its types
  /// allow.
  void accelerate(tile::DotOp dot) {
    auto aType = cast<RankedTensorType>(dot.getA().getType());
    auto bType = cast<RankedTensorType>(dot.getB().getType());
    auto cType = cast<RankedTensorType>(dot.getC().getType());
    Type input = aType.getElementType();
    if (!(input.isF16() || input.isBF16()) || !cType.getElementType().isF32())
      return;
    if (isa_and_nonnull<MmaEncodingAttr>(cType.getEncoding()))
      return;
    int64_t m = aType.getDimSize(0), k = aType.getDimSize(1);
    int64_t n = bType.getDimSize(1);
    if (m % 16 != 0 || n % 8 != 0 || k % 16 != 0)
      return;
    MLIRContext *context = dot.getContext();
    unsigned numWarps = TileGPUDialect::getNumWarps(dot);
    MmaEncodingAttr mma;
    if (canUseWgmma(m, n, k, numWarps)) {
      mma = MmaEncodingAttr::get(context, 3, {numWarps, 1}, {16, 8});
    } else {
      auto [warpsM, warpsN] = chooseWarps(m, n, numWarps);
      mma = MmaEncodingAttr::get(context, 2, {warpsM, warpsN}, {16, 8});
    }
    // The operands keep their layouts: the lowering stages them in shared
    // memory and reads one K step at a time into the registers of the dot
    // operand layouts (fewer live registers than converting them whole).
    OpBuilder builder(dot);
    Value c = convertTo(builder, dot.getC(), mma);
    auto product = tile::DotOp::create(builder, dot.getLoc(), c.getType(),
                                       dot.getA(), dot.getB(), c);
    Value result = convertTo(builder, product, cType.getEncoding());
    dot.replaceAllUsesWith(result);
    dot.erase();
  }
};

} // namespace

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

#include "mlir/Dialect/SCF/IR/SCF.h"

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

/// Dots that another dot's result reaches (flash attention's
/// `p = softmax(q @ k); acc = p @ v`). Both dots of such a chain keep every
/// warp along M, so that a warp holds whole rows of the first product: row
/// reductions stay within the warp and the product becomes the second dot's
/// a operand in registers.
struct DotChains {
  /// Dots whose result reaches another dot's a or b, and the dots reached.
  DenseSet<Operation *> chained;
  /// Dots whose a operand another dot's result reaches.
  DenseSet<Operation *> fedA;

  /// Follows the users of `dot`'s result to the dots it reaches.
  void addUsersOf(tile::DotOp dot) {
    SmallVector<Value> worklist{dot.getResult()};
    DenseSet<Operation *> seen;
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      for (Operation *user : value.getUsers()) {
        // A dot ends the walk; it may be reached as an accumulator first.
        if (auto next = dyn_cast<tile::DotOp>(user)) {
          if (next.getA() == value)
            fedA.insert(next);
          if (next.getA() == value || next.getB() == value)
            chained.insert_range(ArrayRef<Operation *>{dot, next});
          continue;
        }
        // Loop-carried values lead back into the loop: stop at the yield.
        if (!seen.insert(user).second ||
            user->hasTrait<OpTrait::IsTerminator>())
          continue;
        llvm::append_range(worklist, user->getResults());
      }
    }
  }
};

/// Whether the a operand `value` of a dot inside `loop` (null when the dot
/// is in no loop) does not change in the loop, so that its conversion to dot
/// operand registers is hoisted out of it.
bool isLoopInvariant(Value value, scf::ForOp loop) {
  return loop && !loop->isAncestor(value.getParentRegion()->getParentOp());
}

/// `value` converted to `layout` (no op when it has it already).
Value convertTo(OpBuilder &builder, Value value, Attribute layout) {
  if (getLayout(value.getType()) == layout)
    return value;
  return ConvertLayoutOp::create(builder, value.getLoc(),
                                 withLayout(value.getType(), layout), value);
}

struct AccelerateDotPass
    : tilegpu::impl::TileGPUAccelerateDotBase<AccelerateDotPass> {
  using Base::Base;

  void runOnOperation() override {
    if (getComputeCapability(target) < 80)
      return;
    getOperation().walk([&](tile::DotOp dot) { chains.addUsersOf(dot); });
    getOperation().walk([&](tile::DotOp dot) { accelerate(dot); });
  }

  DotChains chains;

  /// Whether an [m, n] += [m, k] x [k, n] product of 16-bit operands runs
  /// on wgmma: sm_90a, whole warpgroups along M with 64 rows each at least
  /// (m a multiple of 16 per warp), n at most one instruction's 256,
  /// operand tiles of whole 1024-byte swizzle atoms, and stored rows (k
  /// elements for a and a K-major b, n for an N-major b) that one of
  /// wgmma's swizzle modes reads: 32 or 64 bytes, or panels of 128.
  bool canUseWgmma(int64_t m, int64_t n, int64_t k, unsigned numWarps) const {
    auto swizzledRow = [](int64_t bytes) {
      return bytes == 32 || bytes == 64 || bytes % 128 == 0;
    };
    return StringRef(target) == "sm_90a" && numWarps % 4 == 0 &&
           m % (16 * numWarps) == 0 && n <= 256 && n % 8 == 0 &&
           (m * k * 2) % 1024 == 0 && (k * n * 2) % 1024 == 0 &&
           swizzledRow(k * 2) && swizzledRow(n * 2);
  }

  /// Rewrites `dot` for wgmma (sm_90a) or mma.sync when its types allow:
  /// fp16 or bf16 into fp32 (m16n8k16), fp32 into fp32 when its
  /// input_precision is "tf32" (mma.sync m16n8k8 on tf32), or i8 into i32
  /// (mma.sync m16n8k32).
  void accelerate(tile::DotOp dot) {
    auto aType = cast<RankedTensorType>(dot.getA().getType());
    auto bType = cast<RankedTensorType>(dot.getB().getType());
    auto cType = cast<RankedTensorType>(dot.getC().getType());
    Type input = aType.getElementType(), acc = cType.getElementType();
    bool is16Bit = (input.isF16() || input.isBF16()) && acc.isF32();
    bool isTF32 =
        input.isF32() && acc.isF32() && dot.getInputPrecision() == "tf32";
    bool isInt8 = input.isInteger(8) && acc.isInteger(32);
    // Batched dots (3-D) stay on the FMA units.
    if (!(is16Bit || isTF32 || isInt8) || aType.getRank() != 2)
      return;
    if (isa_and_nonnull<MmaEncodingAttr>(cType.getEncoding()))
      return;
    // Elements per 32-bit operand register; one instruction reads 8 * kWidth
    // of K.
    unsigned kWidth = 32 / input.getIntOrFloatBitWidth();
    int64_t m = aType.getDimSize(0), k = aType.getDimSize(1);
    int64_t n = bType.getDimSize(1);
    if (m % 16 != 0 || n % 8 != 0 || k % (8 * kWidth) != 0)
      return;
    MLIRContext *context = dot.getContext();
    unsigned numWarps = TileGPUDialect::getNumWarps(dot);
    MmaEncodingAttr mma;
    if (is16Bit && canUseWgmma(m, n, k, numWarps)) {
      mma = MmaEncodingAttr::get(context, 3, {numWarps, 1}, {16, 8});
    } else {
      auto [warpsM, warpsN] = chooseWarps(m, n, numWarps);
      if (m % (16 * numWarps) == 0 && chains.chained.contains(dot))
        std::tie(warpsM, warpsN) = std::make_pair(numWarps, 1u);
      mma = MmaEncodingAttr::get(context, 2, {warpsM, warpsN}, {16, 8});
    }
    // The operands mostly keep their layouts: the lowering stages them in
    // shared memory and reads one K step at a time into the registers of the
    // dot operand layouts (mma.sync; fewer live registers than converting
    // them whole), or has wgmma read them there. An a operand computed from
    // another dot, or that does not change in the loop around the dot, is
    // converted to its registers once instead (both instructions read a from
    // registers; for a chained dot the conversion moves nothing). tf32 and
    // i8 operands are always converted to their registers (kWidth elements
    // per register), through shared memory.
    OpBuilder builder(dot);
    Value a = dot.getA(), b = dot.getB();
    if (!is16Bit) {
      a = convertTo(builder, a,
                    DotOperandEncodingAttr::get(context, 0, mma, kWidth));
      b = convertTo(builder, b,
                    DotOperandEncodingAttr::get(context, 1, mma, kWidth));
    } else if (chains.fedA.contains(dot) ||
               isLoopInvariant(a, dot->getParentOfType<scf::ForOp>())) {
      a = convertTo(builder, a,
                    DotOperandEncodingAttr::get(context, 0, mma, 2));
    }
    Value c = convertTo(builder, dot.getC(), mma);
    auto product = tile::DotOp::create(builder, dot.getLoc(), c.getType(), a, b,
                                       c, dot.getInputPrecisionAttr());
    Value result = convertTo(builder, product, cType.getEncoding());
    dot.replaceAllUsesWith(result);
    dot.erase();
  }
};

} // namespace

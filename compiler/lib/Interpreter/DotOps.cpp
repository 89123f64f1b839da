//===- DotOps.cpp - tile.dot ----------------------------------------------===//
//
// d = a @ b + c on [M, K] x [K, N] (or batched [B, M, K] x [B, K, N])
// tiles. Products accumulate in double (int64 for integers) and round once
// to the result type. fp32 inputs with input_precision "tf32" first lose
// their 13 low mantissa bits (truncated to tf32, toward zero), as the tensor
// cores read them (every tf32 dot runs on them: sm_80 and up, M, N and K
// powers of two of at least 16).
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include "tilec/Dialect/Tile/IR/Dialect.h"

#include <cmath>

using namespace tilec::interp;
using mlir::Operation;

namespace {

/// The fp32 `value` (of type `f32`) with its 13 low mantissa bits cleared
/// (a NaN whose payload lies only there becomes an infinity, as it does on
/// the tensor cores).
double toTF32(double value, const ElemType &f32) {
  return floatFromBits(floatBits(value, f32) & ~std::uint64_t(0x1FFF), f32);
}

bool dot(Runner &r, Operation &op) {
  auto dotOp = llvm::cast<mlir::tile::DotOp>(op);
  const TileValue &a = r.get(dotOp.getA());
  const TileValue &b = r.get(dotOp.getB());
  const TileValue &c = r.get(dotOp.getC());
  bool batched = a.shape.size() == 3;
  std::int64_t batches = batched ? a.shape[0] : 1;
  std::int64_t m = a.shape[batched ? 1 : 0], k = a.shape[batched ? 2 : 1];
  std::int64_t n = b.shape[batched ? 2 : 1];
  ElemType type = ElemType::of(op.getResult(0).getType());
  bool tf32 = a.type.isFloat() && a.type.bits == 32 && type.isFloat() && type.bits == 32 &&
              dotOp.getInputPrecision() && *dotOp.getInputPrecision() == "tf32";
  auto out = makeTile(c.shape, type);
  std::vector<double> af, bf;
  if (a.type.isFloat()) {
    af.resize(a.size());
    bf.resize(b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
      af[i] = tf32 ? toTF32(a.data[i].f, a.type) : a.data[i].f;
    for (std::size_t i = 0; i < b.size(); ++i)
      bf[i] = tf32 ? toTF32(b.data[i].f, b.type) : b.data[i].f;
  }
  for (std::int64_t batch = 0; batch < batches; ++batch)
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        std::size_t at = static_cast<std::size_t>((batch * m + i) * n + j);
        std::size_t aRow = static_cast<std::size_t>((batch * m + i) * k);
        std::size_t bCol = static_cast<std::size_t>(batch * k * n + j);
        if (type.isFloat()) {
          double sum = 0;
          for (std::int64_t x = 0; x < k; ++x)
            sum += af[aRow + x] * bf[bCol + x * n];
          out->data[at] = floatScalar(roundToFloat(sum + c.data[at].f, type));
        } else {
          std::uint64_t sum = static_cast<std::uint64_t>(c.data[at].i);
          for (std::int64_t x = 0; x < k; ++x)
            sum += static_cast<std::uint64_t>(a.data[aRow + x].i * b.data[bCol + x * n].i);
          out->data[at] = Scalar{signExtend(sum, type.bits)};
        }
      }
  r.set(op.getResult(0), std::move(out));
  return true;
}

} // namespace

void tilec::interp::registerDotOps(OpTable &t) { t["tile.dot"] = {dot}; }

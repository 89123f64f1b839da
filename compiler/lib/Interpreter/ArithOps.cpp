//===- ArithOps.cpp - arith ops on whole tiles -----------------------------===//
//
// Integer ops wrap at their width (values stay sign-extended); division by
// zero gives -1 and shifts by the width or more give 0 (or the sign) as
// PTX does, never a host trap. Float ops compute in double and round once
// to their type, which for +, -, *, / is exactly the IEEE result of f32.
// Float-to-integer conversions saturate and take NaN to 0, as cvt.rzi does.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace tilec::interp;
using mlir::Operation;

namespace {

ElemType resultType(Operation &op) { return ElemType::of(op.getResult(0).getType()); }

std::uint64_t u(const Scalar &s, unsigned bits) { return zeroExtend(s.i, bits); }

/// An integer binary op: `f(a, b, bits)` gives the unnormalized result.
template <std::int64_t (*F)(std::int64_t, std::int64_t, unsigned)>
bool intBinary(Runner &r, Operation &op) {
  ElemType type = resultType(op);
  unsigned bits = type.bits;
  r.set(op.getResult(0),
        zipElements(r.get(op.getOperand(0)), r.get(op.getOperand(1)), type,
                    [bits](Scalar a, Scalar b) {
                      return Scalar{signExtend(static_cast<std::uint64_t>(F(a.i, b.i, bits)), bits)};
                    }));
  return true;
}

std::int64_t addI(std::int64_t a, std::int64_t b, unsigned) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
std::int64_t subI(std::int64_t a, std::int64_t b, unsigned) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
}
std::int64_t mulI(std::int64_t a, std::int64_t b, unsigned) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}
std::int64_t divSI(std::int64_t a, std::int64_t b, unsigned bits) {
  if (b == 0)
    return -1;
  if (b == -1) // INT_MIN / -1 wraps
    return subI(0, a, bits);
  return a / b;
}
std::int64_t remSI(std::int64_t a, std::int64_t b, unsigned) {
  if (b == 0)
    return a;
  if (b == -1)
    return 0;
  return a % b;
}
std::int64_t divUI(std::int64_t a, std::int64_t b, unsigned bits) {
  std::uint64_t x = zeroExtend(a, bits), y = zeroExtend(b, bits);
  return y == 0 ? -1 : static_cast<std::int64_t>(x / y);
}
std::int64_t remUI(std::int64_t a, std::int64_t b, unsigned bits) {
  std::uint64_t x = zeroExtend(a, bits), y = zeroExtend(b, bits);
  return static_cast<std::int64_t>(y == 0 ? x : x % y);
}
std::int64_t floorDivSI(std::int64_t a, std::int64_t b, unsigned bits) {
  std::int64_t q = divSI(a, b, bits);
  if (b != 0 && b != -1 && (a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}
std::int64_t ceilDivSI(std::int64_t a, std::int64_t b, unsigned bits) {
  std::int64_t q = divSI(a, b, bits);
  if (b != 0 && b != -1 && (a % b != 0) && ((a < 0) == (b < 0)))
    ++q;
  return q;
}
std::int64_t ceilDivUI(std::int64_t a, std::int64_t b, unsigned bits) {
  std::uint64_t x = zeroExtend(a, bits), y = zeroExtend(b, bits);
  return y == 0 ? -1 : static_cast<std::int64_t>(x / y + (x % y != 0));
}
std::int64_t andI(std::int64_t a, std::int64_t b, unsigned) { return a & b; }
std::int64_t orI(std::int64_t a, std::int64_t b, unsigned) { return a | b; }
std::int64_t xorI(std::int64_t a, std::int64_t b, unsigned) { return a ^ b; }
std::int64_t shlI(std::int64_t a, std::int64_t b, unsigned bits) {
  std::uint64_t amount = zeroExtend(b, bits);
  return amount >= bits ? 0 : static_cast<std::int64_t>(static_cast<std::uint64_t>(a) << amount);
}
std::int64_t shrSI(std::int64_t a, std::int64_t b, unsigned bits) {
  std::uint64_t amount = zeroExtend(b, bits);
  return a >> std::min<std::uint64_t>(amount, 63);
}
std::int64_t shrUI(std::int64_t a, std::int64_t b, unsigned bits) {
  std::uint64_t amount = zeroExtend(b, bits);
  return amount >= bits ? 0 : static_cast<std::int64_t>(zeroExtend(a, bits) >> amount);
}
std::int64_t maxSI(std::int64_t a, std::int64_t b, unsigned) { return std::max(a, b); }
std::int64_t minSI(std::int64_t a, std::int64_t b, unsigned) { return std::min(a, b); }
std::int64_t maxUI(std::int64_t a, std::int64_t b, unsigned bits) {
  return zeroExtend(a, bits) >= zeroExtend(b, bits) ? a : b;
}
std::int64_t minUI(std::int64_t a, std::int64_t b, unsigned bits) {
  return zeroExtend(a, bits) <= zeroExtend(b, bits) ? a : b;
}

/// A float binary op computed in double, rounded to the result type.
template <double (*F)(double, double)> bool floatBinary(Runner &r, Operation &op) {
  ElemType type = resultType(op);
  r.set(op.getResult(0), zipElements(r.get(op.getOperand(0)), r.get(op.getOperand(1)), type,
                                     [&type](Scalar a, Scalar b) {
                                       return floatScalar(roundToFloat(F(a.f, b.f), type));
                                     }));
  return true;
}

double addF(double a, double b) { return a + b; }
double subF(double a, double b) { return a - b; }
double mulF(double a, double b) { return a * b; }
double divF(double a, double b) { return a / b; }
/// `a % b` as the GPU computes it (LLVM's NVPTX lowering of frem, which
/// Triton shares): fma(-trunc(a / b), b, a) in the type's precision, or a
/// when b is infinite. It is not IEEE fmod: a quotient too large for the
/// type, a subnormal divisor or a zero result's sign come out differently.
template <class T> double gpuRemainder(T a, T b) {
  if (std::isinf(b))
    return a;
  return std::fma(-std::trunc(a / b), b, a);
}
double remF32(double a, double b) {
  return gpuRemainder(static_cast<float>(a), static_cast<float>(b));
}
double remF64(double a, double b) { return gpuRemainder(a, b); }

bool remF(Runner &r, Operation &op) {
  // f16 and bf16 through f32, rounded once at the end, as tilec's lowering
  // computes them (FloatNarrowingOpToLLVM.cpp). An f32 or f64 `a` returned
  // for an infinite `b` keeps its bits, a NaN's payload included (the GPU
  // selects it); rounding would make such a NaN canonical.
  ElemType type = resultType(op);
  r.set(op.getResult(0), zipElements(r.get(op.getOperand(0)), r.get(op.getOperand(1)), type,
                                     [&type](Scalar a, Scalar b) {
                                       if (std::isinf(b.f) && type.bits >= 32)
                                         return a;
                                       double rem = type.bits == 64 ? remF64(a.f, b.f)
                                                                    : remF32(a.f, b.f);
                                       return floatScalar(roundToFloat(rem, type));
                                     }));
  return true;
}
double maxNumF(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::max(a, b); }
double minNumF(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::min(a, b); }
double maximumF(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::nan("");
  if (a == b) // -0 is below +0
    return std::signbit(a) ? b : a;
  return std::max(a, b);
}
double minimumF(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::nan("");
  if (a == b)
    return std::signbit(a) ? a : b;
  return std::min(a, b);
}

Scalar boolean(bool value) { return Scalar{value ? -1 : 0}; }

bool cmpI(Runner &r, Operation &op) {
  auto cmp = llvm::cast<mlir::arith::CmpIOp>(op);
  unsigned bits = ElemType::of(cmp.getLhs().getType()).bits;
  mlir::arith::CmpIPredicate pred = cmp.getPredicate();
  r.set(op.getResult(0),
        zipElements(r.get(cmp.getLhs()), r.get(cmp.getRhs()), resultType(op),
                    [bits, pred](Scalar a, Scalar b) {
                      using P = mlir::arith::CmpIPredicate;
                      std::uint64_t ua = u(a, bits), ub = u(b, bits);
                      switch (pred) {
                      case P::eq: return boolean(a.i == b.i);
                      case P::ne: return boolean(a.i != b.i);
                      case P::slt: return boolean(a.i < b.i);
                      case P::sle: return boolean(a.i <= b.i);
                      case P::sgt: return boolean(a.i > b.i);
                      case P::sge: return boolean(a.i >= b.i);
                      case P::ult: return boolean(ua < ub);
                      case P::ule: return boolean(ua <= ub);
                      case P::ugt: return boolean(ua > ub);
                      case P::uge: return boolean(ua >= ub);
                      }
                      return boolean(false);
                    }));
  return true;
}

bool cmpF(Runner &r, Operation &op) {
  auto cmp = llvm::cast<mlir::arith::CmpFOp>(op);
  mlir::arith::CmpFPredicate pred = cmp.getPredicate();
  r.set(op.getResult(0),
        zipElements(r.get(cmp.getLhs()), r.get(cmp.getRhs()), resultType(op),
                    [pred](Scalar a, Scalar b) {
                      using P = mlir::arith::CmpFPredicate;
                      bool unordered = std::isnan(a.f) || std::isnan(b.f);
                      double x = a.f, y = b.f;
                      switch (pred) {
                      case P::AlwaysFalse: return boolean(false);
                      case P::OEQ: return boolean(!unordered && x == y);
                      case P::OGT: return boolean(!unordered && x > y);
                      case P::OGE: return boolean(!unordered && x >= y);
                      case P::OLT: return boolean(!unordered && x < y);
                      case P::OLE: return boolean(!unordered && x <= y);
                      case P::ONE: return boolean(!unordered && x != y);
                      case P::ORD: return boolean(!unordered);
                      case P::UEQ: return boolean(unordered || x == y);
                      case P::UGT: return boolean(unordered || x > y);
                      case P::UGE: return boolean(unordered || x >= y);
                      case P::ULT: return boolean(unordered || x < y);
                      case P::ULE: return boolean(unordered || x <= y);
                      case P::UNE: return boolean(unordered || x != y);
                      case P::UNO: return boolean(unordered);
                      case P::AlwaysTrue: return boolean(true);
                      }
                      return boolean(false);
                    }));
  return true;
}

bool select(Runner &r, Operation &op) {
  const TileValue &cond = r.get(op.getOperand(0));
  const TileValue &a = r.get(op.getOperand(1));
  const TileValue &b = r.get(op.getOperand(2));
  std::size_t n = std::max({cond.size(), a.size(), b.size()});
  // The values' shape, not the condition's: a scalar condition of a
  // one-element tile must not make the result a scalar.
  const TileValue &widest = a.size() == n ? a : b.size() == n ? b : cond;
  auto out = makeTile(widest.shape, a.type);
  auto at = [n](const TileValue &t, std::size_t i) { return t.size() == n ? i : 0; };
  for (std::size_t i = 0; i < n; ++i) {
    bool pick = cond.data[at(cond, i)].i != 0;
    const TileValue &from = pick ? a : b;
    out->data[i] = from.data[at(from, i)];
    if (!out->origin.empty())
      out->origin[i] = from.origin[at(from, i)];
  }
  r.set(op.getResult(0), std::move(out));
  return true;
}

/// Integer width changes: sign- or zero-extension, truncation.
template <bool Signed> bool extendInt(Runner &r, Operation &op) {
  unsigned from = ElemType::of(op.getOperand(0).getType()).bits;
  ElemType type = resultType(op);
  r.set(op.getResult(0), mapElements(r.get(op.getOperand(0)), type, [from, type](Scalar a) {
          return Scalar{Signed ? signExtend(static_cast<std::uint64_t>(a.i), type.bits)
                               : signExtend(zeroExtend(a.i, from), type.bits)};
        }));
  return true;
}

bool truncI(Runner &r, Operation &op) {
  ElemType type = resultType(op);
  r.set(op.getResult(0), mapElements(r.get(op.getOperand(0)), type, [type](Scalar a) {
          return Scalar{signExtend(static_cast<std::uint64_t>(a.i), type.bits)};
        }));
  return true;
}

template <bool Signed> bool intToFloat(Runner &r, Operation &op) {
  unsigned from = ElemType::of(op.getOperand(0).getType()).bits;
  ElemType type = resultType(op);
  r.set(op.getResult(0), mapElements(r.get(op.getOperand(0)), type, [from, type](Scalar a) {
          // Round the exact integer once: through long double for 64 bits.
          long double exact = Signed ? static_cast<long double>(a.i)
                                     : static_cast<long double>(zeroExtend(a.i, from));
          double value = type.bits == 32 ? static_cast<double>(static_cast<float>(exact))
                                         : static_cast<double>(exact);
          return floatScalar(roundToFloat(value, type));
        }));
  return true;
}

template <bool Signed> bool floatToInt(Runner &r, Operation &op) {
  ElemType type = resultType(op);
  r.set(op.getResult(0), mapElements(r.get(op.getOperand(0)), type, [type](Scalar a) {
          if (std::isnan(a.f))
            return Scalar{0};
          double t = std::trunc(a.f);
          if (Signed) {
            double lo = -std::ldexp(1.0, type.bits - 1), hi = std::ldexp(1.0, type.bits - 1);
            if (t <= lo)
              return Scalar{static_cast<std::int64_t>(lo)};
            if (t >= hi)
              return Scalar{signExtend((std::uint64_t(1) << (type.bits - 1)) - 1, type.bits)};
            return Scalar{static_cast<std::int64_t>(t)};
          }
          if (t <= 0)
            return Scalar{0};
          if (t >= std::ldexp(1.0, type.bits))
            return Scalar{-1};
          return Scalar{signExtend(static_cast<std::uint64_t>(t), type.bits)};
        }));
  return true;
}

/// The NaN that the GPU's cvt gives for the NaN `value` converted from
/// `from` to `to`, as measured on an H200 (GPU test
/// CastTest.NaNConversionsKeepTheGPUsBits): a conversion from or to fp64
/// keeps the sign and the payload's top bits and makes the NaN quiet; bf16
/// to fp32 moves the bits unchanged; fp16 to fp32 and fp32 to fp16 or bf16
/// give the canonical NaN. (The interpreter keeps a NaN of any type as a
/// double NaN whose top mantissa bits are the type's.)
double convertNaN(double value, const ElemType &from, const ElemType &to) {
  if (from.bits != 64 && to.bits != 64)
    return from.bfloat ? value : canonicalNaN(to);
  unsigned mantissa = mantissaWidth(to);
  std::uint64_t raw;
  std::memcpy(&raw, &value, 8);
  raw |= std::uint64_t(1) << 51;                    // quiet, in every type
  raw &= ~((std::uint64_t(1) << (52 - mantissa)) - 1); // the payload `to` keeps
  std::memcpy(&value, &raw, 8);
  return value;
}

/// extf and truncf.
bool floatResize(Runner &r, Operation &op) {
  ElemType from = ElemType::of(op.getOperand(0).getType());
  ElemType type = resultType(op);
  r.set(op.getResult(0), mapElements(r.get(op.getOperand(0)), type, [from, type](Scalar a) {
          return floatScalar(std::isnan(a.f) ? convertNaN(a.f, from, type)
                                             : roundToFloat(a.f, type));
        }));
  return true;
}

bool bitcast(Runner &r, Operation &op) {
  ElemType from = ElemType::of(op.getOperand(0).getType());
  ElemType type = resultType(op);
  r.set(op.getResult(0), mapElements(r.get(op.getOperand(0)), type, [from, type](Scalar a) {
          std::uint64_t bits = from.isFloat() ? floatBits(a.f, from) : zeroExtend(a.i, from.bits);
          return type.isFloat() ? floatScalar(floatFromBits(bits, type))
                                : Scalar{signExtend(bits, type.bits)};
        }));
  return true;
}

bool negF(Runner &r, Operation &op) {
  r.set(op.getResult(0), mapElements(r.get(op.getOperand(0)), resultType(op),
                                     [](Scalar a) { return floatScalar(-a.f); }));
  return true;
}

/// One element of a constant: its exact bits (a NaN's included).
Scalar constantElement(const llvm::APFloat &value, const ElemType &type) {
  return floatScalar(floatFromBits(value.bitcastToAPInt().getZExtValue(), type));
}
Scalar constantElement(const llvm::APInt &value, const ElemType &type) {
  return Scalar{signExtend(value.getZExtValue(), type.bits)};
}

/// arith.constant. The elements are read as APInt/APFloat: reading them as
/// attributes would create attributes in the MLIR context, which programs
/// on several threads must not do.
bool constant(Runner &r, Operation &op) {
  mlir::Attribute value = llvm::cast<mlir::arith::ConstantOp>(op).getValue();
  ElemType type = resultType(op);
  if (auto dense = llvm::dyn_cast<mlir::DenseElementsAttr>(value)) {
    auto tile = makeTile(dense.getType().getShape(), type);
    bool isFloat = type.isFloat();
    if (dense.isSplat()) {
      Scalar s = isFloat ? constantElement(dense.getSplatValue<llvm::APFloat>(), type)
                         : constantElement(dense.getSplatValue<llvm::APInt>(), type);
      std::fill(tile->data.begin(), tile->data.end(), s);
    } else if (isFloat) {
      std::size_t i = 0;
      for (const llvm::APFloat &element : dense.getValues<llvm::APFloat>())
        tile->data[i++] = constantElement(element, type);
    } else {
      std::size_t i = 0;
      for (const llvm::APInt &element : dense.getValues<llvm::APInt>())
        tile->data[i++] = constantElement(element, type);
    }
    r.set(op.getResult(0), std::move(tile));
    return true;
  }
  auto tile = makeTile({}, type);
  if (auto f = llvm::dyn_cast<mlir::FloatAttr>(value))
    tile->data[0] = constantElement(f.getValue(), type);
  else
    tile->data[0] = constantElement(llvm::cast<mlir::IntegerAttr>(value).getValue(), type);
  r.set(op.getResult(0), std::move(tile));
  return true;
}

std::string validateConstant(Operation &op) {
  mlir::Attribute value = llvm::cast<mlir::arith::ConstantOp>(op).getValue();
  if (llvm::isa<mlir::DenseElementsAttr, mlir::FloatAttr, mlir::IntegerAttr>(value))
    return "";
  return "this kind of constant";
}

} // namespace

void tilec::interp::registerArithOps(OpTable &t) {
  t["arith.constant"] = {constant, validateConstant};
  t["arith.addi"] = {intBinary<addI>};
  t["arith.subi"] = {intBinary<subI>};
  t["arith.muli"] = {intBinary<mulI>};
  t["arith.divsi"] = {intBinary<divSI>};
  t["arith.divui"] = {intBinary<divUI>};
  t["arith.remsi"] = {intBinary<remSI>};
  t["arith.remui"] = {intBinary<remUI>};
  t["arith.floordivsi"] = {intBinary<floorDivSI>};
  t["arith.ceildivsi"] = {intBinary<ceilDivSI>};
  t["arith.ceildivui"] = {intBinary<ceilDivUI>};
  t["arith.andi"] = {intBinary<andI>};
  t["arith.ori"] = {intBinary<orI>};
  t["arith.xori"] = {intBinary<xorI>};
  t["arith.shli"] = {intBinary<shlI>};
  t["arith.shrsi"] = {intBinary<shrSI>};
  t["arith.shrui"] = {intBinary<shrUI>};
  t["arith.maxsi"] = {intBinary<maxSI>};
  t["arith.minsi"] = {intBinary<minSI>};
  t["arith.maxui"] = {intBinary<maxUI>};
  t["arith.minui"] = {intBinary<minUI>};
  t["arith.addf"] = {floatBinary<addF>};
  t["arith.subf"] = {floatBinary<subF>};
  t["arith.mulf"] = {floatBinary<mulF>};
  t["arith.divf"] = {floatBinary<divF>};
  t["arith.remf"] = {remF};
  t["arith.maxnumf"] = {floatBinary<maxNumF>};
  t["arith.minnumf"] = {floatBinary<minNumF>};
  t["arith.maximumf"] = {floatBinary<maximumF>};
  t["arith.minimumf"] = {floatBinary<minimumF>};
  t["arith.negf"] = {negF};
  t["arith.cmpi"] = {cmpI};
  t["arith.cmpf"] = {cmpF};
  t["arith.select"] = {select};
  t["arith.extsi"] = {extendInt<true>};
  t["arith.extui"] = {extendInt<false>};
  t["arith.index_cast"] = {extendInt<true>};
  t["arith.index_castui"] = {extendInt<false>};
  t["arith.trunci"] = {truncI};
  t["arith.sitofp"] = {intToFloat<true>};
  t["arith.uitofp"] = {intToFloat<false>};
  t["arith.fptosi"] = {floatToInt<true>};
  t["arith.fptoui"] = {floatToInt<false>};
  t["arith.extf"] = {floatResize};
  t["arith.truncf"] = {floatResize};
  t["arith.bitcast"] = {bitcast};
}

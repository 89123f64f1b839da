//===- AxisInfo.cpp - Contiguity, divisibility and constancy --------------===//
//
// Transfer functions of the axis-info analysis for the tile dialect and the
// arith ops the frontend emits, and the queries the passes use.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/AxisInfo.h"

#include "tilec/Dialect/TileGPU/IR/Dialect.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/Utils.h"
#include "llvm/ADT/TypeSwitch.h"
#include <numeric>

using namespace mlir;
using namespace mlir::tilec;

//===----------------------------------------------------------------------===//
// AxisInfo
//===----------------------------------------------------------------------===//

/// Dimensions tracked for a value of `type` (scalars count as one).
static unsigned trackedRank(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return std::max<int64_t>(1, tensor.getRank());
  return 1;
}

/// The tile shape of `type`, or {1} for a scalar.
static SmallVector<int64_t> trackedShape(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return SmallVector<int64_t>(tensor.getShape());
  return {1};
}

AxisInfo AxisInfo::getPessimistic(unsigned rank) {
  rank = std::max(1u, rank);
  SmallVector<int64_t> ones(rank, 1);
  return AxisInfo(ones, ones, ones);
}

/// A truncation to `bits` keeps equal elements equal, but a run of
/// consecutive values wraps around (a range truncated to i1 alternates), and
/// divides by no more than 2^bits.
static AxisInfo truncInfo(const AxisInfo &source, unsigned bits) {
  unsigned rank = source.getRank();
  SmallVector<int64_t> contiguity(rank, 1), divisibility, constancy;
  int64_t limit = bits >= 62 ? AxisInfo::kMaxDivisibility : int64_t(1) << bits;
  for (unsigned d = 0; d < rank; ++d) {
    divisibility.push_back(std::min(source.getDivisibility(d), limit));
    constancy.push_back(source.getConstancy(d));
  }
  return AxisInfo(contiguity, divisibility, constancy);
}

AxisInfo AxisInfo::getConstant(ArrayRef<int64_t> shape, int64_t divisibility) {
  SmallVector<int64_t> ones(shape.size(), 1);
  SmallVector<int64_t> div(shape.size(), divisibility);
  return AxisInfo(ones, div, SmallVector<int64_t>(shape));
}

int64_t AxisInfo::divisibilityOf(int64_t value) {
  // Saturates: 0 and INT64_MIN (2^63) are both multiples of the maximum.
  unsigned zeros = llvm::countr_zero(static_cast<uint64_t>(value));
  if (value == 0 || zeros >= unsigned(llvm::Log2_64(kMaxDivisibility)))
    return kMaxDivisibility;
  return int64_t(1) << zeros;
}

AxisInfo AxisInfo::join(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (lhs.isUninitialized())
    return rhs;
  if (rhs.isUninitialized() || lhs == rhs)
    return lhs;
  if (lhs.getRank() != rhs.getRank())
    return getPessimistic(lhs.getRank());
  AxisInfo result = lhs;
  for (unsigned d = 0; d < lhs.getRank(); ++d) {
    result.contiguity[d] = std::gcd(lhs.contiguity[d], rhs.contiguity[d]);
    result.divisibility[d] = std::gcd(lhs.divisibility[d], rhs.divisibility[d]);
    result.constancy[d] = std::gcd(lhs.constancy[d], rhs.constancy[d]);
  }
  return result;
}

void AxisInfo::print(raw_ostream &os) const {
  if (isUninitialized()) {
    os << "<uninitialized>";
    return;
  }
  auto list = [&](StringRef name, ArrayRef<int64_t> values) {
    os << name << " = [";
    llvm::interleaveComma(values, os);
    os << "]";
  };
  list("contiguity", contiguity);
  os << ", ";
  list("divisibility", divisibility);
  os << ", ";
  list("constancy", constancy);
}

//===----------------------------------------------------------------------===//
// Transfer functions
//===----------------------------------------------------------------------===//

namespace {

/// Builds a result from per-dimension rules over the operands' information.
template <typename Fn>
AxisInfo perDim(unsigned rank, Fn &&rule) {
  SmallVector<int64_t> contiguity(rank), divisibility(rank), constancy(rank);
  for (unsigned d = 0; d < rank; ++d)
    std::tie(contiguity[d], divisibility[d], constancy[d]) = rule(d);
  return AxisInfo(contiguity, divisibility, constancy);
}

/// Size in bytes of the elements a pointer(-tile) type points at.
int64_t pointeeBytes(Type ptrLike) {
  auto ptr = cast<tile::PointerType>(getElementTypeOrSelf(ptrLike));
  return std::max<int64_t>(1, ptr.getPointeeType().getIntOrFloatBitWidth() / 8);
}

/// a + b, with b scaled by `scale` (element size, for pointer arithmetic).
AxisInfo addInfo(const AxisInfo &a, const AxisInfo &b, int64_t scale) {
  return perDim(a.getRank(), [&](unsigned d) {
    int64_t contiguity =
        std::max(std::gcd(a.getContiguity(d), b.getConstancy(d)),
                 std::gcd(b.getContiguity(d), a.getConstancy(d)));
    int64_t divisibility =
        std::gcd(a.getDivisibility(d),
                 std::min(AxisInfo::kMaxDivisibility, b.getDivisibility(d) * scale));
    return std::make_tuple(contiguity, divisibility,
                           std::gcd(a.getConstancy(d), b.getConstancy(d)));
  });
}

AxisInfo subInfo(const AxisInfo &a, const AxisInfo &b) {
  return perDim(a.getRank(), [&](unsigned d) {
    return std::make_tuple(std::gcd(a.getContiguity(d), b.getConstancy(d)),
                           std::gcd(a.getDivisibility(d), b.getDivisibility(d)),
                           std::gcd(a.getConstancy(d), b.getConstancy(d)));
  });
}

AxisInfo mulInfo(const AxisInfo &a, const AxisInfo &b) {
  // A product is not contiguous, so its divisibility must hold for every
  // element: a contiguous factor only promises that its runs start aligned.
  return perDim(a.getRank(), [&](unsigned d) {
    int64_t divisibility =
        std::min(AxisInfo::kMaxDivisibility,
                 a.getElementDivisibility(d) * b.getElementDivisibility(d));
    return std::make_tuple(int64_t(1), divisibility,
                           std::gcd(a.getConstancy(d), b.getConstancy(d)));
  });
}

/// a % b (Triton's tutorials wrap offsets with `% M`): a run of `a` that
/// starts at a multiple of L, with L dividing b (constant over the run),
/// crosses no multiple of b, so it stays contiguous; L is the largest such
/// length. Run starts keep the divisibility both sides share. As in
/// Triton, `a` is taken to be non-negative (an index): a signed remainder of
/// a run that starts below zero at a multiple of b would restart at 0.
AxisInfo remInfo(const AxisInfo &a, const AxisInfo &b) {
  return perDim(a.getRank(), [&](unsigned d) {
    int64_t run = std::gcd(std::gcd(a.getContiguity(d), b.getDivisibility(d)),
                           std::gcd(a.getDivisibility(d), b.getConstancy(d)));
    return std::make_tuple(run, std::gcd(a.getDivisibility(d), b.getDivisibility(d)),
                           std::gcd(a.getConstancy(d), b.getConstancy(d)));
  });
}

/// Comparisons: equal wherever both sides are; `x < n` (and `x >= n`) with x
/// contiguous and n constant is also constant over aligned runs.
AxisInfo cmpInfo(arith::CmpIPredicate predicate, const AxisInfo &a,
                 const AxisInfo &b) {
  bool boundary = predicate == arith::CmpIPredicate::slt ||
                  predicate == arith::CmpIPredicate::ult ||
                  predicate == arith::CmpIPredicate::sge ||
                  predicate == arith::CmpIPredicate::uge;
  return perDim(a.getRank(), [&](unsigned d) {
    int64_t constancy = std::gcd(a.getConstancy(d), b.getConstancy(d));
    if (boundary && b.getConstancy(d) > 1)
      constancy = std::max(
          constancy,
          std::gcd(std::gcd(a.getContiguity(d), b.getConstancy(d)),
                   std::gcd(a.getDivisibility(d), b.getDivisibility(d))));
    return std::make_tuple(int64_t(1), int64_t(1), constancy);
  });
}

/// Any other elementwise op: constant where all operands are.
AxisInfo elementwiseInfo(unsigned rank, ArrayRef<const AxisInfoLattice *> ops) {
  return perDim(rank, [&](unsigned d) {
    int64_t constancy = 0;
    for (const AxisInfoLattice *op : ops)
      constancy = std::gcd(constancy, op->getValue().getConstancy(d));
    return std::make_tuple(int64_t(1), int64_t(1), std::max<int64_t>(1, constancy));
  });
}

/// multiple_of / max_contiguous: what the source is known to be, plus what
/// the hint promises (divisibility as the largest power of two dividing the
/// promised multiple; contiguity at most the dimension's size).
AxisInfo hintInfo(tile::HintOp hint, const AxisInfo &source,
                  ArrayRef<int64_t> shape) {
  std::optional<ArrayRef<int64_t>> divisibility = hint.getDivisibility();
  std::optional<ArrayRef<int64_t>> contiguity = hint.getContiguity();
  return perDim(source.getRank(), [&](unsigned d) {
    int64_t contig = source.getContiguity(d);
    int64_t divisible = source.getDivisibility(d);
    if (contiguity && d < contiguity->size())
      contig = std::max(contig, std::min((*contiguity)[d], shape[d]));
    if (divisibility && d < divisibility->size() && (*divisibility)[d] > 0)
      divisible = std::max(divisible,
                           AxisInfo::divisibilityOf((*divisibility)[d]));
    return std::make_tuple(contig, divisible, source.getConstancy(d));
  });
}

class AxisInfoAnalysis
    : public dataflow::SparseForwardDataFlowAnalysis<AxisInfoLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  void setToEntryState(AxisInfoLattice *lattice) override {
    Value value = lattice->getAnchor();
    AxisInfo info = AxisInfo::getPessimistic(trackedRank(value.getType()));
    if (auto arg = dyn_cast<BlockArgument>(value))
      if (auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp()))
        if (arg.getOwner()->isEntryBlock())
          if (auto div = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                            kDivisibilityAttr))
            info = AxisInfo({1}, {div.getInt()}, {1});
    propagateIfChanged(lattice, lattice->join(info));
  }

  /// The induction variable of an scf.for takes the values lb + j * step:
  /// every one is a multiple of what both bounds are multiples of.
  void visitNonControlFlowArguments(Operation *op,
                                    const RegionSuccessor &successor,
                                    ArrayRef<AxisInfoLattice *> argLattices,
                                    unsigned firstIndex) override {
    // The body's only argument that is not a successor input is the
    // induction variable, its first.
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop || successor.getSuccessor() != &loop.getRegion() ||
        argLattices.empty() || firstIndex > 1)
      return SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
          op, successor, argLattices, firstIndex);
    ProgramPoint *point = getProgramPointAfter(op);
    const AxisInfo &lower =
        getLatticeElementFor(point, loop.getLowerBound())->getValue();
    const AxisInfo &step = getLatticeElementFor(point, loop.getStep())->getValue();
    if (!lower.isUninitialized() && !step.isUninitialized()) {
      int64_t divisibility =
          std::gcd(lower.getDivisibility(0), step.getDivisibility(0));
      propagateIfChanged(argLattices[0],
                         argLattices[0]->join(AxisInfo({1}, {divisibility}, {1})));
    }
  }

  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const AxisInfoLattice *> operands,
                               ArrayRef<AxisInfoLattice *> results) override {
    if (results.size() != 1 || results[0]->getAnchor().getType().isIndex()) {
      setAllToEntryStates(results);
      return success();
    }
    for (const AxisInfoLattice *operand : operands)
      if (operand->getValue().isUninitialized())
        return success();
    Type type = op->getResult(0).getType();
    unsigned rank = trackedRank(type);
    auto in = [&](unsigned i) { return operands[i]->getValue(); };
    AxisInfo info =
        llvm::TypeSwitch<Operation *, AxisInfo>(op)
            .Case([&](arith::ConstantOp constant) {
              if (auto attr = dyn_cast<IntegerAttr>(constant.getValue()))
                return AxisInfo::getConstant(
                    {1}, AxisInfo::divisibilityOf(attr.getInt()));
              auto dense = dyn_cast<SplatElementsAttr>(constant.getValue());
              if (dense && dense.getElementType().isIntOrIndex())
                return AxisInfo::getConstant(
                    trackedShape(type),
                    AxisInfo::divisibilityOf(
                        dense.getSplatValue<APInt>().getSExtValue()));
              if (dense)
                return AxisInfo::getConstant(trackedShape(type), 1);
              return AxisInfo::getPessimistic(rank);
            })
            .Case([&](tile::MakeRangeOp range) {
              int64_t length = range.getEnd() - range.getStart();
              return AxisInfo({length}, {AxisInfo::divisibilityOf(range.getStart())},
                              {1});
            })
            .Case([&](tile::SplatOp) {
              return AxisInfo::getConstant(trackedShape(type),
                                           in(0).getDivisibility(0));
            })
            .Case([&](tile::BroadcastOp broadcast) {
              auto src = trackedShape(broadcast.getSrc().getType());
              auto dst = trackedShape(type);
              AxisInfo source = in(0);
              return perDim(rank, [&](unsigned d) {
                if (src[d] == 1 && dst[d] != 1)
                  return std::make_tuple(int64_t(1), source.getDivisibility(d),
                                         dst[d]);
                return std::make_tuple(source.getContiguity(d),
                                       source.getDivisibility(d),
                                       source.getConstancy(d));
              });
            })
            .Case([&](tile::ExpandDimsOp expand) {
              AxisInfo source = in(0);
              unsigned axis = expand.getAxis();
              // Along the new axis each element is its own run, so only a
              // divisibility that holds for every element carries over.
              int64_t everyElement = AxisInfo::kMaxDivisibility;
              for (unsigned s = 0; s < source.getRank(); ++s)
                everyElement =
                    std::min(everyElement, source.getElementDivisibility(s));
              return perDim(rank, [&](unsigned d) {
                if (d == axis)
                  return std::make_tuple(int64_t(1), everyElement, int64_t(1));
                unsigned s = d < axis ? d : d - 1;
                return std::make_tuple(source.getContiguity(s),
                                       source.getDivisibility(s),
                                       source.getConstancy(s));
              });
            })
            .Case([&](tile::AddPtrOp addptr) {
              return addInfo(in(0), in(1), pointeeBytes(addptr.getType()));
            })
            .Case([&](arith::AddIOp) { return addInfo(in(0), in(1), 1); })
            .Case([&](arith::SubIOp) { return subInfo(in(0), in(1)); })
            .Case([&](arith::MulIOp) { return mulInfo(in(0), in(1)); })
            .Case<arith::RemSIOp, arith::RemUIOp>(
                [&](Operation *) { return remInfo(in(0), in(1)); })
            .Case([&](arith::CmpIOp cmp) {
              return cmpInfo(cmp.getPredicate(), in(0), in(1));
            })
            .Case([&](tile::HintOp hint) {
              return hintInfo(hint, in(0), trackedShape(type));
            })
            .Case<arith::ExtSIOp, arith::ExtUIOp, tilegpu::ConvertLayoutOp>(
                [&](Operation *) { return in(0); })
            .Case([&](arith::TruncIOp trunc) {
              return truncInfo(in(0), getElementTypeOrSelf(trunc.getType())
                                          .getIntOrFloatBitWidth());
            })
            .Case([&](tile::InlineAsmOp asmOp) {
              // Impure PTX may give each element its own value (an atomic's
              // old value) even where the operands repeat, and packed PTX
              // may mix the elements of a pack.
              return asmOp.getPure() && asmOp.getPack() == 1
                         ? elementwiseInfo(rank, operands)
                         : AxisInfo::getPessimistic(rank);
            })
            .Default([&](Operation *other) {
              if (other->hasTrait<OpTrait::Elementwise>() &&
                  other->getNumOperands() > 0)
                return elementwiseInfo(rank, operands);
              return AxisInfo::getPessimistic(rank);
            });
    propagateIfChanged(results[0], results[0]->join(info));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// ModuleAxisInfo
//===----------------------------------------------------------------------===//

ModuleAxisInfo::ModuleAxisInfo(ModuleOp module) {
  dataflow::loadBaselineAnalyses(solver);
  solver.load<AxisInfoAnalysis>();
  // A failure leaves values unvisited; lookup() then answers pessimistically.
  (void)solver.initializeAndRun(module);
}

AxisInfo ModuleAxisInfo::lookup(Value value) const {
  if (auto *lattice = solver.lookupState<AxisInfoLattice>(value))
    if (!lattice->getValue().isUninitialized())
      return lattice->getValue();
  return AxisInfo::getPessimistic(trackedRank(value.getType()));
}

unsigned ModuleAxisInfo::getVectorWidth(Value ptr, unsigned dim,
                                        unsigned elementsPerThread) const {
  AxisInfo info = lookup(ptr);
  if (dim >= info.getRank())
    return 1;
  int64_t bytes = pointeeBytes(ptr.getType());
  int64_t width = std::min<int64_t>(elementsPerThread, info.getContiguity(dim));
  width = std::min(width, std::max<int64_t>(1, info.getDivisibility(dim) / bytes));
  width = std::min<int64_t>(width, std::max<int64_t>(1, 16 / bytes));
  // Keep a power of two that divides the thread's run of elements.
  width = int64_t(1) << llvm::Log2_64(std::max<int64_t>(1, width));
  return std::gcd<int64_t>(width, elementsPerThread);
}

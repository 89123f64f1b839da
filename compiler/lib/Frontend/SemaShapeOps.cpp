//===- SemaShapeOps.cpp - Typing of trans, permute and reshape ------------===//
//
// trans(x) / trans(x, dims) / permute(x, dims) become
// Trans(input, order-tuple); reshape(x, shape) becomes Reshape(input,
// shape-tuple). Tiles of pointers may be reshaped and permuted too.
// trans(x) with no dims swaps the two dimensions of a 2-D tile (Triton 3).
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "llvm/ADT/Sequence.h"

using namespace tilec;

/// Collects constexpr ints from `args[first...]`: either one tuple or a
/// list of ints. None after an error.
static std::optional<std::vector<int64_t>> collectInts(llvm::ArrayRef<ExprPtr> args,
                                                       size_t first, llvm::StringRef what,
                                                       DiagnosticEngine &diag) {
  std::vector<ConstValue> values;
  for (size_t i = first; i < args.size(); ++i) {
    const ConstValue *value = Sema::getConstexpr(*args[i]);
    if (value && value->isTuple() && args.size() == first + 1)
      values.assign(value->getTuple().begin(), value->getTuple().end());
    else if (value)
      values.push_back(*value);
    if (!value || llvm::any_of(values, [](const ConstValue &v) { return !v.isInt(); })) {
      diag.error(args[i]->getLoc(), what + " must be constexpr ints or a tuple of them");
      return std::nullopt;
    }
  }
  std::vector<int64_t> result;
  for (const ConstValue &value : values)
    result.push_back(value.getInt());
  return result;
}

ExprPtr Sema::typeShapeOp(Builtin builtin, SourceLoc loc, llvm::StringRef calleeName,
                          std::vector<ExprPtr> args) {
  const ConstValue *constant = getConstexpr(*args[0]);
  const Type &type = args[0]->getType();
  if (constant || !type.isTile()) {
    diag.error(args[0]->getLoc(), "'" + calleeName + "' expects a tile, got " +
                                      (constant ? constant->str() : type.str()));
    return nullptr;
  }
  int64_t rank = type.getShape().size();
  if (builtin == Builtin::Reshape) {
    // reshape(x, 64, 32) means reshape(x, (64, 32)).
    if (args.size() > 3) {
      std::optional<std::vector<int64_t>> dims =
          collectInts({&args[1], 1}, 0, "the shape of reshape", diag);
      std::optional<std::vector<int64_t>> more =
          dims ? collectInts(args, 3, "the shape of reshape", diag) : std::nullopt;
      if (!more)
        return nullptr;
      std::vector<ConstValue> values;
      for (int64_t dim : llvm::concat<int64_t>(*dims, *more))
        values.push_back(ConstValue::getInt(dim));
      args[1] = makeConstant(args[1]->getLoc(), ConstValue::getTuple(std::move(values)));
    }
    std::optional<Shape> shape = requireShape(*args[1], "the shape of reshape");
    if (!shape)
      return nullptr;
    Type resultType = type.withShape(*shape);
    if (resultType.getNumElements() != type.getNumElements()) {
      diag.error(loc, "cannot reshape " + type.str() + " to " + formatShape(*shape) +
                          ": the numbers of elements differ (" +
                          llvm::Twine(type.getNumElements()) + " and " +
                          llvm::Twine(resultType.getNumElements()) + ")");
      return nullptr;
    }
    if (resultType == type)
      return std::move(args[0]);
    args.resize(2);
    return makeCall(loc, builtin, std::move(args), resultType);
  }
  std::optional<std::vector<int64_t>> order =
      collectInts(args, 1, "the dims of '" + calleeName.str() + "'", diag);
  if (!order)
    return nullptr;
  if (order->empty()) {
    if (rank != 2) {
      diag.error(loc,
                 "'" + calleeName + "' without dims needs a 2-D tile, got " + type.str());
      return nullptr;
    }
    order = std::vector<int64_t>{1, 0};
  }
  std::vector<bool> seen(rank, false);
  bool valid = static_cast<int64_t>(order->size()) == rank;
  for (int64_t &dim : *order) {
    if (dim < 0)
      dim += rank;
    valid = valid && dim >= 0 && dim < rank && !seen[dim];
    if (valid)
      seen[dim] = true;
  }
  if (!valid) {
    std::vector<ConstValue> dims;
    for (int64_t dim : *order)
      dims.push_back(ConstValue::getInt(dim));
    diag.error(loc, "the dims " + ConstValue::getTuple(dims).str() + " of '" +
                        calleeName + "' are not a permutation of the " +
                        llvm::Twine(rank) + " dimensions of " + type.str());
    return nullptr;
  }
  Shape shape;
  std::vector<ConstValue> orderValues;
  for (int64_t dim : *order) {
    shape.push_back(type.getShape()[dim]);
    orderValues.push_back(ConstValue::getInt(dim));
  }
  if (llvm::equal(*order, llvm::seq<int64_t>(0, rank)))
    return std::move(args[0]);
  Type resultType = type.withShape(shape);
  std::vector<ExprPtr> callArgs;
  callArgs.push_back(std::move(args[0]));
  callArgs.push_back(makeConstant(loc, ConstValue::getTuple(std::move(orderValues))));
  return makeCall(loc, Builtin::Trans, std::move(callArgs), resultType);
}

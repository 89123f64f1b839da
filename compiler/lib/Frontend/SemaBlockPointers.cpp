//===- SemaBlockPointers.cpp - Block pointers, lowered in the frontend ----===//
//
// tl.make_block_ptr(base, shape, strides, offsets, block_shape, order)
// builds a BuiltinCallExpr(MakeBlockPtr) of Type::getBlockPointer whose
// arguments are its runtime parts (see partIndex below and Types.h);
// `advance` adds to the offsets; binding one to a name keeps one scalar
// variable per part ("<name>.offset0", ...). tl.load / tl.store of a block
// pointer become an ordinary load/store of the pointer tile
//   base + sum_d (offset_d + arange(0, B_d)) * stride_d      (in i64)
// masked, for each dim d of boundary_check, by 0 <= offset_d + i < shape_d;
// padding_option "zero" loads 0 where masked off, "nan" NaN, "" leaves the
// value undefined (as Triton). `order` is checked but does not change the
// code (the coalescing pass picks the layout).
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include <limits>

using namespace tilec;

namespace {
enum Part { Base = 0 };
/// The argument index of part `kind` (1: shape, 2: stride, 3: offset) of
/// dimension `dim` in a MakeBlockPtr call of rank `rank`.
size_t partIndex(unsigned kind, size_t dim, size_t rank) {
  return 1 + (kind - 1) * rank + dim;
}
/// The rank of a MakeBlockPtr call (its args: base, 3 * rank parts, then
/// block_shape and order).
size_t rankOf(const BuiltinCallExpr &call) { return (call.getArgs().size() - 3) / 3; }

const char *const kPartNames[] = {"base", "shape", "stride", "offset"};
} // namespace

std::vector<std::string> Sema::getBlockPointerParts(llvm::StringRef name) const {
  auto it = blockPointers.find(name);
  if (it == blockPointers.end() || scope.count(name))
    return {};
  std::vector<std::string> parts{(name + ".base").str()};
  size_t rank = it->second.blockShape.size();
  for (unsigned kind = 1; kind <= 3; ++kind)
    for (size_t dim = 0; dim < rank; ++dim)
      parts.push_back((name + "." + kPartNames[kind] + llvm::Twine(dim)).str());
  return parts;
}

/// The elements of a tuple argument (a constexpr tuple or a typed tuple of
/// runtime values), each converted to a runtime scalar of `elem`.
std::optional<std::vector<ExprPtr>> Sema::requireScalarTuple(ExprPtr tuple, size_t rank,
                                                             ScalarKind elem,
                                                             llvm::StringRef what) {
  std::vector<ExprPtr> elements;
  if (const ConstValue *value = getConstexpr(*tuple); value && value->isTuple()) {
    for (const ConstValue &element : value->getTuple())
      elements.push_back(makeConstant(tuple->getLoc(), element));
  } else if (auto *typed = llvm::dyn_cast<TupleExpr>(tuple.get())) {
    elements = typed->takeElements();
  } else {
    diag.error(tuple->getLoc(),
               what + " must be a tuple of " + llvm::Twine(rank) + " integers");
    return std::nullopt;
  }
  if (elements.size() != rank) {
    diag.error(tuple->getLoc(), what + " has " + llvm::Twine(elements.size()) +
                                    " entries but the block pointer has rank " +
                                    llvm::Twine(rank));
    return std::nullopt;
  }
  for (ExprPtr &element : elements) {
    const ConstValue *value = getConstexpr(*element);
    const Type &type = element->getType();
    if (value ? !value->isInt()
              : !type.isScalar() || type.isPointer() || !isInteger(type.getElement())) {
      diag.error(element->getLoc(), what + " must hold integer scalars, got " +
                                        (value ? value->str() : type.str()));
      return std::nullopt;
    }
    if (!(element = coerce(std::move(element), elem, {})))
      return std::nullopt;
  }
  return elements;
}

ExprPtr Sema::typeMakeBlockPtr(SourceLoc loc, std::vector<ExprPtr> args) {
  enum { BaseArg, ShapeArg, StridesArg, OffsetsArg, BlockShapeArg, OrderArg };
  const Type &baseType = args[BaseArg]->getType();
  if (getConstexpr(*args[BaseArg]) || !baseType.isPointer() || !baseType.isScalar()) {
    diag.error(args[BaseArg]->getLoc(), "the base of make_block_ptr must be a scalar "
                                        "pointer, got " +
                                            baseType.str());
    return nullptr;
  }
  std::optional<Shape> blockShape =
      requireShape(*args[BlockShapeArg], "the block_shape of make_block_ptr");
  if (!blockShape)
    return nullptr;
  size_t rank = blockShape->size();
  const ConstValue *order = getConstexpr(*args[OrderArg]);
  std::vector<bool> seen(rank, false);
  bool validOrder = order && order->isTuple() && order->getTuple().size() == rank;
  for (size_t i = 0; validOrder && i < rank; ++i) {
    const ConstValue &dim = order->getTuple()[i];
    validOrder = dim.isInt() && dim.getInt() >= 0 &&
                 dim.getInt() < static_cast<int64_t>(rank) && !seen[dim.getInt()];
    if (validOrder)
      seen[dim.getInt()] = true;
  }
  if (!validOrder) {
    diag.error(args[OrderArg]->getLoc(), "the order of make_block_ptr must be a "
                                         "permutation of the " +
                                             llvm::Twine(rank) +
                                             " dimensions, such as (1, 0)");
    return nullptr;
  }
  std::vector<ExprPtr> callArgs;
  callArgs.push_back(std::move(args[BaseArg]));
  const std::pair<unsigned, ScalarKind> parts[] = {{ShapeArg, ScalarKind::I64},
                                                   {StridesArg, ScalarKind::I64},
                                                   {OffsetsArg, ScalarKind::I32}};
  const char *names[] = {"the shape of make_block_ptr", "the strides of make_block_ptr",
                         "the offsets of make_block_ptr"};
  for (auto [i, part] : llvm::enumerate(parts)) {
    std::optional<std::vector<ExprPtr>> values =
        requireScalarTuple(std::move(args[part.first]), rank, part.second, names[i]);
    if (!values)
      return nullptr;
    for (ExprPtr &value : *values)
      callArgs.push_back(std::move(value));
  }
  callArgs.push_back(std::move(args[BlockShapeArg]));
  callArgs.push_back(std::move(args[OrderArg]));
  return makeCall(loc, Builtin::MakeBlockPtr, std::move(callArgs),
                  Type::getBlockPointer(baseType.getElement(), *blockShape));
}

/// The block-pointer call `expr` is, or null after an error naming `what`.
static BuiltinCallExpr *asBlockPointer(Expr &expr, llvm::StringRef what,
                                       DiagnosticEngine &diag) {
  auto *call = llvm::dyn_cast<BuiltinCallExpr>(&expr);
  if (call && call->getType().isBlockPointer() &&
      call->getBuiltin() == Builtin::MakeBlockPtr)
    return call;
  const ConstValue *value = Sema::getConstexpr(expr);
  diag.error(expr.getLoc(), what + " expects a block pointer (tl.make_block_ptr), got " +
                                (value ? value->str() : expr.getType().str()));
  return nullptr;
}

ExprPtr Sema::typeAdvance(SourceLoc loc, std::vector<ExprPtr> args) {
  BuiltinCallExpr *bptr = asBlockPointer(*args[0], "advance", diag);
  if (!bptr)
    return nullptr;
  size_t rank = rankOf(*bptr);
  std::optional<std::vector<ExprPtr>> deltas = requireScalarTuple(
      std::move(args[1]), rank, ScalarKind::I32, "the offsets of advance");
  if (!deltas)
    return nullptr;
  std::vector<ExprPtr> parts = bptr->takeArgs();
  for (size_t dim = 0; dim < rank; ++dim) {
    ExprPtr &offset = parts[partIndex(3, dim, rank)];
    offset =
        analyzeBinary(loc, BinaryOp::Add, std::move(offset), std::move((*deltas)[dim]));
    if (!offset)
      return nullptr;
  }
  Type type = bptr->getType();
  return makeCall(loc, Builtin::MakeBlockPtr, std::move(parts), type);
}

void Sema::bindBlockPointer(llvm::StringRef name, SourceLoc loc, ExprPtr value) {
  auto &call = llvm::cast<BuiltinCallExpr>(*value);
  size_t rank = rankOf(call);
  BlockPointerInfo info{call.getType().getElement(), Shape(call.getType().getShape()),
                        *getConstexpr(call.getArg(call.getArgs().size() - 2)),
                        *getConstexpr(call.getArg(call.getArgs().size() - 1))};
  // The parts only: block_shape and order live in `info`.
  std::vector<ExprPtr> parts = call.takeArgs();
  scope.erase(name);
  blockPointers[name] = info;
  std::vector<std::string> names = getBlockPointerParts(name);
  for (size_t i = 0; i < 1 + 3 * rank; ++i)
    bind(names[i], loc, std::move(parts[i]));
}

ExprPtr Sema::loadBlockPointer(llvm::StringRef name, SourceLoc loc) {
  const BlockPointerInfo &info = blockPointers.find(name)->second;
  std::vector<ExprPtr> args;
  for (const std::string &part : getBlockPointerParts(name)) {
    NameExpr ref(loc, part, nullptr);
    if (!args.emplace_back(analyzeName(ref)))
      return nullptr;
  }
  args.push_back(makeConstant(loc, info.blockShapeValue));
  args.push_back(makeConstant(loc, info.order));
  return makeCall(loc, Builtin::MakeBlockPtr, std::move(args),
                  Type::getBlockPointer(info.elem, info.blockShape));
}

/// `x` (a 1-D tile of length shape[dim]) reshaped to rank `rank` with every
/// other dimension 1.
ExprPtr Sema::alongDim(ExprPtr x, size_t dim, size_t rank) {
  Shape shape(x->getType().getShape());
  for (size_t axis = 0; axis < rank; ++axis) {
    if (axis == dim)
      continue;
    size_t position = axis < dim ? axis : shape.size();
    shape.insert(shape.begin() + position, 1);
    SourceLoc loc = x->getLoc();
    Type type = x->getType().withShape(shape);
    std::vector<ExprPtr> args;
    args.push_back(std::move(x));
    args.push_back(makeConstant(loc, ConstValue::getInt(static_cast<int64_t>(position))));
    x = makeCall(loc, Builtin::ExpandDims, std::move(args), type);
  }
  return x;
}

ExprPtr Sema::typeBlockPointerAccess(Builtin builtin, SourceLoc loc,
                                     std::vector<ExprPtr> args) {
  bool isLoad = builtin == Builtin::Load;
  llvm::StringRef what = isLoad ? "load" : "store";
  unsigned maskIndex = isLoad ? 1 : 2, boundaryIndex = 3;
  if (!isNone(*args[maskIndex]) || (isLoad && !isNone(*args[2]))) {
    diag.error(args[isNone(*args[maskIndex]) ? 2 : maskIndex]->getLoc(),
               "'mask' and 'other' cannot be given to a " + what +
                   " of a block pointer; "
                   "use boundary_check and padding_option");
    return nullptr;
  }
  // Give the block pointer's parts names so each can be used twice.
  std::string name = "$block_ptr" + std::to_string(blockPointers.size());
  size_t rank = rankOf(llvm::cast<BuiltinCallExpr>(*args[0]));
  Shape blockShape(args[0]->getType().getShape());
  ScalarKind elem = args[0]->getType().getElement();
  bindBlockPointer(name, loc, std::move(args[0]));
  std::vector<std::string> parts = getBlockPointerParts(name);
  auto part = [&](unsigned kind, size_t dim) {
    NameExpr ref(loc, kind == 0 ? parts[0] : parts[partIndex(kind, dim, rank)], nullptr);
    return analyzeName(ref);
  };
  // boundary_check: an int or a tuple of distinct dims.
  const ConstValue *boundary = getConstexpr(*args[boundaryIndex]);
  std::vector<bool> checked(rank, false);
  std::vector<ConstValue> dims;
  if (boundary && boundary->isTuple())
    dims.assign(boundary->getTuple().begin(), boundary->getTuple().end());
  else if (boundary && boundary->isInt())
    dims.push_back(*boundary);
  for (const ConstValue &dim : dims) {
    if (!dim.isInt() || dim.getInt() < 0 || dim.getInt() >= static_cast<int64_t>(rank)) {
      diag.error(args[boundaryIndex]->getLoc(),
                 "boundary_check must list dimensions of the block pointer (0 to " +
                     llvm::Twine(rank - 1) + "), got " + boundary->str());
      return nullptr;
    }
    checked[dim.getInt()] = true;
  }
  if (!boundary || (!boundary->isTuple() && !boundary->isInt())) {
    diag.error(args[boundaryIndex]->getLoc(), "boundary_check must be a constexpr tuple "
                                              "of dimensions such as (0, 1)");
    return nullptr;
  }
  ExprPtr other = makeConstant(loc, ConstValue::getNone());
  if (isLoad) {
    const ConstValue *padding = getConstexpr(*args[4]);
    llvm::StringRef option = padding && padding->isString() ? padding->getString() : "?";
    if (option == "zero") {
      other = makeConstant(loc, ConstValue::getInt(0));
    } else if (option == "nan" && isFloat(elem)) {
      other = makeConstant(
          loc, ConstValue::getFloat(std::numeric_limits<double>::quiet_NaN()));
    } else if (!option.empty()) {
      diag.error(args[4]->getLoc(),
                 "padding_option must be \"\", \"zero\" or \"nan\" "
                 "(floats only), got " +
                     (padding ? padding->str() : args[4]->getType().str()));
      return nullptr;
    }
  }
  // The pointer tile and the mask, one dimension at a time.
  ExprPtr ptr = part(0, 0), mask;
  for (size_t dim = 0; dim < rank; ++dim) {
    auto index = [&]() -> ExprPtr {
      std::vector<ExprPtr> rangeArgs;
      rangeArgs.push_back(makeConstant(loc, ConstValue::getInt(0)));
      rangeArgs.push_back(makeConstant(loc, ConstValue::getInt(blockShape[dim])));
      ExprPtr range = makeCall(loc, Builtin::Arange, std::move(rangeArgs),
                               Type::getTile(ScalarKind::I32, {blockShape[dim]}));
      ExprPtr offset = coerce(part(3, dim), ScalarKind::I64, {});
      ExprPtr sum = offset ? analyzeBinary(loc, BinaryOp::Add, std::move(offset),
                                           coerce(std::move(range), ScalarKind::I64,
                                                  {blockShape[dim]}))
                           : nullptr;
      return sum ? alongDim(std::move(sum), dim, rank) : nullptr;
    };
    ExprPtr idx = index();
    ExprPtr step =
        idx ? analyzeBinary(loc, BinaryOp::Mul, std::move(idx), part(2, dim)) : nullptr;
    if (!step ||
        !(ptr = analyzeBinary(loc, BinaryOp::Add, std::move(ptr), std::move(step))))
      return nullptr;
    if (!checked[dim])
      continue;
    ExprPtr lower = index();
    ExprPtr upper = index();
    ExprPtr inside =
        lower && upper
            ? analyzeBinary(
                  loc, BinaryOp::BitAnd,
                  analyzeBinary(loc, BinaryOp::Ge, std::move(lower),
                                makeConstant(loc, ConstValue::getInt(0))),
                  analyzeBinary(loc, BinaryOp::Lt, std::move(upper), part(1, dim)))
            : nullptr;
    if (!inside)
      return nullptr;
    mask = mask ? analyzeBinary(loc, BinaryOp::BitAnd, std::move(mask), std::move(inside))
                : std::move(inside);
    if (!mask)
      return nullptr;
  }
  if (mask) {
    if (!(mask = broadcast(std::move(mask), blockShape)))
      return nullptr;
  } else {
    mask = makeConstant(loc, ConstValue::getNone());
    if (isLoad)
      other = makeConstant(loc, ConstValue::getNone()); // No masked-off lanes.
  }
  args[0] = std::move(ptr);
  args[maskIndex] = std::move(mask);
  if (isLoad) {
    args[2] = std::move(other);
    args[4] = makeConstant(loc, ConstValue::getString(""));
  }
  args[boundaryIndex] = makeConstant(loc, ConstValue::getTuple({}));
  return typeMemoryOp(builtin, loc, std::move(args));
}

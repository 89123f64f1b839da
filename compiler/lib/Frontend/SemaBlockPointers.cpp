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
// tl.make_tensor_descriptor(base, shape, strides, block_shape,
// padding_option) is a block pointer at offsets 0 whose type carries the
// padding (Type::isTensorDescriptor); desc.load(offsets) and
// desc.store(offsets, value) advance a copy of it by the offsets and load or
// store with every dimension checked: the same masked loads and stores as a
// block pointer's.
//
// A host tensor descriptor parameter (`--signature a=tensordesc<fp16[64,
// 64]>`, Triton's TensorDescriptor argument) is the same descriptor made of
// kernel parameters: "a.base", "a.shape<d>" and "a.stride<d>" (which the
// runtime fills from one tile::TensorDescriptor argument). As Triton's, a
// host descriptor has a 16-byte aligned base and strides of whole 16 bytes
// but the last, which is 1 (the runtime checks them): the kernel assumes
// so. `tensordesc<...>:16` also assumes every dimension a multiple of 16, as
// Triton specializes integers (the loads' masks are then constant along
// 16 elements, so they stay vectorized). On sm_90 (SemaOptions::tensorMaps)
// a 2-D descriptor of 16-bit elements whose blocks the tensor memory
// accelerator can copy into tilec's swizzled slots has one more part,
// "a.tensormap", the CUtensorMap the runtime encodes; its loads carry the
// map, their coordinates and the descriptor's parts, and tilegpu-pipeline
// may copy them with it (when the parts are still the parameters). On
// sm_90a (SemaOptions::deviceTensorMaps) a load of such a block from a
// descriptor or block pointer made in the kernel carries a map built from
// its parts instead (Builtin::MakeTensorMap, tile.make_tensormap).
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

std::vector<std::string> Sema::getVariableParts(llvm::StringRef name) const {
  if (auto tuple = tupleVariables.find(name);
      tuple != tupleVariables.end() && !scope.count(name)) {
    std::vector<std::string> parts;
    for (size_t i = 0; i < tuple->second; ++i)
      parts.push_back((name + "." + llvm::Twine(i)).str());
    return parts;
  }
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

/// The block-pointer call `expr` is (a tensor descriptor when `descriptor`),
/// or null after an error naming `what`.
static BuiltinCallExpr *asBlockPointer(Expr &expr, llvm::StringRef what, bool descriptor,
                                       DiagnosticEngine &diag) {
  auto *call = llvm::dyn_cast<BuiltinCallExpr>(&expr);
  if (call && call->getType().isBlockPointer() &&
      call->getBuiltin() == Builtin::MakeBlockPtr &&
      call->getType().isTensorDescriptor() == descriptor)
    return call;
  const ConstValue *value = Sema::getConstexpr(expr);
  std::string got = value ? value->str() : expr.getType().str();
  if (descriptor)
    diag.error(expr.getLoc(),
               what + " expects a tensor descriptor (made in the kernel by "
                      "tl.make_tensor_descriptor, or passed from the host), got " +
                   got +
                   (expr.getType().isPointer() && expr.getType().isScalar()
                        ? " (a parameter that receives a host TensorDescriptor is typed "
                          "tensordesc<ELEMENT[BLOCK...]>: --signature NAME=tensordesc<"
                          "fp16[64, 64]>, or the JIT's tile::TensorDescriptor argument)"
                        : ""));
  else
    diag.error(expr.getLoc(),
               what + " expects a block pointer (tl.make_block_ptr), got " + got);
  return nullptr;
}

ExprPtr Sema::typeAdvance(SourceLoc loc, std::vector<ExprPtr> args) {
  BuiltinCallExpr *bptr = asBlockPointer(*args[0], "advance", /*descriptor=*/false, diag);
  if (!bptr)
    return nullptr;
  return advanceBlockPointer(loc, *bptr, std::move(args[1]), "the offsets of advance");
}

ExprPtr Sema::advanceBlockPointer(SourceLoc loc, BuiltinCallExpr &bptr, ExprPtr offsets,
                                  llvm::StringRef what) {
  size_t rank = rankOf(bptr);
  std::optional<std::vector<ExprPtr>> deltas =
      requireScalarTuple(std::move(offsets), rank, ScalarKind::I32, what);
  if (!deltas)
    return nullptr;
  std::vector<ExprPtr> parts = bptr.takeArgs();
  for (size_t dim = 0; dim < rank; ++dim) {
    ExprPtr &offset = parts[partIndex(3, dim, rank)];
    offset =
        analyzeBinary(loc, BinaryOp::Add, std::move(offset), std::move((*deltas)[dim]));
    if (!offset)
      return nullptr;
  }
  Type type = bptr.getType();
  return makeCall(loc, Builtin::MakeBlockPtr, std::move(parts), type);
}

ExprPtr Sema::typeMakeTensorDescriptor(SourceLoc loc, std::vector<ExprPtr> args) {
  enum { BaseArg, ShapeArg, StridesArg, BlockShapeArg, PaddingArg };
  const Type &baseType = args[BaseArg]->getType();
  if (getConstexpr(*args[BaseArg]) || !baseType.isPointer() || !baseType.isScalar()) {
    diag.error(args[BaseArg]->getLoc(),
               "the base of make_tensor_descriptor must be a scalar pointer, got " +
                   baseType.str());
    return nullptr;
  }
  ScalarKind elem = baseType.getElement();
  std::optional<Shape> blockShape =
      requireShape(*args[BlockShapeArg], "the block_shape of make_tensor_descriptor");
  if (!blockShape)
    return nullptr;
  size_t rank = blockShape->size();
  const ConstValue *padding = getConstexpr(*args[PaddingArg]);
  llvm::StringRef option = padding && padding->isString() ? padding->getString() : "?";
  if (option != "zero" && !(option == "nan" && isFloat(elem))) {
    diag.error(args[PaddingArg]->getLoc(),
               "padding_option of make_tensor_descriptor must be \"zero\" or \"nan\" "
               "(floats only), got " +
                   (padding ? padding->str() : args[PaddingArg]->getType().str()));
    return nullptr;
  }
  std::vector<ExprPtr> callArgs;
  callArgs.push_back(std::move(args[BaseArg]));
  // Triton (and TMA) need the last dimension contiguous.
  const Expr *lastStride = args[StridesArg].get();
  const ConstValue *strides = getConstexpr(*lastStride);
  if (strides && strides->isTuple() && !strides->getTuple().empty()) {
    strides = &strides->getTuple().back();
  } else if (auto *tuple = llvm::dyn_cast<TupleExpr>(lastStride);
             tuple && !tuple->getElements().empty()) {
    lastStride = tuple->getElements().back().get();
    strides = getConstexpr(*lastStride);
  }
  if (strides && strides->isInt() && strides->getInt() != 1) {
    diag.error(lastStride->getLoc(),
               "the last stride of a tensor descriptor must be 1, got " + strides->str());
    return nullptr;
  }
  for (auto [index, what] :
       {std::pair{ShapeArg, "the shape of make_tensor_descriptor"},
        {StridesArg, "the strides of make_tensor_descriptor"}}) {
    std::optional<std::vector<ExprPtr>> values =
        requireScalarTuple(std::move(args[index]), rank, ScalarKind::I64, what);
    if (!values)
      return nullptr;
    for (ExprPtr &value : *values)
      callArgs.push_back(std::move(value));
  }
  std::vector<ConstValue> order;
  for (size_t dim = 0; dim < rank; ++dim) {
    // Offsets 0 (i32, as a block pointer's), order fastest-last.
    if (!callArgs.emplace_back(
            coerce(makeConstant(loc, ConstValue::getInt(0)), ScalarKind::I32, {})))
      return nullptr;
    order.push_back(ConstValue::getInt(static_cast<int64_t>(rank - 1 - dim)));
  }
  callArgs.push_back(std::move(args[BlockShapeArg]));
  callArgs.push_back(makeConstant(loc, ConstValue::getTuple(std::move(order))));
  return makeCall(loc, Builtin::MakeBlockPtr, std::move(callArgs),
                  Type::getBlockPointer(elem, *blockShape,
                                        option == "nan" ? Type::Padding::NaN
                                                        : Type::Padding::Zero));
}

ExprPtr Sema::tensorDescriptorAttribute(ExprPtr desc, llvm::StringRef name,
                                        SourceLoc loc) {
  auto &call = llvm::cast<BuiltinCallExpr>(*desc);
  const Type &type = call.getType();
  if (name == "dtype")
    return makeConstant(loc, ConstValue::getDType(type.getElement()));
  if (name == "block_shape")
    return makeConstant(loc, *getConstexpr(call.getArg(call.getArgs().size() - 2)));
  size_t rank = rankOf(call);
  std::vector<ExprPtr> parts = call.takeArgs(), elements;
  for (size_t dim = 0; dim < rank; ++dim)
    elements.push_back(std::move(parts[partIndex(name == "shape" ? 1 : 2, dim, rank)]));
  return std::make_unique<TupleExpr>(loc, std::move(elements), /*list=*/false);
}

ExprPtr Sema::typeDescriptorAccess(Builtin builtin, SourceLoc loc,
                                   std::vector<ExprPtr> args) {
  bool isLoad = builtin == Builtin::DescriptorLoad;
  BuiltinCallExpr *desc =
      asBlockPointer(*args[0], isLoad ? "load" : "store", /*descriptor=*/true, diag);
  if (!desc)
    return nullptr;
  // The map of a host descriptor read through its own name, in the
  // kernel's scope (tilegpu-pipeline checks that the parts are still the
  // parameters).
  std::string tensorMap;
  if (auto *base = llvm::dyn_cast<NameExpr>(&desc->getArg(0));
      base && base->getName().ends_with(".base"))
    if (auto map = hostTensorMaps.find(base->getName().drop_back(5));
        map != hostTensorMaps.end() && map->second.base == base->getVariable())
      tensorMap = map->second.scopedName;
  size_t rank = rankOf(*desc);
  Type::Padding padding = desc->getType().getPadding();
  ExprPtr block = advanceBlockPointer(loc, *desc, std::move(args[1]),
                                      "the offsets of a tensor descriptor's " +
                                          std::string(isLoad ? "load" : "store"));
  if (!block)
    return nullptr;
  std::vector<ConstValue> everyDim;
  for (size_t dim = 0; dim < rank; ++dim)
    everyDim.push_back(ConstValue::getInt(static_cast<int64_t>(dim)));
  auto none = [&] { return makeConstant(loc, ConstValue::getNone()); };
  auto text = [&](llvm::StringRef value) {
    return makeConstant(loc, ConstValue::getString(value.str()));
  };
  std::vector<ExprPtr> access;
  access.push_back(std::move(block));
  if (isLoad) {
    // ptr, mask, other, boundary_check, padding_option, cache_modifier,
    // eviction_policy, volatile.
    access.push_back(none());
    access.push_back(none());
    access.push_back(makeConstant(loc, ConstValue::getTuple(std::move(everyDim))));
    access.push_back(text(padding == Type::Padding::NaN ? "nan" : "zero"));
    access.push_back(text(""));
    access.push_back(text(""));
    access.push_back(makeConstant(loc, ConstValue::getBool(false)));
  } else {
    // ptr, value, mask, boundary_check, cache_modifier, eviction_policy.
    access.push_back(std::move(args[2]));
    access.push_back(none());
    access.push_back(makeConstant(loc, ConstValue::getTuple(std::move(everyDim))));
    access.push_back(text(""));
    access.push_back(text(""));
  }
  std::string blockName;
  ExprPtr typed = typeBlockPointerAccess(isLoad ? Builtin::Load : Builtin::Store, loc,
                                         std::move(access), &blockName);
  if (!typed)
    return typed;
  if (tensorMap.empty())
    return addDeviceTensorMap(std::move(typed), blockName, loc);
  NameExpr map(loc, tensorMap, nullptr);
  return addTensorMap(std::move(typed), analyzeName(map), blockName, loc);
}

void Sema::bindBlockPointer(llvm::StringRef name, SourceLoc loc, ExprPtr value) {
  auto &call = llvm::cast<BuiltinCallExpr>(*value);
  size_t rank = rankOf(call);
  BlockPointerInfo info{call.getType().getElement(), Shape(call.getType().getShape()),
                        *getConstexpr(call.getArg(call.getArgs().size() - 2)),
                        *getConstexpr(call.getArg(call.getArgs().size() - 1)),
                        call.getType().getPadding()};
  // The parts only: block_shape and order live in `info`.
  std::vector<ExprPtr> parts = call.takeArgs();
  scope.erase(name);
  blockPointers[name] = info;
  std::vector<std::string> names = getVariableParts(name);
  for (size_t i = 0; i < 1 + 3 * rank; ++i)
    bind(names[i], loc, std::move(parts[i]));
}

ExprPtr Sema::loadBlockPointer(llvm::StringRef name, SourceLoc loc) {
  const BlockPointerInfo &info = blockPointers.find(name)->second;
  std::vector<ExprPtr> args;
  for (const std::string &part : getVariableParts(name)) {
    NameExpr ref(loc, part, nullptr);
    if (!args.emplace_back(analyzeName(ref)))
      return nullptr;
  }
  args.push_back(makeConstant(loc, info.blockShapeValue));
  args.push_back(makeConstant(loc, info.order));
  return makeCall(loc, Builtin::MakeBlockPtr, std::move(args),
                  Type::getBlockPointer(info.elem, info.blockShape, info.padding));
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
                                     std::vector<ExprPtr> args, std::string *boundName) {
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
  if (boundName)
    *boundName = name;
  std::vector<std::string> parts = getVariableParts(name);
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

ExprPtr Sema::addTensorMap(ExprPtr access, ExprPtr map, llvm::StringRef blockName,
                           SourceLoc loc) {
  auto *call = llvm::dyn_cast<BuiltinCallExpr>(access.get());
  if (!call || (call->getBuiltin() != Builtin::Load && call->getBuiltin() != Builtin::Store))
    return access;
  Builtin builtin = call->getBuiltin();
  Type type = call->getType();
  std::vector<ExprPtr> args = call->takeArgs();
  std::vector<std::string> parts = getVariableParts(blockName);
  size_t rank = (parts.size() - 1) / 3;
  auto ref = [&](llvm::StringRef name) {
    NameExpr expr(loc, name.str(), nullptr);
    return analyzeName(expr);
  };
  std::vector<ExprPtr> coords, descriptorParts;
  for (size_t dim = 0; dim < rank; ++dim)
    coords.push_back(ref(parts[partIndex(3, dim, rank)]));
  descriptorParts.push_back(ref(parts[0]));
  for (unsigned kind = 1; kind <= 2; ++kind)
    for (size_t dim = 0; dim < rank; ++dim)
      descriptorParts.push_back(ref(parts[partIndex(kind, dim, rank)]));
  args.push_back(std::move(map));
  args.push_back(std::make_unique<TupleExpr>(loc, std::move(coords), /*list=*/false));
  args.push_back(std::make_unique<TupleExpr>(loc, std::move(descriptorParts), /*list=*/false));
  if (llvm::any_of(args, [](const ExprPtr &arg) { return !arg; }))
    return nullptr;
  return makeCall(loc, builtin, std::move(args), std::move(type));
}

/// The box (outermost dimension first) and swizzle in bytes of the tensor
/// map through which the tensor memory accelerator copies blocks of
/// `blockShape` into tilec's slots (panels of rows of at most 128 bytes,
/// SwizzledSharedEncodingAttr::getForLdmatrix's swizzle), or nothing when it
/// cannot: 2-D blocks of 16-bit elements, 8 to 256 rows (a multiple of 8),
/// rows of 32 or 64 bytes or whole panels of 128, at most 256 columns.
static std::optional<std::pair<std::vector<int64_t>, int64_t>>
getTensorMapBox(ScalarKind elem, llvm::ArrayRef<int64_t> blockShape) {
  if (getBitWidth(elem) != 16 || blockShape.size() != 2)
    return std::nullopt;
  int64_t rows = blockShape[0], cols = blockShape[1];
  int64_t panelCols = std::min<int64_t>(cols, 64);
  if (rows % 8 != 0 || rows > 256 || cols > 256 || cols % panelCols != 0 ||
      (panelCols != 16 && panelCols != 32 && panelCols != 64))
    return std::nullopt;
  return std::pair{std::vector<int64_t>{rows, panelCols}, panelCols * 2};
}

ExprPtr Sema::addDeviceTensorMap(ExprPtr access, llvm::StringRef blockName, SourceLoc loc) {
  auto *call = llvm::dyn_cast<BuiltinCallExpr>(access.get());
  if (!options.deviceTensorMaps || !call ||
      (call->getBuiltin() != Builtin::Load && call->getBuiltin() != Builtin::Store))
    return access;
  // The tile the access moves: the pointers' shape and pointee.
  const Type &pointers = call->getArg(0).getType();
  if (!pointers.isTile() || !pointers.isPointer())
    return access;
  // The map's dimensions in memory order, outermost first: the block's, or
  // the other way round when its dimension 0 is the contiguous one (order
  // (0, 1): attention's K^T), whose slots hold the block transposed.
  const ConstValue &order = blockPointers.find(blockName)->second.order;
  bool transposed = order.isTuple() && order.getTuple().size() == 2 &&
                    order.getTuple()[0].isInt() && order.getTuple()[0].getInt() == 0;
  Shape shape(pointers.getShape());
  if (transposed && shape.size() == 2)
    std::swap(shape[0], shape[1]);
  auto box = getTensorMapBox(pointers.getElement(), shape);
  if (!box)
    return access;
  // base, shape0, shape1, stride0, stride1 (getVariableParts' order),
  // the dimensions swapped when transposed.
  std::vector<std::string> parts = getVariableParts(blockName);
  if (transposed && parts.size() >= 5) {
    std::swap(parts[1], parts[2]);
    std::swap(parts[3], parts[4]);
  }
  std::vector<ExprPtr> args;
  for (size_t i = 0; i < 5; ++i) {
    NameExpr ref(loc, parts[i], nullptr);
    if (!args.emplace_back(analyzeName(ref)))
      return nullptr;
  }
  std::vector<ConstValue> boxValue;
  for (int64_t dim : box->first)
    boxValue.push_back(ConstValue::getInt(dim));
  args.push_back(makeConstant(loc, ConstValue::getTuple(std::move(boxValue))));
  args.push_back(makeConstant(loc, ConstValue::getInt(box->second)));
  ExprPtr map = makeCall(loc, Builtin::MakeTensorMap, std::move(args),
                         Type::getScalar(ScalarKind::I64));
  return addTensorMap(std::move(access), std::move(map), blockName, loc);
}

void Sema::bindHostDescriptor(const Param &param, const Type &type, bool shapesDivisible,
                              KernelInstance &instance) {
  SourceLoc loc = param.loc;
  size_t rank = type.getShape().size();
  ScalarKind elem = type.getElement();
  // The parts are parameters whose scope names ("$a.base") no source name
  // can reach.
  auto addPart = [&](const std::string &part, Type partType) -> ExprPtr {
    KernelParam kp;
    kp.name = param.name + "." + part;
    kp.loc = loc;
    kp.type = partType;
    kp.descriptor = param.name;
    if (partType.isPointer()) {
      kp.align = kPointerArgAlignment;
      kp.descriptorBlockShape.assign(type.getShape().begin(), type.getShape().end());
    }
    kp.var = instance.createVariable(kp.name, loc);
    std::string scoped = "$" + kp.name;
    variables[scoped] = kp.var;
    scope[scoped] = Binding{ConstValue(), kp.var, kp.type, false};
    instance.params.push_back(std::move(kp));
    NameExpr ref(loc, scoped, nullptr);
    return analyzeName(ref);
  };
  std::vector<ExprPtr> args;
  args.push_back(addPart("base", Type::getScalar(elem, /*pointer=*/true)));
  std::vector<ExprPtr> shape, strides;
  for (size_t dim = 0; dim < rank; ++dim) {
    shape.push_back(addPart("shape" + std::to_string(dim), Type::getScalar(ScalarKind::I64)));
    if (shapesDivisible) // Checked at launch as any --specialize.
      instance.params.back().specialization = 16;
  }
  // Strides of whole 16 bytes, in elements (at least 1; an i1 takes a byte).
  int64_t multiple = 16 / std::max<int64_t>(1, getBitWidth(elem) / 8);
  for (size_t dim = 0; dim < rank; ++dim) {
    ExprPtr stride = addPart("stride" + std::to_string(dim), Type::getScalar(ScalarKind::I64));
    if (dim + 1 < rank && multiple > 1 && stride) {
      std::vector<ExprPtr> hint;
      Type strideType = stride->getType();
      hint.push_back(std::move(stride));
      hint.push_back(makeConstant(loc, ConstValue::getInt(multiple)));
      stride = makeCall(loc, Builtin::MultipleOf, std::move(hint), strideType);
    }
    strides.push_back(std::move(stride));
  }
  if (llvm::any_of(args, [](const ExprPtr &e) { return !e; }) ||
      llvm::any_of(shape, [](const ExprPtr &e) { return !e; }) ||
      llvm::any_of(strides, [](const ExprPtr &e) { return !e; }))
    return;
  std::string tensorMapName;
  if (options.tensorMaps)
    if (auto box = getTensorMapBox(elem, type.getShape())) {
      // Its type is a placeholder: MLIRGen gives it !tile.tensormap.
      addPart("tensormap", Type::getScalar(ScalarKind::I64));
      KernelParam &map = instance.params.back();
      map.tensorMap = true;
      map.tensorMapBox = box->first;
      map.tensorMapSwizzle = box->second;
      tensorMapName = "$" + map.name;
    }
  // The last stride is 1: a constant, so that the last dimension is
  // contiguous to the analyses.
  strides.back() = coerce(makeConstant(loc, ConstValue::getInt(1)), ScalarKind::I64, {});
  args.push_back(std::make_unique<TupleExpr>(loc, std::move(shape), /*list=*/false));
  args.push_back(std::make_unique<TupleExpr>(loc, std::move(strides), /*list=*/false));
  std::vector<ConstValue> block;
  for (int64_t dim : type.getShape())
    block.push_back(ConstValue::getInt(dim));
  args.push_back(makeConstant(loc, ConstValue::getTuple(std::move(block))));
  args.push_back(makeConstant(
      loc, ConstValue::getString(type.getPadding() == Type::Padding::NaN ? "nan" : "zero")));
  ExprPtr descriptor = typeMakeTensorDescriptor(loc, std::move(args));
  if (!descriptor) {
    scope[param.name].poisoned = true;
    return;
  }
  bindBlockPointer(param.name, loc, std::move(descriptor));
  if (!tensorMapName.empty())
    hostTensorMaps[param.name] = {tensorMapName, scope[param.name + ".base"].var};
}

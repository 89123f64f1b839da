//===- SemaReductions.cpp - Typing of reductions, scans and dot -----------===//
//
// sum/max/min/argmax/argmin (axis=None reduces everything: the input is
// reshaped to 1-D first, as Triton does), cumsum, histogram and dot. Each
// becomes a BuiltinCallExpr with normalized arguments that MLIRGen maps to
// one op:
//   Sum/Max/Min/Argmax/Argmin(input, axis)  axis: constexpr int in range
//   Cumsum(input, axis, reverse)
//   Histogram(input, num_bins, mask)        i32 [num_bins]; mask broadcast
//   Dot(a, b, acc)                          acc: fp32 [M, N] ([B, M, N] batched),
//                                           always present
// Promotions follow triton.language 3.x: sum/cumsum of integers narrower
// than 32 bits accumulate in (u)i32; max/min widen anything narrower than
// 32 bits (fp16 -> fp32, i8/u8/i16/i1 -> i32); argmax/argmin/cumsum promote
// bf16 to fp32; `dtype=` picks the accumulation type explicitly.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

using namespace tilec;

namespace {
/// Triton's `_pick_sum_dtype`: integers narrower than 32 bits widen to 32.
ScalarKind pickSumKind(ScalarKind kind) {
  if (isFP8(kind))
    return ScalarKind::F32;
  if (isFloat(kind) || getBitWidth(kind) >= 32)
    return kind;
  return isUnsigned(kind) ? ScalarKind::U32 : ScalarKind::I32;
}

/// Sets `kind` from a `dtype=` argument unless it is None; false after an
/// error.
bool optionalDType(const Expr &expr, ScalarKind &kind, DiagnosticEngine &diag) {
  if (Sema::isNone(expr))
    return true;
  const ConstValue *dtype = Sema::getConstexpr(expr);
  if (!dtype || !dtype->isDType()) {
    diag.error(expr.getLoc(), "expected a dtype such as tl.float32, got " +
                                  (dtype ? dtype->str() : expr.getType().str()));
    return false;
  }
  kind = dtype->getDType();
  return true;
}

} // namespace

std::optional<bool> tilec::requireFlag(const Expr &expr, llvm::StringRef what,
                                DiagnosticEngine &diag) {
  const ConstValue *value = Sema::getConstexpr(expr);
  if (value && (value->isIntLike() || value->isNone()))
    return value->isTruthy();
  diag.error(expr.getLoc(), what + " must be a constexpr bool, got " +
                                (value ? value->str() : expr.getType().str()));
  return std::nullopt;
}

const Type *tilec::requireTile(const Type *type, const Expr &expr, llvm::StringRef calleeName,
                        DiagnosticEngine &diag) {
  if (type && !type->isTile()) {
    diag.error(expr.getLoc(), "'" + calleeName + "' expects a tile, got " + type->str());
    return nullptr;
  }
  return type;
}

std::optional<int64_t> tilec::normalizeAxis(Sema &sema, const Expr &expr, int64_t rank,
                                            llvm::StringRef calleeName) {
  std::optional<int64_t> axis = sema.requireConstInt(expr, "the axis");
  if (!axis)
    return std::nullopt;
  if (*axis < -rank || *axis >= rank) {
    sema.getDiag().error(expr.getLoc(), "axis " + llvm::Twine(*axis) +
                                            " is out of range for '" + calleeName +
                                            "' of a tile of rank " + llvm::Twine(rank));
    return std::nullopt;
  }
  return *axis < 0 ? *axis + rank : *axis;
}

ExprPtr Sema::typeReduction(Builtin builtin, SourceLoc loc, llvm::StringRef calleeName,
                            std::vector<ExprPtr> args) {
  using B = Builtin;
  const Type *type =
      requireTile(requireValue(*args[0], calleeName), *args[0], calleeName, diag);
  if (!type)
    return nullptr;
  Shape shape(type->getShape());
  int64_t rank = shape.size();
  ScalarKind elem = type->getElement();
  bool isArg = builtin == B::Argmax || builtin == B::Argmin;
  bool isMaxMin = builtin == B::Max || builtin == B::Min;
  const ExprPtr &keepDimsArg = args[builtin == B::Sum ? 2 : isMaxMin ? 4 : 3];
  std::optional<bool> keepDims = requireFlag(*keepDimsArg, "keep_dims", diag);
  if (!keepDims)
    return nullptr;
  std::optional<int64_t> axis;
  bool allAxes = getConstexpr(*args[1]) && getConstexpr(*args[1])->isNone();
  if (!allAxes && !(axis = normalizeAxis(*this, *args[1], rank, calleeName)))
    return nullptr;
  bool withIndices = false;
  if (builtin == B::Sum) {
    ScalarKind target = pickSumKind(elem);
    if (!optionalDType(*args[3], target, diag))
      return nullptr;
    elem = target;
  } else {
    std::optional<bool> flag =
        requireFlag(*args[2], isArg ? "tie_break_left" : "return_indices", diag);
    if (!flag)
      return nullptr;
    withIndices = isMaxMin && *flag;
    // Ties go to the lowest index (tie_break_left, and
    // return_indices_tie_break_left for max/min with indices).
    const ExprPtr &tieArg = isArg ? args[2] : args[3];
    std::optional<bool> left =
        isArg ? flag : requireFlag(*tieArg, "return_indices_tie_break_left", diag);
    if (!left)
      return nullptr;
    if (!*left) {
      diag.error(tieArg->getLoc(),
                 isArg ? "not supported yet: tie_break_left=False"
                       : "not supported yet: return_indices_tie_break_left=False");
      return nullptr;
    }
    if (elem == ScalarKind::BF16 || isFP8(elem))
      elem = ScalarKind::F32;
    // Triton's max/min without indices widen narrow types to 32 bits.
    if (isMaxMin && !withIndices && getBitWidth(elem) < 32)
      elem = isFloat(elem) ? ScalarKind::F32 : ScalarKind::I32;
  }
  ExprPtr input = coerce(std::move(args[0]), elem, shape);
  if (!input)
    return nullptr;
  if (allAxes) {
    axis = 0;
    if (rank > 1) {
      Shape flat{type->getNumElements()};
      std::vector<ExprPtr> reshapeArgs;
      reshapeArgs.push_back(std::move(input));
      reshapeArgs.push_back(
          makeConstant(loc, ConstValue::getTuple({ConstValue::getInt(flat[0])})));
      input =
          makeCall(loc, B::Reshape, std::move(reshapeArgs), Type::getTile(elem, flat));
      shape = flat;
    }
  }
  Shape resultShape(shape);
  resultShape.erase(resultShape.begin() + *axis);
  // The reduction of `source` by `kind`, with keep_dims applied; `values`
  // asks an argmax/argmin for the values it selects instead of the indices.
  auto reduce = [&](Builtin kind, ExprPtr source, ScalarKind resultElem,
                    bool values) -> ExprPtr {
    std::vector<ExprPtr> callArgs;
    callArgs.push_back(std::move(source));
    callArgs.push_back(makeConstant(loc, ConstValue::getInt(*axis)));
    if (values)
      callArgs.push_back(makeConstant(loc, ConstValue::getBool(true)));
    ExprPtr result =
        makeCall(loc, kind, std::move(callArgs), Type::getTile(resultElem, resultShape));
    if (!*keepDims)
      return result;
    if (allAxes)
      return broadcast(std::move(result), Shape(rank, 1));
    if (resultShape.empty())
      return broadcast(std::move(result), {1});
    Shape kept(resultShape);
    kept.insert(kept.begin() + *axis, 1);
    std::vector<ExprPtr> expandArgs;
    expandArgs.push_back(std::move(result));
    expandArgs.push_back(makeConstant(loc, ConstValue::getInt(*axis)));
    return makeCall(loc, B::ExpandDims, std::move(expandArgs),
                    Type::getTile(resultElem, kept));
  };
  if (!withIndices)
    return reduce(builtin, std::move(input), isArg ? ScalarKind::I32 : elem, false);
  // max/min with return_indices=True: (values, indices) of one argmax/argmin
  // over the input, evaluated once into a variable.
  std::unique_ptr<NameExpr> read = evaluateOnce(calleeName.str() + ".input", std::move(input));
  Builtin arg = builtin == B::Max ? B::Argmax : B::Argmin;
  std::vector<ExprPtr> pair;
  pair.push_back(reduce(arg, readAgain(*read), elem, true));
  pair.push_back(reduce(arg, std::move(read), ScalarKind::I32, false));
  return std::make_unique<TupleExpr>(loc, std::move(pair), false);
}

ExprPtr Sema::typeScan(SourceLoc loc, llvm::StringRef calleeName,
                       std::vector<ExprPtr> args) {
  const Type *type =
      requireTile(requireValue(*args[0], calleeName), *args[0], calleeName, diag);
  if (!type)
    return nullptr;
  Shape shape(type->getShape());
  std::optional<int64_t> axis = normalizeAxis(*this, *args[1], shape.size(), calleeName);
  std::optional<bool> reverse =
      axis ? requireFlag(*args[2], "reverse", diag) : std::nullopt;
  if (!reverse)
    return nullptr;
  ScalarKind elem = type->getElement();
  if (elem == ScalarKind::BF16)
    elem = ScalarKind::F32;
  elem = pickSumKind(elem);
  if (!optionalDType(*args[3], elem, diag))
    return nullptr;
  std::vector<ExprPtr> callArgs;
  if (!callArgs.emplace_back(coerce(std::move(args[0]), elem, shape)))
    return nullptr;
  callArgs.push_back(makeConstant(loc, ConstValue::getInt(*axis)));
  callArgs.push_back(makeConstant(loc, ConstValue::getBool(*reverse)));
  return makeCall(loc, Builtin::Cumsum, std::move(callArgs), Type::getTile(elem, shape));
}

ExprPtr Sema::typeDot(SourceLoc loc, std::vector<ExprPtr> args) {
  enum { A, B, Acc, InputPrecision, AllowTF32, MaxImpreciseAcc, OutDType };
  const Type *a = requireValue(*args[A], "dot");
  const Type *b = a ? requireValue(*args[B], "dot") : nullptr;
  if (!b)
    return nullptr;
  // [M, K] x [K, N], or batched: [B, M, K] x [B, K, N].
  for (const Type *operand : {a, b}) {
    size_t rank = operand->getShape().size();
    if (rank != 2 && rank != 3) {
      diag.error(args[operand == a ? A : B]->getLoc(),
                 "'dot' expects 2-D tiles (or 3-D ones, batched), got " + operand->str());
      return nullptr;
    }
  }
  llvm::ArrayRef<int64_t> aShape = a->getShape(), bShape = b->getShape();
  std::string shapes = formatShape(aShape) + " and " + formatShape(bShape);
  if (aShape.size() != bShape.size() || (aShape.size() == 3 && aShape[0] != bShape[0])) {
    diag.error(loc, "incompatible shapes for 'dot': " + shapes +
                        " (a batched dot needs two 3-D tiles of one batch size)");
    return nullptr;
  }
  Shape batch(aShape.drop_back(2));
  aShape = aShape.take_back(2);
  bShape = bShape.take_back(2);
  if (aShape[1] != bShape[0]) {
    diag.error(loc, "incompatible shapes for 'dot': " + shapes + " (inner dimensions " +
                        llvm::Twine(aShape[1]) + " and " + llvm::Twine(bShape[0]) +
                        " differ)");
    return nullptr;
  }
  if (aShape[0] < 16 || aShape[1] < 16 || bShape[1] < 16) {
    diag.error(loc, "'dot' needs M, N and K of at least 16, got " + shapes);
    return nullptr;
  }
  ScalarKind elem = a->getElement();
  // fp8 products run on fp16 operands, which hold every fp8 value exactly
  // (the two fp8 formats may meet, as in Triton).
  if (isFP8(elem) && isFP8(b->getElement())) {
    for (unsigned i : {A, B}) {
      Shape shape(args[i]->getType().getShape());
      if (!(args[i] = coerce(std::move(args[i]), ScalarKind::F16, shape)))
        return nullptr;
    }
    a = &args[A]->getType();
    b = &args[B]->getType();
    elem = ScalarKind::F16;
  }
  if (elem != b->getElement()) {
    diag.error(loc, "both operands of 'dot' must have the same type, got " + a->str() +
                        " and " + b->str());
    return nullptr;
  }
  if (elem != ScalarKind::F16 && elem != ScalarKind::BF16 && elem != ScalarKind::F32 &&
      elem != ScalarKind::I8) {
    diag.error(loc, "not supported yet: 'dot' of " + getScalarKindName(elem) +
                        " (fp16, bf16, fp32, fp8 and i8 are supported)");
    return nullptr;
  }
  // i8 products accumulate exactly in i32, as in Triton.
  bool isInt = elem == ScalarKind::I8;
  ScalarKind accKind = isInt ? ScalarKind::I32 : ScalarKind::F32;
  // input_precision (with allow_tf32, Triton's older spelling) decides
  // whether fp32 inputs may run as tf32 on the tensor cores: by default they
  // do, as in Triton; "ieee" and "tf32x3" keep full fp32 products.
  // max_num_imprecise_acc is checked and ignored (fp32 accumulation).
  const ConstValue *precision = getConstexpr(*args[InputPrecision]);
  if (!precision ||
      !(precision->isNone() ||
        (precision->isString() &&
         llvm::is_contained({"tf32", "tf32x3", "ieee"}, precision->getString())))) {
    diag.error(args[InputPrecision]->getLoc(),
               "input_precision must be \"tf32\", \"tf32x3\" or \"ieee\"");
    return nullptr;
  }
  for (unsigned i : {AllowTF32, MaxImpreciseAcc})
    if (!getConstexpr(*args[i])) {
      diag.error(args[i]->getLoc(), "the options of 'dot' must be constexpr");
      return nullptr;
    }
  const ConstValue *maxImprecise = getConstexpr(*args[MaxImpreciseAcc]);
  if (!maxImprecise->isNone())
    diag.warning(args[MaxImpreciseAcc]->getLoc(),
                 "max_num_imprecise_acc is ignored: tilec accumulates in fp32 throughout");
  if (!precision->isNone() && elem != ScalarKind::F32)
    diag.warning(args[InputPrecision]->getLoc(),
                 "input_precision is ignored: it applies to fp32 operands, and these are " +
                     getScalarKindName(elem));
  const ConstValue *allowTF32 = getConstexpr(*args[AllowTF32]);
  bool tf32 = precision->isNone()
                  ? allowTF32->isNone() || allowTF32->isTruthy()
                  : precision->getString() == "tf32";
  const ConstValue *outValue = getConstexpr(*args[OutDType]);
  bool outOk = outValue && outValue->isDType() &&
               (isInt ? outValue->getDType() == ScalarKind::I32 ||
                            outValue->getDType() == ScalarKind::F32
                      : outValue->getDType() == ScalarKind::F32 ||
                            (outValue->getDType() == elem && elem != ScalarKind::F32));
  if (!outOk) {
    diag.error(args[OutDType]->getLoc(),
               std::string(isInt ? "out_dtype of 'dot' of i8 must be tl.int32"
                                 : "out_dtype of 'dot' must be tl.float32 (or the "
                                   "input type)") +
                   ", got " +
                   (outValue ? outValue->str() : args[OutDType]->getType().str()));
    return nullptr;
  }
  // For i8 the default tl.float32 means int32, as in Triton.
  ScalarKind outKind = isInt ? ScalarKind::I32 : outValue->getDType();
  Shape resultShape(batch);
  resultShape.push_back(aShape[0]);
  resultShape.push_back(bShape[1]);
  ExprPtr acc = std::move(args[Acc]);
  if (isNone(*acc)) {
    acc = coerce(makeConstant(loc, ConstValue::getInt(0)), accKind, resultShape);
  } else if (isInt) {
    const Type *accType = requireValue(*acc, "dot");
    if (!accType)
      return nullptr;
    if (accType->getShape() != llvm::ArrayRef<int64_t>(resultShape) ||
        accType->getElement() != ScalarKind::I32) {
      diag.error(acc->getLoc(), "'acc' of 'dot' of i8 must be an i32 tile of shape " +
                                    formatShape(resultShape) + ", got " + accType->str());
      return nullptr;
    }
  } else {
    const Type *accType = requireValue(*acc, "dot");
    if (!accType)
      return nullptr;
    if (accType->getShape() != llvm::ArrayRef<int64_t>(resultShape)) {
      diag.error(acc->getLoc(), "'acc' has shape " + formatShape(accType->getShape()) +
                                    " but 'dot' of " + shapes + " produces " +
                                    formatShape(resultShape));
      return nullptr;
    }
    if (!isFloat(accType->getElement())) {
      diag.error(acc->getLoc(),
                 "'acc' of 'dot' must be floating point, got " + accType->str());
      return nullptr;
    }
    outKind = accType->getElement();
    acc = coerce(std::move(acc), ScalarKind::F32, resultShape);
  }
  std::vector<ExprPtr> callArgs;
  callArgs.push_back(std::move(args[A]));
  callArgs.push_back(std::move(args[B]));
  callArgs.push_back(std::move(acc));
  if (elem == ScalarKind::F32)
    callArgs.push_back(
        makeConstant(loc, ConstValue::getString(tf32 ? "tf32" : "ieee")));
  ExprPtr result = makeCall(loc, Builtin::Dot, std::move(callArgs),
                            Type::getTile(accKind, resultShape));
  return coerce(std::move(result), outKind, resultShape);
}

ExprPtr Sema::typeHistogram(SourceLoc loc, std::vector<ExprPtr> args) {
  enum { InputArg, BinsArg, MaskArg };
  auto describe = [&](const Expr &expr) {
    const ConstValue *value = getConstexpr(expr);
    return value ? value->str() : expr.getType().str();
  };
  const Type &type = args[InputArg]->getType();
  if (getConstexpr(*args[InputArg]) || !type.isTile() || type.isPointer() ||
      type.getShape().size() != 1 || !isInteger(type.getElement()) ||
      type.getElement() == ScalarKind::I1) {
    diag.error(args[InputArg]->getLoc(), "histogram needs a 1-D tile of integers, got " +
                                             describe(*args[InputArg]));
    return nullptr;
  }
  const ConstValue *bins = getConstexpr(*args[BinsArg]);
  if (!bins || !bins->isInt()) {
    diag.error(args[BinsArg]->getLoc(), "num_bins of histogram must be a constexpr int, got " +
                                            describe(*args[BinsArg]));
    return nullptr;
  }
  if (!checkDimension(bins->getInt(), args[BinsArg]->getLoc()) ||
      !checkNumElements({bins->getInt()}, args[BinsArg]->getLoc()))
    return nullptr;
  if (!isNone(*args[MaskArg]) &&
      !(args[MaskArg] = typeMask(std::move(args[MaskArg]), type.getShape())))
    return nullptr;
  Type result = Type::getTile(ScalarKind::I32, {bins->getInt()});
  return makeCall(loc, Builtin::Histogram, std::move(args), std::move(result));
}

//===- SemaExpr.cpp - Typing of names, operators and promotion ------------===//
//
// Triton's typing rules: weakly typed literals (an int literal takes the
// other operand's integer type, a float literal fp32 unless the other side
// is a float), promotion of mixed types, NumPy broadcasting, pointer
// arithmetic, and folding of operators whose operands are all constexpr.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "tilec/Frontend/Heuristics.h"

#include <algorithm>
#include <functional>

#include <limits>

using namespace tilec;

namespace {
/// Promotion of two runtime element types (Triton's computation type).
ScalarKind promote(ScalarKind a, ScalarKind b) {
  if (a == b)
    return a;
  if (isFloat(a) || isFloat(b)) {
    if (a == ScalarKind::F64 || b == ScalarKind::F64)
      return ScalarKind::F64;
    if (a == ScalarKind::F32 || b == ScalarKind::F32)
      return ScalarKind::F32;
    // fp16 takes in fp8, and the two fp8 formats meet in fp16 (Triton's
    // rules); bf16 with fp16 or fp8 meets in fp32.
    if ((a == ScalarKind::F16 && isFP8(b)) || (b == ScalarKind::F16 && isFP8(a)) ||
        (isFP8(a) && isFP8(b)))
      return ScalarKind::F16;
    if (isFloat(a) && isFloat(b))
      return ScalarKind::F32;
    return isFloat(a) ? a : b;
  }
  if (a == ScalarKind::I1)
    return b;
  if (b == ScalarKind::I1)
    return a;
  if (getBitWidth(a) != getBitWidth(b))
    return getBitWidth(a) > getBitWidth(b) ? a : b;
  return isUnsigned(a) ? a : b; // Same width, mixed signedness: unsigned.
}

/// The type a constexpr number takes next to runtime values of kind `other`.
ScalarKind promoteWeak(const ConstValue &value, ScalarKind other) {
  if (value.isFloat())
    return isFloat(other) ? other : ScalarKind::F32;
  if (value.isBool() || isFloat(other))
    return other;
  ScalarKind natural = *getNaturalScalarKind(value);
  if (other == ScalarKind::I1 || !fitsIn(value.getInt(), other))
    return promote(natural, other);
  return other;
}
} // namespace

ExprPtr Sema::makeConstant(SourceLoc loc, ConstValue value) {
  auto constant = std::make_unique<ConstantExpr>(loc, std::move(value));
  constant->setType(Type::getConstexpr());
  return constant;
}

const ConstValue *Sema::getConstexpr(const Expr &expr) {
  auto *constant = llvm::dyn_cast<ConstantExpr>(&expr);
  return constant && constant->getType().isConstexpr() ? &constant->getValue()
                                                       : nullptr;
}

ExprPtr Sema::broadcast(ExprPtr expr, llvm::ArrayRef<int64_t> shape) {
  if (expr->getType().getShape() == shape)
    return expr;
  SourceLoc loc = expr->getLoc();
  Type type = expr->getType().withShape(shape);
  return std::make_unique<BroadcastExpr>(loc, std::move(expr), std::move(type));
}

ExprPtr Sema::coerce(ExprPtr expr, ScalarKind elem, llvm::ArrayRef<int64_t> shape) {
  if (auto *constant = llvm::dyn_cast<ConstantExpr>(expr.get())) {
    const ConstValue &value = constant->getValue();
    if (!value.isNumber()) {
      diag.error(constant->getLoc(), "expected a number, got " + value.str());
      return nullptr;
    }
    // A typed constant holds exactly the value its type can: later
    // conversions start from what the GPU would hold.
    auto result = std::make_unique<ConstantExpr>(constant->getLoc(),
                                                 convertConstant(value, elem));
    result->setType(Type::getTile(elem, shape));
    return result;
  }
  const Type &type = expr->getType();
  if (type.getElement() != elem || type.isPointer()) {
    SourceLoc loc = expr->getLoc();
    Type converted = type.withElement(elem);
    expr = std::make_unique<ConvertExpr>(loc, std::move(expr), std::move(converted));
  }
  return broadcast(std::move(expr), shape);
}

std::optional<ScalarKind> Sema::unify(llvm::MutableArrayRef<ExprPtr> operands,
                                      SourceLoc loc, llvm::StringRef what) {
  std::optional<ScalarKind> kind;
  Shape shape;
  for (const ExprPtr &operand : operands) {
    if (const ConstValue *value = getConstexpr(*operand)) {
      if (!value->isNumber()) {
        diag.error(operand->getLoc(), "'" + what + "' expects a number, got " +
                                          value->str());
        return std::nullopt;
      }
      continue;
    }
    const Type &type = operand->getType();
    if (!type.isValue() || type.isPointer()) {
      diag.error(operand->getLoc(), "'" + what + "' expects a number or a tile of "
                                                 "numbers, got " + type.str());
      return std::nullopt;
    }
    kind = kind ? promote(*kind, type.getElement()) : type.getElement();
    std::optional<Shape> merged = broadcastShapes(shape, type.getShape());
    if (!merged) {
      diag.error(loc, "incompatible shapes for '" + what + "': " +
                          formatShape(shape) + " and " + formatShape(type.getShape()));
      return std::nullopt;
    }
    shape = *merged;
  }
  if (!checkNumElements(shape, loc))
    return std::nullopt;
  // Constexpr operands adapt to the runtime ones (or to each other).
  for (const ExprPtr &operand : operands) {
    if (const ConstValue *value = getConstexpr(*operand)) {
      ScalarKind natural = *getNaturalScalarKind(*value);
      kind = kind ? promoteWeak(*value, *kind) : natural;
    }
  }
  for (ExprPtr &operand : operands)
    if (!(operand = coerce(std::move(operand), *kind, shape)))
      return std::nullopt;
  return kind;
}

//===----------------------------------------------------------------------===//
// Expression dispatch
//===----------------------------------------------------------------------===//

ExprPtr Sema::analyzeExpr(const Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Kind::Constant:
    return makeConstant(expr.getLoc(), llvm::cast<ConstantExpr>(expr).getValue());
  case Expr::Kind::Name:
    return analyzeName(llvm::cast<NameExpr>(expr));
  case Expr::Kind::Attribute:
    return analyzeAttribute(llvm::cast<AttributeExpr>(expr));
  case Expr::Kind::Call:
    return analyzeCall(llvm::cast<CallExpr>(expr));
  case Expr::Kind::Subscript:
    return analyzeSubscript(llvm::cast<SubscriptExpr>(expr));
  case Expr::Kind::Unary:
    return analyzeUnary(llvm::cast<UnaryExpr>(expr));
  case Expr::Kind::Binary: {
    auto &binary = llvm::cast<BinaryExpr>(expr);
    ExprPtr lhs = analyzeExpr(binary.getLHS());
    // A constexpr left side of `and`/`or` short-circuits as in Python (and
    // Triton): `B is not None and B > 3` never looks at `B > 3` when B is None.
    bool isAnd = binary.getOp() == BinaryOp::And, isOr = binary.getOp() == BinaryOp::Or;
    if (const ConstValue *value = lhs ? getConstexpr(*lhs) : nullptr;
        value && (isAnd || isOr))
      return value->isTruthy() == isOr ? std::move(lhs) : analyzeExpr(binary.getRHS());
    ExprPtr rhs = lhs ? analyzeExpr(binary.getRHS()) : nullptr;
    if (!rhs)
      return nullptr;
    return analyzeBinary(binary.getLoc(), binary.getOp(), std::move(lhs), std::move(rhs));
  }
  case Expr::Kind::IfExp:
    return analyzeIfExpr(llvm::cast<IfExpr>(expr));
  case Expr::Kind::Tuple:
    return analyzeTuple(llvm::cast<TupleExpr>(expr));
  case Expr::Kind::Slice:
    diag.error(expr.getLoc(), "slices are only allowed inside subscripts");
    return nullptr;
  case Expr::Kind::Lambda:
    diag.error(expr.getLoc(), "lambda expressions are only supported as the values "
                              "of @triton.heuristics");
    return nullptr;
  case Expr::Kind::ListComp:
    diag.error(expr.getLoc(), "list comprehensions are only supported in the configs "
                              "of @autotune");
    return nullptr;
  case Expr::Kind::BuiltinCall:
  case Expr::Kind::Convert:
  case Expr::Kind::Broadcast:
  case Expr::Kind::Combine:
    break;
  }
  diag.error(expr.getLoc(), "internal error: typed node in a syntactic tree");
  return nullptr;
}

std::string Sema::describeValue(const Expr &expr) {
  if (const auto *tuple = llvm::dyn_cast<TupleExpr>(&expr)) {
    size_t n = tuple->getElements().size();
    return "a tuple of " + std::to_string(n) + (n == 1 ? " value" : " values") +
           " (a trailing comma, as in '(x, )', makes a tuple)";
  }
  if (const ConstValue *value = getConstexpr(expr))
    return value->str();
  return expr.getType().str();
}

ExprPtr Sema::analyzeName(const NameExpr &expr) {
  auto it = scope.find(expr.getName());
  if (it == scope.end() && blockPointers.count(expr.getName()))
    return loadBlockPointer(expr.getName(), expr.getLoc());
  if (it == scope.end() && tupleVariables.count(expr.getName())) {
    std::vector<ExprPtr> elements;
    for (const std::string &part : getVariableParts(expr.getName())) {
      NameExpr ref(expr.getLoc(), part, nullptr);
      if (!elements.emplace_back(analyzeName(ref)))
        return nullptr;
    }
    return std::make_unique<TupleExpr>(expr.getLoc(), std::move(elements), /*list=*/false);
  }
  if (it != scope.end()) {
    const Binding &binding = it->second;
    if (binding.poisoned) {
      if (!binding.reason.empty())
        diag.error(expr.getLoc(), binding.reason);
      return nullptr;
    }
    if (!binding.var)
      return makeConstant(expr.getLoc(), binding.value);
    auto name = std::make_unique<NameExpr>(expr.getLoc(), expr.getName().str(),
                                           binding.var);
    name->setType(binding.type);
    return name;
  }
  if (std::optional<ScalarKind> dtype = parseScalarKindName(expr.getName()))
    return makeConstant(expr.getLoc(), ConstValue::getDType(*dtype));
  if (const GlobalDef *global = module->lookupGlobal(expr.getName()))
    return analyzeGlobal(*global, expr.getLoc());
  if (reportUnreadableName(expr.getName(), expr.getLoc()))
    return nullptr;
  if (module->lookup(expr.getName()))
    diag.error(expr.getLoc(), "device function '" + expr.getName() +
                                  "' can only be called");
  else if (lookupBuiltin(expr.getName()))
    diag.error(expr.getLoc(), "builtin '" + expr.getName() + "' can only be called");
  else
    diag.error(expr.getLoc(), "unknown name '" + expr.getName() + "'");
  return nullptr;
}

ExprPtr Sema::analyzeGlobal(const GlobalDef &global, SourceLoc loc) {
  if (auto it = globalValues.find(&global); it != globalValues.end())
    return makeConstant(loc, it->second);
  // Its name, and the names its value reads, are its own module's.
  ModuleScope globalNames(*this, global.owner);
  if (reportAmbiguousName(global.name, loc, "module-level"))
    return nullptr;
  if (llvm::is_contained(evaluatingGlobals, &global)) {
    diag.error(loc, "module-level '" + global.name + "' is defined in terms of itself");
    return nullptr;
  }
  // Evaluated where it is defined: no kernel variable is visible there.
  llvm::StringMap<Binding> kernelScope;
  std::swap(scope, kernelScope);
  evaluatingGlobals.push_back(&global);
  ExprPtr value = analyzeExpr(*global.value);
  evaluatingGlobals.pop_back();
  std::swap(scope, kernelScope);
  if (!value)
    return nullptr;
  const ConstValue *constant = getConstexpr(*value);
  if (!constant) {
    diag.error(global.value->getLoc(), "module-level '" + global.name +
                                           "' must be a compile-time constant, got " +
                                           value->getType().str());
    return nullptr;
  }
  globalValues[&global] = *constant;
  return makeConstant(loc, *constant);
}

bool Sema::reportAmbiguousName(llvm::StringRef name, SourceLoc loc, llvm::StringRef what) {
  SourceLoc other;
  std::string why;
  if (const HostCode *host = module->lookupHostCode(name)) {
    other = host->reasonLoc;
    why = host->reason;
  } else if (const ForeignImport *import = module->lookupForeign(name)) {
    other = import->loc;
    why = "imported here from '" + import->module + "'";
  } else if (const GlobalDef *global = what == "function" ? module->lookupGlobal(name)
                                                          : nullptr) {
    other = global->loc;
    why = "assigned here";
  } else if (const FunctionDef *def = what == "function" ? nullptr : module->lookup(name)) {
    other = def->getLoc();
    why = "defined here";
  } else if (auto alias = module->tritonAliases.find(name.str());
             what == "function" && alias != module->tritonAliases.end()) {
    why = "also an alias of '" + alias->second + "' (assigned at the top level)";
  } else if (module->isImportedAndDefined(name)) {
    const FunctionDef *def = module->lookup(name);
    other = def ? def->getLoc() : module->lookupGlobal(name)->loc;
    why = "defined here, and imported from another file";
  } else {
    return false;
  }
  diag.error(loc, what + " '" + name +
                      "' is also bound elsewhere in this file; tilec cannot tell which one "
                      "the kernel sees (bind it once)");
  diag.note(other, why);
  return true;
}

bool Sema::reportUnreadableName(llvm::StringRef name, SourceLoc loc) {
  auto noteImport = [&](const ForeignImport &import) {
    diag.note(import.loc, import.searched.empty() ? std::string("imported here")
                                                  : "imported here; " + import.searched);
  };
  const ForeignImport *import = module->lookupForeign(name);
  if (!import) {
    const HostCode *host = module->lookupHostCode(name);
    const ForeignImport *star = module->lookupForeign("*");
    if (!host && star) {
      diag.error(loc, "unknown name '" + name + "'; it may come from 'from " + star->module +
                          " import *', whose module tilec cannot read: put " +
                          llvm::StringRef(star->module).ltrim('.') +
                          ".tile (or .py) beside this file or in a -I directory");
      noteImport(*star);
      return true;
    }
    if (!host)
      return false;
    diag.error(loc, "'" + name + "' is defined by Python host code that tilec does not "
                                 "compile");
    diag.note(host->reasonLoc, host->reason);
    return true;
  }
  diag.error(loc, "'" + name + "' comes from module '" + import->module +
                      "', which tilec cannot read: define it in this file, or put " +
                      llvm::StringRef(import->module).ltrim('.') +
                      ".tile (or .py) beside it or in a -I directory");
  noteImport(*import);
  return true;
}

std::optional<ConstValue> tilec::getDTypeAttribute(ScalarKind kind,
                                                   llvm::StringRef name) {
  unsigned bits = getBitWidth(kind);
  if (name == "primitive_bitwidth")
    return ConstValue::getInt(bits);
  if (name == "int_bitwidth" && isInteger(kind))
    return ConstValue::getInt(bits);
  if (name == "itemsize") // 0 for int1, as Triton's primitive_bitwidth // 8.
    return ConstValue::getInt(bits / 8);
  if (name == "name")
    return ConstValue::getString(getScalarKindName(kind));
  if (name == "fp_mantissa_width" && isFloat(kind))
    return ConstValue::getInt(kind == ScalarKind::F8E4M3   ? 3
                              : kind == ScalarKind::F8E5M2 ? 2
                              : kind == ScalarKind::F16    ? 10
                              : kind == ScalarKind::BF16 ? 7
                              : kind == ScalarKind::F32  ? 23
                                                         : 52);
  return std::nullopt;
}

std::optional<bool> tilec::getDTypePredicate(ScalarKind kind, llvm::StringRef name) {
  // Triton counts int1 among the unsigned integers.
  bool isUnsignedInt = isUnsigned(kind) || kind == ScalarKind::I1;
  if (name == "is_floating")
    return isFloat(kind);
  if (name == "is_int")
    return isInteger(kind);
  if (name == "is_int_signed")
    return isInteger(kind) && !isUnsignedInt;
  if (name == "is_int_unsigned")
    return isUnsignedInt;
  if (name == "is_bool" || name == "is_int1")
    return kind == ScalarKind::I1;
  if (name == "is_fp8")
    return isFP8(kind);
  if (name == "is_fp8e4nv")
    return kind == ScalarKind::F8E4M3;
  if (name == "is_fp8e5")
    return kind == ScalarKind::F8E5M2;
  if (name == "is_ptr" || name == "is_block" || name.starts_with("is_fp8"))
    return false; // The other fp8 formats (e4b15, e4b8, e5b16) have no type.
  // is_fp16, is_bf16, is_fp32, is_fp64, is_int8 ... is_uint64.
  if (name.consume_front("is_")) {
    std::optional<ScalarKind> named = parseScalarKindName(name);
    if (named)
      return *named == kind;
  }
  return std::nullopt;
}

ExprPtr Sema::analyzeAttribute(const AttributeExpr &expr) {
  std::string dotted = expr.getDottedName();
  llvm::StringRef root = llvm::StringRef(dotted).split('.').first;
  if (auto alias = module->moduleAliases.find(root.str());
      !dotted.empty() && !scope.count(root) && alias != module->moduleAliases.end()) {
    // `helpers.BLOCK`: a constant of a module another file defines.
    llvm::StringRef member = llvm::StringRef(dotted).drop_front(root.size() + 1);
    if (const GlobalDef *global = alias->second->lookupGlobal(member))
      return analyzeGlobal(*global, expr.getLoc());
    diag.error(expr.getLoc(), "module '" + root + "' has no module-level constant '" +
                                  member + "'");
    return nullptr;
  }
  if (!dotted.empty() && !scope.count(root) && !blockPointers.count(root)) {
    // A module path: `tl.float16`, `math.pi`, or a mistake.
    if (root == "math" && module->expandTritonAlias(dotted) == dotted)
      if (std::optional<ConstValue> constant =
              getPythonMathConstant(llvm::StringRef(dotted).drop_front(5)))
        return makeConstant(expr.getLoc(), *constant);
    if (std::optional<ScalarKind> dtype = parseScalarKindName(dotted))
      return makeConstant(expr.getLoc(), ConstValue::getDType(*dtype));
    // Triton's other fp8 dtypes have no type here, but code compares with
    // them (`V.dtype.element_ty == tl.float8e4b15`): a value equal to
    // nothing else.
    if (std::optional<std::string> marker = getUnsupportedDTypeMarker(dotted))
      return makeConstant(expr.getLoc(), ConstValue::getString(*marker));
    // `tl.float16.primitive_bitwidth`: an attribute of a dtype.
    auto [prefix, member] = llvm::StringRef(dotted).rsplit('.');
    if (std::optional<ScalarKind> dtype = parseScalarKindName(prefix))
      if (std::optional<ConstValue> value = getDTypeAttribute(*dtype, member))
        return makeConstant(expr.getLoc(), *value);
    if (lookupBuiltin(dotted))
      diag.error(expr.getLoc(), "builtin '" + dotted + "' can only be called");
    else if (!reportUnreadableName(root, expr.getLoc()))
      diag.error(expr.getLoc(), "unknown name '" + dotted + "'");
    return nullptr;
  }
  // `p.dtype.element_ty` / `p.type.element_ty` (Triton's spelling of the
  // element type: `acc.to(c_ptr.dtype.element_ty)`): the pointee of a
  // pointer, the element of a tile.
  if (const auto *inner = llvm::dyn_cast<AttributeExpr>(&expr.getBase());
      inner && expr.getName() == "element_ty" &&
      (inner->getName() == "dtype" || inner->getName() == "type")) {
    ExprPtr value = analyzeExpr(inner->getBase());
    if (!value)
      return nullptr;
    const Type &type = value->getType();
    if ((type.isValue() && (type.isPointer() || inner->getName() == "type")) ||
        type.isBlockPointer())
      return makeConstant(expr.getLoc(), ConstValue::getDType(type.getElement()));
    diag.error(expr.getNameLoc(), "'" + inner->getName() + ".element_ty' needs a pointer" +
                                      (inner->getName() == "type" ? " or a tile" : "") +
                                      ", got " + type.str());
    return nullptr;
  }
  ExprPtr base = analyzeExpr(expr.getBase());
  if (!base)
    return nullptr;
  if (const ConstValue *value = getConstexpr(*base); value && value->isDType()) {
    if (std::optional<ConstValue> attribute =
            getDTypeAttribute(value->getDType(), expr.getName()))
      return makeConstant(expr.getLoc(), *attribute);
  }
  // `c.value` of a tl.constexpr: the value it wraps.
  if (getConstexpr(*base) && expr.getName() == "value")
    return base;
  const Type &type = base->getType();
  if (type.isValue() && expr.getName() == "numel") {
    int64_t count = 1;
    for (int64_t dim : type.getShape())
      count *= dim;
    return makeConstant(expr.getLoc(), ConstValue::getInt(count));
  }
  if (type.isValue() && expr.getName() == "shape") {
    std::vector<ConstValue> dims;
    for (int64_t dim : type.getShape())
      dims.push_back(ConstValue::getInt(dim));
    return makeConstant(expr.getLoc(), ConstValue::getTuple(std::move(dims)));
  }
  if (type.isTile() && expr.getName() == "T") { // x.T is trans(x).
    std::vector<ExprPtr> args;
    args.push_back(std::move(base));
    return typeShapeOp(Builtin::Trans, expr.getLoc(), "T", std::move(args));
  }
  if (type.isValue() && !type.isPointer() && expr.getName() == "dtype")
    return makeConstant(expr.getLoc(), ConstValue::getDType(type.getElement()));
  if (type.isTensorDescriptor() &&
      llvm::is_contained({"dtype", "block_shape", "shape", "strides"}, expr.getName()))
    return tensorDescriptorAttribute(std::move(base), expr.getName(), expr.getLoc());
  // A pointer's dtype is its pointer type, tl.pointer_type(element).
  if (type.isValue() && type.isPointer() && expr.getName() == "dtype")
    return makeConstant(expr.getLoc(), ConstValue::getPointerDType(type.getElement()));
  if (const ConstValue *value = getConstexpr(*base);
      value && value->isPointerDType() && expr.getName() == "element_ty")
    return makeConstant(expr.getLoc(), ConstValue::getDType(value->getDType()));
  diag.error(expr.getNameLoc(), "unknown attribute '" + expr.getName() + "' of " +
                                    (getConstexpr(*base) ? getConstexpr(*base)->str()
                                                         : type.str()));
  return nullptr;
}

ExprPtr Sema::analyzeUnary(const UnaryExpr &expr) {
  if (expr.getOp() == UnaryOp::Star) {
    diag.error(expr.getLoc(), "not supported: unpacking with '*' (only the configs of "
                              "@autotune may list '*more_configs')");
    return nullptr;
  }
  ExprPtr operand = analyzeExpr(expr.getOperand());
  if (!operand)
    return nullptr;
  UnaryOp op = expr.getOp();
  if (const ConstValue *value = getConstexpr(*operand)) {
    std::string error;
    std::optional<ConstValue> folded = foldUnary(op, *value, error);
    if (!folded) {
      diag.error(expr.getLoc(), error);
      return nullptr;
    }
    return makeConstant(expr.getLoc(), *folded);
  }
  Type type = operand->getType();
  bool ok = type.isValue() && !type.isPointer();
  // `-mask` is Triton's `0 - mask` in i1, which is the mask itself.
  if (op == UnaryOp::Invert)
    ok = ok && isInteger(type.getElement());
  if (!ok) {
    diag.error(expr.getLoc(), "unary '" + getSpelling(op) + "' is not defined on " +
                                  type.str());
    return nullptr;
  }
  if (op == UnaryOp::Pos)
    return operand;
  if (op == UnaryOp::Not) {
    operand = coerce(std::move(operand), ScalarKind::I1, type.getShape());
    type = type.withElement(ScalarKind::I1);
  }
  auto result = std::make_unique<UnaryExpr>(expr.getLoc(), op, std::move(operand));
  result->setType(type);
  return result;
}

ExprPtr Sema::analyzeBinary(SourceLoc loc, BinaryOp op, ExprPtr lhs, ExprPtr rhs) {
  const ConstValue *lhsValue = getConstexpr(*lhs), *rhsValue = getConstexpr(*rhs);
  if (lhsValue && rhsValue) {
    std::string error;
    std::optional<ConstValue> folded = foldBinary(op, *lhsValue, *rhsValue, error);
    if (!folded) {
      diag.error(loc, error);
      return nullptr;
    }
    return makeConstant(loc, *folded);
  }
  llvm::StringRef spelling = getSpelling(op);
  for (const ExprPtr *operand : {&lhs, &rhs}) {
    if (!getConstexpr(**operand) && !(*operand)->getType().isValue()) {
      diag.error((*operand)->getLoc(),
                 llvm::isa<TupleExpr>(**operand)
                     ? "operand of '" + spelling + "' is " + describeValue(**operand)
                     : "operand of '" + spelling + "' has no value");
      return nullptr;
    }
  }
  if (op == BinaryOp::Is || op == BinaryOp::IsNot) {
    const ConstValue *other = lhsValue ? lhsValue : rhsValue;
    if (!other || !other->isNone()) {
      diag.error(loc, "'" + spelling + "' is only supported with None");
      return nullptr;
    }
    // A runtime value is never None.
    return makeConstant(loc, ConstValue::getBool(op == BinaryOp::IsNot));
  }
  if (op == BinaryOp::Pow || op == BinaryOp::MatMul) {
    diag.error(loc, "not supported yet: '" + spelling + "' on runtime values" +
                        (op == BinaryOp::MatMul ? " (use tl.dot)" : ""));
    return nullptr;
  }

  // Pointer arithmetic and pointer comparisons.
  bool lhsPointer = lhs->getType().isPointer(), rhsPointer = rhs->getType().isPointer();
  if (lhsPointer || rhsPointer) {
    if (op == BinaryOp::Add && rhsPointer && !lhsPointer)
      std::swap(lhs, rhs);
    const Type &ptrType = lhs->getType(), &otherType = rhs->getType();
    bool comparePointers = isComparison(op) && lhsPointer && rhsPointer &&
                           ptrType.getElement() == otherType.getElement();
    bool offset = (op == BinaryOp::Add || op == BinaryOp::Sub) &&
                  lhs->getType().isPointer() && !rhs->getType().isPointer();
    if (!comparePointers && !offset) {
      diag.error(loc, "unsupported operand types for '" + spelling + "': " +
                          (lhsValue ? lhsValue->str() : lhs->getType().str()) + " and " +
                          (rhsValue ? rhsValue->str() : rhs->getType().str()));
      return nullptr;
    }
    const ConstValue *offsetValue = getConstexpr(*rhs);
    std::optional<ScalarKind> offsetKind =
        offsetValue ? (offsetValue->isInt() ? getNaturalScalarKind(*offsetValue)
                                            : std::nullopt)
                    : std::optional(otherType.getElement());
    if (offset && (!offsetKind || isFloat(*offsetKind) || *offsetKind == ScalarKind::I1)) {
      diag.error(rhs->getLoc(), "pointer offset must be an integer, got " +
                                    (offsetValue ? offsetValue->str() : otherType.str()));
      return nullptr;
    }
    llvm::ArrayRef<int64_t> otherShape =
        offsetValue ? llvm::ArrayRef<int64_t>() : otherType.getShape();
    std::optional<Shape> shape = broadcastShapes(ptrType.getShape(), otherShape);
    if (!shape) {
      diag.error(loc, "incompatible shapes for '" + spelling + "': " +
                          formatShape(ptrType.getShape()) + " and " +
                          formatShape(otherShape));
      return nullptr;
    }
    if (!checkNumElements(*shape, loc))
      return nullptr;
    Type resultType = comparePointers ? Type::getTile(ScalarKind::I1, *shape)
                                      : ptrType.withShape(*shape);
    lhs = broadcast(std::move(lhs), *shape);
    rhs = comparePointers ? broadcast(std::move(rhs), *shape)
                          : coerce(std::move(rhs), *offsetKind, *shape);
    auto result = std::make_unique<BinaryExpr>(loc, op, std::move(lhs), std::move(rhs));
    result->setType(resultType);
    return result;
  }

  ExprPtr operands[] = {std::move(lhs), std::move(rhs)};
  std::optional<ScalarKind> kind = unify(operands, loc, spelling);
  if (!kind)
    return nullptr;
  Shape shape(operands[0]->getType().getShape());
  ScalarKind computeKind = *kind;
  switch (op) {
  case BinaryOp::And:
  case BinaryOp::Or:
    computeKind = ScalarKind::I1;
    break;
  case BinaryOp::Div:
    if (isInteger(computeKind))
      computeKind = ScalarKind::F32;
    break;
  case BinaryOp::FloorDiv:
  case BinaryOp::LShift:
  case BinaryOp::RShift:
  case BinaryOp::BitAnd:
  case BinaryOp::BitOr:
  case BinaryOp::BitXor:
    if (isFloat(computeKind)) {
      diag.error(loc, "'" + spelling + "' requires integer operands, got " +
                          getScalarKindName(computeKind));
      return nullptr;
    }
    if (op == BinaryOp::FloorDiv && computeKind == ScalarKind::I1)
      computeKind = ScalarKind::I32;
    break;
  case BinaryOp::Add:
  case BinaryOp::Sub:
  case BinaryOp::Mul:
    // Two booleans stay i1, as Triton computes them: `*` is and, `+` and
    // `-` wrap (masks multiplied together are a mask).
    break;
  case BinaryOp::Mod:
    if (computeKind == ScalarKind::I1)
      computeKind = ScalarKind::I32;
    break;
  default: // Comparisons.
    break;
  }
  for (ExprPtr &operand : operands)
    operand = coerce(std::move(operand), computeKind, shape);
  auto result = std::make_unique<BinaryExpr>(loc, op, std::move(operands[0]),
                                             std::move(operands[1]));
  result->setType(Type::getTile(isComparison(op) ? ScalarKind::I1 : computeKind, shape));
  return result;
}

ExprPtr Sema::analyzeTuple(const TupleExpr &expr) {
  std::vector<ConstValue> values;
  std::vector<ExprPtr> elements;
  for (const ExprPtr &element : expr.getElements()) {
    ExprPtr typed = analyzeExpr(*element);
    if (!typed)
      return nullptr;
    if (const ConstValue *value = getConstexpr(*typed))
      values.push_back(*value);
    elements.push_back(std::move(typed));
  }
  if (values.size() == elements.size())
    return makeConstant(expr.getLoc(), ConstValue::getTuple(std::move(values)));
  // Some element is a runtime value: a typed tuple (no value of its own;
  // make_block_ptr, advance and unpacking assignments take it apart).
  auto tuple = std::make_unique<TupleExpr>(expr.getLoc(), std::move(elements), expr.isList());
  tuple->setType(Type::getVoid());
  return tuple;
}

ExprPtr Sema::sliceTuple(const ConstValue &tuple, const SliceExpr &slice, SourceLoc loc) {
  // Python's slice of a constexpr tuple: `shape[:-1]`, `shape[1:]`, `t[::-1]`.
  int64_t size = tuple.getTuple().size();
  std::optional<int64_t> parts[3];
  const Expr *exprs[3] = {slice.getLower(), slice.getUpper(), slice.getStep()};
  for (int i = 0; i < 3; ++i) {
    if (!exprs[i])
      continue;
    ExprPtr value = analyzeExpr(*exprs[i]);
    if (!value)
      return nullptr;
    if (isNone(*value))
      continue;
    if (!(parts[i] = requireConstInt(*value, "a slice bound")))
      return nullptr;
  }
  int64_t step = parts[2].value_or(1);
  if (step == 0) {
    diag.error(slice.getLoc(), "slice step cannot be zero");
    return nullptr;
  }
  // Clamp as Python does.
  auto bound = [&](std::optional<int64_t> value, int64_t ifAbsent) {
    if (!value)
      return ifAbsent;
    int64_t v = *value < 0 ? *value + size : *value;
    return step > 0 ? std::clamp<int64_t>(v, 0, size) : std::clamp<int64_t>(v, -1, size - 1);
  };
  int64_t start = bound(parts[0], step > 0 ? 0 : size - 1);
  int64_t stop = bound(parts[1], step > 0 ? size : -1);
  std::vector<ConstValue> elements;
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
    elements.push_back(tuple.getTuple()[i]);
  return makeConstant(loc, ConstValue::getTuple(std::move(elements)));
}

ExprPtr Sema::analyzeSubscript(const SubscriptExpr &expr) {
  if (heuristic)
    if (const auto *name = llvm::dyn_cast<NameExpr>(&expr.getBase())) {
      auto it = scope.find(name->getName());
      bool marker = it != scope.end() && !it->second.var && it->second.value.isString() &&
                    it->second.value.getString() == kHeuristicArgumentsMarker;
      if (marker || (name->getName() == heuristic->argsName && it == scope.end()))
        return analyzeHeuristicArgument(expr);
    }
  ExprPtr base = analyzeExpr(expr.getBase());
  if (!base)
    return nullptr;
  llvm::ArrayRef<ExprPtr> indices = expr.getIndices();
  if (const ConstValue *tuple = getConstexpr(*base)) {
    if (!tuple->isTuple() || indices.size() != 1) {
      diag.error(expr.getLoc(), "cannot index " + tuple->str());
      return nullptr;
    }
    if (const auto *slice = llvm::dyn_cast<SliceExpr>(indices[0].get()))
      return sliceTuple(*tuple, *slice, expr.getLoc());
    ExprPtr indexExpr = analyzeExpr(*indices[0]);
    std::optional<int64_t> index =
        indexExpr ? requireConstInt(*indexExpr, "the index") : std::nullopt;
    if (!index)
      return nullptr;
    int64_t size = tuple->getTuple().size();
    int64_t i = *index < 0 ? *index + size : *index;
    if (i < 0 || i >= size) {
      diag.error(indices[0]->getLoc(), "index " + llvm::Twine(*index) +
                                           " is out of range for " + tuple->str());
      return nullptr;
    }
    return makeConstant(expr.getLoc(), tuple->getTuple()[i]);
  }
  // A tuple of runtime values (`desc.shape[0]`, `(a, b)[1]`): its element,
  // when dropping the others drops no computation.
  if (auto *tuple = llvm::dyn_cast<TupleExpr>(base.get());
      tuple && indices.size() == 1 && !llvm::isa<SliceExpr>(indices[0].get())) {
    ExprPtr indexExpr = analyzeExpr(*indices[0]);
    std::optional<int64_t> index =
        indexExpr ? requireConstInt(*indexExpr, "the index") : std::nullopt;
    if (!index)
      return nullptr;
    std::vector<ExprPtr> elements = tuple->takeElements();
    int64_t size = static_cast<int64_t>(elements.size());
    int64_t i = *index < 0 ? *index + size : *index;
    if (i < 0 || i >= size) {
      diag.error(indices[0]->getLoc(), "index " + llvm::Twine(*index) +
                                           " is out of range for a tuple of " +
                                           llvm::Twine(size) + " values");
      return nullptr;
    }
    std::function<bool(const Expr &)> isPlain = [&](const Expr &e) {
      if (const auto *convert = llvm::dyn_cast<ConvertExpr>(&e))
        return isPlain(convert->getOperand());
      return llvm::isa<NameExpr, ConstantExpr>(e);
    };
    if (!llvm::all_of(elements, [&](const ExprPtr &e) { return isPlain(*e); })) {
      diag.error(expr.getLoc(), "not supported yet: indexing a tuple of computed runtime "
                                "values (unpack it, or assign the value first)");
      return nullptr;
    }
    return std::move(elements[i]);
  }
  // Tiles: `x[:, None]`, `x[None, :]`: each None inserts a dimension.
  Type type = base->getType();
  unsigned numSlices = 0;
  for (const ExprPtr &index : indices) {
    auto *slice = llvm::dyn_cast<SliceExpr>(index.get());
    auto *constant = llvm::dyn_cast<ConstantExpr>(index.get());
    bool fullSlice = slice && !slice->getLower() && !slice->getUpper() && !slice->getStep();
    if (fullSlice)
      ++numSlices;
    else if (!constant || !constant->getValue().isNone()) {
      diag.error(index->getLoc(), "not supported yet: tile indexing other than ':' "
                                  "and 'None' (as in x[:, None])");
      return nullptr;
    }
  }
  // Missing trailing ':' are implied, as in NumPy (`x[None]` on a 1-D tile).
  if (!type.isValue() || numSlices > type.getShape().size()) {
    diag.error(expr.getLoc(), "subscript of " + type.str() + " has more ':' than its " +
                              llvm::Twine(type.getShape().size()) + " dimensions (" +
                              llvm::Twine(numSlices) + ")");
    return nullptr;
  }
  Shape shape(type.getShape());
  for (size_t axis = 0; axis < indices.size(); ++axis) {
    if (llvm::isa<SliceExpr>(indices[axis].get()))
      continue;
    shape.insert(shape.begin() + axis, 1);
    std::vector<ExprPtr> args;
    args.push_back(std::move(base));
    args.push_back(makeConstant(indices[axis]->getLoc(),
                                ConstValue::getInt(static_cast<int64_t>(axis))));
    base = makeCall(expr.getLoc(), Builtin::ExpandDims, std::move(args),
                    type.withShape(shape));
  }
  return base;
}

ExprPtr Sema::analyzeIfExpr(const IfExpr &expr) {
  ExprPtr cond = analyzeExpr(expr.getCond());
  if (!cond)
    return nullptr;
  const ConstValue *value = getConstexpr(*cond);
  if (!value)
    return analyzeRuntimeIfExpr(expr, std::move(cond));
  return analyzeExpr(value->isTruthy() ? expr.getThen() : expr.getElse());
}

std::optional<int64_t> Sema::requireConstInt(const Expr &expr, llvm::StringRef what) {
  const ConstValue *value = getConstexpr(expr);
  if (value && value->isInt())
    return value->getInt();
  if (value && value->isBool())
    diag.error(expr.getLoc(), what + " must be an integer, got the bool " + value->str());
  else if (value)
    diag.error(expr.getLoc(), what + " must be an integer, got " + value->str());
  else if (auto *name = llvm::dyn_cast<NameExpr>(&expr))
    diag.error(expr.getLoc(), "'" + name->getName() + "' must be a constexpr (it is " +
                                  what + "), but it is a runtime " +
                                  expr.getType().str());
  else
    diag.error(expr.getLoc(), what + " must be a constexpr, but it is a runtime " +
                                  expr.getType().str());
  return std::nullopt;
}

bool Sema::checkDimension(int64_t dim, SourceLoc loc) {
  if (dim > 0 && (dim & (dim - 1)) == 0)
    return true;
  diag.error(loc, "tile dimensions must be powers of two, got " + llvm::Twine(dim));
  return false;
}

bool Sema::checkNumElements(llvm::ArrayRef<int64_t> shape, SourceLoc loc) {
  int64_t numElements = 1;
  for (int64_t dim : shape) {
    if (__builtin_mul_overflow(numElements, dim, &numElements) ||
        numElements > kMaxTileElements) {
      diag.error(loc, "a tile of shape " + formatShape(shape) + " is too large; the "
                      "maximum is " + llvm::Twine(kMaxTileElements) + " elements");
      return false;
    }
  }
  return true;
}

std::optional<Shape> Sema::requireShape(const Expr &expr, llvm::StringRef what) {
  const ConstValue *value = getConstexpr(expr);
  std::vector<ConstValue> dims;
  if (value && value->isTuple())
    dims.assign(value->getTuple().begin(), value->getTuple().end());
  else if (value && value->isInt())
    dims.push_back(*value);
  Shape shape;
  for (const ConstValue &dim : dims) {
    if (!dim.isInt()) {
      dims.clear();
      break;
    }
    if (!checkDimension(dim.getInt(), expr.getLoc()))
      return std::nullopt;
    shape.push_back(dim.getInt());
  }
  if (!value || dims.empty()) {
    diag.error(expr.getLoc(), what + " must be a constexpr shape such as (64, 32)");
    return std::nullopt;
  }
  if (!checkNumElements(shape, expr.getLoc()))
    return std::nullopt;
  return shape;
}

//===- SemaBuiltins.cpp - Resolution and typing of calls ------------------===//
//
// Resolves a call to a builtin (with or without the `tl.` prefix, or as a
// method), normalizes its arguments to signature order (keywords, defaults),
// then checks and types it.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "llvm/ADT/StringExtras.h"

#include "tilec/Frontend/Libdevice.h"
#include "tilec/Frontend/Parser.h"
#include "tilec/Frontend/Prelude.h"

using namespace tilec;

/// The libdevice function a callee's full dotted `path` names, or null:
/// NAME in a libdevice module (tl.math.NAME only where NAME is no builtin,
/// since tl.math.exp is the builtin exp), and the core functions Triton
/// implements with libdevice (tl.umulhi, tl.div_rn, tl.sqrt_rn).
static const LibdeviceFunction *lookupLibdeviceCallee(llvm::StringRef path) {
  auto [module, name] = path.rsplit('.');
  if (module.empty() || name.empty())
    return nullptr;
  if (isLibdeviceModule(module)) {
    if (module.ends_with(".math") && lookupBuiltin(path))
      return nullptr;
    return lookupLibdeviceFunction(name);
  }
  if ((module == "tl" || module == "triton.language") &&
      (name == "umulhi" || name == "div_rn" || name == "sqrt_rn"))
    return lookupLibdeviceFunction(name);
  return nullptr;
}

const FunctionDef *Sema::lookupPreludeFunction(llvm::StringRef path) {
  auto [moduleName, name] = path.rsplit('.');
  bool math = llvm::is_contained({"tl.math", "triton.language.math"}, moduleName);
  if (!(llvm::is_contained({"tl", "triton.language", "tl.random", "triton.language.random"},
                           moduleName) ||
        (math && name == "fdiv")) ||
      !isPreludeFunction(name))
    return nullptr;
  if (!prelude) {
    llvm::SourceMgr &sourceMgr = diag.getSourceMgr();
    unsigned bufferId = sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(getPreludeSource(), kPreludeBufferName),
        llvm::SMLoc());
    prelude = parseFile(bufferId, diag);
    if (!prelude)
      return nullptr;
  }
  return prelude->lookup(name);
}

ExprPtr Sema::makeCall(SourceLoc loc, Builtin builtin, std::vector<ExprPtr> args,
                       Type type) {
  auto call = std::make_unique<BuiltinCallExpr>(loc, builtin, std::move(args));
  call->setType(std::move(type));
  return call;
}

ExprPtr Sema::analyzePythonMathCall(const CallExpr &call, llvm::StringRef name) {
  std::vector<ConstValue> values;
  for (const CallArg &arg : call.getArgs()) {
    ExprPtr value = analyzeExpr(*arg.value);
    if (!value)
      return nullptr;
    const ConstValue *constant = getConstexpr(*value);
    if (!constant || !arg.keyword.empty()) {
      diag.error(arg.value->getLoc(), "math." + name + " takes constant positional "
                                      "arguments (Python's math module runs at compile "
                                      "time; use tl.math on tiles)");
      return nullptr;
    }
    values.push_back(*constant);
  }
  std::string error;
  std::optional<ConstValue> result = foldPythonMath(name, values, error);
  if (!result) {
    diag.error(call.getLoc(), error);
    return nullptr;
  }
  return makeConstant(call.getLoc(), *result);
}

ExprPtr Sema::analyzeCall(const CallExpr &call) {
  const Expr &callee = call.getCallee();
  std::optional<Builtin> builtin;
  std::string calleeName;
  ExprPtr self;
  if (auto *name = llvm::dyn_cast<NameExpr>(&callee)) {
    calleeName = name->getName().str();
    if (scope.count(calleeName)) {
      diag.error(callee.getLoc(), "'" + calleeName + "' is a variable, not a function");
      return nullptr;
    }
    if (const FunctionDef *def = module->lookup(calleeName)) {
      if (reportAmbiguousName(calleeName, callee.getLoc(), "function"))
        return nullptr;
      return callDeviceFunction(*def, call);
    }
    std::string path = module->expandTritonAlias(calleeName);
    if (path != calleeName) {
      if (const LibdeviceFunction *function = lookupLibdeviceCallee(path))
        return analyzeLibdeviceCall(*function, call, calleeName);
      if (const FunctionDef *def = lookupPreludeFunction(path))
        return callDeviceFunction(*def, call);
      builtin = lookupBuiltin(path);
    } else {
      builtin = lookupBuiltin(calleeName);
    }
    if (!builtin) {
      if (!reportUnreadableName(calleeName, callee.getLoc()))
        diag.error(callee.getLoc(), "unknown function '" + calleeName + "'");
      return nullptr;
    }
  } else if (auto *attr = llvm::dyn_cast<AttributeExpr>(&callee)) {
    std::string dotted = attr->getDottedName();
    llvm::StringRef root = llvm::StringRef(dotted).split('.').first;
    if (auto alias = module->moduleAliases.find(root.str());
        !dotted.empty() && !scope.count(root) && alias != module->moduleAliases.end()) {
      // `helpers.f(...)`: a device function another file defines.
      llvm::StringRef member = llvm::StringRef(dotted).drop_front(root.size() + 1);
      if (const FunctionDef *def = alias->second->lookup(member))
        return callDeviceFunction(*def, call);
      diag.error(callee.getLoc(), "module '" + root + "' has no device function '" +
                                      member + "'");
      return nullptr;
    }
    if (!dotted.empty() && !scope.count(root) && !blockPointers.count(root)) {
      calleeName = dotted;
      std::string path = module->expandTritonAlias(dotted);
      llvm::StringRef pathRoot = llvm::StringRef(path).split('.').first;
      if (root == "math" && path == dotted && dotted.find('.', 5) == std::string::npos)
        return analyzePythonMathCall(call, llvm::StringRef(dotted).drop_front(5));
      if (pathRoot != "tl" && pathRoot != "triton") {
        if (!reportUnreadableName(root, callee.getLoc()))
          diag.error(callee.getLoc(), "unknown name '" + root + "'");
        return nullptr;
      }
      if (const LibdeviceFunction *function = lookupLibdeviceCallee(path))
        return analyzeLibdeviceCall(*function, call, calleeName);
      if (const FunctionDef *def = lookupPreludeFunction(path))
        return callDeviceFunction(*def, call);
      if (!(builtin = lookupBuiltin(path))) {
        auto [module, name] = llvm::StringRef(path).rsplit('.');
        diag.error(callee.getLoc(),
                   isLibdeviceModule(module)
                       ? "unknown libdevice function '" + name.str() + "' (in '" +
                             dotted + "')"
                       : "unknown builtin '" + dotted + "'");
        return nullptr;
      }
    } else {
      if (!(self = analyzeExpr(attr->getBase())))
        return nullptr;
      calleeName = attr->getName().str();
      if (const ConstValue *value = getConstexpr(*self); value && value->isDType())
        if (std::optional<bool> answer = getDTypePredicate(value->getDType(), calleeName)) {
          if (!call.getArgs().empty()) {
            diag.error(call.getLoc(), "'" + calleeName + "' takes no arguments");
            return nullptr;
          }
          return makeConstant(call.getLoc(), ConstValue::getBool(*answer));
        }
      // Triton's tensor methods that the prelude defines: `x.sort()` is
      // `tl.sort(x)`.
      static const char *const preludeMethods[] = {"ravel", "split", "cumprod", "xor_sum",
                                                    "flip",  "sort",  "topk",    "gather"};
      if (!lookupBuiltinMethod(calleeName) && !getConstexpr(*self) &&
          llvm::is_contained(preludeMethods, calleeName))
        if (const FunctionDef *def = lookupPreludeFunction("tl." + calleeName))
          return callDeviceFunction(*def, call, std::move(self));
      if (!(builtin = lookupBuiltinMethod(calleeName))) {
        const ConstValue *value = getConstexpr(*self);
        diag.error(attr->getNameLoc(), "unknown method '" + calleeName + "' of " +
                                           (value ? value->str() : self->getType().str()));
        return nullptr;
      }
    }
  } else {
    diag.error(call.getLoc(), "this expression cannot be called");
    return nullptr;
  }
  return analyzeBuiltin(*builtin, call, calleeName, std::move(self));
}

ExprPtr Sema::analyzeBuiltin(Builtin builtin, const CallExpr &call,
                             llvm::StringRef calleeName, ExprPtr self) {
  // Bare min/max with one argument or an axis are reductions.
  if (builtin == Builtin::PyMin || builtin == Builtin::PyMax) {
    bool reduction = call.getArgs().size() == 1 ||
                     llvm::any_of(call.getArgs(), [](const CallArg &arg) {
                       return arg.keyword == "axis";
                     });
    if (reduction)
      builtin = builtin == Builtin::PyMin ? Builtin::Min : Builtin::Max;
  }
  if (builtin == Builtin::Reduce || builtin == Builtin::AssociativeScan)
    return analyzeCombineCall(builtin, call, calleeName, std::move(self));
  std::vector<ExprPtr> args;
  if (!normalizeArgs(builtin, call, calleeName, std::move(self), args))
    return nullptr;
  return typeBuiltin(builtin, call.getLoc(), calleeName, std::move(args));
}

bool Sema::normalizeArgs(Builtin builtin, const CallExpr &call,
                         llvm::StringRef calleeName, ExprPtr self,
                         std::vector<ExprPtr> &args) {
  const BuiltinInfo &info = getBuiltinInfo(builtin);
  size_t numParams = info.params.size();
  std::vector<const Expr *> slots(numParams, nullptr), extra;
  size_t numPositional = self ? 1 : 0;
  for (const CallArg &arg : call.getArgs()) {
    if (arg.keyword.empty()) {
      if (numPositional < numParams && !info.params[numPositional].keywordOnly) {
        slots[numPositional++] = arg.value.get();
      } else if (info.variadic) {
        extra.push_back(arg.value.get());
      } else {
        diag.error(arg.loc, "too many arguments to '" + calleeName + "'; expected " +
                                getBuiltinSignature(builtin));
        return false;
      }
      continue;
    }
    auto it = llvm::find_if(info.params, [&](const BuiltinParam &param) {
      return param.name == arg.keyword;
    });
    if (it == info.params.end()) {
      diag.error(arg.loc, "'" + calleeName + "' got an unexpected keyword argument '" +
                              arg.keyword + "'; expected " +
                              getBuiltinSignature(builtin));
      return false;
    }
    size_t index = it - info.params.begin();
    if (index < numPositional || slots[index]) {
      diag.error(arg.loc, "'" + calleeName + "' got multiple values for argument '" +
                              arg.keyword + "'");
      return false;
    }
    slots[index] = arg.value.get();
  }
  for (size_t i = 0; i < numParams; ++i) {
    if (i == 0 && self) {
      args.push_back(std::move(self));
    } else if (slots[i]) {
      ExprPtr value = analyzeExpr(*slots[i]);
      if (!value)
        return false;
      args.push_back(std::move(value));
    } else if (info.params[i].required) {
      diag.error(call.getLoc(), "'" + calleeName + "' is missing required argument '" +
                                    info.params[i].name + "'; expected " +
                                    getBuiltinSignature(builtin));
      return false;
    } else {
      args.push_back(makeConstant(call.getLoc(), info.params[i].defaultValue));
    }
  }
  for (const Expr *value : extra) {
    if (!(args.emplace_back(analyzeExpr(*value))))
      return false;
  }
  return true;
}

std::optional<ScalarKind> tilec::requireDType(const Expr &expr, DiagnosticEngine &diag) {
  const ConstValue *value = Sema::getConstexpr(expr);
  if (value && value->isDType())
    return value->getDType();
  if (value && value->isString() && isUnsupportedDTypeMarker(value->getString())) {
    diag.error(expr.getLoc(), "not supported: the fp8 type " +
                                  value->getString().drop_front(19).drop_back() +
                                  " (tilec has tl.float8e4nv and tl.float8e5)");
    return std::nullopt;
  }
  diag.error(expr.getLoc(), "expected a dtype such as tl.float16, got " +
                                (value ? value->str() : expr.getType().str()));
  return std::nullopt;
}

ExprPtr Sema::typeMemoryOp(Builtin builtin, SourceLoc loc, std::vector<ExprPtr> args) {
  if (args[0]->getType().isTensorDescriptor()) {
    diag.error(args[0]->getLoc(), llvm::Twine("tl.") +
                                      (builtin == Builtin::Load ? "load" : "store") +
                                      " takes a pointer or a block pointer, not a tensor "
                                      "descriptor: use desc." +
                                      (builtin == Builtin::Load ? "load" : "store") +
                                      "(offsets" +
                                      (builtin == Builtin::Load ? ")" : ", value)"));
    return nullptr;
  }
  checkMemoryOptions(builtin, args);
  if (args[0]->getType().isBlockPointer()) {
    std::string blockName;
    ExprPtr access = typeBlockPointerAccess(builtin, loc, std::move(args), &blockName);
    if (!access)
      return access;
    return addDeviceTensorMap(std::move(access), blockName, loc);
  }
  bool isLoad = builtin == Builtin::Load;
  llvm::StringRef name = isLoad ? "load" : "store";
  const ConstValue *ptrValue = getConstexpr(*args[0]);
  Type ptrType = args[0]->getType();
  if (ptrValue || !ptrType.isPointer()) {
    diag.error(args[0]->getLoc(), "'ptr' of " + name + " must be a pointer or a tile "
                                  "of pointers, got " + describeValue(*args[0]));
    return nullptr;
  }
  llvm::ArrayRef<int64_t> shape = ptrType.getShape();
  unsigned maskIndex = isLoad ? 1 : 2, valueIndex = isLoad ? 2 : 1;
  if (!isNone(*args[maskIndex]) &&
      !(args[maskIndex] = typeMask(std::move(args[maskIndex]), shape)))
    return nullptr;
  if (!(isLoad && isNone(*args[valueIndex])) &&
      !(args[valueIndex] = typePointee(std::move(args[valueIndex]),
                                       isLoad ? "other" : "value", name,
                                       ptrType.getElement(), shape)))
    return nullptr;
  // Block-pointer options are not implemented yet.
  const unsigned boundaryIndex = 3; // Then load's padding_option.
  const ConstValue *boundary = getConstexpr(*args[boundaryIndex]);
  const ConstValue *padding = isLoad ? getConstexpr(*args[4]) : nullptr;
  if (!boundary || !boundary->isTuple() || !boundary->getTuple().empty() ||
      (isLoad && (!padding || !padding->isString() || !padding->getString().empty()))) {
    diag.error(args[boundaryIndex]->getLoc(),
               "'boundary_check' and 'padding_option' need a block pointer "
               "(tl.make_block_ptr); use 'mask' and 'other' with a pointer tile");
    return nullptr;
  }
  for (size_t i = boundaryIndex + 1; i < args.size(); ++i) {
    if (!getConstexpr(*args[i])) {
      diag.error(args[i]->getLoc(), "the options of " + name + " must be constexpr");
      return nullptr;
    }
  }
  Type resultType = isLoad ? Type::getTile(ptrType.getElement(), shape) : Type::getVoid();
  return makeCall(loc, builtin, std::move(args), resultType);
}

void Sema::checkMemoryOptions(Builtin builtin, llvm::ArrayRef<ExprPtr> args) {
  bool isLoad = builtin == Builtin::Load;
  if (const ConstValue *isVolatile = isLoad ? getConstexpr(*args[7]) : nullptr;
      isLoad && !(isVolatile && isVolatile->isIntLike()))
    diag.error(args[7]->getLoc(), "volatile must be a constexpr bool, got " +
                                      (isVolatile ? isVolatile->str() : args[7]->getType().str()));
  // The arguments after boundary_check (and a load's padding_option).
  size_t cacheIndex = isLoad ? 5 : 4;
  static const char *const loadCaches[] = {".ca", ".cg", ".cv"};
  static const char *const storeCaches[] = {".wb", ".cg", ".cs", ".wt"};
  static const char *const evictions[] = {"evict_first", "evict_last"};
  for (size_t i : {cacheIndex, cacheIndex + 1}) {
    const ConstValue *value = getConstexpr(*args[i]);
    bool isCache = i == cacheIndex;
    if (value && !value->isString()) {
      diag.error(args[i]->getLoc(), std::string(isCache ? "cache_modifier" : "eviction_policy") +
                                        " must be a string, got " + value->str());
      continue;
    }
    if (!value || value->getString().empty())
      continue; // Not constexpr: an error later; empty: the default.
    llvm::ArrayRef<const char *> known =
        isCache ? (isLoad ? llvm::ArrayRef(loadCaches) : llvm::ArrayRef(storeCaches))
                : llvm::ArrayRef(evictions);
    std::string option = isCache ? "cache_modifier" : "eviction_policy";
    llvm::StringRef text = value->getString();
    if (llvm::is_contained(known, text))
      diag.warning(args[i]->getLoc(), option + " '" + text +
                                          "' is ignored: tilec's loads and stores use the "
                                          "default cache policy");
    else
      diag.warning(args[i]->getLoc(),
                   option + " '" + text + "' is not one Triton accepts for tl." +
                       (isLoad ? "load" : "store") + " (" +
                       llvm::join(known.begin(), known.end(), ", ") + "); ignored");
  }
}

/// Reports unless `type`'s shape broadcasts to the pointer's `shape`.
static bool checkPointerShape(const Expr &operand, llvm::StringRef what,
                              llvm::ArrayRef<int64_t> shape, DiagnosticEngine &diag) {
  const Type &type = operand.getType();
  std::optional<Shape> merged = broadcastShapes(type.getShape(), shape);
  if (merged && *merged == shape)
    return true;
  diag.error(operand.getLoc(), "'" + what + "' has shape " + formatShape(type.getShape()) +
                                   " but the pointer " +
                                   (shape.empty() ? llvm::Twine("is a scalar")
                                                  : "tile has shape " + formatShape(shape)));
  return false;
}

ExprPtr Sema::typeMask(ExprPtr mask, llvm::ArrayRef<int64_t> shape) {
  const ConstValue *maskValue = getConstexpr(*mask);
  if (maskValue ? !maskValue->isBool()
                : !mask->getType().isValue() ||
                      mask->getType().getElement() != ScalarKind::I1 ||
                      mask->getType().isPointer()) {
    diag.error(mask->getLoc(), "'mask' must be a boolean (i1) tile or scalar, got " +
                                   (maskValue ? maskValue->str() : mask->getType().str()));
    return nullptr;
  }
  if (!maskValue && !checkPointerShape(*mask, "mask", shape, diag))
    return nullptr;
  return coerce(std::move(mask), ScalarKind::I1, shape);
}

ExprPtr Sema::typePointee(ExprPtr operand, llvm::StringRef what, llvm::StringRef callee,
                          ScalarKind elem, llvm::ArrayRef<int64_t> shape) {
  const ConstValue *constant = getConstexpr(*operand);
  if (constant ? !constant->isNumber()
               : !operand->getType().isValue() || operand->getType().isPointer()) {
    diag.error(operand->getLoc(), "'" + what + "' of " + callee + " must be a number or "
                                  "a tile of numbers, got " +
                                      (constant ? constant->str() : operand->getType().str()));
    return nullptr;
  }
  if (!constant && !checkPointerShape(*operand, what, shape, diag))
    return nullptr;
  // A constant that the pointee type cannot hold is an error, not a wrap.
  if (std::string why = constant ? checkRepresentable(*constant, elem) : "";
      !why.empty()) {
    diag.error(operand->getLoc(), "'" + what + "' of " + callee + " (a *" +
                                      getScalarKindName(elem) + " pointer): " + why);
    return nullptr;
  }
  return coerce(std::move(operand), elem, shape);
}

const Type *Sema::requireValue(const Expr &expr, llvm::StringRef calleeName) {
  if (!getConstexpr(expr) && expr.getType().isValue() && !expr.getType().isPointer())
    return &expr.getType();
  const ConstValue *value = getConstexpr(expr);
  diag.error(expr.getLoc(), "'" + calleeName + "' expects a tile or a scalar, got " +
                                (value ? value->str() : expr.getType().str()));
  return nullptr;
}

ExprPtr Sema::typePointerCast(SourceLoc loc, ExprPtr input, ScalarKind pointee) {
  const Type &type = input->getType();
  bool address = type.isValue() && !type.isPointer() &&
                 (type.getElement() == ScalarKind::I64 || type.getElement() == ScalarKind::U64);
  if (getConstexpr(*input) || !(address || type.isPointer())) {
    const ConstValue *value = getConstexpr(*input);
    diag.error(input->getLoc(), "a cast to " +
                                    ConstValue::getPointerDType(pointee).str() +
                                    " needs a runtime int64 address or a pointer, got " +
                                    (value ? value->str() : type.str()));
    return nullptr;
  }
  return std::make_unique<ConvertExpr>(loc, std::move(input),
                                       type.withElement(pointee, /*newPointer=*/true));
}

ExprPtr Sema::typeCast(SourceLoc loc, std::vector<ExprPtr> args) {
  const ConstValue *target = getConstexpr(*args[1]);
  std::optional<ScalarKind> dtype;
  if (!(target && target->isPointerDType()) && !(dtype = requireDType(*args[1], diag)))
    return nullptr;
  const ConstValue *rounding = getConstexpr(*args[2]);
  if (!rounding || !(rounding->isNone() ||
                     (rounding->isString() && rounding->getString() == "rtne"))) {
    diag.error(args[2]->getLoc(), "not supported yet: fp_downcast_rounding other than "
                                  "\"rtne\"");
    return nullptr;
  }
  // Pointer casts keep the address's bits, bitcast or not.
  if (target && target->isPointerDType())
    return typePointerCast(loc, std::move(args[0]), target->getDType());
  if (const Type &type = args[0]->getType(); !getConstexpr(*args[0]) && type.isPointer() &&
                                              (*dtype == ScalarKind::I64 ||
                                               *dtype == ScalarKind::U64))
    return std::make_unique<ConvertExpr>(loc, std::move(args[0]), type.withElement(*dtype));
  const ConstValue *bitcast = getConstexpr(*args[3]);
  if (!bitcast || !bitcast->isIntLike()) {
    diag.error(args[3]->getLoc(), "'bitcast' must be a constexpr bool");
    return nullptr;
  }
  ExprPtr &input = args[0];
  if (bitcast->isTruthy()) {
    const Type &type = input->getType();
    if (getConstexpr(*input) || !type.isValue() || type.isPointer() ||
        getBitWidth(type.getElement()) != getBitWidth(*dtype)) {
      diag.error(loc, "cannot bitcast " +
                          (getConstexpr(*input) ? getConstexpr(*input)->str()
                                                : type.str()) +
                          " to " + getScalarKindName(*dtype) +
                          ": a bitcast needs a runtime value of the same bit width");
      return nullptr;
    }
    if (type.getElement() == *dtype)
      return std::move(input);
    Type resultType = type.withElement(*dtype);
    return makeCall(loc, Builtin::Cast, std::move(args), resultType);
  }
  if (getConstexpr(*input))
    return coerce(std::move(input), *dtype, {});
  const Type &type = input->getType();
  if (!type.isValue() || type.isPointer()) {
    diag.error(input->getLoc(), "not supported yet: casting " + type.str() + " to " +
                                    getScalarKindName(*dtype).str() +
                                    (type.isPointer() ? " (a pointer casts to tl.int64, "
                                                        "tl.uint64 or a tl.pointer_type)"
                                                      : ""));
    return nullptr;
  }
  if (type.getElement() == *dtype)
    return std::move(input);
  Type resultType = type.withElement(*dtype);
  return std::make_unique<ConvertExpr>(loc, std::move(input), resultType);
}

ExprPtr Sema::typeBuiltin(Builtin builtin, SourceLoc loc, llvm::StringRef calleeName,
                          std::vector<ExprPtr> args) {
  using B = Builtin;
  auto runtimeValue = [&](const Expr &expr) { return requireValue(expr, calleeName); };
  switch (builtin) {
  case B::ProgramId:
  case B::NumPrograms: {
    std::optional<int64_t> axis = requireConstInt(*args[0], "the axis");
    if (!axis)
      return nullptr;
    if (*axis < 0 || *axis > 2) {
      diag.error(args[0]->getLoc(), "axis must be 0, 1 or 2, got " + llvm::Twine(*axis));
      return nullptr;
    }
    return makeCall(loc, builtin, std::move(args), Type::getScalar(ScalarKind::I32));
  }
  case B::Arange: {
    std::optional<int64_t> start = requireConstInt(*args[0], "the start of arange");
    std::optional<int64_t> end = start ? requireConstInt(*args[1], "the end of arange")
                                       : std::nullopt;
    if (!end)
      return nullptr;
    // Triton's rule: both bounds are non-negative and fit in 32 bits (the
    // range is an i32 tile), and end > start.
    if (*start < 0 || *end > INT32_MAX) {
      diag.error(loc, "arange(" + llvm::Twine(*start) + ", " + llvm::Twine(*end) +
                          "): the bounds must be in [0, 2**31); add an offset to "
                          "the result for other values");
      return nullptr;
    }
    if (*end <= *start) {
      diag.error(loc, "arange(" + llvm::Twine(*start) + ", " + llvm::Twine(*end) +
                          ") is empty: the end must be greater than the start");
      return nullptr;
    }
    int64_t length = *end - *start;
    if (!checkDimension(length, loc) || !checkNumElements({length}, loc))
      return nullptr;
    return makeCall(loc, builtin, std::move(args), Type::getTile(ScalarKind::I32, {length}));
  }
  case B::Load:
  case B::Store:
    return typeMemoryOp(builtin, loc, std::move(args));
  case B::Cast:
    return typeCast(loc, std::move(args));
  case B::PointerType: { // A constant: the type of a cast to a pointer.
    std::optional<ScalarKind> dtype = requireDType(*args[0], diag);
    return dtype ? makeConstant(loc, ConstValue::getPointerDType(*dtype)) : nullptr;
  }
  case B::Exp: case B::Exp2: case B::Log: case B::Log2: case B::Sqrt:
  case B::Rsqrt: case B::Sin: case B::Cos: case B::Tanh: case B::Abs:
  case B::Floor: case B::Ceil: case B::Sigmoid: case B::Erf: {
    bool floatOnly = builtin != B::Abs;
    if (const ConstValue *value = getConstexpr(*args[0])) {
      std::optional<ScalarKind> kind = getNaturalScalarKind(*value);
      if (kind && floatOnly)
        kind = ScalarKind::F32;
      if (!kind || !(args[0] = coerce(std::move(args[0]), *kind, {}))) {
        if (!kind)
          runtimeValue(*args[0]);
        return nullptr;
      }
    }
    const Type *type = runtimeValue(*args[0]);
    if (!type)
      return nullptr;
    if (floatOnly && !isFloat(type->getElement())) {
      diag.error(args[0]->getLoc(), "'" + calleeName + "' expects a floating-point "
                                    "argument, got " + type->str());
      return nullptr;
    }
    Type resultType = *type;
    return makeCall(loc, builtin, std::move(args), resultType);
  }
  case B::Maximum: case B::Minimum: case B::Fma: case B::Clamp: {
    std::optional<ScalarKind> kind = unify(args, loc, calleeName);
    if (!kind)
      return nullptr;
    // Triton: "Only floating point clamp is supported".
    if ((builtin == B::Fma || builtin == B::Clamp) && !isFloat(*kind)) {
      diag.error(loc, "'" + getBuiltinInfo(builtin).name +
                          "' expects floating-point arguments, got " +
                          getScalarKindName(*kind));
      return nullptr;
    }
    Type resultType = Type::getTile(*kind, args[0]->getType().getShape());
    return makeCall(loc, builtin, std::move(args), resultType);
  }
  case B::Where: {
    llvm::MutableArrayRef<ExprPtr> values(&args[1], 2);
    std::optional<ScalarKind> kind = unify(values, loc, calleeName);
    if (!kind)
      return nullptr;
    ExprPtr &cond = args[0];
    if (!getConstexpr(*cond) && !runtimeValue(*cond))
      return nullptr;
    Shape valueShape(args[1]->getType().getShape());
    std::optional<Shape> shape =
        getConstexpr(*cond) ? std::optional(valueShape)
                            : broadcastShapes(cond->getType().getShape(), valueShape);
    if (!shape) {
      diag.error(loc, "incompatible shapes for 'where': " +
                          formatShape(cond->getType().getShape()) + " and " +
                          formatShape(valueShape));
      return nullptr;
    }
    if (!checkNumElements(*shape, loc))
      return nullptr;
    if (!(cond = coerce(std::move(cond), ScalarKind::I1, *shape)))
      return nullptr;
    for (ExprPtr &value : values)
      value = broadcast(std::move(value), *shape);
    return makeCall(loc, builtin, std::move(args), Type::getTile(*kind, *shape));
  }
  case B::Zeros:
  case B::Full: {
    // `tl.full([], v, dtype)`: a rank-0 tile is a scalar of the dtype.
    std::optional<Shape> shape;
    if (const ConstValue *empty = getConstexpr(*args[0]);
        empty && empty->isTuple() && empty->getTuple().empty())
      shape = Shape();
    else
      shape = requireShape(*args[0], ("the shape of " + calleeName).str());
    std::optional<ScalarKind> dtype =
        shape ? requireDType(*args.back(), diag) : std::nullopt;
    if (!dtype)
      return nullptr;
    ExprPtr value = builtin == B::Zeros ? makeConstant(loc, ConstValue::getInt(0))
                                        : std::move(args[1]);
    if (!getConstexpr(*value) && (!runtimeValue(*value) || !value->getType().isScalar())) {
      if (value->getType().isValue())
        diag.error(value->getLoc(), "the value of 'full' must be a scalar, got " +
                                        value->getType().str());
      return nullptr;
    }
    // As Triton, a constant must be a value of the dtype (no wrapping).
    if (const ConstValue *number = getConstexpr(*value); number && number->isNumber()) {
      std::string why = checkRepresentable(*number, *dtype);
      if (!why.empty()) {
        diag.error(value->getLoc(), "the value of '" + calleeName + "': " + why);
        return nullptr;
      }
    }
    return coerce(std::move(value), *dtype, *shape);
  }
  case B::ZerosLike: {
    const Type *type = runtimeValue(*args[0]);
    if (!type)
      return nullptr;
    return coerce(makeConstant(loc, ConstValue::getInt(0)), type->getElement(),
                  type->getShape());
  }
  case B::ExpandDims: {
    const Type *type = runtimeValue(*args[0]);
    const ConstValue *axes = type ? getConstexpr(*args[1]) : nullptr;
    if (axes && axes->isTuple()) { // Several axes of the result, as Triton.
      int64_t resultRank = type->getShape().size() + axes->getTuple().size();
      std::vector<int64_t> normalized;
      for (const ConstValue &axis : axes->getTuple()) {
        int64_t value = axis.isInt() ? axis.getInt() : resultRank;
        if (value < 0)
          value += resultRank;
        if (value < 0 || value >= resultRank || llvm::is_contained(normalized, value)) {
          diag.error(args[1]->getLoc(), "the axes " + axes->str() + " of expand_dims "
                                        "are not distinct axes of a tile of rank " +
                                            llvm::Twine(resultRank));
          return nullptr;
        }
        normalized.push_back(value);
      }
      llvm::sort(normalized);
      ExprPtr result = std::move(args[0]);
      for (int64_t axis : normalized) {
        std::vector<ExprPtr> one;
        one.push_back(std::move(result));
        one.push_back(makeConstant(args[1]->getLoc(), ConstValue::getInt(axis)));
        if (!(result = typeBuiltin(builtin, loc, calleeName, std::move(one))))
          return nullptr;
      }
      return result;
    }
    std::optional<int64_t> axis = type ? requireConstInt(*args[1], "the axis")
                                       : std::nullopt;
    if (!axis)
      return nullptr;
    int64_t rank = type->getShape().size();
    if (*axis < -(rank + 1) || *axis > rank) {
      diag.error(args[1]->getLoc(), "axis " + llvm::Twine(*axis) + " is out of range "
                                    "for a tile of rank " + llvm::Twine(rank));
      return nullptr;
    }
    int64_t normalized = *axis < 0 ? *axis + rank + 1 : *axis;
    Shape shape(type->getShape());
    shape.insert(shape.begin() + normalized, 1);
    Type resultType = type->withShape(shape);
    args[1] = makeConstant(args[1]->getLoc(), ConstValue::getInt(normalized));
    return makeCall(loc, builtin, std::move(args), resultType);
  }
  case B::BroadcastPair: { // broadcast(a, b): both to their common shape.
    const Type *a = runtimeValue(*args[0]);
    const Type *b = a ? runtimeValue(*args[1]) : nullptr;
    if (!b)
      return nullptr;
    std::optional<Shape> shape = broadcastShapes(a->getShape(), b->getShape());
    if (!shape) {
      diag.error(loc, "incompatible shapes for 'broadcast': " +
                          formatShape(a->getShape()) + " and " + formatShape(b->getShape()));
      return nullptr;
    }
    std::vector<ExprPtr> pair;
    for (ExprPtr &arg : args)
      pair.push_back(broadcast(std::move(arg), *shape));
    auto tuple = std::make_unique<TupleExpr>(loc, std::move(pair), /*list=*/false);
    tuple->setType(Type::getVoid());
    return tuple;
  }
  case B::BroadcastTo: {
    if (args.size() > 2) { // broadcast_to(x, 64, 32) means (64, 32).
      std::vector<ConstValue> dims;
      for (size_t i = 1; i < args.size(); ++i) {
        const ConstValue *dim = getConstexpr(*args[i]);
        if (!dim || !dim->isInt()) {
          diag.error(args[i]->getLoc(), "the shape of broadcast_to must be constexpr ints");
          return nullptr;
        }
        dims.push_back(*dim);
      }
      args[1] = makeConstant(args[1]->getLoc(), ConstValue::getTuple(std::move(dims)));
    }
    const Type *type = runtimeValue(*args[0]);
    std::optional<Shape> shape =
        type ? requireShape(*args[1], "the shape of broadcast_to") : std::nullopt;
    if (!shape)
      return nullptr;
    std::optional<Shape> merged = broadcastShapes(type->getShape(), *shape);
    if (!merged || *merged != *shape) {
      diag.error(loc, "cannot broadcast shape " + formatShape(type->getShape()) +
                          " to " + formatShape(*shape));
      return nullptr;
    }
    return broadcast(std::move(args[0]), *shape);
  }
  case B::Assume: {
    // A promise for the optimizer; tilec does not use it yet, so it is
    // checked and dropped (dropping a promise never changes a result).
    const ConstValue *cond = getConstexpr(*args[0]);
    if (cond && !cond->isTruthy()) {
      diag.error(args[0]->getLoc(), "tl.assume of a condition that is false");
      return nullptr;
    }
    if (!cond && !runtimeValue(*args[0]))
      return nullptr;
    return makeConstant(loc, ConstValue::getNone());
  }
  case B::MultipleOf:
  case B::MaxContiguous:
  case B::MaxConstancy: {
    // Pointers too: their divisibility is in bytes, as in Triton.
    const Type *type = &args[0]->getType();
    if (getConstexpr(*args[0]) || !type->isValue())
      type = runtimeValue(*args[0]);
    if (!type)
      return nullptr;
    // One positive int, or a tuple of them with one entry per dimension.
    const ConstValue *values = getConstexpr(*args[1]);
    size_t numEntries = std::max<size_t>(type->getShape().size(), 1);
    std::vector<ConstValue> entries;
    if (values && values->isTuple())
      entries.assign(values->getTuple().begin(), values->getTuple().end());
    else if (values && values->isInt())
      entries.assign(numEntries, *values);
    bool valid = entries.size() == numEntries &&
                 llvm::all_of(entries, [](const ConstValue &entry) {
                   return entry.isInt() && entry.getInt() > 0 &&
                          entry.getInt() <= INT32_MAX;
                 });
    if (!valid) {
      diag.error(args[1]->getLoc(), "the values of '" + calleeName +
                                        "' must be a positive constexpr int or a tuple "
                                        "of " + llvm::Twine(numEntries) +
                                        " of them (one per dimension)");
      return nullptr;
    }
    if (builtin == B::MaxConstancy) // The analysis takes no constancy hints yet.
      return std::move(args[0]);
    Type resultType = *type;
    return makeCall(loc, builtin, std::move(args), resultType);
  }
  case B::Cdiv: {
    const ConstValue *x = getConstexpr(*args[0]), *div = getConstexpr(*args[1]);
    if (x && div) {
      // cdiv(x, d) == -((-x) // d) with Python's flooring division.
      std::string error;
      std::optional<ConstValue> negX = foldUnary(UnaryOp::Neg, *x, error);
      std::optional<ConstValue> quotient =
          negX ? foldBinary(BinaryOp::FloorDiv, *negX, *div, error) : std::nullopt;
      std::optional<ConstValue> result =
          quotient ? foldUnary(UnaryOp::Neg, *quotient, error) : std::nullopt;
      if (!result)
        diag.error(loc, error);
      return result ? makeConstant(loc, *result) : nullptr;
    }
    std::optional<ScalarKind> kind = unify(args, loc, calleeName);
    if (!kind)
      return nullptr;
    if (isFloat(*kind)) {
      diag.error(loc, "'cdiv' expects integer arguments, got " + getScalarKindName(*kind));
      return nullptr;
    }
    Type resultType = Type::getTile(*kind, args[0]->getType().getShape());
    return makeCall(loc, builtin, std::move(args), resultType);
  }
  case B::PyMin:
  case B::PyMax: {
    if (args.size() < 2) {
      diag.error(loc, "'" + calleeName + "' expects at least 2 arguments");
      return nullptr;
    }
    bool isMin = builtin == B::PyMin;
    ExprPtr acc = std::move(args[0]);
    for (size_t i = 1; i < args.size(); ++i) {
      const ConstValue *a = getConstexpr(*acc), *b = getConstexpr(*args[i]);
      if (a && b) {
        std::string error;
        std::optional<ConstValue> less = foldBinary(BinaryOp::Lt, *b, *a, error);
        if (!less) {
          diag.error(loc, error);
          return nullptr;
        }
        if (less->getBool() == isMin)
          acc = std::move(args[i]);
        continue;
      }
      ExprPtr pair[] = {std::move(acc), std::move(args[i])};
      std::optional<ScalarKind> kind = unify(pair, loc, calleeName);
      if (!kind)
        return nullptr;
      Type resultType = Type::getTile(*kind, pair[0]->getType().getShape());
      std::vector<ExprPtr> operands;
      operands.push_back(std::move(pair[0]));
      operands.push_back(std::move(pair[1]));
      acc = makeCall(loc, isMin ? B::Minimum : B::Maximum, std::move(operands),
                     resultType);
    }
    return acc;
  }
  case B::PyFloat: {
    const ConstValue *value = getConstexpr(*args[0]);
    if (!value) {
      if (!runtimeValue(*args[0]))
        return nullptr;
      Shape shape(args[0]->getType().getShape()); // Read before args[0] moves.
      return coerce(std::move(args[0]), ScalarKind::F32, shape);
    }
    double result;
    llvm::StringRef text = value->isString() ? value->getString().trim() : "";
    if (value->isNumber())
      result = value->getFloat();
    else if (text.equals_insensitive("inf") || text.equals_insensitive("+inf") ||
             text.equals_insensitive("infinity"))
      result = std::numeric_limits<double>::infinity();
    else if (text.equals_insensitive("-inf") || text.equals_insensitive("-infinity"))
      result = -std::numeric_limits<double>::infinity();
    else if (text.equals_insensitive("nan"))
      result = std::numeric_limits<double>::quiet_NaN();
    else if (text.empty() || text.getAsDouble(result)) {
      diag.error(args[0]->getLoc(), "could not convert " + value->str() + " to float");
      return nullptr;
    }
    return makeConstant(loc, ConstValue::getFloat(result));
  }
  case B::PyInt: {
    const ConstValue *value = getConstexpr(*args[0]);
    if (!value || !value->isNumber()) {
      diag.error(args[0]->getLoc(), "not supported yet: int() of anything but a "
                                    "constexpr number");
      return nullptr;
    }
    double f = value->getFloat();
    if (value->isFloat() && !(f > -9.2e18 && f < 9.2e18)) {
      diag.error(args[0]->getLoc(), "cannot convert " + value->str() + " to int");
      return nullptr;
    }
    return makeConstant(loc, ConstValue::getInt(value->isFloat() ? static_cast<int64_t>(f)
                                                                 : value->getInt()));
  }
  case B::PyBool: {
    const ConstValue *value = getConstexpr(*args[0]);
    if (!value) {
      diag.error(args[0]->getLoc(), "not supported yet: bool() of a runtime value "
                                    "(compare it: 'x != 0')");
      return nullptr;
    }
    return makeConstant(loc, ConstValue::getBool(value->isTruthy()));
  }
  case B::PyLen: {
    // The length of a constexpr tuple (`len(x.shape)`) or of a tile's first
    // dimension, as Python's len of a tensor.
    const ConstValue *value = getConstexpr(*args[0]);
    if (value && value->isTuple())
      return makeConstant(loc, ConstValue::getInt(value->getTuple().size()));
    if (!value && args[0]->getType().isTile())
      return makeConstant(loc, ConstValue::getInt(args[0]->getType().getShape()[0]));
    diag.error(args[0]->getLoc(), "len() needs a tuple or a tile, got " +
                                      (value ? value->str() : args[0]->getType().str()));
    return nullptr;
  }
  case B::NextPowerOf2: {
    std::optional<int64_t> n = requireConstInt(*args[0], "the argument of next_power_of_2");
    if (!n)
      return nullptr;
    if (*n > (int64_t(1) << 62)) {
      diag.error(args[0]->getLoc(), "next_power_of_2(" + llvm::Twine(*n) +
                                        ") does not fit in 64 bits");
      return nullptr;
    }
    return makeConstant(loc, ConstValue::getInt(
                                 *n <= 1 ? 1 : int64_t(llvm::NextPowerOf2(*n - 1))));
  }
  case B::Constexpr: {
    if (!getConstexpr(*args[0])) {
      diag.error(args[0]->getLoc(), "tl.constexpr() needs a compile-time value");
      return nullptr;
    }
    return std::move(args[0]);
  }
  case B::StaticAssert: {
    const ConstValue *cond = getConstexpr(*args[0]);
    if (!cond) {
      diag.error(args[0]->getLoc(), "the condition of static_assert must be a constexpr");
      return nullptr;
    }
    if (!cond->isTruthy()) {
      const ConstValue *msg = getConstexpr(*args[1]);
      std::string text = msg && msg->isString() ? msg->getString().str() : "";
      diag.error(loc, "static_assert failed" + (text.empty() ? "" : ": " + text));
      return nullptr;
    }
    return makeConstant(loc, ConstValue::getNone());
  }
  case B::StaticPrint: {
    std::string text;
    for (const ExprPtr &arg : args) {
      const ConstValue *value = getConstexpr(*arg);
      text += (text.empty() ? "" : " ") +
              (value ? (value->isString() ? value->getString().str() : value->str())
                     : arg->getType().str());
    }
    diag.note(loc, "static_print: " + text);
    return makeConstant(loc, ConstValue::getNone());
  }
  case B::DebugBarrier:
    return makeCall(loc, builtin, std::move(args), Type::getVoid());
  case B::Sum: case B::Max: case B::Min: case B::Argmax: case B::Argmin:
    return typeReduction(builtin, loc, calleeName, std::move(args));
  case B::Cumsum:
    return typeScan(loc, calleeName, std::move(args));
  case B::Histogram:
    return typeHistogram(loc, std::move(args));
  case B::MakeBlockPtr:
    return typeMakeBlockPtr(loc, std::move(args));
  case B::Advance:
    return typeAdvance(loc, std::move(args));
  case B::Dot:
    return typeDot(loc, std::move(args));
  case B::Trans: case B::Permute: case B::Reshape:
    return typeShapeOp(builtin, loc, calleeName, std::move(args));
  case B::MakeTensorDescriptor:
    return typeMakeTensorDescriptor(loc, std::move(args));
  case B::DescriptorLoad: case B::DescriptorStore:
    return typeDescriptorAccess(builtin, loc, std::move(args));
  case B::InlineAsmElementwise:
    return typeInlineAsm(loc, std::move(args));
  case B::View:
    // view(x, shape) is reshape(x, shape, can_reorder=True).
    args.insert(args.begin() + 2, makeConstant(loc, ConstValue::getBool(true)));
    return typeShapeOp(B::Reshape, loc, calleeName, std::move(args));
  case B::AtomicAdd: case B::AtomicMax: case B::AtomicMin: case B::AtomicXchg:
  case B::AtomicCas: case B::AtomicAnd: case B::AtomicOr: case B::AtomicXor:
    return typeAtomic(builtin, loc, calleeName, std::move(args));
  case B::DevicePrint:
  case B::DeviceAssert:
    return typeDeviceDebug(builtin, loc, calleeName, std::move(args));
  case B::Range:
  case B::StaticRange:
  case B::PyRange:
    diag.error(loc, "'" + calleeName + "' can only be the iterable of a 'for' loop");
    return nullptr;
  default:
    diag.error(loc, "not supported yet: '" + calleeName + "'");
    return nullptr;
  }
}

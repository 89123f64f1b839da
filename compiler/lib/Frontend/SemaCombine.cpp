//===- SemaCombine.cpp - tl.reduce and tl.associative_scan ----------------===//
//
// `tl.reduce(input, axis, combine_fn, keep_dims=False)` and
// `tl.associative_scan(input, axis, combine_fn, reverse=False)`: `input` is
// a tile or a tuple of tiles of one shape, `combine_fn` a function of this
// file taking two values per operand (the two sides) and returning one per
// operand. The function is inlined once on scalars into a CombineSpec, which
// MLIRGen turns into the region of one tile.reduce / tile.scan; every result
// is kept in a variable at once, so that the op is built once.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

using namespace tilec;

bool Sema::inlineCombine(const FunctionDef &combine, llvm::ArrayRef<ScalarKind> kinds,
                         SourceLoc loc, CombineSpec &spec) {
  size_t n = kinds.size();
  if (combine.params.size() != 2 * n) {
    diag.error(loc, "combine function '" + combine.getName() + "' takes " +
                        llvm::Twine(combine.params.size()) + " parameters; combining " +
                        llvm::Twine(n) + " tile" + (n == 1 ? "" : "s") + " needs " +
                        llvm::Twine(2 * n) + " (a value of each from both sides)");
    return false;
  }
  // The two sides are scalar variables, passed under names no source can
  // spell.
  std::vector<CallArg> args;
  std::vector<std::string> names;
  for (size_t side = 0; side < 2; ++side)
    for (size_t i = 0; i < n; ++i) {
      std::string name = "<combine " + std::to_string(side * n + i) + ">";
      Variable *var = kernel->createVariable(
          combine.getName().str() + (side ? ".rhs" : ".lhs") + std::to_string(i), loc);
      (side ? spec.rhs : spec.lhs).push_back(var);
      scope[name] = Binding{ConstValue(), var, Type::getScalar(kinds[i]), false};
      variables[name] = var;
      names.push_back(name);
      args.push_back(CallArg{"", loc, std::make_unique<NameExpr>(loc, name)});
    }
  CallExpr call(loc, std::make_unique<NameExpr>(loc, combine.getName().str()),
                std::move(args));
  Block *caller = out;
  out = &spec.body;
  ExprPtr result = callDeviceFunction(combine, call);
  out = caller;
  for (const std::string &name : names) {
    scope.erase(name);
    variables.erase(name);
  }
  if (!result)
    return false;
  std::vector<ExprPtr> values;
  if (auto *tuple = llvm::dyn_cast<TupleExpr>(result.get()))
    values = tuple->takeElements();
  else
    values.push_back(std::move(result));
  if (values.size() != n) {
    diag.error(loc, "combine function '" + combine.getName() + "' returns " +
                        llvm::Twine(values.size()) + " value" +
                        (values.size() == 1 ? "" : "s") + "; expected " + llvm::Twine(n) +
                        " (one per tile combined)");
    return false;
  }
  for (const StmtPtr &stmt : spec.body) {
    if (!llvm::isa<AssignStmt>(*stmt) && !llvm::isa<ExprStmt>(*stmt)) {
      diag.error(stmt->getLoc(), "not supported yet: runtime control flow in a combine "
                                 "function (use tl.where)");
      return false;
    }
    const auto *assign = llvm::dyn_cast<AssignStmt>(stmt.get());
    if (assign && assign->getValue().getType().isTile()) {
      diag.error(assign->getValue().getLoc(),
                 "not supported yet: a tile inside a combine function (it combines one "
                 "element of each side; got " + assign->getValue().getType().str() + ")");
      return false;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const Type &type = values[i]->getType();
    if (!getConstexpr(*values[i]) && (!type.isValue() || type.isTile())) {
      diag.error(loc, "combine function '" + combine.getName() + "' must return scalars, "
                      "got " + type.str());
      return false;
    }
    if (!(values[i] = coerce(std::move(values[i]), kinds[i], {})))
      return false;
  }
  spec.results = std::move(values);
  return true;
}

ExprPtr Sema::analyzeCombineCall(Builtin builtin, const CallExpr &call,
                                 llvm::StringRef calleeName, ExprPtr self) {
  SourceLoc loc = call.getLoc();
  bool isScan = builtin == Builtin::AssociativeScan;
  const BuiltinInfo &info = getBuiltinInfo(builtin);
  // input, axis, combine_fn, keep_dims / reverse.
  std::vector<const Expr *> slots(info.params.size(), nullptr);
  size_t next = self ? 1 : 0;
  for (const CallArg &arg : call.getArgs()) {
    size_t index = next;
    if (!arg.keyword.empty()) {
      auto it = llvm::find_if(info.params, [&](const BuiltinParam &p) {
        return p.name == arg.keyword;
      });
      if (it == info.params.end()) {
        diag.error(arg.loc, "'" + calleeName + "' got an unexpected keyword argument '" +
                                arg.keyword + "'; expected " + getBuiltinSignature(builtin));
        return nullptr;
      }
      index = it - info.params.begin();
    } else {
      ++next;
    }
    if (index >= slots.size() || slots[index] || (self && index == 0)) {
      diag.error(arg.loc, index >= slots.size()
                              ? "too many arguments to '" + calleeName + "'; expected " +
                                    getBuiltinSignature(builtin)
                              : "'" + calleeName + "' got multiple values for argument '" +
                                    info.params[index].name.str() + "'");
      return nullptr;
    }
    slots[index] = arg.value.get();
  }
  for (size_t i = self ? 1 : 0; i < 3; ++i)
    if (!slots[i]) {
      diag.error(loc, "'" + calleeName + "' is missing required argument '" +
                          info.params[i].name + "'; expected " +
                          getBuiltinSignature(builtin));
      return nullptr;
    }
  const auto *fnName = llvm::dyn_cast<NameExpr>(slots[2]);
  const FunctionDef *combine = nullptr;
  if (fnName && !scope.count(fnName->getName())) {
    // The prelude's functions name the prelude's combine functions.
    bool inPrelude = prelude && function && function->def &&
                     prelude->lookup(function->def->getName()) == function->def;
    const FunctionDef *own = prelude ? prelude->lookup(fnName->getName()) : nullptr;
    combine = inPrelude && own ? own : module->lookup(fnName->getName());
  }
  if (!combine) {
    diag.error(slots[2]->getLoc(), "the combine_fn of '" + calleeName +
                                       "' must name a function of this file");
    return nullptr;
  }

  // The operands: a tile or a tuple of tiles, of one shape.
  std::vector<ExprPtr> operands;
  if (self) {
    operands.push_back(std::move(self));
  } else if (const auto *tuple = llvm::dyn_cast<TupleExpr>(slots[0])) {
    for (const ExprPtr &element : tuple->getElements())
      if (ExprPtr value = analyzeExpr(*element))
        operands.push_back(std::move(value));
      else
        return nullptr;
  } else if (ExprPtr value = analyzeExpr(*slots[0])) {
    if (auto *typedTuple = llvm::dyn_cast<TupleExpr>(value.get()))
      operands = typedTuple->takeElements();
    else
      operands.push_back(std::move(value));
  } else {
    return nullptr;
  }
  if (operands.empty()) {
    diag.error(slots[0]->getLoc(), "'" + calleeName + "' needs at least one tile");
    return nullptr;
  }
  Shape shape;
  llvm::SmallVector<ScalarKind, 4> kinds;
  for (const ExprPtr &operand : operands) {
    const Type *type = requireTile(requireValue(*operand, calleeName), *operand,
                                   calleeName, diag);
    if (!type)
      return nullptr;
    if (!kinds.empty() && type->getShape() != llvm::ArrayRef<int64_t>(shape)) {
      diag.error(operand->getLoc(), "the tiles of '" + calleeName +
                                        "' must have one shape, got " + formatShape(shape) +
                                        " and " + formatShape(type->getShape()));
      return nullptr;
    }
    shape.assign(type->getShape().begin(), type->getShape().end());
    kinds.push_back(type->getElement());
  }
  std::optional<bool> flag = false;
  if (slots[3] && !(flag = [&]() -> std::optional<bool> {
        ExprPtr value = analyzeExpr(*slots[3]);
        return value ? requireFlag(*value, info.params[3].name, diag) : std::nullopt;
      }()))
    return nullptr;

  auto spec = std::make_shared<CombineSpec>();
  spec->isScan = isScan;
  ExprPtr axisValue = analyzeExpr(*slots[1]);
  if (!axisValue)
    return nullptr;
  int64_t rank = shape.size();
  bool allAxes = !isScan && isNone(*axisValue);
  if (allAxes) {
    // Reduce every dimension: flatten first.
    int64_t count = 1;
    for (int64_t dim : shape)
      count *= dim;
    for (size_t i = 0; i < operands.size() && rank > 1; ++i) {
      std::vector<ExprPtr> reshapeArgs;
      reshapeArgs.push_back(std::move(operands[i]));
      reshapeArgs.push_back(makeConstant(loc, ConstValue::getTuple({ConstValue::getInt(count)})));
      operands[i] = makeCall(loc, Builtin::Reshape, std::move(reshapeArgs),
                             Type::getTile(kinds[i], {count}));
    }
    shape = {count};
    spec->axis = 0;
  } else if (std::optional<int64_t> axis = normalizeAxis(*this, *axisValue, rank, calleeName)) {
    spec->axis = *axis;
  } else {
    return nullptr;
  }
  spec->reverse = isScan && *flag;
  spec->operands = std::move(operands);
  if (!inlineCombine(*combine, kinds, slots[2]->getLoc(), *spec))
    return nullptr;

  Shape resultShape(shape);
  if (!isScan)
    resultShape.erase(resultShape.begin() + spec->axis);
  std::shared_ptr<const CombineSpec> shared = std::move(spec);
  std::vector<ExprPtr> results;
  for (size_t i = 0; i < kinds.size(); ++i) {
    Type type = Type::getTile(kinds[i], resultShape);
    auto value = std::make_unique<CombineExpr>(loc, shared, i);
    value->setType(type);
    ExprPtr result = evaluateOnce(calleeName.str() + ".result", std::move(value));
    if (!isScan && *flag) { // keep_dims
      if (allAxes || resultShape.empty()) {
        result = broadcast(std::move(result), Shape(allAxes ? rank : 1, 1));
      } else {
        Shape kept(resultShape);
        kept.insert(kept.begin() + shared->axis, 1);
        std::vector<ExprPtr> expandArgs;
        expandArgs.push_back(std::move(result));
        expandArgs.push_back(makeConstant(loc, ConstValue::getInt(shared->axis)));
        result = makeCall(loc, Builtin::ExpandDims, std::move(expandArgs),
                          Type::getTile(kinds[i], kept));
      }
    }
    results.push_back(std::move(result));
  }
  if (results.size() == 1)
    return std::move(results.front());
  return std::make_unique<TupleExpr>(loc, std::move(results), false);
}

//===- SemaFunctions.cpp - Device-function calls (inlining) and return ------===//
//
// A call of a `def` without decorator is inlined where it appears, like a
// template instantiation: the arguments are bound in a fresh scope (constexpr
// arguments stay compile-time values), the body is analyzed into the caller's
// block, and the call's value is what `return` gave (None without one).
// Recursion is an error naming the cycle; inlining nests at most
// kMaxInlineDepth deep. Errors inside a body are followed by a note naming
// the call.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

using namespace tilec;

/// Inlined calls may nest this deep.
static constexpr size_t kMaxInlineDepth = 64;

/// Binds the call's arguments to `def`'s parameters (positional, then
/// keywords, then defaults). Analyzes argument values in the caller's scope.
/// Returns false after an error.
bool Sema::bindArguments(const FunctionDef &def, const CallExpr &call, ExprPtr self,
                         std::vector<ExprPtr> &values) {
  llvm::StringRef fname = def.getName();
  values.clear();
  values.resize(def.params.size());
  std::vector<bool> given(def.params.size(), false);
  bool ok = true;
  size_t positional = 0;
  if (self && !def.params.empty()) {
    values[0] = std::move(self);
    given[0] = true;
    positional = 1;
  }
  for (const CallArg &arg : call.getArgs()) {
    size_t index = positional;
    if (arg.keyword.empty()) {
      if (positional >= def.params.size()) {
        diag.error(arg.loc, "'" + fname + "' takes " + llvm::Twine(def.params.size()) +
                                " arguments, got more");
        return false;
      }
      ++positional;
    } else {
      auto it = llvm::find_if(
          def.params, [&](const Param &param) { return param.name == arg.keyword; });
      if (it == def.params.end()) {
        diag.error(arg.loc,
                   "'" + fname + "' has no parameter named '" + arg.keyword + "'");
        ok = false;
        continue;
      }
      index = it - def.params.begin();
    }
    if (given[index]) {
      diag.error(arg.loc, "argument '" + def.params[index].name + "' of '" + fname +
                              "' is given twice");
      ok = false;
      continue;
    }
    given[index] = true;
    values[index] = analyzeExpr(*arg.value);
    ok &= values[index] != nullptr;
  }
  for (size_t i = 0; i < def.params.size(); ++i) {
    if (given[i])
      continue;
    const Param &param = def.params[i];
    if (!param.defaultValue) {
      diag.error(call.getLoc(),
                 "missing argument '" + param.name + "' in the call of '" + fname + "'");
      ok = false;
      continue;
    }
    // Defaults are evaluated without the caller's names, in the function's
    // own file (Python evaluates them where the function is defined).
    llvm::StringMap<Binding> callerScope = std::move(scope);
    scope.clear();
    {
      ModuleScope definedIn(*this, def.owner);
      values[i] = analyzeExpr(*param.defaultValue);
    }
    scope = std::move(callerScope);
    ok &= values[i] != nullptr;
  }
  if (!ok)
    return false;
  for (size_t i = 0; i < def.params.size(); ++i) {
    const Param &param = def.params[i];
    ExprPtr &value = values[i];
    const ConstValue *constant = getConstexpr(*value);
    // A constexpr-annotated parameter of a device function takes a runtime
    // value as it is (Triton specializes helpers on their arguments; its
    // attention tutorial passes tiles there); a use that needs a constexpr
    // reports it.
    if (param.annotation == ParamAnnotation::Type) {
      if (constant && constant->isNumber() && !param.type.isPointer()) {
        value = coerce(std::move(value), param.type.getElement(), {});
        ok &= value != nullptr;
      } else if (constant || value->getType() != param.type) {
        diag.error(value->getLoc(),
                   "argument '" + param.name + "' of '" + fname + "' is annotated " +
                       param.type.str() + ", got " +
                       (constant ? constant->str() : value->getType().str()));
        ok = false;
      }
    }
  }
  return ok;
}

ExprPtr Sema::callDeviceFunction(const FunctionDef &def, const CallExpr &call,
                                 ExprPtr self) {
  // A decorated function called from another one (Triton's @triton.jit
  // helpers) is inlined like any device function; it is an entry point only
  // when named by --kernel or launched by the JIT.
  SourceLoc loc = call.getCallee().getLoc();
  if (def.isHostFunction()) {
    diag.error(loc, "'" + def.getName() + "' is decorated with @" +
                        def.decorators.front().name +
                        ", not @triton.jit: it is Python host code, which tilec does not "
                        "compile");
    return nullptr;
  }
  if (llvm::is_contained(callStack, &def)) {
    std::string cycle;
    auto first = llvm::find(callStack, &def);
    for (auto it = first; it != callStack.end(); ++it)
      cycle += (*it)->getName().str() + " -> ";
    diag.error(loc, "recursive call of device function '" + def.getName() + "' (" +
                        cycle + def.getName() +
                        "); device functions are inlined, so "
                        "recursion is not supported");
    return nullptr;
  }
  if (callStack.size() >= kMaxInlineDepth) {
    diag.error(loc, "device function calls nest deeper than " +
                        llvm::Twine(kMaxInlineDepth) + " levels (each call is inlined)");
    return nullptr;
  }
  if (!checkStackDepth(loc))
    return nullptr;
  std::vector<ExprPtr> args;
  if (!bindArguments(def, call, std::move(self), args))
    return nullptr;

  unsigned errorsBefore = diag.getNumErrors();
  // The callee gets its own names (fresh Variables for every call).
  auto savedScope = std::move(scope);
  auto savedVariables = std::move(variables);
  auto savedFrames = std::move(frames);
  auto savedBlockPointers = std::move(blockPointers);
  auto savedTuples = std::move(tupleVariables);
  scope.clear();
  variables.clear();
  frames.clear();
  blockPointers.clear();
  tupleVariables.clear();
  FunctionContext context;
  context.def = &def;
  context.callLoc = loc;
  FunctionContext *caller = function;
  function = &context;
  callStack.push_back(&def);
  for (size_t i = 0; i < def.params.size(); ++i)
    bind(def.params[i].name, def.params[i].loc, std::move(args[i]));
  {
    ModuleScope calleeNames(*this, def.owner);
    analyzeBlock(def.body);
  }
  callStack.pop_back();
  function = caller;
  scope = std::move(savedScope);
  variables = std::move(savedVariables);
  frames = std::move(savedFrames);
  blockPointers = std::move(savedBlockPointers);
  tupleVariables = std::move(savedTuples);

  if (diag.getNumErrors() != errorsBefore) {
    // The note's position is the call (file:line:col), one per inlining level.
    diag.note(loc, "in the call to '" + def.getName() + "'");
    return nullptr;
  }
  if (!context.returnValue)
    return makeConstant(loc, ConstValue::getNone());
  return std::move(context.returnValue);
}

ExprPtr Sema::materializeReturn(ExprPtr value) {
  if (!value || getConstexpr(*value) || !value->getType().isValue())
    return value;
  // Evaluate it here, inside the callee (it may have effects, e.g. an atomic).
  return evaluateOnce(function->def->getName().str() + ".return", std::move(value));
}

std::unique_ptr<NameExpr> Sema::evaluateOnce(llvm::StringRef name, ExprPtr value) {
  SourceLoc loc = value->getLoc();
  Variable *var = kernel->createVariable(name, loc);
  Type type = value->getType();
  auto target = std::make_unique<NameExpr>(loc, name.str(), var);
  target->setType(type);
  auto result = readAgain(*target);
  out->push_back(std::make_unique<AssignStmt>(loc, std::move(target), std::move(value)));
  return result;
}

std::unique_ptr<NameExpr> Sema::readAgain(const NameExpr &read) {
  auto again =
      std::make_unique<NameExpr>(read.getLoc(), read.getName().str(), read.getVariable());
  again->setType(read.getType());
  return again;
}

void Sema::analyzeReturn(const ReturnStmt &stmt) {
  // The kernel's own body (not an inlined call, decorated or not).
  bool inKernel = !function || callStack.empty();
  bool inRuntimeIf = function && function->runtimeDepth > 0;
  if (inRuntimeIf && llvm::any_of(frames, [](const Frame &frame) {
        return frame.loopBody;
      })) {
    diag.error(stmt.getLoc(), "not supported yet: 'return' inside a loop (as in "
                              "Triton; return after the loop)");
    return;
  }
  const Expr *value = stmt.getValue();
  if (inKernel && value) {
    diag.error(value->getLoc(), "a kernel cannot return a value");
    return;
  }
  if (inRuntimeIf) {
    // Inside a runtime `if`: the value is assigned to a hidden name that the
    // `if` yields (see analyzeIf); every path of the function returns.
    ExprPtr result;
    if (value && llvm::isa<TupleExpr>(value))
      diag.error(value->getLoc(), "not supported yet: returning a tuple from inside a "
                                  "runtime 'if'");
    else
      result = value ? analyzeExpr(*value) : makeConstant(stmt.getLoc(),
                                                          ConstValue::getNone());
    if (result && !getConstexpr(*result) && !result->getType().isValue()) {
      diag.error(value->getLoc(), "not supported yet: returning a " +
                                      result->getType().str() +
                                      " from inside a runtime 'if'");
      result = nullptr;
    }
    bind(getReturnName(), stmt.getLoc(), std::move(result));
    function->returned = true;
    return;
  }
  ExprPtr result;
  if (auto *tuple = llvm::dyn_cast_or_null<TupleExpr>(value)) {
    // `return a, b`: runtime elements are kept as typed values.
    std::vector<ExprPtr> elements;
    bool allConstant = true;
    for (const ExprPtr &element : tuple->getElements()) {
      ExprPtr typed = materializeReturn(analyzeExpr(*element));
      if (!typed)
        return;
      allConstant &= getConstexpr(*typed) != nullptr;
      elements.push_back(std::move(typed));
    }
    if (allConstant) {
      std::vector<ConstValue> constants;
      for (const ExprPtr &element : elements)
        constants.push_back(*getConstexpr(*element));
      result = makeConstant(stmt.getLoc(), ConstValue::getTuple(std::move(constants)));
    } else {
      result = std::make_unique<TupleExpr>(tuple->getLoc(), std::move(elements),
                                           tuple->isList());
    }
  } else if (value) {
    if (!(result = materializeReturn(analyzeExpr(*value))))
      return;
  }
  if (function) {
    function->returned = true;
    function->returnValue = std::move(result);
  }
}

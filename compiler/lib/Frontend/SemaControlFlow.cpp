//===- SemaControlFlow.cpp - Loops, runtime ifs and conditionals ------------===//
//
// `for` over range/tl.range (RangeForStmt), `tl.static_range` (unrolled),
// `while` (RuntimeWhileStmt), `if`/`elif`/`else` (constexpr conditions are
// resolved here; runtime ones become RuntimeIfStmt) and `x if c else y`.
//
// Values flowing through control flow follow Triton's rules: a loop carries
// every name it assigns that was defined before it and may be read later (in
// the loop or after it); a runtime `if` yields every name assigned in a branch
// that may be read after it. A carried name keeps one type; a constexpr number
// becomes a runtime value of its natural type (i32, i64, fp32, i1) on entry,
// and one assigned inside takes the carried type.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "llvm/ADT/StringSet.h"

using namespace tilec;

/// Sema's recursion (nested blocks, inlined calls) may use this much stack.
static constexpr size_t kMaxStackBytes = size_t(3) << 20;
/// A kernel may analyze this many statements after unrolling and inlining.
static constexpr size_t kMaxAnalyzedStatements = 200000;
/// Static unrolling beyond this many iterations is an error.
static constexpr int64_t kMaxUnroll = 4096;

namespace {
/// The line of `loc`, for messages that mention a second place.
std::string lineOf(const DiagnosticEngine &diag, SourceLoc loc) {
  return std::to_string(diag.resolve(loc).line);
}

bool isAbsent(const Expr &expr) {
  const ConstValue *value = Sema::getConstexpr(expr);
  return value && value->isNone();
}

} // namespace

bool Sema::checkStackDepth(SourceLoc loc) {
  auto *here = static_cast<const char *>(__builtin_frame_address(0));
  if (!stackBase)
    stackBase = here;
  size_t used = stackBase > here ? stackBase - here : here - stackBase;
  if (used < kMaxStackBytes)
    return true;
  if (!reportedDeepStack)
    diag.error(loc, "nesting too deep: blocks and inlined device function calls nest "
                    "too deeply to analyze");
  reportedDeepStack = true;
  return false;
}

void Sema::analyzeBlockIn(const Block &block, bool loopBody, const Expr *loopCond,
                          llvm::ArrayRef<std::string> carried) {
  if (block.empty() || !checkStackDepth(block.front()->getLoc()))
    return;
  frames.push_back(Frame{&block, 0, loopBody, loopCond, carried});
  for (size_t i = 0; i < block.size(); ++i) {
    if (function && function->returned)
      break;
    frames.back().index = i;
    if (++analyzedStatements == kMaxAnalyzedStatements)
      diag.error(block[i]->getLoc(),
                 "the kernel is too large: more than " +
                     llvm::Twine(kMaxAnalyzedStatements) +
                     " statements after unrolling static_range loops and inlining "
                     "device functions");
    if (analyzedStatements >= kMaxAnalyzedStatements)
      break;
    analyzeStmt(*block[i]);
  }
  frames.pop_back();
}

bool Sema::materialize(llvm::StringRef name, SourceLoc loc) {
  Binding &binding = scope[name];
  if (binding.var)
    return true;
  if (!binding.value.isNumber()) {
    diag.error(loc, "'" + name + "' is the constexpr " + binding.value.str() +
                        " here but is assigned at run time inside; only numbers can "
                        "become runtime values");
    return false;
  }
  SourceLoc where = binding.loc.isValid() ? binding.loc : loc;
  ConstValue value = binding.value;
  bind(name, where, coerce(makeConstant(where, value), *getNaturalScalarKind(value), {}));
  return scope[name].var != nullptr;
}

bool Sema::checkCarried(llvm::StringRef name, const Type &type, SourceLoc loc,
                        llvm::StringRef what) {
  auto it = scope.find(name);
  if (it == scope.end() || it->second.poisoned)
    return false; // Its definition failed and was reported.
  Binding &binding = it->second;
  std::string context =
      what == "loop" ? "'" + name.str() + "' is carried by the loop at line " +
                           lineOf(diag, loc) + " with type " + type.str()
                     : "'" + name.str() + "' has type " + type.str() +
                           " in one branch of the 'if' at line " + lineOf(diag, loc);
  if (!binding.var) {
    if (!binding.value.isNumber() || type.isPointer()) {
      diag.error(binding.loc.isValid() ? binding.loc : loc,
                 context + ", but here it is the constexpr " + binding.value.str());
      return false;
    }
    SourceLoc where = binding.loc.isValid() ? binding.loc : loc;
    // Converted only where nothing is lost (Triton would need the types to
    // match exactly; a value-preserving conversion is never a surprise).
    std::string why = checkRepresentable(binding.value, type.getElement());
    if (!why.empty()) {
      diag.error(where, context + ", but here it is the constexpr " +
                            binding.value.str() + " (" +
                            getScalarKindName(*getNaturalScalarKind(binding.value)) +
                            "): " + why);
      return false;
    }
    ConstValue value = binding.value;
    bind(name, where,
         coerce(makeConstant(where, value), type.getElement(), type.getShape()));
    return scope[name].var != nullptr;
  }
  if (binding.type != type) {
    diag.error(binding.loc.isValid() ? binding.loc : loc,
               context + ", but here it has type " + binding.type.str());
    return false;
  }
  return true;
}

ExprPtr Sema::toCondition(ExprPtr cond, llvm::StringRef what) {
  SourceLoc loc = cond->getLoc();
  if (const ConstValue *value = getConstexpr(*cond))
    return coerce(makeConstant(loc, ConstValue::getBool(value->isTruthy())),
                  ScalarKind::I1, {});
  const Type &type = cond->getType();
  if (type.isTile()) {
    diag.error(loc, "the condition of " + what + " must be a scalar, but it is a tile " +
                        type.str() + "; use tl.where to select elementwise");
    return nullptr;
  }
  // A pointer is true when it is not null, as in Triton.
  if (type.isScalar() && type.isPointer())
    return std::make_unique<ConvertExpr>(loc, std::move(cond),
                                         Type::getScalar(ScalarKind::I1));
  if (!type.isScalar()) {
    diag.error(loc, "the condition of " + what + " must be a scalar number, got " +
                        type.str());
    return nullptr;
  }
  return coerce(std::move(cond), ScalarKind::I1, {});
}

//===----------------------------------------------------------------------===//
// for
//===----------------------------------------------------------------------===//

void Sema::analyzeFor(const ForStmt &stmt) {
  auto *call = llvm::dyn_cast<CallExpr>(&stmt.getIter());
  std::optional<Builtin> builtin;
  std::string calleeName;
  if (call) {
    if (auto *name = llvm::dyn_cast<NameExpr>(&call->getCallee())) {
      calleeName = name->getName().str();
      if (!scope.count(calleeName))
        builtin = lookupBuiltin(module->expandTritonAlias(calleeName));
    } else if (auto *attr = llvm::dyn_cast<AttributeExpr>(&call->getCallee())) {
      // `core.static_range` after `from triton.language import core`.
      calleeName = attr->getDottedName();
      builtin = lookupBuiltin(module->expandTritonAlias(calleeName));
    }
  }
  if (builtin != Builtin::StaticRange && builtin != Builtin::Range &&
      builtin != Builtin::PyRange) {
    diag.error(stmt.getIter().getLoc(), "a 'for' loop must iterate over range(...), "
                                        "tl.range(...) or tl.static_range(...)");
    return;
  }
  auto *target = llvm::dyn_cast<NameExpr>(&stmt.getTarget());
  if (!target) {
    diag.error(stmt.getTarget().getLoc(), "the target of a 'for' loop must be a single "
                                          "name");
    return;
  }
  std::vector<ExprPtr> args;
  if (!normalizeArgs(*builtin, *call, calleeName, nullptr, args))
    return;
  // range(end) / (start, end) / (start, end, step); tl.range's num_stages is
  // this loop's software-pipelining depth, which does not change the meaning.
  unsigned numStages = 0;
  if (builtin == Builtin::Range && !isAbsent(*args[3])) {
    std::optional<int64_t> stages = requireConstInt(*args[3], "num_stages");
    if (!stages)
      return;
    if (*stages < 1 || *stages > 1024) {
      diag.error(args[3]->getLoc(), "num_stages must be between 1 and 1024, got " +
                                        llvm::Twine(*stages));
      return;
    }
    numStages = static_cast<unsigned>(*stages);
  }
  // Triton's other loop hints change how its compiler schedules the loop, not
  // what it computes; tilec does none of these yet, and says so.
  if (builtin == Builtin::Range) {
    const char *hints[] = {"loop_unroll_factor", "disallow_acc_multi_buffer", "flatten",
                           "warp_specialize", "disable_licm"};
    for (auto [i, hint] : llvm::enumerate(hints)) {
      const Expr &arg = *args[4 + i];
      const ConstValue *value = getConstexpr(arg);
      if (!value) {
        diag.error(arg.getLoc(), llvm::Twine(hint) + " of tl.range must be a constexpr");
        return;
      }
      if (!value->isNone() && value->isTruthy())
        diag.warning(arg.getLoc(), llvm::Twine(hint) +
                                       " of tl.range is ignored: tilec compiles the loop "
                                       "as if it were absent");
    }
  }
  ExprPtr bounds[3];
  if (isAbsent(*args[1])) {
    bounds[0] = makeConstant(call->getLoc(), ConstValue::getInt(0));
    bounds[1] = std::move(args[0]);
  } else {
    bounds[0] = std::move(args[0]);
    bounds[1] = std::move(args[1]);
  }
  bounds[2] = isAbsent(*args[2]) ? makeConstant(call->getLoc(), ConstValue::getInt(1))
                                 : std::move(args[2]);
  if (builtin == Builtin::StaticRange)
    analyzeStaticRange(stmt, *target, bounds);
  else
    analyzeRangeFor(stmt, *target, bounds, numStages);
}

void Sema::analyzeStaticRange(const ForStmt &stmt, const NameExpr &target,
                              llvm::MutableArrayRef<ExprPtr> boundExprs) {
  int64_t bounds[3];
  for (size_t i = 0; i < 3; ++i) {
    std::optional<int64_t> bound =
        requireConstInt(*boundExprs[i], "a static_range bound");
    if (!bound)
      return;
    bounds[i] = *bound;
  }
  auto [start, end, step] = bounds;
  SourceLoc loc = stmt.getIter().getLoc();
  if (step == 0) {
    diag.error(loc, "static_range step must not be zero");
    return;
  }
  __int128 span =
      step > 0 ? __int128(end) - start + step - 1 : __int128(start) - end - step - 1;
  __int128 count = span <= 0 ? 0 : span / (step > 0 ? __int128(step) : -__int128(step));
  if (count > kMaxUnroll) {
    diag.error(
        loc, "static_range unrolls " +
                 llvm::Twine(static_cast<int64_t>(std::min<__int128>(count, INT64_MAX))) +
                 " iterations; the limit is " + llvm::Twine(kMaxUnroll));
    return;
  }
  for (int64_t i = 0; i < static_cast<int64_t>(count); ++i) {
    if (function && function->returned)
      return;
    bind(target.getName(), target.getLoc(),
         makeConstant(target.getLoc(), ConstValue::getInt(start + i * step)));
    analyzeBlockIn(stmt.getBody(), /*loopBody=*/true, nullptr, {});
  }
}

/// After a loop: the scope from before it, with the carried names bound to
/// their results; names defined only inside (and the loop variable) report
/// a clear error when used.
void Sema::finishLoop(const llvm::StringMap<Binding> &before, const Block &body,
                      llvm::StringRef loopVar, llvm::ArrayRef<CarriedVar> carried,
                      llvm::ArrayRef<std::string> carriedNames, SourceLoc loc) {
  scope = before;
  std::string line = lineOf(diag, loc);
  for (const std::string &name : collectAssignedNames(body)) {
    auto it = scope.find(name);
    // Defined before the loop, or a definition that failed there (its
    // error is reported; uses stay silent).
    if ((it != scope.end() && (!it->second.poisoned || it->second.reason.empty())) ||
        !getVariableParts(name).empty())
      continue;
    Binding &binding = scope[name];
    binding = Binding();
    binding.poisoned = true;
    binding.reason = "'" + name + "' is assigned inside the loop at line " + line +
                     " but not before it, so it is not defined after the loop; "
                     "assign it before the loop";
  }
  if (!loopVar.empty()) {
    Binding &binding = scope[loopVar];
    binding = Binding();
    binding.poisoned = true;
    binding.reason = "the loop variable '" + loopVar.str() + "' of the loop at line " +
                     line + " cannot be used after the loop (as in Triton)";
  }
  for (auto [name, result] : llvm::zip(carriedNames, carried)) {
    Binding &binding = scope[name];
    binding = Binding();
    binding.var = result.var;
    binding.type = result.type;
    binding.loc = loc;
  }
}

bool Sema::enterLoop(llvm::ArrayRef<std::string> names, SourceLoc loc,
                     std::vector<CarriedVar> &carried) {
  for (const std::string &name : names) {
    if (!materialize(name, loc))
      return false;
    const Binding &binding = scope[name];
    carried.push_back(CarriedVar{binding.var, binding.type});
  }
  return true;
}

void Sema::analyzeRangeFor(const ForStmt &stmt, const NameExpr &target,
                           llvm::MutableArrayRef<ExprPtr> bounds,
                           unsigned numStages) {
  bool wide = false;
  for (const ExprPtr &bound : bounds) {
    if (const ConstValue *value = getConstexpr(*bound)) {
      if (!value->isIntLike()) {
        diag.error(bound->getLoc(),
                   "a range bound must be an integer, got " + value->str());
        return;
      }
      wide |= value->getInt() != static_cast<int32_t>(value->getInt());
      continue;
    }
    const Type &type = bound->getType();
    if (!type.isScalar() || type.isPointer() || !isInteger(type.getElement())) {
      diag.error(bound->getLoc(),
                 "a range bound must be an integer scalar, got " + type.str());
      return;
    }
    wide |= getBitWidth(type.getElement()) > 32;
  }
  ScalarKind ivKind = wide ? ScalarKind::I64 : ScalarKind::I32;
  auto stepSign = RangeForStmt::StepSign::Runtime;
  if (const ConstValue *step = getConstexpr(*bounds[2])) {
    stepSign = RangeForStmt::StepSign::Positive;
    if (step->getInt() == 0 || step->getInt() == INT64_MIN) {
      diag.error(bounds[2]->getLoc(), "the step of range must not be " + step->str());
      return;
    }
    if (step->getInt() < 0) {
      stepSign = RangeForStmt::StepSign::Negative;
      bounds[2] = makeConstant(bounds[2]->getLoc(), ConstValue::getInt(-step->getInt()));
    }
  }
  for (ExprPtr &bound : bounds)
    if (!(bound = coerce(std::move(bound), ivKind, {})))
      return;

  std::vector<std::string> names = loopCarriedNames(stmt.getBody(), nullptr);
  llvm::erase(names, target.getName().str());
  std::vector<CarriedVar> carried;
  if (!enterLoop(names, stmt.getLoc(), carried))
    return;
  llvm::StringMap<Binding> before = scope;
  Variable *iv = kernel->createVariable(target.getName(), target.getLoc());
  Type ivType = Type::getScalar(ivKind);
  Binding &ivBinding = scope[target.getName()];
  ivBinding = Binding();
  ivBinding.var = iv;
  ivBinding.type = ivType;
  ivBinding.loc = target.getLoc();

  Block body;
  Block *outer = out;
  out = &body;
  if (function)
    ++function->runtimeDepth;
  analyzeBlockIn(stmt.getBody(), /*loopBody=*/true, nullptr, names);
  bool ok = true;
  for (auto [name, var] : llvm::zip(names, carried))
    ok &= checkCarried(name, var.type, stmt.getLoc(), "loop");
  if (function)
    --function->runtimeDepth;
  out = outer;
  finishLoop(before, stmt.getBody(), target.getName(), carried, names, stmt.getLoc());
  if (ok)
    out->push_back(std::make_unique<RangeForStmt>(
        stmt.getLoc(), iv, ivType, std::move(bounds[0]), std::move(bounds[1]),
        std::move(bounds[2]), stepSign, std::move(carried), std::move(body),
        numStages));
}

//===----------------------------------------------------------------------===//
// while
//===----------------------------------------------------------------------===//

void Sema::analyzeWhile(const WhileStmt &stmt) {
  std::vector<std::string> names = loopCarriedNames(stmt.getBody(), &stmt.getCond());
  std::vector<CarriedVar> carried;
  if (!enterLoop(names, stmt.getLoc(), carried))
    return;
  llvm::StringMap<Binding> before = scope;
  Block condBlock, body;
  Block *outer = out;
  if (function)
    ++function->runtimeDepth;
  out = &condBlock;
  ExprPtr cond = analyzeExpr(stmt.getCond());
  if (cond)
    cond = toCondition(std::move(cond), "'while'");
  out = &body;
  analyzeBlockIn(stmt.getBody(), /*loopBody=*/true, &stmt.getCond(), names);
  bool ok = cond != nullptr;
  for (auto [name, var] : llvm::zip(names, carried))
    ok &= checkCarried(name, var.type, stmt.getLoc(), "loop");
  if (function)
    --function->runtimeDepth;
  out = outer;
  finishLoop(before, stmt.getBody(), "", carried, names, stmt.getLoc());
  if (ok)
    out->push_back(std::make_unique<RuntimeWhileStmt>(stmt.getLoc(), std::move(carried),
                                                      std::move(condBlock),
                                                      std::move(cond), std::move(body)));
}

//===----------------------------------------------------------------------===//
// if
//===----------------------------------------------------------------------===//

bool Sema::checkBranch(llvm::StringMap<Binding> &branchScope, Block &branchBlock,
                       llvm::StringRef name, const Type &type, SourceLoc ifLoc) {
  std::swap(scope, branchScope);
  Block *outer = out;
  out = &branchBlock;
  bool ok = checkCarried(name, type, ifLoc, "if");
  out = outer;
  std::swap(scope, branchScope);
  return ok;
}

void Sema::analyzeIf(const IfStmt &stmt) {
  ExprPtr cond = analyzeExpr(stmt.getCond());
  if (!cond)
    return;
  if (const ConstValue *value = getConstexpr(*cond)) {
    // Resolved at compile time: only the taken branch is analyzed.
    analyzeBlockIn(value->isTruthy() ? stmt.getThen() : stmt.getElse(), false, nullptr,
                   {});
    return;
  }
  if (!(cond = toCondition(std::move(cond), "'if'")))
    return;
  llvm::StringMap<Binding> before = scope;
  std::vector<Frame> outerFrames = frames;
  Block thenBlock, elseBlock;
  Block *outer = out;
  if (function)
    ++function->runtimeDepth;
  out = &thenBlock;
  analyzeBlockIn(stmt.getThen(), false, nullptr, {});
  bool thenReturned = takeReturned();
  llvm::StringMap<Binding> thenScope = std::move(scope);
  scope = before;
  out = &elseBlock;
  analyzeBlockIn(stmt.getElse(), false, nullptr, {});
  bool elseReturned = takeReturned();
  llvm::StringMap<Binding> elseScope = std::move(scope);
  // A branch returns: the rest of the function runs in the other branches,
  // so that every branch returns and the value is the `if`'s result.
  bool returns = thenReturned || elseReturned;
  if (returns && !thenReturned)
    analyzeContinuation(thenScope, thenBlock, outerFrames);
  if (returns && !elseReturned)
    analyzeContinuation(elseScope, elseBlock, outerFrames);
  scope = before;
  out = outer;
  if (function)
    --function->runtimeDepth;

  // Names read after the `if` (a block pointer as its runtime parts); after
  // an `if` that returns, only the returned value.
  std::vector<std::string> names;
  if (returns) {
    names.push_back(getReturnName());
  } else {
    std::vector<std::string> assigned = collectAssignedNames(stmt.getThen());
    for (std::string &name : collectAssignedNames(stmt.getElse()))
      if (!llvm::is_contained(assigned, name))
        assigned.push_back(std::move(name));
    for (const std::string &name : assigned) {
      if (!isLiveAfter(name))
        continue; // Never read again: the value before the `if` may stay.
      std::vector<std::string> parts = getVariableParts(name);
      if (parts.empty())
        parts.push_back(name);
      names.insert(names.end(), parts.begin(), parts.end());
    }
  }
  std::vector<CarriedVar> results;
  llvm::StringMap<Binding> after = before;
  bool ok = true;
  for (const std::string &name : names) {
    auto thenIt = thenScope.find(name), elseIt = elseScope.find(name);
    const Binding *thenB = thenIt == thenScope.end() ? nullptr : &thenIt->second;
    const Binding *elseB = elseIt == elseScope.end() ? nullptr : &elseIt->second;
    Binding &result = after[name];
    result = Binding();
    result.poisoned = true;
    if ((thenB && thenB->poisoned && thenB->reason.empty()) ||
        (elseB && elseB->poisoned && elseB->reason.empty()))
      continue; // A failed definition, already reported.
    if (!thenB || !elseB || thenB->poisoned || elseB->poisoned) {
      result.reason = "'" + name +
                      "' is assigned in only one branch of the 'if' at "
                      "line " +
                      lineOf(diag, stmt.getLoc()) +
                      "; assign it before the 'if' or in both branches";
      continue;
    }
    if (!thenB->var && !elseB->var && thenB->value == elseB->value &&
        thenB->value.isNumber() == elseB->value.isNumber()) {
      result = *thenB; // The same compile-time value either way.
      continue;
    }
    if (returns && !checkReturnTypes(*thenB, *elseB)) {
      ok = false;
      continue;
    }
    // Check the branch that assigned it against the one that did not.
    auto beforeIt = before.find(name);
    bool thenKept = beforeIt != before.end() && beforeIt->second.var == thenB->var &&
                    beforeIt->second.type == thenB->type &&
                    beforeIt->second.loc == thenB->loc;
    const Binding *reference = thenKept ? thenB : elseB;
    const Binding *other = thenKept ? elseB : thenB;
    Type type;
    if (reference->var)
      type = reference->type;
    else if (other->var)
      type = other->type;
    else if (returns && (reference->value.isFloat() || other->value.isFloat()))
      type = Type::getScalar(ScalarKind::F32); // Returned numbers: Triton's promotion.
    else if (std::optional<ScalarKind> kind = getNaturalScalarKind(reference->value))
      type = Type::getScalar(*kind);
    else
      type = Type::getScalar(ScalarKind::I32); // Reported by checkCarried.
    bool thenOk = checkBranch(thenScope, thenBlock, name, type, stmt.getLoc());
    bool elseOk = thenOk && checkBranch(elseScope, elseBlock, name, type, stmt.getLoc());
    if (!thenOk || !elseOk) {
      ok = false;
      continue;
    }
    result = Binding();
    result.var = thenScope[name].var;
    // The else branch may hold the name in another variable (a loop's
    // induction variable that the then branch reassigned): copy it over.
    if (Variable *elseVar = elseScope[name].var; elseVar != result.var) {
      auto target = std::make_unique<NameExpr>(stmt.getLoc(), name, result.var);
      target->setType(type);
      auto value = std::make_unique<NameExpr>(stmt.getLoc(), name, elseVar);
      value->setType(type);
      elseBlock.push_back(
          std::make_unique<AssignStmt>(stmt.getLoc(), std::move(target), std::move(value)));
    }
    result.type = type;
    result.loc = stmt.getLoc();
    results.push_back(CarriedVar{result.var, type});
  }
  scope = std::move(after);
  if (ok)
    out->push_back(std::make_unique<RuntimeIfStmt>(
        stmt.getLoc(), std::move(cond), std::move(results), std::move(thenBlock),
        std::move(elseBlock)));
  if (!returns)
    return;
  // Every path returned: the function's value is the merged binding.
  function->returned = true;
  const Binding &value = scope[getReturnName()];
  if (value.poisoned) {
    function->returnValue = nullptr;
  } else if (value.var) {
    auto name = std::make_unique<NameExpr>(stmt.getLoc(), getReturnName(), value.var);
    name->setType(value.type);
    function->returnValue = std::move(name);
  } else {
    function->returnValue = makeConstant(stmt.getLoc(), value.value);
  }
}

std::string Sema::getReturnName() const {
  return function->def->getName().str() + ".return";
}

bool Sema::takeReturned() {
  if (!function || !function->returned)
    return false;
  function->returned = false;
  function->returnValue = nullptr;
  return true;
}

void Sema::analyzeContinuation(llvm::StringMap<Binding> &branchScope, Block &branchBlock,
                               llvm::ArrayRef<Frame> outerFrames) {
  std::swap(scope, branchScope);
  Block *outer = out;
  out = &branchBlock;
  std::vector<Frame> savedFrames = std::move(frames);
  // The statements after the `if` in its block, then after the enclosing
  // statement in each enclosing block of the function (none is a loop body:
  // `return` inside a loop is rejected).
  for (size_t k = outerFrames.size(); k-- > 0 && !function->returned;) {
    const Frame &frame = outerFrames[k];
    for (size_t i = frame.index + 1; i < frame.block->size() && !function->returned;
         ++i) {
      if (++analyzedStatements >= kMaxAnalyzedStatements) {
        if (analyzedStatements == kMaxAnalyzedStatements)
          diag.error((*frame.block)[i]->getLoc(),
                     "the kernel is too large: more than " +
                         llvm::Twine(kMaxAnalyzedStatements) +
                         " statements after unrolling static_range loops and "
                         "inlining device functions");
        break;
      }
      frames.assign(outerFrames.begin(), outerFrames.begin() + k + 1);
      frames.back().index = i;
      analyzeStmt(*(*frame.block)[i]);
    }
  }
  frames = std::move(savedFrames);
  if (!function->returned) // Falls off the end of the function: returns None.
    bind(getReturnName(), function->def->getLoc(),
         makeConstant(function->def->getLoc(), ConstValue::getNone()));
  takeReturned();
  out = outer;
  std::swap(scope, branchScope);
}

bool Sema::checkReturnTypes(const Binding &a, const Binding &b) {
  auto describe = [&](const Binding &binding) {
    std::string where = binding.loc == function->def->getLoc()
                            ? "the end of the function"
                            : "line " + lineOf(diag, binding.loc);
    return (binding.var ? binding.type.str() : binding.value.str()) + " (" + where + ")";
  };
  bool match;
  if (a.var && b.var) {
    match = a.type == b.type;
  } else if (a.var || b.var) {
    const Binding &typed = a.var ? a : b, &constant = a.var ? b : a;
    match = constant.value.isNumber() && !typed.type.isPointer() &&
            !(constant.value.isFloat() && !isFloat(typed.type.getElement()));
  } else {
    match = a.value.isNumber() && b.value.isNumber();
  }
  if (match)
    return true;
  diag.error(b.loc, "'" + function->def->getName() +
                        "' returns values of different types: " + describe(a) +
                        " and " + describe(b));
  return false;
}

ExprPtr Sema::analyzeRuntimeIfExpr(const IfExpr &expr, ExprPtr cond) {
  if (!(cond = toCondition(std::move(cond), "a conditional expression")))
    return nullptr;
  // As in Triton, only the taken side is evaluated: an scf.if whose result
  // is the value (so a load on the other side never runs).
  Block blocks[2];
  ExprPtr values[2];
  Block *outer = out;
  if (function)
    ++function->runtimeDepth;
  out = &blocks[0];
  values[0] = analyzeExpr(expr.getThen());
  out = &blocks[1];
  values[1] = values[0] ? analyzeExpr(expr.getElse()) : nullptr;
  out = outer;
  if (function)
    --function->runtimeDepth;
  if (!values[1] || !unify(values, expr.getLoc(), "if-else"))
    return nullptr;
  Type type = values[0]->getType();
  Variable *result = kernel->createVariable("if.value", expr.getLoc());
  for (size_t i = 0; i < 2; ++i) {
    auto target = std::make_unique<NameExpr>(expr.getLoc(), "if.value", result);
    target->setType(type);
    blocks[i].push_back(std::make_unique<AssignStmt>(expr.getLoc(), std::move(target),
                                                     std::move(values[i])));
  }
  std::vector<CarriedVar> results{CarriedVar{result, type}};
  out->push_back(std::make_unique<RuntimeIfStmt>(expr.getLoc(), std::move(cond),
                                                 std::move(results), std::move(blocks[0]),
                                                 std::move(blocks[1])));
  auto value = std::make_unique<NameExpr>(expr.getLoc(), "if.value", result);
  value->setType(type);
  return value;
}

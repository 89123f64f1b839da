//===- Autotune.cpp - Reading the @autotune decorator ---------------------===//
//
// Accepts the tilec spelling (`config(NAME=VALUE, num_warps=...)`) and
// Triton's (`triton.Config({"NAME": VALUE}, num_warps=...)`, whose dict the
// parser turns into `dict(NAME=VALUE)`). Values are constant expressions.
// The list may be a literal, a comprehension over constant lists
// (`[triton.Config({"BM": bm}, num_warps=w) for bm in [64, 128] for w in [4,
// 8] if bm * w <= 512]`), a module-level name bound to one, or a sum of
// those; configs and key may also be passed positionally, as Triton allows.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Autotune.h"
#include "tilec/Frontend/Heuristics.h"

#include "SemaImpl.h"

#include <map>

using namespace tilec;

/// `name` without one of the prefixes a decorator or builtin may carry.
static llvm::StringRef stripPrefix(llvm::StringRef name) {
  for (llvm::StringRef prefix : {"triton.", "tilec.", "tl."})
    if (name.consume_front(prefix))
      return name;
  return name;
}

/// The dotted name a call's callee spells (`itertools.product`), or "".
static std::string calleeName(const CallExpr &call) {
  if (const auto *name = llvm::dyn_cast<NameExpr>(&call.getCallee()))
    return name->getName().str();
  if (const auto *attr = llvm::dyn_cast<AttributeExpr>(&call.getCallee()))
    return attr->getDottedName();
  return "";
}

bool tilec::isAutotuneDecorator(llvm::StringRef name) {
  return name == "autotune" || name == "triton.autotune" || name == "tilec.autotune";
}

bool tilec::isProjectAutotuner(const Decorator &decorator) {
  return !isAutotuneDecorator(decorator.name) && !isHeuristicsDecorator(decorator.name) &&
         !isKernelDecoratorName(decorator.name) &&
         llvm::any_of(decorator.args, [](const CallArg &arg) { return arg.keyword == "configs"; });
}

namespace {

/// Reads one decorator; every error goes to `diag`.
class AutotuneReader {
public:
  AutotuneReader(const Module &module, const FunctionDef &def, DiagnosticEngine &diag)
      : module(module), def(def), diag(diag) {}

  std::optional<AutotuneSpec> read(const Decorator &decorator);

private:
  std::optional<ConstValue> evaluate(const Expr &expr);
  /// The module-level definition `name` refers to, or null.
  const Expr *lookupGlobal(llvm::StringRef name) const;
  bool readConfigList(const Expr &expr, std::vector<TuneConfig> &configs);
  /// Binds the comprehension's targets from `clause` on and calls
  /// `atElement` for each combination its conditions keep.
  bool walkComprehension(const ListCompExpr &comp, size_t clause,
                         llvm::function_ref<bool()> atElement);
  bool bindTarget(const Expr &target, const ConstValue &value);
  /// Runs `read` on the definition of module-level `name`: marked as being
  /// read (against self-reference), without the comprehension variables.
  template <typename Fn> auto inGlobal(llvm::StringRef name, Fn read) {
    std::map<std::string, ConstValue> outer = std::move(env);
    env.clear();
    reading.push_back(name.str());
    auto result = read();
    reading.pop_back();
    env = std::move(outer);
    return result;
  }
  std::optional<unsigned> readCount(const Expr &expr, llvm::StringRef what,
                                    unsigned max);
  bool readNames(const Expr &expr, llvm::StringRef what,
                 std::vector<std::string> &names);
  bool readConfig(const Expr &expr, TuneConfig &config);
  bool readValues(const CallExpr &dict, TuneConfig &config);
  bool addValue(const CallArg &arg, TuneConfig &config);
  const Param *findParam(llvm::StringRef name) const;

  const Module &module;
  const FunctionDef &def;
  DiagnosticEngine &diag;
  /// The comprehension variables in scope.
  std::map<std::string, ConstValue> env;
  /// Module-level names being read (a name defined by itself is an error).
  std::vector<std::string> reading;
};

} // namespace

const Expr *AutotuneReader::lookupGlobal(llvm::StringRef name) const {
  const GlobalDef *global = module.lookupGlobal(name);
  return global ? global->value.get() : nullptr;
}

bool AutotuneReader::bindTarget(const Expr &target, const ConstValue &value) {
  if (const auto *name = llvm::dyn_cast<NameExpr>(&target)) {
    env[name->getName().str()] = value;
    return true;
  }
  const auto &names = llvm::cast<TupleExpr>(target);
  if (!value.isTuple() || value.getTuple().size() != names.getElements().size()) {
    diag.error(target.getLoc(), "cannot unpack " + value.str() + " into " +
                                    llvm::Twine(names.getElements().size()) + " names");
    return false;
  }
  for (size_t i = 0; i < value.getTuple().size(); ++i)
    if (!bindTarget(*names.getElements()[i], value.getTuple()[i]))
      return false;
  return true;
}

bool AutotuneReader::walkComprehension(const ListCompExpr &comp, size_t clause,
                                       llvm::function_ref<bool()> atElement) {
  if (clause == comp.getClauses().size())
    return atElement();
  const ListCompExpr::Clause &c = comp.getClauses()[clause];
  std::optional<ConstValue> items = evaluate(*c.iterable);
  if (!items)
    return false;
  if (!items->isTuple()) {
    diag.error(c.iterable->getLoc(), "a comprehension in @autotune must iterate over a "
                                     "list of constants, got " + items->str());
    return false;
  }
  std::map<std::string, ConstValue> outer = env;
  for (const ConstValue &item : items->getTuple()) {
    if (!bindTarget(*c.target, item))
      return false;
    bool keep = true;
    for (const ExprPtr &condition : c.conditions) {
      std::optional<ConstValue> value = evaluate(*condition);
      if (!value)
        return false;
      keep = keep && value->isTruthy();
    }
    if (keep && !walkComprehension(comp, clause + 1, atElement))
      return false;
    env = outer;
  }
  return true;
}

bool AutotuneReader::readConfigList(const Expr &expr, std::vector<TuneConfig> &configs) {
  if (const auto *list = llvm::dyn_cast<TupleExpr>(&expr)) {
    bool ok = true;
    for (const ExprPtr &element : list->getElements()) {
      if (const auto *star = llvm::dyn_cast<UnaryExpr>(element.get());
          star && star->getOp() == UnaryOp::Star) {
        // `*get_configs_io_bound()`: host Python.
        diag.warning(element->getLoc(), "configs unpacked with '*' are left out: tilec "
                                        "reads config(...) and triton.Config(...) written "
                                        "in the list (the JIT tunes those)");
        continue;
      }
      TuneConfig config;
      if (readConfig(*element, config))
        configs.push_back(std::move(config));
      else
        ok = false;
    }
    return ok;
  }
  if (const auto *comp = llvm::dyn_cast<ListCompExpr>(&expr))
    return walkComprehension(*comp, 0, [&] {
      TuneConfig config;
      if (!readConfig(comp->getElement(), config))
        return false;
      configs.push_back(std::move(config));
      return true;
    });
  if (const auto *sum = llvm::dyn_cast<BinaryExpr>(&expr); sum && sum->getOp() == BinaryOp::Add)
    return readConfigList(sum->getLHS(), configs) && readConfigList(sum->getRHS(), configs);
  // `configs=_configs()`: a function of the file that returns the list.
  if (const auto *call = llvm::dyn_cast<CallExpr>(&expr); call && call->getArgs().empty()) {
    const auto *callee = llvm::dyn_cast<NameExpr>(&call->getCallee());
    const FunctionDef *function = callee ? module.lookup(callee->getName()) : nullptr;
    const ReturnStmt *ret = nullptr;
    if (function && function->params.empty()) {
      // Its body: a docstring at most, then the return.
      auto docstring = [](const StmtPtr &stmt) {
        const auto *expr = llvm::dyn_cast<ExprStmt>(stmt.get());
        const auto *text = expr ? llvm::dyn_cast<ConstantExpr>(&expr->getExpr()) : nullptr;
        return text && text->getValue().isString();
      };
      const Block &body = function->body;
      size_t first = !body.empty() && docstring(body.front()) ? 1 : 0;
      if (body.size() == first + 1)
        ret = llvm::dyn_cast<ReturnStmt>(body[first].get());
    }
    if (ret && ret->getValue() && !llvm::is_contained(reading, callee->getName()))
      return inGlobal(callee->getName(),
                      [&] { return readConfigList(*ret->getValue(), configs); });
  }
  // `tuned() if AUTOTUNE else default()` on a module-level constant.
  if (const auto *choice = llvm::dyn_cast<IfExpr>(&expr)) {
    std::optional<ConstValue> cond = evaluate(choice->getCond());
    return cond && readConfigList(cond->isTruthy() ? choice->getThen() : choice->getElse(),
                                  configs);
  }
  if (const auto *name = llvm::dyn_cast<NameExpr>(&expr)) {
    if (const Expr *value = lookupGlobal(name->getName())) {
      if (llvm::is_contained(reading, name->getName())) {
        diag.error(expr.getLoc(), "module-level '" + name->getName() +
                                      "' is defined in terms of itself");
        return false;
      }
      return inGlobal(name->getName(), [&] { return readConfigList(*value, configs); });
    }
  }
  diag.error(expr.getLoc(), "configs must be a list of config(...) / triton.Config(...): "
                            "a list literal, a comprehension over constant lists, a "
                            "module-level name bound to one, or a call of a function "
                            "that only returns one");
  return false;
}

const Param *AutotuneReader::findParam(llvm::StringRef name) const {
  for (const Param &param : def.params)
    if (param.name == name)
      return &param;
  return nullptr;
}

/// A constant expression: literals, tuples, unary and binary operators.
std::optional<ConstValue> AutotuneReader::evaluate(const Expr &expr) {
  std::string error;
  std::optional<ConstValue> result;
  if (const auto *constant = llvm::dyn_cast<ConstantExpr>(&expr))
    return constant->getValue();
  if (const auto *name = llvm::dyn_cast<NameExpr>(&expr)) {
    if (auto it = env.find(name->getName().str()); it != env.end())
      return it->second;
    const Expr *value = lookupGlobal(name->getName());
    if (value && !llvm::is_contained(reading, name->getName()))
      return inGlobal(name->getName(), [&] { return evaluate(*value); });
  }
  if (const auto *tuple = llvm::dyn_cast<TupleExpr>(&expr)) {
    std::vector<ConstValue> elements;
    for (const ExprPtr &element : tuple->getElements()) {
      std::optional<ConstValue> value = evaluate(*element);
      if (!value)
        return std::nullopt;
      elements.push_back(*value);
    }
    return ConstValue::getTuple(std::move(elements));
  }
  // `itertools.product([64, 128], [4, 8])` (also after `from itertools
  // import product`): the tuples of the cartesian product, in Python's order.
  if (const auto *call = llvm::dyn_cast<CallExpr>(&expr)) {
    std::string name = calleeName(*call);
    if (name == "range" && !call->getArgs().empty() && call->getArgs().size() <= 3) {
      std::vector<int64_t> bounds;
      for (const CallArg &arg : call->getArgs()) {
        std::optional<ConstValue> value = arg.keyword.empty() ? evaluate(*arg.value) : std::nullopt;
        if (!value || !value->isInt()) {
          diag.error(arg.loc, "range in @autotune takes integer constants");
          return std::nullopt;
        }
        bounds.push_back(value->getInt());
      }
      int64_t start = bounds.size() > 1 ? bounds[0] : 0;
      int64_t stop = bounds.size() > 1 ? bounds[1] : bounds[0];
      int64_t step = bounds.size() > 2 ? bounds[2] : 1;
      if (step == 0 || (stop - start) / step > 4096) {
        diag.error(expr.getLoc(), "range in @autotune must have a nonzero step and at most "
                                  "4096 values");
        return std::nullopt;
      }
      std::vector<ConstValue> values;
      for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
        values.push_back(ConstValue::getInt(i));
      return ConstValue::getTuple(std::move(values));
    }
    if ((name == "itertools.product" || name == "product") && !call->getArgs().empty()) {
      std::vector<std::vector<ConstValue>> rows{{}};
      for (const CallArg &arg : call->getArgs()) {
        std::optional<ConstValue> items = arg.keyword.empty() ? evaluate(*arg.value) : std::nullopt;
        if (!items || !items->isTuple()) {
          if (items || !arg.keyword.empty())
            diag.error(arg.loc, "itertools.product in @autotune takes lists of constants");
          return std::nullopt;
        }
        std::vector<std::vector<ConstValue>> next;
        for (const auto &row : rows)
          for (const ConstValue &item : items->getTuple()) {
            next.push_back(row);
            next.back().push_back(item);
          }
        if (next.size() > 4096) {
          diag.error(expr.getLoc(), "itertools.product in @autotune makes more than 4096 configs");
          return std::nullopt;
        }
        rows = std::move(next);
      }
      std::vector<ConstValue> tuples;
      for (auto &row : rows)
        tuples.push_back(ConstValue::getTuple(std::move(row)));
      return ConstValue::getTuple(std::move(tuples));
    }
  }
  // `[2**n for n in range(2, 11, 3)]`: a list of constants.
  if (const auto *comp = llvm::dyn_cast<ListCompExpr>(&expr)) {
    std::vector<ConstValue> values;
    bool ok = walkComprehension(*comp, 0, [&] {
      std::optional<ConstValue> value = evaluate(comp->getElement());
      if (value && values.size() >= 4096) {
        diag.error(comp->getLoc(), "a comprehension in @autotune makes more than 4096 values");
        return false;
      }
      if (value)
        values.push_back(*value);
      return value.has_value();
    });
    if (!ok)
      return std::nullopt;
    return ConstValue::getTuple(std::move(values));
  }
  if (const auto *unary = llvm::dyn_cast<UnaryExpr>(&expr)) {
    std::optional<ConstValue> operand = evaluate(unary->getOperand());
    if (!operand)
      return std::nullopt;
    result = foldUnary(unary->getOp(), *operand, error);
  } else if (const auto *binary = llvm::dyn_cast<BinaryExpr>(&expr)) {
    std::optional<ConstValue> lhs = evaluate(binary->getLHS());
    std::optional<ConstValue> rhs = lhs ? evaluate(binary->getRHS()) : std::nullopt;
    if (!rhs)
      return std::nullopt;
    result = foldBinary(binary->getOp(), *lhs, *rhs, error);
  } else {
    diag.error(expr.getLoc(), "an @autotune value must be a constant (a "
                              "number, True/False, a string or arithmetic on them)");
    return std::nullopt;
  }
  if (!result)
    diag.error(expr.getLoc(), error);
  return result;
}

std::optional<unsigned> AutotuneReader::readCount(const Expr &expr,
                                                  llvm::StringRef what,
                                                  unsigned max) {
  std::optional<ConstValue> value = evaluate(expr);
  if (!value)
    return std::nullopt;
  if (!value->isInt() || value->getInt() < 1 ||
      value->getInt() > max) {
    diag.error(expr.getLoc(), what + " must be an integer from 1 to " +
                                  llvm::Twine(max) + ", got " + value->str());
    return std::nullopt;
  }
  return static_cast<unsigned>(value->getInt());
}

bool AutotuneReader::readNames(const Expr &expr, llvm::StringRef what,
                               std::vector<std::string> &names) {
  const auto *list = llvm::dyn_cast<TupleExpr>(&expr);
  if (!list) {
    diag.error(expr.getLoc(), what + " must be a list of parameter names, e.g. "
                                     "[\"M\", \"N\"]");
    return false;
  }
  bool ok = true;
  for (const ExprPtr &element : list->getElements()) {
    const auto *constant = llvm::dyn_cast<ConstantExpr>(element.get());
    if (!constant || !constant->getValue().isString()) {
      diag.error(element->getLoc(), what + " must list parameter names as strings");
      ok = false;
      continue;
    }
    llvm::StringRef name = constant->getValue().getString();
    if (!findParam(name)) {
      diag.error(element->getLoc(), "'" + name + "' in " + what +
                                        " is not a parameter of kernel '" +
                                        def.getName() + "'");
      ok = false;
      continue;
    }
    names.push_back(name.str());
  }
  return ok;
}

bool AutotuneReader::addValue(const CallArg &arg, TuneConfig &config) {
  const Param *param = findParam(arg.keyword);
  if (!param || param->annotation != ParamAnnotation::Constexpr) {
    diag.error(arg.loc, "config sets '" + arg.keyword + "', which is not a " +
                            (param ? "constexpr " : "") + "parameter of kernel '" +
                            def.getName() + "'");
    return false;
  }
  for (const auto &[name, ignored] : config.values)
    if (name == arg.keyword) {
      diag.error(arg.loc, "config sets '" + arg.keyword + "' twice");
      return false;
    }
  std::optional<ConstValue> value = evaluate(*arg.value);
  if (!value)
    return false;
  config.values.push_back({arg.keyword, *value});
  return true;
}

/// The `dict(NAME=VALUE)` the parser made of `{"NAME": VALUE}`.
bool AutotuneReader::readValues(const CallExpr &dict, TuneConfig &config) {
  bool ok = true;
  for (const CallArg &arg : dict.getArgs())
    ok &= addValue(arg, config);
  return ok;
}

bool AutotuneReader::readConfig(const Expr &expr, TuneConfig &config) {
  config.loc = expr.getLoc();
  const auto *call = llvm::dyn_cast<CallExpr>(&expr);
  std::string callee = call ? calleeName(*call) : "";
  llvm::StringRef short_ = stripPrefix(callee);
  bool tritonConfig = short_ == "Config";
  if (!call || (short_ != "config" && !tritonConfig)) {
    diag.error(expr.getLoc(), "expected config(NAME=VALUE, ..., num_warps=N, "
                              "num_stages=N) or triton.Config({\"NAME\": VALUE}, "
                              "num_warps=N, num_stages=N)");
    return false;
  }
  bool ok = true;
  for (const CallArg &arg : call->getArgs()) {
    if (arg.keyword == "num_warps") {
      config.numWarps = readCount(*arg.value, "num_warps", 32);
      if (config.numWarps && (*config.numWarps & (*config.numWarps - 1))) {
        diag.error(arg.value->getLoc(), "num_warps must be a power of two");
        config.numWarps.reset();
      }
      ok &= config.numWarps.has_value();
    } else if (arg.keyword == "num_stages") {
      config.numStages = readCount(*arg.value, "num_stages", 1024);
      ok &= config.numStages.has_value();
    } else if (arg.keyword == "num_ctas") {
      std::optional<unsigned> ctas = readCount(*arg.value, "num_ctas", 1);
      ok &= ctas.has_value();
    } else if (arg.keyword == "pre_hook" || arg.keyword == "maxnreg" ||
               arg.keyword == "ir_override") {
      diag.warning(arg.loc, "argument '" + arg.keyword + "' of a config is ignored: " +
                                (arg.keyword == "pre_hook"
                                     ? "tilec runs no Python around a launch"
                                     : "tilec compiles the config without it"));
    } else if (tritonConfig && (arg.keyword.empty() || arg.keyword == "kwargs")) {
      const auto *dict = llvm::dyn_cast<CallExpr>(arg.value.get());
      const auto *dictName =
          dict ? llvm::dyn_cast<NameExpr>(&dict->getCallee()) : nullptr;
      if (!dictName || dictName->getName() != "dict") {
        diag.error(arg.value->getLoc(), "triton.Config's first argument must be "
                                        "a dict literal, e.g. {\"BLOCK\": 128}");
        ok = false;
        continue;
      }
      ok &= readValues(*dict, config);
    } else if (!tritonConfig && !arg.keyword.empty()) {
      ok &= addValue(arg, config);
    } else {
      diag.error(arg.loc, arg.keyword.empty()
                              ? llvm::Twine("config takes keyword arguments only")
                              : "unsupported argument '" + arg.keyword +
                                    "' of triton.Config; expected a dict, "
                                    "num_warps, num_stages or num_ctas=1");
      ok = false;
    }
  }
  return ok;
}

std::optional<AutotuneSpec> AutotuneReader::read(const Decorator &decorator) {
  AutotuneSpec spec;
  spec.loc = decorator.loc;
  bool ok = true, sawConfigs = false, sawKey = false;
  size_t position = 0;
  for (const CallArg &arg : decorator.args) {
    // Triton's signature: autotune(configs, key, prune_configs_by, ...).
    llvm::StringRef keyword = arg.keyword;
    if (keyword.empty() && position < 2)
      keyword = position++ == 0 ? "configs" : "key";
    if (keyword == "configs") {
      sawConfigs = true;
      size_t before = spec.configs.size();
      if (!readConfigList(*arg.value, spec.configs)) {
        ok = false;
      } else if (spec.configs.size() == before) {
        diag.error(arg.value->getLoc(), "configs must not be empty");
        ok = false;
      }
    } else if (keyword == "prune_configs_by" || keyword == "pre_hook" ||
               keyword == "post_hook" || keyword == "do_bench" ||
               keyword == "use_cuda_graph" || keyword == "cache_results") {
      diag.warning(arg.loc, "argument '" + keyword + "' of @autotune is ignored: " +
                                (keyword == "prune_configs_by"
                                     ? "the JIT times every config"
                                     : "tilec runs no Python around a launch"));
    } else if (keyword == "key") {
      sawKey = true;
      ok &= readNames(*arg.value, "key", spec.key);
    } else if (keyword == "reset_to_zero") {
      ok &= readNames(*arg.value, "reset_to_zero", spec.resetToZero);
    } else if (keyword == "restore_value") {
      ok &= readNames(*arg.value, "restore_value", spec.restoreValue);
    } else if (keyword == "warmup" || keyword == "rep") {
      std::optional<unsigned> ms = readCount(*arg.value, keyword, 100000);
      if (ms)
        (keyword == "warmup" ? spec.warmupMs : spec.repMs) = *ms;
      ok &= ms.has_value();
    } else if (isProjectAutotuner(decorator) && !keyword.empty()) {
      diag.warning(arg.loc, "argument '" + keyword + "' of @" + decorator.name +
                                " is ignored: tilec reads a project's autotuner as "
                                "@triton.autotune (its configs and key)");
    } else {
      diag.error(arg.loc, keyword.empty()
                              ? llvm::Twine("@autotune takes configs and key "
                                            "positionally, the rest by keyword")
                              : "unsupported argument '" + keyword +
                                    "' of @autotune; expected configs, key, "
                                    "reset_to_zero, restore_value, warmup or rep");
      ok = false;
    }
  }
  if (!sawConfigs || !sawKey) {
    diag.error(decorator.loc, llvm::Twine("@autotune needs ") +
                                  (sawConfigs ? "key=[...]" : "configs=[...]"));
    ok = false;
  }
  for (const std::string &name : spec.resetToZero) {
    const Param *param = findParam(name);
    if (param && param->annotation == ParamAnnotation::Constexpr) {
      diag.error(decorator.loc, "reset_to_zero names '" + name +
                                    "', a constexpr parameter; it must name pointers");
      ok = false;
    }
  }
  if (!ok)
    return std::nullopt;
  return spec;
}

std::optional<AutotuneSpec> tilec::readAutotune(const Module &module,
                                                const FunctionDef &def,
                                                DiagnosticEngine &diag) {
  const Decorator *found = nullptr;
  for (const Decorator &decorator : def.decorators) {
    if (!isAutotuneDecorator(decorator.name) && !isProjectAutotuner(decorator))
      continue;
    if (found) {
      diag.error(decorator.loc, "kernel '" + def.getName() +
                                    "' has two @autotune decorators");
      return std::nullopt;
    }
    found = &decorator;
  }
  if (!found)
    return std::nullopt;
  return AutotuneReader(module, def, diag).read(*found);
}

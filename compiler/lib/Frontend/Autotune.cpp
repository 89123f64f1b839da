//===- Autotune.cpp - Reading the @autotune decorator ---------------------===//
//
// Accepts the tilec spelling (`config(NAME=VALUE, num_warps=...)`) and
// Triton's (`triton.Config({"NAME": VALUE}, num_warps=...)`, whose dict the
// parser turns into `dict(NAME=VALUE)`). Values are constant expressions.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Autotune.h"

#include "SemaImpl.h"

using namespace tilec;

/// `name` without one of the prefixes a decorator or builtin may carry.
static llvm::StringRef stripPrefix(llvm::StringRef name) {
  for (llvm::StringRef prefix : {"triton.", "tilec.", "tl."})
    if (name.consume_front(prefix))
      return name;
  return name;
}

bool tilec::isAutotuneDecorator(llvm::StringRef name) {
  return name == "autotune" || name == "triton.autotune" || name == "tilec.autotune";
}

namespace {

/// Reads one decorator; every error goes to `diag`.
class AutotuneReader {
public:
  AutotuneReader(const FunctionDef &def, DiagnosticEngine &diag)
      : def(def), diag(diag) {}

  std::optional<AutotuneSpec> read(const Decorator &decorator);

private:
  std::optional<ConstValue> evaluate(const Expr &expr);
  std::optional<unsigned> readCount(const Expr &expr, llvm::StringRef what,
                                    unsigned max);
  bool readNames(const Expr &expr, llvm::StringRef what,
                 std::vector<std::string> &names);
  bool readConfig(const Expr &expr, TuneConfig &config);
  bool readValues(const CallExpr &dict, TuneConfig &config);
  bool addValue(const CallArg &arg, TuneConfig &config);
  const Param *findParam(llvm::StringRef name) const;

  const FunctionDef &def;
  DiagnosticEngine &diag;
};

} // namespace

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
  std::string callee;
  if (call) {
    if (const auto *name = llvm::dyn_cast<NameExpr>(&call->getCallee()))
      callee = name->getName().str();
    else if (const auto *attr = llvm::dyn_cast<AttributeExpr>(&call->getCallee()))
      callee = attr->getDottedName();
  }
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
  for (const CallArg &arg : decorator.args) {
    if (arg.keyword == "configs") {
      sawConfigs = true;
      const auto *list = llvm::dyn_cast<TupleExpr>(arg.value.get());
      if (!list || list->getElements().empty()) {
        diag.error(arg.value->getLoc(), "configs must be a non-empty list of "
                                        "config(...) / triton.Config(...)");
        ok = false;
        continue;
      }
      for (const ExprPtr &element : list->getElements()) {
        TuneConfig config;
        if (readConfig(*element, config))
          spec.configs.push_back(std::move(config));
        else
          ok = false;
      }
    } else if (arg.keyword == "key") {
      sawKey = true;
      ok &= readNames(*arg.value, "key", spec.key);
    } else if (arg.keyword == "reset_to_zero") {
      ok &= readNames(*arg.value, "reset_to_zero", spec.resetToZero);
    } else if (arg.keyword == "restore_value") {
      ok &= readNames(*arg.value, "restore_value", spec.restoreValue);
    } else if (arg.keyword == "warmup" || arg.keyword == "rep") {
      std::optional<unsigned> ms = readCount(*arg.value, arg.keyword, 100000);
      if (ms)
        (arg.keyword == "warmup" ? spec.warmupMs : spec.repMs) = *ms;
      ok &= ms.has_value();
    } else {
      diag.error(arg.loc, arg.keyword.empty()
                              ? llvm::Twine("@autotune takes keyword arguments")
                              : "unsupported argument '" + arg.keyword +
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

std::optional<AutotuneSpec> tilec::readAutotune(const FunctionDef &def,
                                                DiagnosticEngine &diag) {
  const Decorator *found = nullptr;
  for (const Decorator &decorator : def.decorators) {
    if (!isAutotuneDecorator(decorator.name))
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
  return AutotuneReader(def, diag).read(*found);
}

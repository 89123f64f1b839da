//===- Heuristics.cpp - Reading the @triton.heuristics decorator ----------===//
//
// The decorator takes one dict, positionally or as `values=`; the parser has
// turned the dict literal into `dict(NAME=VALUE, ...)`. Each value is a
// one-parameter lambda, or the name of a module-level function whose body is
// `return EXPR` (a docstring may precede it), as Triton code writes both.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Heuristics.h"

using namespace tilec;

bool tilec::isHeuristicsDecorator(llvm::StringRef name) {
  return name == "heuristics" || name == "triton.heuristics" ||
         name == "tilec.heuristics";
}

/// The function `value` (a lambda or the name of a module-level def) as a
/// parameter name and a body; reports other values.
static bool readFunction(const Module &module, const Expr &value, Heuristic &heuristic,
                         DiagnosticEngine &diag) {
  if (const auto *lambda = llvm::dyn_cast<LambdaExpr>(&value)) {
    if (lambda->getParams().size() != 1) {
      diag.error(value.getLoc(), "a heuristic takes one parameter (the arguments, as "
                                 "in 'lambda args: args[\"n\"] % 16 == 0')");
      return false;
    }
    heuristic.argsName = lambda->getParams().front();
    heuristic.body = &lambda->getBody();
    return true;
  }
  const auto *name = llvm::dyn_cast<NameExpr>(&value);
  const FunctionDef *def = name ? module.lookup(name->getName()) : nullptr;
  if (!def) {
    diag.error(value.getLoc(), "a heuristic must be a lambda or the name of a "
                               "function of this file");
    return false;
  }
  const Block &body = def->body;
  size_t first = 0;
  if (!body.empty())
    if (const auto *doc = llvm::dyn_cast<ExprStmt>(body.front().get()))
      if (const auto *constant = llvm::dyn_cast<ConstantExpr>(&doc->getExpr()))
        if (constant->getValue().isString())
          first = 1;
  const auto *ret = body.size() == first + 1
                        ? llvm::dyn_cast<ReturnStmt>(body[first].get())
                        : nullptr;
  if (def->params.size() != 1) {
    diag.error(value.getLoc(), "heuristic '" + name->getName() +
                                   "' must take one parameter (the arguments)");
    return false;
  }
  heuristic.argsName = def->params.front().name;
  if (ret && ret->getValue())
    heuristic.body = ret->getValue();
  else
    heuristic.function = def;
  return true;
}

std::vector<Heuristic> tilec::readHeuristics(const Module &module,
                                             const FunctionDef &def,
                                             DiagnosticEngine &diag) {
  std::vector<Heuristic> heuristics;
  for (const Decorator &decorator : def.decorators) {
    if (!isHeuristicsDecorator(decorator.name))
      continue;
    const Expr *dict = nullptr;
    for (const CallArg &arg : decorator.args) {
      if (dict || (!arg.keyword.empty() && arg.keyword != "values")) {
        diag.error(arg.loc, "@" + decorator.name + " takes one dict, 'values'");
        continue;
      }
      dict = arg.value.get();
    }
    const auto *call = dict ? llvm::dyn_cast<CallExpr>(dict) : nullptr;
    const auto *callee = call ? llvm::dyn_cast<NameExpr>(&call->getCallee()) : nullptr;
    if (!callee || callee->getName() != "dict") {
      // Host Python (`runtime.get_heuristic_config("argmax")`): the values
      // then come from -D.
      diag.warning(dict ? dict->getLoc() : decorator.loc,
                   "@" + decorator.name + " is ignored: it needs a dict literal of "
                   "parameter names to functions ({\"BLOCK\": lambda args: ...}); "
                   "give the values with -D");
      continue;
    }
    for (const CallArg &entry : call->getArgs()) {
      const Param *param = nullptr;
      for (const Param &p : def.params)
        if (p.name == entry.keyword)
          param = &p;
      bool launchOption = entry.keyword == "num_warps" || entry.keyword == "num_stages";
      if (!launchOption && (!param || param->annotation != ParamAnnotation::Constexpr)) {
        diag.error(entry.loc, "heuristic '" + entry.keyword + "' must name a constexpr "
                              "parameter of kernel '" + def.getName() +
                              "', num_warps or num_stages");
        continue;
      }
      Heuristic heuristic{entry.keyword, entry.value->getLoc(), "", nullptr};
      if (!readFunction(module, *entry.value, heuristic, diag)) {
        continue;
      }
      heuristics.push_back(std::move(heuristic));
    }
  }
  return heuristics;
}

std::vector<std::string> tilec::getHeuristicInputs(const Heuristic &heuristic) {
  std::vector<std::string> inputs;
  auto collect = [&](const Expr &expr) {
    const auto *subscript = llvm::dyn_cast<SubscriptExpr>(&expr);
    const auto *base = subscript ? llvm::dyn_cast<NameExpr>(&subscript->getBase()) : nullptr;
    if (!base || base->getName() != heuristic.argsName ||
        subscript->getIndices().size() != 1)
      return false;
    const auto *key = llvm::dyn_cast<ConstantExpr>(subscript->getIndices()[0].get());
    if (key && key->getValue().isString() &&
        !llvm::is_contained(inputs, key->getValue().getString()))
      inputs.push_back(key->getValue().getString().str());
    return false;
  };
  if (heuristic.function)
    anySubExprInBlock(heuristic.function->body, collect);
  else
    anySubExpr(heuristic.body, collect);
  return inputs;
}

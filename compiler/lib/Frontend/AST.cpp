//===- AST.cpp - Abstract syntax tree of .tile files ----------------------===//
//
// Out-of-line constructors (they record subtree heights) and small helpers.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/AST.h"

using namespace tilec;

llvm::StringRef tilec::getSpelling(UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg: return "-";
  case UnaryOp::Pos: return "+";
  case UnaryOp::Not: return "not";
  case UnaryOp::Invert: return "~";
  case UnaryOp::Star: return "*";
  }
  return "?";
}

llvm::StringRef tilec::getSpelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: return "+";
  case BinaryOp::Sub: return "-";
  case BinaryOp::Mul: return "*";
  case BinaryOp::Div: return "/";
  case BinaryOp::FloorDiv: return "//";
  case BinaryOp::Mod: return "%";
  case BinaryOp::Pow: return "**";
  case BinaryOp::MatMul: return "@";
  case BinaryOp::LShift: return "<<";
  case BinaryOp::RShift: return ">>";
  case BinaryOp::BitAnd: return "&";
  case BinaryOp::BitOr: return "|";
  case BinaryOp::BitXor: return "^";
  case BinaryOp::And: return "and";
  case BinaryOp::Or: return "or";
  case BinaryOp::Lt: return "<";
  case BinaryOp::Le: return "<=";
  case BinaryOp::Gt: return ">";
  case BinaryOp::Ge: return ">=";
  case BinaryOp::Eq: return "==";
  case BinaryOp::Ne: return "!=";
  case BinaryOp::Is: return "is";
  case BinaryOp::IsNot: return "is not";
  }
  return "?";
}

bool tilec::isComparison(BinaryOp op) {
  return op == BinaryOp::Lt || op == BinaryOp::Le || op == BinaryOp::Gt ||
         op == BinaryOp::Ge || op == BinaryOp::Eq || op == BinaryOp::Ne;
}

std::string AttributeExpr::getDottedName() const {
  if (auto *name = llvm::dyn_cast<NameExpr>(base.get()))
    return name->getName().str() + "." + this->name;
  if (auto *attr = llvm::dyn_cast<AttributeExpr>(base.get())) {
    std::string prefix = attr->getDottedName();
    return prefix.empty() ? "" : prefix + "." + this->name;
  }
  return "";
}

CallExpr::CallExpr(SourceLoc loc, ExprPtr callee, std::vector<CallArg> args)
    : Expr(Kind::Call, loc), callee(std::move(callee)), args(std::move(args)) {
  addChildHeight(this->callee.get());
  for (const CallArg &arg : this->args)
    addChildHeight(arg.value.get());
}

SubscriptExpr::SubscriptExpr(SourceLoc loc, ExprPtr base, std::vector<ExprPtr> indices)
    : Expr(Kind::Subscript, loc), base(std::move(base)), indices(std::move(indices)) {
  addChildHeight(this->base.get());
  for (const ExprPtr &index : this->indices)
    addChildHeight(index.get());
}

SliceExpr::SliceExpr(SourceLoc loc, ExprPtr lower, ExprPtr upper, ExprPtr step)
    : Expr(Kind::Slice, loc), lower(std::move(lower)), upper(std::move(upper)),
      step(std::move(step)) {
  addChildHeight(this->lower.get());
  addChildHeight(this->upper.get());
  addChildHeight(this->step.get());
}

IfExpr::IfExpr(SourceLoc loc, ExprPtr cond, ExprPtr thenValue, ExprPtr elseValue)
    : Expr(Kind::IfExp, loc), cond(std::move(cond)), thenValue(std::move(thenValue)),
      elseValue(std::move(elseValue)) {
  addChildHeight(this->cond.get());
  addChildHeight(this->thenValue.get());
  addChildHeight(this->elseValue.get());
}

LambdaExpr::LambdaExpr(SourceLoc loc, std::vector<std::string> params, ExprPtr body)
    : Expr(Kind::Lambda, loc), params(std::move(params)), body(std::move(body)) {
  addChildHeight(this->body.get());
}

ListCompExpr::ListCompExpr(SourceLoc loc, ExprPtr element, std::vector<Clause> clauses)
    : Expr(Kind::ListComp, loc), element(std::move(element)), clauses(std::move(clauses)) {
  addChildHeight(this->element.get());
  for (const Clause &clause : this->clauses) {
    addChildHeight(clause.iterable.get());
    for (const ExprPtr &condition : clause.conditions)
      addChildHeight(condition.get());
  }
}

TupleExpr::TupleExpr(SourceLoc loc, std::vector<ExprPtr> elements, bool list)
    : Expr(Kind::Tuple, loc), elements(std::move(elements)), list(list) {
  for (const ExprPtr &element : this->elements)
    addChildHeight(element.get());
}

BuiltinCallExpr::BuiltinCallExpr(SourceLoc loc, Builtin builtin,
                                 std::vector<ExprPtr> args)
    : Expr(Kind::BuiltinCall, loc), builtin(builtin), args(std::move(args)) {
  for (const ExprPtr &arg : this->args)
    addChildHeight(arg.get());
}

bool BuiltinCallExpr::isAbsent(unsigned i) const {
  auto *constant = llvm::dyn_cast<ConstantExpr>(args[i].get());
  return constant && constant->getType().isConstexpr() &&
         constant->getValue().isNone();
}

const ConstValue &BuiltinCallExpr::getConstArg(unsigned i) const {
  return llvm::cast<ConstantExpr>(*args[i]).getValue();
}

ConvertExpr::ConvertExpr(SourceLoc loc, ExprPtr operand, Type resultType)
    : Expr(Kind::Convert, loc), operand(std::move(operand)) {
  addChildHeight(this->operand.get());
  setType(std::move(resultType));
}

BroadcastExpr::BroadcastExpr(SourceLoc loc, ExprPtr operand, Type resultType)
    : Expr(Kind::Broadcast, loc), operand(std::move(operand)) {
  addChildHeight(this->operand.get());
  setType(std::move(resultType));
}

const FunctionDef *Module::lookup(llvm::StringRef name) const {
  for (const auto &function : functions)
    if (function->getName() == name)
      return function.get();
  auto imported = importedFunctions.find(name.str());
  return imported == importedFunctions.end() ? nullptr : imported->second;
}

const GlobalDef *Module::lookupGlobal(llvm::StringRef name) const {
  for (const GlobalDef &global : globals)
    if (global.name == name)
      return &global;
  auto imported = importedGlobals.find(name.str());
  return imported == importedGlobals.end() ? nullptr : imported->second;
}

bool Module::isImportedAndDefined(llvm::StringRef name) const {
  bool imported = importedFunctions.count(name.str()) || importedGlobals.count(name.str()) ||
                  moduleAliases.count(name.str());
  bool defined = llvm::any_of(functions, [&](const auto &f) { return f->getName() == name; }) ||
                 llvm::any_of(globals, [&](const GlobalDef &g) { return g.name == name; });
  return imported && defined;
}

bool tilec::isKernelDecoratorName(llvm::StringRef name) {
  auto [prefix, last] = name.rsplit('.');
  if (last.empty())
    std::swap(prefix, last);
  return (last == "kernel" || last == "jit") &&
         (prefix.empty() || prefix == "triton" || prefix == "tl" ||
          prefix == "triton.language" || prefix == "tilec");
}

bool tilec::isConstexprFunctionDecoratorName(llvm::StringRef name) {
  auto [prefix, last] = name.rsplit('.');
  if (last.empty())
    std::swap(prefix, last);
  return (last == "constexpr_function" || (last == "constexpr" && !prefix.empty())) &&
         (prefix.empty() || prefix == "triton" || prefix == "tl" ||
          prefix == "triton.language" || prefix == "triton.language.core");
}

const HostCode *Module::lookupHostCode(llvm::StringRef name) const {
  for (const HostCode &code : hostCode)
    if (!name.empty() && code.name == name)
      return &code;
  return nullptr;
}

const ForeignImport *Module::lookupForeign(llvm::StringRef name) const {
  for (const ForeignImport &import : foreignImports)
    if (import.name == name)
      return &import;
  return nullptr;
}

/// `triton.language.core.X` and `triton.language.standard.X` (the modules
/// triton.language re-exports) as `triton.language.X`.
static std::string canonicalTritonPath(std::string path) {
  for (llvm::StringRef language : {"triton.language", "tl"})
    for (llvm::StringRef submodule : {".core", ".standard"}) {
      llvm::StringRef rest = path;
      if (rest.consume_front(language) && rest.consume_front(submodule) &&
          (rest.empty() || rest.starts_with(".")))
        return rest.empty() ? path : language.str() + rest.str();
    }
  return path;
}

std::string Module::expandTritonAlias(llvm::StringRef dotted) const {
  auto [root, rest] = dotted.split('.');
  auto it = tritonAliases.find(root.str());
  if (it == tritonAliases.end())
    return canonicalTritonPath(dotted.str());
  return canonicalTritonPath(rest.empty() && !dotted.contains('.') ? it->second
                                                                   : it->second + "." + rest.str());
}

bool tilec::anySubExpr(const Expr *expr, llvm::function_ref<bool(const Expr &)> test) {
  if (!expr)
    return false;
  if (test(*expr))
    return true;
  auto any = [&](auto &&range, auto get) {
    return llvm::any_of(range, [&](const auto &item) { return anySubExpr(get(item), test); });
  };
  switch (expr->getKind()) {
  case Expr::Kind::Attribute:
    return anySubExpr(&llvm::cast<AttributeExpr>(expr)->getBase(), test);
  case Expr::Kind::Call: {
    auto *call = llvm::cast<CallExpr>(expr);
    return anySubExpr(&call->getCallee(), test) ||
           any(call->getArgs(), [](const CallArg &arg) { return arg.value.get(); });
  }
  case Expr::Kind::Subscript: {
    auto *subscript = llvm::cast<SubscriptExpr>(expr);
    return anySubExpr(&subscript->getBase(), test) ||
           any(subscript->getIndices(), [](const ExprPtr &index) { return index.get(); });
  }
  case Expr::Kind::Slice: {
    auto *slice = llvm::cast<SliceExpr>(expr);
    return anySubExpr(slice->getLower(), test) || anySubExpr(slice->getUpper(), test) ||
           anySubExpr(slice->getStep(), test);
  }
  case Expr::Kind::Unary:
    return anySubExpr(&llvm::cast<UnaryExpr>(expr)->getOperand(), test);
  case Expr::Kind::Binary: {
    auto *binary = llvm::cast<BinaryExpr>(expr);
    return anySubExpr(&binary->getLHS(), test) || anySubExpr(&binary->getRHS(), test);
  }
  case Expr::Kind::IfExp: {
    auto *ifExpr = llvm::cast<IfExpr>(expr);
    return anySubExpr(&ifExpr->getCond(), test) || anySubExpr(&ifExpr->getThen(), test) ||
           anySubExpr(&ifExpr->getElse(), test);
  }
  case Expr::Kind::Lambda:
    return anySubExpr(&llvm::cast<LambdaExpr>(expr)->getBody(), test);
  case Expr::Kind::ListComp: {
    auto *comp = llvm::cast<ListCompExpr>(expr);
    return anySubExpr(&comp->getElement(), test) ||
           llvm::any_of(comp->getClauses(), [&](const ListCompExpr::Clause &clause) {
             return anySubExpr(clause.iterable.get(), test) ||
                    any(clause.conditions, [](const ExprPtr &e) { return e.get(); });
           });
  }
  case Expr::Kind::Tuple:
    return any(llvm::cast<TupleExpr>(expr)->getElements(),
               [](const ExprPtr &e) { return e.get(); });
  default:
    return false; // Leaves; typed nodes do not occur in a syntactic tree.
  }
}

bool tilec::anySubExprInStmt(const Stmt &stmt,
                             llvm::function_ref<bool(const Expr &)> test) {
  switch (stmt.getKind()) {
  case Stmt::Kind::Expr:
    return anySubExpr(&llvm::cast<ExprStmt>(stmt).getExpr(), test);
  case Stmt::Kind::Assign:
    return anySubExpr(&llvm::cast<AssignStmt>(stmt).getValue(), test);
  case Stmt::Kind::AugAssign: {
    auto &aug = llvm::cast<AugAssignStmt>(stmt);
    return anySubExpr(&aug.getTarget(), test) || anySubExpr(&aug.getValue(), test);
  }
  case Stmt::Kind::If: {
    auto &ifStmt = llvm::cast<IfStmt>(stmt);
    return anySubExpr(&ifStmt.getCond(), test) || anySubExprInBlock(ifStmt.getThen(), test) ||
           anySubExprInBlock(ifStmt.getElse(), test);
  }
  case Stmt::Kind::For: {
    auto &forStmt = llvm::cast<ForStmt>(stmt);
    return anySubExpr(&forStmt.getIter(), test) || anySubExprInBlock(forStmt.getBody(), test);
  }
  case Stmt::Kind::While: {
    auto &whileStmt = llvm::cast<WhileStmt>(stmt);
    return anySubExpr(&whileStmt.getCond(), test) || anySubExprInBlock(whileStmt.getBody(), test);
  }
  case Stmt::Kind::Return:
    return anySubExpr(llvm::cast<ReturnStmt>(stmt).getValue(), test);
  case Stmt::Kind::Assert: {
    auto &assert = llvm::cast<AssertStmt>(stmt);
    return anySubExpr(&assert.getCond(), test) || anySubExpr(assert.getMessage(), test);
  }
  default:
    return false;
  }
}

bool tilec::anySubExprInBlock(const Block &block,
                              llvm::function_ref<bool(const Expr &)> test) {
  return llvm::any_of(block, [&](const StmtPtr &stmt) { return anySubExprInStmt(*stmt, test); });
}

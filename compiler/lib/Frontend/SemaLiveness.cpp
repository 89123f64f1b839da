//===- SemaLiveness.cpp - Which names control flow must carry ---------------===//
//
// Syntactic questions about names that loops and runtime `if`s ask: which
// names a block assigns, whether a name is read before it is assigned, and
// whether it may be read after the current statement. The answers are
// conservative (a name that may be read counts as read), which only adds
// loop-carried values, never drops one that is needed.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "llvm/ADT/StringSet.h"

using namespace tilec;

/// Does `expr` (syntactic) read `name`?
static bool exprReads(const Expr *expr, llvm::StringRef name) {
  if (!expr)
    return false;
  switch (expr->getKind()) {
  case Expr::Kind::Name:
    return llvm::cast<NameExpr>(expr)->getName() == name;
  case Expr::Kind::Attribute:
    return exprReads(&llvm::cast<AttributeExpr>(expr)->getBase(), name);
  case Expr::Kind::Call: {
    auto *call = llvm::cast<CallExpr>(expr);
    if (exprReads(&call->getCallee(), name))
      return true;
    return llvm::any_of(call->getArgs(), [&](const CallArg &arg) {
      return exprReads(arg.value.get(), name);
    });
  }
  case Expr::Kind::Subscript: {
    auto *subscript = llvm::cast<SubscriptExpr>(expr);
    return exprReads(&subscript->getBase(), name) ||
           llvm::any_of(subscript->getIndices(), [&](const ExprPtr &index) {
             return exprReads(index.get(), name);
           });
  }
  case Expr::Kind::Slice: {
    auto *slice = llvm::cast<SliceExpr>(expr);
    return exprReads(slice->getLower(), name) || exprReads(slice->getUpper(), name) ||
           exprReads(slice->getStep(), name);
  }
  case Expr::Kind::Unary:
    return exprReads(&llvm::cast<UnaryExpr>(expr)->getOperand(), name);
  case Expr::Kind::Binary: {
    auto *binary = llvm::cast<BinaryExpr>(expr);
    return exprReads(&binary->getLHS(), name) || exprReads(&binary->getRHS(), name);
  }
  case Expr::Kind::IfExp: {
    auto *ifExpr = llvm::cast<IfExpr>(expr);
    return exprReads(&ifExpr->getCond(), name) || exprReads(&ifExpr->getThen(), name) ||
           exprReads(&ifExpr->getElse(), name);
  }
  case Expr::Kind::Tuple:
    return llvm::any_of(llvm::cast<TupleExpr>(expr)->getElements(),
                        [&](const ExprPtr &e) { return exprReads(e.get(), name); });
  default:
    return false; // Typed nodes do not occur in a syntactic tree.
  }
}

static bool blockReads(const Block &block, llvm::StringRef name);

/// Does `stmt` (syntactic, including nested blocks) read `name`?
static bool stmtReads(const Stmt &stmt, llvm::StringRef name) {
  switch (stmt.getKind()) {
  case Stmt::Kind::Expr:
    return exprReads(&llvm::cast<ExprStmt>(stmt).getExpr(), name);
  case Stmt::Kind::Assign:
    return exprReads(&llvm::cast<AssignStmt>(stmt).getValue(), name);
  case Stmt::Kind::AugAssign: {
    auto &aug = llvm::cast<AugAssignStmt>(stmt);
    return exprReads(&aug.getTarget(), name) || exprReads(&aug.getValue(), name);
  }
  case Stmt::Kind::If: {
    auto &ifStmt = llvm::cast<IfStmt>(stmt);
    return exprReads(&ifStmt.getCond(), name) || blockReads(ifStmt.getThen(), name) ||
           blockReads(ifStmt.getElse(), name);
  }
  case Stmt::Kind::For: {
    auto &forStmt = llvm::cast<ForStmt>(stmt);
    return exprReads(&forStmt.getIter(), name) || blockReads(forStmt.getBody(), name);
  }
  case Stmt::Kind::While: {
    auto &whileStmt = llvm::cast<WhileStmt>(stmt);
    return exprReads(&whileStmt.getCond(), name) || blockReads(whileStmt.getBody(), name);
  }
  case Stmt::Kind::Return:
    return exprReads(llvm::cast<ReturnStmt>(stmt).getValue(), name);
  case Stmt::Kind::Assert: {
    auto &assert = llvm::cast<AssertStmt>(stmt);
    return exprReads(&assert.getCond(), name) || exprReads(assert.getMessage(), name);
  }
  default:
    return false;
  }
}

static bool blockReads(const Block &block, llvm::StringRef name) {
  return llvm::any_of(block, [&](const StmtPtr &stmt) { return stmtReads(*stmt, name); });
}

/// Adds the names a target expression assigns.
static void addTargets(const Expr &target, std::vector<std::string> &names,
                       llvm::StringSet<> &seen) {
  if (auto *name = llvm::dyn_cast<NameExpr>(&target)) {
    if (seen.insert(name->getName()).second)
      names.push_back(name->getName().str());
  } else if (auto *tuple = llvm::dyn_cast<TupleExpr>(&target)) {
    for (const ExprPtr &element : tuple->getElements())
      addTargets(*element, names, seen);
  }
}

/// Collects the names assigned anywhere in `block`, in order of appearance.
static void collectAssigned(const Block &block, std::vector<std::string> &names,
                            llvm::StringSet<> &seen) {
  for (const StmtPtr &stmt : block) {
    if (auto *assign = llvm::dyn_cast<AssignStmt>(stmt.get())) {
      addTargets(assign->getTarget(), names, seen);
    } else if (auto *aug = llvm::dyn_cast<AugAssignStmt>(stmt.get())) {
      addTargets(aug->getTarget(), names, seen);
    } else if (auto *ifStmt = llvm::dyn_cast<IfStmt>(stmt.get())) {
      collectAssigned(ifStmt->getThen(), names, seen);
      collectAssigned(ifStmt->getElse(), names, seen);
    } else if (auto *forStmt = llvm::dyn_cast<ForStmt>(stmt.get())) {
      addTargets(forStmt->getTarget(), names, seen);
      collectAssigned(forStmt->getBody(), names, seen);
    } else if (auto *whileStmt = llvm::dyn_cast<WhileStmt>(stmt.get())) {
      collectAssigned(whileStmt->getBody(), names, seen);
    }
  }
}

std::vector<std::string> tilec::collectAssignedNames(const Block &block) {
  std::vector<std::string> names;
  llvm::StringSet<> seen;
  collectAssigned(block, names, seen);
  return names;
}

/// Is `name` read in `body` before an unconditional assignment to it?
static bool readBeforeAssigned(const Block &body, llvm::StringRef name) {
  for (const StmtPtr &stmt : body) {
    if (stmtReads(*stmt, name))
      return true;
    if (auto *assign = llvm::dyn_cast<AssignStmt>(stmt.get())) {
      std::vector<std::string> targets;
      llvm::StringSet<> seen;
      addTargets(assign->getTarget(), targets, seen);
      if (seen.contains(name))
        return false;
    }
  }
  return false;
}

bool Sema::isLiveAfter(llvm::StringRef name) const {
  for (const Frame &frame : llvm::reverse(frames)) {
    for (size_t i = frame.index + 1; i < frame.block->size(); ++i)
      if (stmtReads(*(*frame.block)[i], name))
        return true;
    if (frame.loopBody &&
        (llvm::is_contained(frame.carried, name) || exprReads(frame.loopCond, name) ||
         blockReads(*frame.block, name)))
      return true;
  }
  return false;
}

std::vector<std::string> Sema::loopCarriedNames(const Block &body, const Expr *cond) {
  std::vector<std::string> carried;
  for (const std::string &name : collectAssignedNames(body)) {
    if (!(exprReads(cond, name) || readBeforeAssigned(body, name) || isLiveAfter(name)))
      continue;
    // A block pointer is carried as its runtime parts.
    std::vector<std::string> parts = getBlockPointerParts(name);
    if (parts.empty())
      parts.push_back(name);
    for (std::string &part : parts) {
      auto it = scope.find(part);
      if (it != scope.end() && !it->second.poisoned) // Else local to an iteration.
        carried.push_back(std::move(part));
    }
  }
  return carried;
}

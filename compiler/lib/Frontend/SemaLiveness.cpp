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


/// A test for expressions that read `name`.
static auto readsName(llvm::StringRef name) {
  return [name](const Expr &expr) {
    const auto *read = llvm::dyn_cast<NameExpr>(&expr);
    return read && read->getName() == name;
  };
}

/// Does `expr` (syntactic) read `name`?
static bool exprReads(const Expr *expr, llvm::StringRef name) {
  return anySubExpr(expr, readsName(name));
}

/// Does `block` (syntactic) read `name`?
static bool blockReads(const Block &block, llvm::StringRef name) {
  return anySubExprInBlock(block, readsName(name));
}

/// Does `stmt` (syntactic, nested blocks included) read `name`?
static bool stmtReads(const Stmt &stmt, llvm::StringRef name) {
  return anySubExprInStmt(stmt, readsName(name));
}

bool tilec::blockCalls(const Block &block, llvm::StringRef name) {
  // A call's callee and a combine_fn argument are both names.
  return anySubExprInBlock(block, [&](const Expr &expr) {
    const auto *reference = llvm::dyn_cast<NameExpr>(&expr);
    return reference && reference->getName() == name;
  });
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
    std::vector<std::string> parts = getVariableParts(name);
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

//===- AST.h - Abstract syntax tree of .tile files ----------------*- C++ -*-===//
//
// The parser builds a syntactic tree (Module -> FunctionDef -> Stmt/Expr).
// Sema (Sema.h) builds, per kernel, a *specialized typed* tree from it using
// the same node classes, restricted to this subset (see Sema.h for the full
// contract):
//   Expr:  ConstantExpr, NameExpr (with a Variable), UnaryExpr, BinaryExpr,
//          BuiltinCallExpr, ConvertExpr, BroadcastExpr
//   Stmt:  AssignStmt (target: NameExpr), ExprStmt, and the runtime control
//          flow RangeForStmt, RuntimeWhileStmt, RuntimeIfStmt (scf ops)
// Every node has a SourceLoc; every Expr of a typed tree has its Type.
// Nodes own their children through std::unique_ptr. Use llvm::isa/cast/
// dyn_cast on node kinds.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_AST_H
#define TILEC_FRONTEND_AST_H

#include "tilec/Frontend/Builtins.h"
#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Frontend/Types.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Casting.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tilec {

/// A named local value of a specialized kernel (SSA-friendly: every
/// AssignStmt to a Variable is a new definition; uses read the latest one).
/// Owned by the KernelInstance. Runtime parameters are Variables too.
class Variable {
public:
  Variable(std::string name, SourceLoc loc) : name(std::move(name)), loc(loc) {}
  llvm::StringRef getName() const { return name; }
  /// Where the variable is first defined.
  SourceLoc getLoc() const { return loc; }

private:
  std::string name;
  SourceLoc loc;
};

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// Star is `*x` in a list display (Python's unpacking), which only the
/// configs of @autotune read.
enum class UnaryOp { Neg, Pos, Not, Invert, Star };
/// Binary operators, including `and`/`or` and comparisons.
enum class BinaryOp {
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul, LShift, RShift, BitAnd,
  BitOr, BitXor, And, Or, Lt, Le, Gt, Ge, Eq, Ne, Is, IsNot,
};
/// Source spelling: "-", "not", "//", "is not", ...
llvm::StringRef getSpelling(UnaryOp op);
llvm::StringRef getSpelling(BinaryOp op);
/// Lt, Le, Gt, Ge, Eq, Ne (not Is/IsNot).
bool isComparison(BinaryOp op);

/// Base of all expressions.
class Expr {
public:
  enum class Kind {
    // Syntactic (parser output; Constant, Name, Unary, Binary also typed).
    Constant, Name, Attribute, Call, Subscript, Slice, Unary, Binary, IfExp,
    Tuple, Lambda, ListComp,
    // Produced by Sema only.
    BuiltinCall, Convert, Broadcast, Combine,
  };
  virtual ~Expr() = default;
  Expr(const Expr &) = delete;
  Expr &operator=(const Expr &) = delete;

  Kind getKind() const { return kind; }
  /// Start of the expression; for Unary/Binary the operator.
  SourceLoc getLoc() const { return loc; }
  /// The resolved type (set by Sema; Void in a syntactic tree).
  const Type &getType() const { return type; }
  void setType(Type t) { type = std::move(t); }
  /// Height of the subtree (a leaf is 1); bounds recursion in every pass.
  unsigned getHeight() const { return height; }

protected:
  Expr(Kind kind, SourceLoc loc) : kind(kind), loc(loc) {}
  /// Records that `child` (may be null) is below this node.
  void addChildHeight(const Expr *child) {
    if (child && child->height + 1 > height)
      height = child->height + 1;
  }

private:
  Kind kind;
  SourceLoc loc;
  Type type;
  unsigned height = 1;
};

using ExprPtr = std::unique_ptr<Expr>;

/// A literal, or (after Sema) a folded compile-time value.
/// Typed tree: if getType() is Constexpr the value is only used at compile
/// time (e.g. an arange bound, a dtype, an absent optional argument = None);
/// if it is a Value type, it is a runtime constant of exactly that type,
/// splatted to the type's shape when it is a tile.
class ConstantExpr : public Expr {
public:
  ConstantExpr(SourceLoc loc, ConstValue value)
      : Expr(Kind::Constant, loc), value(std::move(value)) {}
  const ConstValue &getValue() const { return value; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Constant; }

private:
  ConstValue value;
};

/// A name. In a typed tree it always refers to a Variable (constexpr names
/// are folded into ConstantExprs).
class NameExpr : public Expr {
public:
  NameExpr(SourceLoc loc, std::string name, Variable *var = nullptr)
      : Expr(Kind::Name, loc), name(std::move(name)), var(var) {}
  llvm::StringRef getName() const { return name; }
  /// The variable read (typed tree), or null (syntactic tree).
  Variable *getVariable() const { return var; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Name; }

private:
  std::string name;
  Variable *var;
};

/// `base.name` (syntactic only).
class AttributeExpr : public Expr {
public:
  AttributeExpr(SourceLoc loc, ExprPtr base, std::string name, SourceLoc nameLoc)
      : Expr(Kind::Attribute, loc), base(std::move(base)), name(std::move(name)),
        nameLoc(nameLoc) {
    addChildHeight(this->base.get());
  }
  const Expr &getBase() const { return *base; }
  llvm::StringRef getName() const { return name; }
  SourceLoc getNameLoc() const { return nameLoc; }
  /// "tl.math.exp" if the whole chain is names and attributes, else "".
  std::string getDottedName() const;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Attribute; }

private:
  ExprPtr base;
  std::string name;
  SourceLoc nameLoc;
};

/// One argument of a call: positional (empty keyword) or `keyword=value`.
struct CallArg {
  std::string keyword;
  SourceLoc loc; ///< Of the keyword, or of the value when positional.
  ExprPtr value;
};

/// `callee(args)` (syntactic only; Sema turns it into a BuiltinCallExpr, a
/// ConvertExpr, or a folded constant).
class CallExpr : public Expr {
public:
  CallExpr(SourceLoc loc, ExprPtr callee, std::vector<CallArg> args);
  const Expr &getCallee() const { return *callee; }
  Expr *getMutableCallee() { return callee.get(); }
  llvm::ArrayRef<CallArg> getArgs() const { return args; }
  /// Moves the arguments out (a module-level `f = deco(args)(f)` gives them
  /// to the decorator).
  std::vector<CallArg> takeArgs() { return std::move(args); }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Call; }

private:
  ExprPtr callee;
  std::vector<CallArg> args;
};

/// `base[i, j, ...]` (syntactic only).
class SubscriptExpr : public Expr {
public:
  SubscriptExpr(SourceLoc loc, ExprPtr base, std::vector<ExprPtr> indices);
  const Expr &getBase() const { return *base; }
  llvm::ArrayRef<ExprPtr> getIndices() const { return indices; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Subscript; }

private:
  ExprPtr base;
  std::vector<ExprPtr> indices;
};

/// `lower:upper:step` inside a subscript; each part may be null.
class SliceExpr : public Expr {
public:
  SliceExpr(SourceLoc loc, ExprPtr lower, ExprPtr upper, ExprPtr step);
  const Expr *getLower() const { return lower.get(); }
  const Expr *getUpper() const { return upper.get(); }
  const Expr *getStep() const { return step.get(); }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Slice; }

private:
  ExprPtr lower, upper, step;
};

/// `-x`, `+x`, `not x`, `~x`. Typed tree: Neg/Not/Invert on a runtime value;
/// the operand has the result type (Not: i1 operand and result).
class UnaryExpr : public Expr {
public:
  UnaryExpr(SourceLoc loc, UnaryOp op, ExprPtr operand)
      : Expr(Kind::Unary, loc), op(op), operand(std::move(operand)) {
    addChildHeight(this->operand.get());
  }
  UnaryOp getOp() const { return op; }
  const Expr &getOperand() const { return *operand; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Unary; }

private:
  UnaryOp op;
  ExprPtr operand;
};

/// `lhs op rhs`. Typed tree guarantees (so MLIRGen maps ops 1:1):
///  - both operands have the result's shape (Sema inserted BroadcastExpr);
///  - arithmetic/bitwise/And/Or: both operands have the result's element;
///  - comparisons: both operands share one element (or pointer) type, the
///    result is i1;
///  - pointer arithmetic (`addptr`): Add/Sub with lhs a pointer value of the
///    result type and rhs an integer value (any width) of the same shape.
///  - Div on floats only; FloorDiv/Mod on ints truncate toward zero (C-style,
///    Triton's semantics); Mod on floats is frem.
class BinaryExpr : public Expr {
public:
  BinaryExpr(SourceLoc loc, BinaryOp op, ExprPtr lhs, ExprPtr rhs)
      : Expr(Kind::Binary, loc), op(op), lhs(std::move(lhs)), rhs(std::move(rhs)) {
    addChildHeight(this->lhs.get());
    addChildHeight(this->rhs.get());
  }
  BinaryOp getOp() const { return op; }
  const Expr &getLHS() const { return *lhs; }
  const Expr &getRHS() const { return *rhs; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Binary; }

private:
  BinaryOp op;
  ExprPtr lhs, rhs;
};

/// `thenValue if cond else elseValue` (syntactic only for now).
class IfExpr : public Expr {
public:
  IfExpr(SourceLoc loc, ExprPtr cond, ExprPtr thenValue, ExprPtr elseValue);
  const Expr &getCond() const { return *cond; }
  const Expr &getThen() const { return *thenValue; }
  const Expr &getElse() const { return *elseValue; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::IfExp; }

private:
  ExprPtr cond, thenValue, elseValue;
};

/// `(a, b)` or `[a, b]` (syntactic only).
class TupleExpr : public Expr {
public:
  TupleExpr(SourceLoc loc, std::vector<ExprPtr> elements, bool list);
  llvm::ArrayRef<ExprPtr> getElements() const { return elements; }
  /// Written with square brackets.
  bool isList() const { return list; }
  /// Moves the elements out (Sema unpacks typed tuples of runtime values,
  /// e.g. the `return a, b` of an inlined device function).
  std::vector<ExprPtr> takeElements() { return std::move(elements); }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Tuple; }

private:
  std::vector<ExprPtr> elements;
  bool list;
};

/// `lambda args: body` (syntactic only): the values of @triton.heuristics.
class LambdaExpr : public Expr {
public:
  LambdaExpr(SourceLoc loc, std::vector<std::string> params, ExprPtr body);
  llvm::ArrayRef<std::string> getParams() const { return params; }
  const Expr &getBody() const { return *body; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Lambda; }

private:
  std::vector<std::string> params;
  ExprPtr body;
};

/// `[element for target in iterable if condition ...]` (syntactic only):
/// @autotune reads config lists written so.
class ListCompExpr : public Expr {
public:
  /// One `for target in iterable` with the `if`s after it.
  struct Clause {
    ExprPtr target; ///< A name or a tuple of names.
    ExprPtr iterable;
    std::vector<ExprPtr> conditions;
  };
  ListCompExpr(SourceLoc loc, ExprPtr element, std::vector<Clause> clauses);
  const Expr &getElement() const { return *element; }
  llvm::ArrayRef<Clause> getClauses() const { return clauses; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::ListComp; }

private:
  ExprPtr element;
  std::vector<Clause> clauses;
};

/// Is `test` true of the syntactic expression `expr` (may be null) or of an
/// expression inside it?
bool anySubExpr(const Expr *expr, llvm::function_ref<bool(const Expr &)> test);

/// A resolved builtin call (typed tree only). `getArgs()` has exactly one
/// entry per parameter of the builtin's signature (Builtins.h), in
/// signature order, keywords resolved and defaults filled in; an absent
/// optional argument is a Constexpr-typed ConstantExpr holding None (see
/// isAbsent). Runtime arguments are already converted/broadcast as the
/// builtin requires (e.g. load's mask and other have the pointer's shape).
class BuiltinCallExpr : public Expr {
public:
  BuiltinCallExpr(SourceLoc loc, Builtin builtin, std::vector<ExprPtr> args);
  Builtin getBuiltin() const { return builtin; }
  llvm::ArrayRef<ExprPtr> getArgs() const { return args; }
  const Expr &getArg(unsigned i) const { return *args[i]; }
  /// True if argument `i` is None (an omitted optional argument).
  bool isAbsent(unsigned i) const;
  /// Argument `i` as a compile-time value (it must be a ConstantExpr).
  const ConstValue &getConstArg(unsigned i) const;
  /// Moves the arguments out (Sema rebuilds block-pointer values).
  std::vector<ExprPtr> takeArgs() { return std::move(args); }
  static bool classof(const Expr *e) { return e->getKind() == Kind::BuiltinCall; }

private:
  Builtin builtin;
  std::vector<ExprPtr> args;
};

/// Element-type conversion to getType() (typed tree only); the operand has
/// the same shape. Implicit (promotion) or explicit (`x.to(tl.float16)`).
/// Conversion to i1 from another type means `!= 0`.
class ConvertExpr : public Expr {
public:
  ConvertExpr(SourceLoc loc, ExprPtr operand, Type resultType);
  const Expr &getOperand() const { return *operand; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Convert; }

private:
  ExprPtr operand;
};

/// Shape broadcast to getType()'s shape (typed tree only); same element.
/// NumPy rules: a scalar is splatted; a tile of lower rank gets leading
/// dimensions of size 1 first (expand_dims), then size-1 dims stretch.
class BroadcastExpr : public Expr {
public:
  BroadcastExpr(SourceLoc loc, ExprPtr operand, Type resultType);
  const Expr &getOperand() const { return *operand; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Broadcast; }

private:
  ExprPtr operand;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

class Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
/// A sequence of statements (a suite).
using Block = std::vector<StmtPtr>;

/// Base of all statements.
class Stmt {
public:
  enum class Kind { Expr, Assign, AugAssign, If, For, While, Return, Pass,
                    Break, Continue, Assert,
                    // Produced by Sema only (runtime control flow).
                    RangeFor, RuntimeWhile, RuntimeIf };
  virtual ~Stmt() = default;
  Stmt(const Stmt &) = delete;
  Stmt &operator=(const Stmt &) = delete;
  Kind getKind() const { return kind; }
  SourceLoc getLoc() const { return loc; }

protected:
  Stmt(Kind kind, SourceLoc loc) : kind(kind), loc(loc) {}

private:
  Kind kind;
  SourceLoc loc;
};

/// An expression evaluated for its effect (e.g. tl.store).
class ExprStmt : public Stmt {
public:
  ExprStmt(SourceLoc loc, ExprPtr expr) : Stmt(Kind::Expr, loc), expr(std::move(expr)) {}
  const Expr &getExpr() const { return *expr; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Expr; }

private:
  ExprPtr expr;
};

/// `target = value`. Syntactic target: NameExpr or TupleExpr of targets.
/// Typed tree: the target is a NameExpr with a Variable and the value's type.
class AssignStmt : public Stmt {
public:
  AssignStmt(SourceLoc loc, ExprPtr target, ExprPtr value,
             bool constexprOnly = false)
      : Stmt(Kind::Assign, loc), target(std::move(target)), value(std::move(value)),
        constexprOnly(constexprOnly) {}
  const Expr &getTarget() const { return *target; }
  const Expr &getValue() const { return *value; }
  /// Written `name: tl.constexpr = value`: the value must be a constexpr.
  bool isConstexprOnly() const { return constexprOnly; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assign; }

private:
  ExprPtr target, value;
  bool constexprOnly;
};

/// `target op= value` (syntactic only; Sema rewrites to an AssignStmt).
class AugAssignStmt : public Stmt {
public:
  AugAssignStmt(SourceLoc loc, BinaryOp op, ExprPtr target, ExprPtr value)
      : Stmt(Kind::AugAssign, loc), op(op), target(std::move(target)),
        value(std::move(value)) {}
  BinaryOp getOp() const { return op; }
  const Expr &getTarget() const { return *target; }
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::AugAssign; }

private:
  BinaryOp op;
  ExprPtr target, value;
};

/// `if cond: ... else: ...`; `elif` is an IfStmt alone in the else block.
class IfStmt : public Stmt {
public:
  IfStmt(SourceLoc loc, ExprPtr cond, Block thenBlock, Block elseBlock)
      : Stmt(Kind::If, loc), cond(std::move(cond)), thenBlock(std::move(thenBlock)),
        elseBlock(std::move(elseBlock)) {}
  const Expr &getCond() const { return *cond; }
  const Block &getThen() const { return thenBlock; }
  const Block &getElse() const { return elseBlock; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::If; }

private:
  ExprPtr cond;
  Block thenBlock, elseBlock;
};

/// `for target in iter: body`.
class ForStmt : public Stmt {
public:
  ForStmt(SourceLoc loc, ExprPtr target, ExprPtr iter, Block body)
      : Stmt(Kind::For, loc), target(std::move(target)), iter(std::move(iter)),
        body(std::move(body)) {}
  const Expr &getTarget() const { return *target; }
  const Expr &getIter() const { return *iter; }
  const Block &getBody() const { return body; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::For; }

private:
  ExprPtr target, iter;
  Block body;
};

/// `while cond: body`.
class WhileStmt : public Stmt {
public:
  WhileStmt(SourceLoc loc, ExprPtr cond, Block body)
      : Stmt(Kind::While, loc), cond(std::move(cond)), body(std::move(body)) {}
  const Expr &getCond() const { return *cond; }
  const Block &getBody() const { return body; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::While; }

private:
  ExprPtr cond;
  Block body;
};

/// `return [value]`; value may be null.
class ReturnStmt : public Stmt {
public:
  ReturnStmt(SourceLoc loc, ExprPtr value) : Stmt(Kind::Return, loc), value(std::move(value)) {}
  const Expr *getValue() const { return value.get(); }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Return; }

private:
  ExprPtr value;
};

/// `pass`, `break` or `continue` (the Kind tells which).
class KeywordStmt : public Stmt {
public:
  KeywordStmt(SourceLoc loc, Kind kind) : Stmt(kind, loc) {}
  static bool classof(const Stmt *s) {
    return s->getKind() == Kind::Pass || s->getKind() == Kind::Break ||
           s->getKind() == Kind::Continue;
  }
};

/// `assert cond[, message]`; message may be null.
class AssertStmt : public Stmt {
public:
  AssertStmt(SourceLoc loc, ExprPtr cond, ExprPtr message)
      : Stmt(Kind::Assert, loc), cond(std::move(cond)), message(std::move(message)) {}
  const Expr &getCond() const { return *cond; }
  const Expr *getMessage() const { return message.get(); }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assert; }

private:
  ExprPtr cond, message;
};

//===----------------------------------------------------------------------===//
// Runtime control flow (typed tree only)
//===----------------------------------------------------------------------===//

/// A variable whose value flows through a loop (an scf iter_arg) or out of a
/// runtime `if` (an scf.if result). Its type is the same everywhere: before
/// the loop, at the start and at the end of every iteration, in both branches.
struct CarriedVar {
  Variable *var;
  Type type;
};

/// `for i in range(start, end, step)` with runtime bounds (scf.for). `start`,
/// `end` and `step` are scalars of the induction variable's type (i32 or
/// i64). A positive constexpr step maps to scf.for directly. For a negative
/// constexpr step, `step` holds its magnitude: the loop runs
/// max(ceil((start - end) / step), 0) times with i = start - k * step. A
/// runtime step's sign is tested at run time (Python's rule, which Triton
/// leaves undefined): max(ceil((end - start) / step), 0) trips with
/// i = start + k * step.
/// Every carried variable holds its value from before the loop on entry and
/// has its value from the end of the body on the next entry and after the
/// loop.
class RangeForStmt : public Stmt {
public:
  /// What is known of the step's sign at compile time.
  enum class StepSign { Positive, Negative, Runtime };

  RangeForStmt(SourceLoc loc, Variable *inductionVar, Type inductionType, ExprPtr start,
               ExprPtr end, ExprPtr step, StepSign stepSign,
               std::vector<CarriedVar> carried,
               Block body, unsigned numStages = 0)
      : Stmt(Kind::RangeFor, loc), inductionVar(inductionVar),
        inductionType(std::move(inductionType)), start(std::move(start)),
        end(std::move(end)), step(std::move(step)), stepSign(stepSign),
        carried(std::move(carried)), body(std::move(body)),
        numStages(numStages) {}
  Variable *getInductionVar() const { return inductionVar; }
  const Type &getInductionType() const { return inductionType; }
  const Expr &getStart() const { return *start; }
  const Expr &getEnd() const { return *end; }
  const Expr &getStep() const { return *step; }
  StepSign getStepSign() const { return stepSign; }
  llvm::ArrayRef<CarriedVar> getCarried() const { return carried; }
  const Block &getBody() const { return body; }
  /// `tl.range(..., num_stages=N)`: this loop's software-pipelining depth;
  /// 0 when the kernel's applies.
  unsigned getNumStages() const { return numStages; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::RangeFor; }

private:
  Variable *inductionVar;
  Type inductionType;
  ExprPtr start, end, step;
  StepSign stepSign;
  std::vector<CarriedVar> carried;
  Block body;
  unsigned numStages;
};

/// `while cond: body` (scf.while). Each iteration runs `condBlock`, then
/// evaluates `cond` (an i1 scalar); if true it runs `body`. The carried
/// variables flow around the loop and out of it.
class RuntimeWhileStmt : public Stmt {
public:
  RuntimeWhileStmt(SourceLoc loc, std::vector<CarriedVar> carried, Block condBlock,
                   ExprPtr cond, Block body)
      : Stmt(Kind::RuntimeWhile, loc), carried(std::move(carried)),
        condBlock(std::move(condBlock)), cond(std::move(cond)), body(std::move(body)) {}
  llvm::ArrayRef<CarriedVar> getCarried() const { return carried; }
  const Block &getCondBlock() const { return condBlock; }
  const Expr &getCond() const { return *cond; }
  const Block &getBody() const { return body; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::RuntimeWhile; }

private:
  std::vector<CarriedVar> carried;
  Block condBlock;
  ExprPtr cond;
  Block body;
};

/// `if cond: ... else: ...` on a runtime i1 scalar (scf.if). Each result
/// variable has a value at the end of both branches (assigned there or
/// before the `if`) and holds the taken branch's value afterwards.
class RuntimeIfStmt : public Stmt {
public:
  RuntimeIfStmt(SourceLoc loc, ExprPtr cond, std::vector<CarriedVar> results,
                Block thenBlock, Block elseBlock)
      : Stmt(Kind::RuntimeIf, loc), cond(std::move(cond)), results(std::move(results)),
        thenBlock(std::move(thenBlock)), elseBlock(std::move(elseBlock)) {}
  const Expr &getCond() const { return *cond; }
  llvm::ArrayRef<CarriedVar> getResults() const { return results; }
  const Block &getThen() const { return thenBlock; }
  const Block &getElse() const { return elseBlock; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::RuntimeIf; }

private:
  ExprPtr cond;
  std::vector<CarriedVar> results;
  Block thenBlock, elseBlock;
};

//===----------------------------------------------------------------------===//
// Functions and modules
//===----------------------------------------------------------------------===//

/// `@name` or `@name(args)`; `name` is dotted ("triton.jit").
struct Decorator {
  std::string name;
  SourceLoc loc;
  std::vector<CallArg> args;
};

/// Is `name` a decorator that makes an entry point: `kernel` or `jit`, bare
/// or after `triton.`, `tl.` or `tilec.`?
bool isKernelDecoratorName(llvm::StringRef name);

/// Whether `name` (a decorator's dotted name, aliases expanded) makes a
/// function a constexpr function (`@triton.constexpr_function`, or
/// `@tl.constexpr` on a def, as FlagGems writes it): called from kernels on
/// constexprs and folded at compile time like any device function.
bool isConstexprFunctionDecoratorName(llvm::StringRef name);

/// The reduction or scan of `tl.reduce` / `tl.associative_scan` with a
/// user's combine function (typed tree only), shared by the CombineExprs of
/// its results. The combine function is inlined on scalars: `body` computes
/// `results` from the variables `lhs` and `rhs` (one per operand).
struct CombineSpec {
  bool isScan = false;
  std::vector<ExprPtr> operands; ///< Tiles of one shape.
  int64_t axis = 0;
  bool reverse = false; ///< Scans only.
  std::vector<Variable *> lhs, rhs;
  Block body;
  std::vector<ExprPtr> results; ///< Scalars, of the operands' element types.
};

/// Result `index` of a CombineSpec (typed tree only).
class CombineExpr : public Expr {
public:
  CombineExpr(SourceLoc loc, std::shared_ptr<const CombineSpec> spec, unsigned index)
      : Expr(Kind::Combine, loc), spec(std::move(spec)), index(index) {}
  const CombineSpec &getSpec() const { return *spec; }
  unsigned getIndex() const { return index; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Combine; }

private:
  std::shared_ptr<const CombineSpec> spec;
  unsigned index;
};

/// Is `test` true of an expression that a statement of the syntactic
/// `block` (nested blocks included) evaluates?
bool anySubExprInBlock(const Block &block, llvm::function_ref<bool(const Expr &)> test);
/// The same for one statement.
bool anySubExprInStmt(const Stmt &stmt, llvm::function_ref<bool(const Expr &)> test);

/// A parameter's annotation.
enum class ParamAnnotation {
  None,      ///< Unannotated (device functions only).
  Constexpr, ///< `constexpr` / `tl.constexpr`.
  Type,      ///< A scalar or pointer type (`i32`, `*fp32`, `tl.float16`).
};

/// A function parameter.
struct Param {
  std::string name;
  SourceLoc loc;
  ParamAnnotation annotation = ParamAnnotation::None;
  Type type;            ///< For ParamAnnotation::Type: a scalar or pointer.
  ExprPtr defaultValue; ///< `= expr`, or null.
};

class Module;

/// A `def`. With a kernel decorator (`@triton.jit`, `@kernel`) it is a
/// kernel; without decorators, a device function; with other decorators only
/// (`@torch.compile`, `@staticmethod`), Python host code tilec does not
/// compile.
class FunctionDef {
public:
  FunctionDef(std::string name, SourceLoc loc) : name(std::move(name)), loc(loc) {}
  llvm::StringRef getName() const { return name; }
  SourceLoc getLoc() const { return loc; }
  bool isKernel() const {
    return llvm::any_of(decorators,
                        [](const Decorator &d) { return isKernelDecoratorName(d.name); });
  }
  /// Decorated as a constexpr function (isConstexprFunctionDecoratorName).
  bool isConstexprFunction() const {
    return llvm::any_of(decorators, [](const Decorator &d) {
      return isConstexprFunctionDecoratorName(d.name);
    });
  }
  /// Decorated, but neither as a kernel nor as a constexpr function: a host
  /// function.
  bool isHostFunction() const {
    return !decorators.empty() && !isKernel() && !isConstexprFunction();
  }

  std::vector<Decorator> decorators;
  std::vector<Param> params;
  Block body;
  /// The module whose names its body sees (another file's, when imported).
  const Module *owner = nullptr;

private:
  std::string name;
  SourceLoc loc;
};

/// A module-level `NAME = value` (or `NAME: tl.constexpr = value`): a
/// compile-time constant that kernels and device functions may read.
struct GlobalDef {
  std::string name;
  SourceLoc loc;
  ExprPtr value;
  /// The module whose names `value` sees.
  const Module *owner = nullptr;
};

/// A name an import brings from a module tilec cannot read (`from mylib
/// import helper`, `import mylib`); using it is an error naming the import.
struct ForeignImport {
  std::string name;   ///< The name it binds (after `as`).
  std::string module; ///< The module it comes from.
  SourceLoc loc;
  /// The name imported from `module` (`from m import symbol as name`); empty
  /// for `import module as name`.
  std::string symbol;
  /// Where tilec looked for the module's file, for the error at a use.
  std::string searched;
};

/// A top-level statement that is Python host code tilec does not compile (a
/// class, a function outside the language, a second assignment of one name):
/// skipped, and an error only where a kernel uses the name it defines.
struct HostCode {
  std::string name;   ///< The name it defines, or "".
  SourceLoc loc;      ///< Where it starts.
  std::string reason; ///< Why tilec does not compile it.
  SourceLoc reasonLoc;
};

/// A parsed .tile file.
class Module {
public:
  std::vector<std::unique_ptr<FunctionDef>> functions;
  std::vector<GlobalDef> globals;
  std::vector<ForeignImport> foreignImports;
  std::vector<HostCode> hostCode;
  /// Names that imports of triton's modules bind, with the dotted path each
  /// stands for: `tl` -> `triton.language` (`import triton.language as
  /// tl`), `libdevice` -> `triton.language.extra.libdevice` (`from
  /// triton.language.extra import libdevice`).
  std::map<std::string, std::string> tritonAliases;
  /// Other files' modules that imports read (Imports.h), owned here.
  std::vector<std::unique_ptr<Module>> importedModules;
  /// `from other import f as g`: g, and other's function or constant f.
  std::map<std::string, const FunctionDef *> importedFunctions;
  std::map<std::string, const GlobalDef *> importedGlobals;
  /// `import other as m`: m, and other's module.
  std::map<std::string, const Module *> moduleAliases;
  /// The function named `name` (its own, else imported), or null.
  const FunctionDef *lookup(llvm::StringRef name) const;
  /// Whether `name` is both defined here and imported from another file.
  bool isImportedAndDefined(llvm::StringRef name) const;
  /// The module-level constant named `name` (its own, else imported), or null.
  const GlobalDef *lookupGlobal(llvm::StringRef name) const;
  /// The foreign import that binds `name`, or null.
  const ForeignImport *lookupForeign(llvm::StringRef name) const;
  /// The first piece of host code that may bind `name`, or null.
  const HostCode *lookupHostCode(llvm::StringRef name) const;
  /// `dotted` with its first component replaced by the path a triton
  /// import bound to it (unchanged when there is none), and the modules
  /// triton.language re-exports (`core`, `standard`) dropped from the path.
  std::string expandTritonAlias(llvm::StringRef dotted) const;
};

} // namespace tilec

#endif // TILEC_FRONTEND_AST_H

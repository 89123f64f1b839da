//===- MLIRGenBuiltins.cpp - Builtin calls to the tile dialect ------------===//
//
// Code generation for builtin calls (program ids, ranges, memory accesses,
// math, and calls that produce nothing). Sema has checked and typed every
// argument; this file picks the ops.
//
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

using namespace tilec;
using namespace tilec::detail;
using mlir::Value;

/// Generates the runtime argument `i` of a call, or null if it is absent.
Value MLIRGenerator::optionalArg(const BuiltinCallExpr &call, unsigned i,
                                 bool &ok) {
  if (call.isAbsent(i))
    return nullptr;
  Value value = generateExpr(call.getArg(i));
  ok = ok && value;
  return value;
}

Value MLIRGenerator::generateBuiltin(const BuiltinCallExpr &call) {
  mlir::Location where = loc(call.getLoc());
  mlir::Type result = convertType(call.getType());
  switch (call.getBuiltin()) {
  case Builtin::ProgramId:
    return mlir::tile::ProgramIdOp::create(builder, where,
                                           call.getConstArg(0).getInt());
  case Builtin::NumPrograms:
    return mlir::tile::NumProgramsOp::create(builder, where,
                                             call.getConstArg(0).getInt());
  case Builtin::Arange:
    return mlir::tile::MakeRangeOp::create(
        builder, where, result,
        builder.getI32IntegerAttr(call.getConstArg(0).getInt()),
        builder.getI32IntegerAttr(call.getConstArg(1).getInt()));
  case Builtin::Load: {
    if (!checkMemoryAccess(call, /*volatileArg=*/7))
      return nullptr;
    bool ok = true;
    Value ptr = generateExpr(call.getArg(0));
    if (!ptr)
      return nullptr;
    Value mask = optionalArg(call, 1, ok);
    Value other = optionalArg(call, 2, ok);
    if (!ok)
      return nullptr;
    return mlir::tile::LoadOp::create(builder, where, result, ptr, mask, other);
  }
  case Builtin::Exp:
    return unaryMath<mlir::math::ExpOp>(call, where);
  case Builtin::Exp2:
    return unaryMath<mlir::math::Exp2Op>(call, where);
  default:
    return fail(call.getLoc(), "not supported yet: '" +
                                   getBuiltinInfo(call.getBuiltin()).name +
                                   "' in code generation");
  }
}

/// What the GPU lowering cannot do yet, reported at the call: i1 through
/// pointers and volatile accesses.
bool MLIRGenerator::checkMemoryAccess(const BuiltinCallExpr &call,
                                      std::optional<unsigned> volatileArg) {
  if (call.getArg(0).getType().getElement() == ScalarKind::I1) {
    diag.error(call.getLoc(), "not supported yet: loads and stores through "
                              "'*i1' pointers (use '*i8' and compare)");
    return false;
  }
  if (volatileArg && call.getConstArg(*volatileArg).isTruthy()) {
    diag.error(call.getLoc(), "not supported yet: volatile=True");
    return false;
  }
  return true;
}

template <typename OpTy>
Value MLIRGenerator::unaryMath(const BuiltinCallExpr &call,
                               mlir::Location where) {
  if (call.getType().getElement() == ScalarKind::F64) {
    fail(call.getLoc(), "not supported yet: '" +
                            getBuiltinInfo(call.getBuiltin()).name +
                            "' on fp64");
    return nullptr;
  }
  Value operand = generateExpr(call.getArg(0));
  if (!operand)
    return nullptr;
  return OpTy::create(builder, where, operand);
}

/// Calls that produce nothing (store).
bool MLIRGenerator::generateVoidCall(const Expr &expr) {
  const auto *call = llvm::dyn_cast<BuiltinCallExpr>(&expr);
  if (!call || call->getBuiltin() != Builtin::Store) {
    diag.error(expr.getLoc(), "not supported yet: this statement");
    return false;
  }
  if (!checkMemoryAccess(*call, std::nullopt))
    return false;
  bool ok = true;
  Value ptr = generateExpr(call->getArg(0));
  Value value = ptr ? generateExpr(call->getArg(1)) : nullptr;
  if (!value)
    return false;
  Value mask = optionalArg(*call, 2, ok);
  if (!ok)
    return false;
  mlir::tile::StoreOp::create(builder, loc(call->getLoc()), ptr, value, mask);
  return true;
}

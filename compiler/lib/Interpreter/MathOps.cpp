//===- MathOps.cpp - math ops and libdevice calls on whole tiles ----------===//

#include "HostFunctions.h"
#include "Runner.h"

#include "tilec/Dialect/Tile/IR/Dialect.h"

using namespace tilec::interp;
using mlir::Operation;

namespace {

constexpr unsigned kMaxArity = 4;

/// Applies `f` to the operands of `op`, element by element (a scalar
/// operand is repeated).
bool applyElementwise(Runner &r, Operation &op, ElementFunction f) {
  unsigned arity = op.getNumOperands();
  const TileValue *args[kMaxArity] = {};
  ElemType types[kMaxArity];
  std::size_t n = 1;
  const TileValue *widest = nullptr;
  for (unsigned i = 0; i < kMaxArity; ++i) {
    if (i < arity) {
      args[i] = &r.get(op.getOperand(i));
      types[i] = args[i]->type;
      if (!widest || args[i]->size() > n) {
        n = std::max(n, args[i]->size());
        widest = args[i];
      }
    } else {
      types[i].bits = 0;
    }
  }
  ElemType type = ElemType::of(op.getResult(0).getType());
  auto out = makeTile(widest ? llvm::ArrayRef<std::int64_t>(widest->shape)
                             : llvm::ArrayRef<std::int64_t>(),
                      type);
  Scalar element[kMaxArity] = {};
  for (std::size_t e = 0; e < n; ++e) {
    for (unsigned i = 0; i < arity; ++i)
      element[i] = args[i]->data[args[i]->size() == 1 ? 0 : e];
    out->data[e] = f(element, types, type);
  }
  r.set(op.getResult(0), std::move(out));
  return true;
}

bool mathOp(Runner &r, Operation &op) {
  return applyElementwise(r, op, lookupMathFunction(op.getName().getStringRef()));
}

bool externElementwise(Runner &r, Operation &op) {
  auto call = llvm::cast<mlir::tile::ExternElementwiseOp>(op);
  return applyElementwise(r, op, lookupLibdeviceFunction(call.getSymbol()));
}

std::string validateExtern(Operation &op) {
  auto call = llvm::cast<mlir::tile::ExternElementwiseOp>(op);
  if (op.getNumOperands() > kMaxArity || !lookupLibdeviceFunction(call.getSymbol()))
    return "the libdevice function '" + call.getSymbol().str() + "'";
  return "";
}

} // namespace

void tilec::interp::registerMathOps(OpTable &t) {
  for (llvm::StringRef name : getMathOpNames())
    t[name] = {mathOp};
  t["tile.extern_elementwise"] = {externElementwise, validateExtern};
}

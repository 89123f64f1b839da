//===- Encodings.cpp - Rewriting the layouts of a module's tensors --------===//
//
// The one place that changes tensor encodings in place, shared by the pass
// that assigns layouts and the passes that refine them.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/Dialect.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::tilegpu;

BlockedEncodingAttr mlir::tilegpu::getBlockedEncoding(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return dyn_cast_or_null<BlockedEncodingAttr>(tensor.getEncoding());
  return {};
}

/// `type` with the encoding `encodingFor` picks, or `type` unchanged.
static Type reencode(Type type,
                     function_ref<Attribute(RankedTensorType)> encodingFor) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return type;
  Attribute encoding = encodingFor(tensor);
  if (!encoding)
    return type;
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               encoding);
}

void mlir::tilegpu::rewriteTensorEncodings(
    Operation *root, function_ref<Attribute(RankedTensorType)> encodingFor) {
  root->walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(reencode(arg.getType(), encodingFor));
    for (OpResult result : op->getResults())
      result.setType(reencode(result.getType(), encodingFor));
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
        constant.setValueAttr(
            dense.reshape(cast<ShapedType>(constant.getType())));
  });
  root->walk([&](func::FuncOp func) {
    if (func.isExternal())
      return;
    SmallVector<Type> results;
    func.walk([&](func::ReturnOp ret) {
      results.assign(ret.getOperandTypes().begin(), ret.getOperandTypes().end());
    });
    func.setFunctionType(FunctionType::get(
        func.getContext(), func.front().getArgumentTypes(), results));
  });
}

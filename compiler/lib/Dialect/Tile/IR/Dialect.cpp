//===- Dialect.cpp - The tile dialect and its types -----------------------===//
//
// Registers the tile dialect's types and operations, and the helpers that
// relate pointer types to the element types they point at.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

#include "tilec/Dialect/Tile/IR/TileDialect.cpp.inc"
#include "tilec/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tilec/Dialect/Tile/IR/TileTypes.cpp.inc"

void TileDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tilec/Dialect/Tile/IR/TileTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tilec/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder,
                                            Attribute value, Type type,
                                            Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

Type mlir::tile::getShapedLike(Type like, Type elementType) {
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return RankedTensorType::get(tensor.getShape(), elementType,
                                 tensor.getEncoding());
  return elementType;
}

Type mlir::tile::getPointeeType(Type ptrLike) {
  Type element = getElementTypeOrSelf(ptrLike);
  auto ptr = dyn_cast<PointerType>(element);
  if (!ptr)
    return {};
  return getShapedLike(ptrLike, ptr.getPointeeType());
}

Type mlir::tile::getMaskType(Type ptrLike) {
  return getShapedLike(ptrLike, IntegerType::get(ptrLike.getContext(), 1));
}

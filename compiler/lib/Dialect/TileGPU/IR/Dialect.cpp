//===- Dialect.cpp - The tilegpu dialect ----------------------------------===//
//
// Registers the tilegpu dialect's attributes and operations and reads its
// module-level attributes.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tilegpu;

#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/TileGPU/IR/TileGPUAttrs.cpp.inc"

void TileGPUDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tilec/Dialect/TileGPU/IR/TileGPUAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tilec/Dialect/TileGPU/IR/TileGPUOps.cpp.inc"
      >();
}

/// Reads an integer module attribute, or `fallback` when it is absent.
static int getModuleInt(Operation *op, StringRef name, int fallback) {
  auto module = isa<ModuleOp>(op) ? op : op->getParentOfType<ModuleOp>();
  if (!module)
    return fallback;
  if (auto attr = module->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return fallback;
}

int TileGPUDialect::getNumWarps(Operation *module) {
  return getModuleInt(module, kNumWarpsAttr, 4);
}

int TileGPUDialect::getThreadsPerWarp(Operation *module) {
  return getModuleInt(module, kThreadsPerWarpAttr, 32);
}

//===- Dialect.cpp - The tilegpu dialect ----------------------------------===//
//
// Registers the tilegpu dialect's attributes, types and operations and reads its
// module-level attributes.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tilegpu;

#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/TileGPU/IR/TileGPUAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tilec/Dialect/TileGPU/IR/TileGPUTypes.cpp.inc"

namespace {
/// Prints layouts as `#blocked`, `#blocked1`, `#slice`, ... aliases, as Triton does.
struct TileGPUOpAsmInterface : OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<SliceEncodingAttr>(attr)) {
      os << "slice";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void TileGPUDialect::initialize() {
  addInterfaces<TileGPUOpAsmInterface>();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tilec/Dialect/TileGPU/IR/TileGPUAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tilec/Dialect/TileGPU/IR/TileGPUTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tilec/Dialect/TileGPU/IR/TileGPUOps.cpp.inc"
      >();
}

/// Reads an integer attribute from `op` or its nearest ancestor that has it
/// (a function, then the module), or `fallback` when none has.
static int getInheritedInt(Operation *op, StringRef name, int fallback) {
  for (; op; op = op->getParentOp())
    if (auto attr = op->getAttrOfType<IntegerAttr>(name))
      return attr.getInt();
  return fallback;
}

int TileGPUDialect::getNumWarps(Operation *op) {
  return getInheritedInt(op, kNumWarpsAttr, 4);
}

int TileGPUDialect::getThreadsPerWarp(Operation *op) {
  return getInheritedInt(op, kThreadsPerWarpAttr, 32);
}

int TileGPUDialect::getThreadsPerProgram(Operation *op) {
  return getNumWarps(op) * getThreadsPerWarp(op);
}

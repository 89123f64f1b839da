//===- MemDescType.cpp - Slots of a tile in shared memory -----------------===//
//
// Verification and queries of !tilegpu.memdesc.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/Dialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType,
                                  Attribute encoding) {
  if (shape.size() != 3)
    return emitError() << "memdesc holds 2-D tiles: expected [slots, rows, "
                          "columns], got "
                       << shape.size() << " dimensions";
  if (llvm::any_of(shape, [](int64_t dim) { return dim <= 0; }))
    return emitError() << "memdesc dimensions must be positive";
  if (!elementType.isIntOrFloat())
    return emitError() << "memdesc elements must be integers or floats, got "
                       << elementType;
  if (!isa<SwizzledSharedEncodingAttr>(encoding))
    return emitError() << "memdesc needs a shared-memory encoding, got "
                       << encoding;
  return success();
}

int64_t MemDescType::getSlotElements() const {
  int64_t elements = 1;
  for (int64_t dim : getSlotShape())
    elements *= dim;
  return elements;
}

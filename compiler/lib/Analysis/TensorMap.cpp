//===- TensorMap.cpp - Which accesses the tensor memory accelerator moves -===//
//
// A host map is trusted only while the access reads the very parameters it
// was encoded from; a map made in the kernel only when its operands are the
// access's parts and the axis info proves the alignment the map needs.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/TensorMap.h"

#include "tilec/Dialect/Tile/IR/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tilec;

Value mlir::tilec::stripHints(Value value) {
  while (auto hint = value.getDefiningOp<tile::HintOp>())
    value = hint.getSrc();
  return value;
}

std::optional<TensorMapInfo>
mlir::tilec::getTensorMapInfo(Value tensormap, ValueRange parts, int64_t elementBytes,
                              Operation *outside, const ModuleAxisInfo &axisInfo,
                              bool deviceMaps) {
  constexpr int64_t rank = 2;
  if (!tensormap || parts.size() != 1 + 2 * rank)
    return std::nullopt;
  if (auto make = tensormap.getDefiningOp<tile::MakeTensorMapOp>()) {
    if (!deviceMaps || (outside && outside->isAncestor(make)) ||
        make.getBase() != parts[0])
      return std::nullopt;
    ValueRange shapes = parts.slice(1, rank), strides = parts.slice(1 + rank, rank);
    bool same = llvm::equal(make.getShapes(), shapes) && llvm::equal(make.getStrides(), strides);
    bool swapped = llvm::equal(make.getShapes(), llvm::reverse(shapes)) &&
                   llvm::equal(make.getStrides(), llvm::reverse(strides));
    if (!same && !swapped)
      return std::nullopt;
    if (axisInfo.lookup(make.getBase()).getDivisibility(0) % 16 != 0 ||
        axisInfo.lookup(make.getStrides()[0]).getDivisibility(0) * elementBytes % 16 != 0)
      return std::nullopt;
    return TensorMapInfo{make.getBox(), static_cast<int64_t>(make.getSwizzle()), !same,
                         make.getStrides()[1]};
  }
  auto map = dyn_cast<BlockArgument>(tensormap);
  auto func = map ? dyn_cast<func::FuncOp>(map.getOwner()->getParentOp()) : nullptr;
  if (!func || map.getOwner() != &func.getBody().front())
    return std::nullopt;
  // The parts: base, shapes, strides; the parameters: the same, then the map.
  int64_t first = int64_t(map.getArgNumber()) - 1 - 2 * rank;
  if (first < 0)
    return std::nullopt;
  for (int64_t i = 0; i < 2 * rank; ++i)
    if (stripHints(parts[i]) != func.getArgument(first + i))
      return std::nullopt;
  auto box = func.getArgAttrOfType<DenseI64ArrayAttr>(map.getArgNumber(),
                                                      tile::kTensorMapBoxAttr);
  auto swizzle = func.getArgAttrOfType<IntegerAttr>(map.getArgNumber(),
                                                    tile::kTensorMapSwizzleAttr);
  if (!box || !swizzle)
    return std::nullopt;
  return TensorMapInfo{box.asArrayRef(), swizzle.getInt(), false, parts.back()};
}

bool mlir::tilec::fitsSlotPanels(const TensorMapInfo &map, RankedTensorType type) {
  if (type.getRank() != 2 || type.getElementType().getIntOrFloatBitWidth() != 16 ||
      !matchPattern(stripHints(map.innerStride), m_One()))
    return false;
  // Rows and columns as the slot stores them.
  int64_t rows = type.getDimSize(map.transposed ? 1 : 0);
  int64_t cols = type.getDimSize(map.transposed ? 0 : 1);
  int64_t panelCols = std::min<int64_t>(cols, 64);
  return map.box == ArrayRef<int64_t>{rows, panelCols} && map.swizzle == panelCols * 2 &&
         cols % panelCols == 0;
}

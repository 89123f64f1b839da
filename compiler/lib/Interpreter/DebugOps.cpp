//===- DebugOps.cpp - device_print, device_assert and barriers ------------===//
//
// tile.print writes the lines the GPU's vprintf writes, in element order:
//   pid (X, Y, Z) idx (I, J) <prefix><value>
// tile.assert stops the launch with an error at the op naming the first
// element whose condition is false. A program runs its whole tile at once,
// so tile.barrier has nothing to wait for.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include "tilec/Dialect/Tile/IR/Dialect.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>

using namespace tilec::interp;
using mlir::Operation;

namespace {

/// One printed value, formatted as the GPU lowering's printf directive.
std::string formatElement(Scalar value, const ElemType &type, bool hex) {
  char buffer[64];
  if (type.isPointer())
    std::snprintf(buffer, sizeof buffer, "0x%" PRIx64, static_cast<std::uint64_t>(value.i));
  else if (type.isFloat() && hex)
    std::snprintf(buffer, sizeof buffer, "0x%" PRIx64, floatBits(value.f, type));
  else if (type.isFloat()) // the canonical NaN prints as "nan"
    std::snprintf(buffer, sizeof buffer, "%f", std::isnan(value.f) ? std::fabs(value.f) : value.f);
  else if (hex)
    std::snprintf(buffer, sizeof buffer, "0x%" PRIx64, zeroExtend(value.i, type.bits));
  else
    std::snprintf(buffer, sizeof buffer, "%" PRId64,
                  type.bits == 1 ? (value.i != 0 ? 1 : 0) : value.i);
  return buffer;
}

bool print(Runner &r, Operation &op) {
  auto printOp = llvm::cast<mlir::tile::PrintOp>(op);
  std::string pid = "pid (" + std::to_string(r.programId[0]) + ", " +
                    std::to_string(r.programId[1]) + ", " + std::to_string(r.programId[2]) + ") ";
  std::string prefix = printOp.getPrefix().str();
  bool hex = printOp.getHex();
  std::size_t numArgs = printOp.getArgs().size();
  std::string text;
  std::string scalars = pid + prefix;
  bool anyScalar = numArgs == 0;
  for (auto [i, arg] : llvm::enumerate(printOp.getArgs())) {
    const TileValue &value = r.get(arg);
    if (!value.isScalar())
      continue;
    scalars += anyScalar ? " " : "";
    anyScalar = true;
    if (numArgs > 1)
      scalars += "(operand " + std::to_string(i) + ") ";
    scalars += formatElement(value.data[0], value.type, hex);
  }
  if (anyScalar)
    text += scalars + "\n";
  for (auto [i, arg] : llvm::enumerate(printOp.getArgs())) {
    const TileValue &value = r.get(arg);
    if (value.isScalar())
      continue;
    for (std::size_t e = 0; e < value.size(); ++e) {
      text += pid + "idx (" + indexText(value, e) + ") " + prefix;
      if (numArgs > 1)
        text += "(operand " + std::to_string(i) + ") ";
      text += formatElement(value.data[e], value.type, hex) + "\n";
    }
  }
  std::lock_guard guard(r.launch.printLock);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  return true;
}

bool assertOp(Runner &r, Operation &op) {
  auto assertion = llvm::cast<mlir::tile::AssertOp>(op);
  const TileValue &condition = r.get(assertion.getCondition());
  for (std::size_t e = 0; e < condition.size(); ++e)
    if (condition.data[e].i == 0)
      return r.fail(op, "device_assert failed" +
                            (condition.isScalar() ? std::string()
                                                  : " at element (" + indexText(condition, e) + ")") +
                            ": " + assertion.getMessage());
  return true;
}

bool barrier(Runner &, Operation &) { return true; }

} // namespace

void tilec::interp::registerDebugOps(OpTable &t) {
  t["tile.print"] = {print};
  t["tile.assert"] = {assertOp};
  t["tile.barrier"] = {barrier};
}

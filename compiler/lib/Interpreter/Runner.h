//===- Runner.h - One program of an interpreted launch ----------*- C++ -*-===//
//
// A Runner executes one kernel function for one program id: it walks the
// function's ops in order, keeping every SSA value as a whole TileValue.
// Each op family lives in its own file and registers its handlers by op
// name (registerArithOps, ...); an op without a handler is rejected when
// the module is parsed, before anything runs.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_INTERPRETER_RUNNER_H
#define TILEC_LIB_INTERPRETER_RUNNER_H

#include "HostMemory.h"
#include "TileValue.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

#include <array>
#include <atomic>
#include <mutex>
#include <string>

namespace tilec::interp {

/// What every program of one launch shares.
struct LaunchState {
  std::array<unsigned, 3> grid{1, 1, 1};
  HostMemory::Impl *memory = nullptr;
  /// Per kernel argument: the allocation a pointer argument points into
  /// (null for scalars and for pointers into no allocation).
  std::vector<const HostAllocation *> argAllocations;
  std::vector<std::string> argNames;
  /// The first error of any program; later programs stop once it is set.
  std::atomic<bool> failed{false};
  std::mutex errorLock;
  std::string error;
  /// Linear id of the program whose error `error` is; programs with higher
  /// ids stop once it is set, lower ones run on, so the lowest failing
  /// program reports whatever the threads' timing.
  std::atomic<std::uint64_t> errorProgram{0};
  /// Serializes device_print lines.
  std::mutex printLock;
};

class Runner;

/// Runs one op; false after reporting an error through Runner::fail.
using OpHandler = bool (*)(Runner &, mlir::Operation &);

/// Checks, when the module is parsed, that an op the handler table knows
/// can run (e.g. a supported libdevice function); returns the reason when
/// it cannot.
using OpValidator = std::string (*)(mlir::Operation &);

/// A handler and its optional validator.
struct OpEntry {
  OpHandler run = nullptr;
  OpValidator validate = nullptr;
};

using OpTable = llvm::StringMap<OpEntry>;

/// Registration of each op family's handlers (one file each).
void registerArithOps(OpTable &table);
void registerMathOps(OpTable &table);
void registerShapeOps(OpTable &table);
void registerMemoryOps(OpTable &table);
void registerReductionOps(OpTable &table);
void registerDotOps(OpTable &table);
void registerDebugOps(OpTable &table);
void registerControlFlowOps(OpTable &table);

/// Every handler, by op name.
const OpTable &opTable();

/// The "file:line:col" of `loc`, or "" when it has none.
std::string locationText(mlir::Location loc);

/// Executes ops of one program.
class Runner {
public:
  Runner(LaunchState &launch, std::array<unsigned, 3> programId)
      : launch(launch), programId(programId),
        linearId(programId[0] + std::uint64_t(launch.grid[0]) *
                                    (programId[1] + std::uint64_t(launch.grid[1]) * programId[2])) {}

  /// True once a program below this one failed: this one may stop.
  bool superseded() const {
    return launch.failed.load(std::memory_order_acquire) && launch.errorProgram < linearId;
  }

  /// The value of `value`; it was computed before (the IR dominates).
  const TileValue &get(mlir::Value value) const;
  TilePtr getPtr(mlir::Value value) const;
  void set(mlir::Value value, TilePtr tile) { env[value] = std::move(tile); }

  /// Runs the ops of `block` with its arguments bound to `args`; the
  /// terminator's operands go to `results`. False after an error.
  bool runBlock(mlir::Block &block, llvm::ArrayRef<TilePtr> args,
                llvm::SmallVectorImpl<TilePtr> &results);
  /// Runs one op.
  bool runOp(mlir::Operation &op);

  /// Reports `message` at `op` for this program and returns false.
  bool fail(mlir::Operation &op, const llvm::Twine &message);

  LaunchState &launch;
  const std::array<unsigned, 3> programId;
  const std::uint64_t linearId; ///< x + X * (y + Y * z).

private:
  llvm::DenseMap<mlir::Value, TilePtr> env;
};

/// The shape tiles of `a` and `b` combine to elementwise: equal shapes, or
/// one of them a single element (a scalar inside a combine region).
llvm::ArrayRef<std::int64_t> broadcastShape(const TileValue &a, const TileValue &b);

/// Elementwise map of `a` into a new tile of `type`.
template <class F>
std::shared_ptr<TileValue> mapElements(const TileValue &a, ElemType type, F f) {
  auto out = makeTile(a.shape, type);
  for (std::size_t i = 0, n = a.size(); i < n; ++i)
    out->data[i] = f(a.data[i]);
  return out;
}

/// Elementwise map of `a` and `b` (see broadcastShape) into a tile of `type`.
template <class F>
std::shared_ptr<TileValue> zipElements(const TileValue &a, const TileValue &b,
                                       ElemType type, F f) {
  auto out = makeTile(broadcastShape(a, b), type);
  std::size_t n = out->size();
  bool aOne = a.size() == 1, bOne = b.size() == 1;
  for (std::size_t i = 0; i < n; ++i)
    out->data[i] = f(a.data[aOne ? 0 : i], b.data[bOne ? 0 : i]);
  return out;
}

} // namespace tilec::interp

#endif // TILEC_LIB_INTERPRETER_RUNNER_H

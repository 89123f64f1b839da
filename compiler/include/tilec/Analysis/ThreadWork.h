//===- ThreadWork.h - Bounding the code each thread runs --------*- C++ -*-===//
//
// Every tile op is lowered to one instruction sequence per element a thread
// holds, all in straight-line code, and LLVM's optimizer and the NVPTX
// backend take superlinear time in that code's size. This analysis
// estimates, per kernel, the scalar operations one thread executes (loop
// bodies counted once) and the largest number of elements a thread holds,
// so that kernels past the limits get a located error instead of a compile
// that runs for minutes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_ANALYSIS_THREADWORK_H
#define TILEC_ANALYSIS_THREADWORK_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tilec {

/// The most elements one thread may hold in one tile.
constexpr int64_t kMaxElementsPerThread = 4096;

/// The most weighted scalar operations one thread's code may contain.
constexpr int64_t kMaxWorkPerThread = 131072;

/// The estimate for one kernel.
struct ThreadWork {
  int64_t work = 0;              ///< Weighted scalar operations per thread.
  int64_t maxElements = 0;       ///< Most elements of one tile per thread.
  Operation *heaviest = nullptr; ///< The op that contributes the most work.
  int64_t heaviestWork = 0;
  Operation *largest = nullptr;  ///< The op whose result has maxElements.
};

/// Estimates the work of kernel `func` (a func.func of the tilegpu stage).
ThreadWork estimateThreadWork(Operation *func);

/// Reports an error at the responsible op of each kernel of `module` past
/// kMaxElementsPerThread or `maxWork` operations; failure if any is.
LogicalResult checkThreadWork(ModuleOp module, int64_t maxWork = kMaxWorkPerThread);

} // namespace mlir::tilec

#endif // TILEC_ANALYSIS_THREADWORK_H

//===- RegisterFootprint.h - Registers a kernel's tiles need ----*- C++ -*-===//
//
// ptxas allocates registers with an occupancy target: given no directive, it
// squeezes a kernel towards the most resident blocks, and serializes the
// loads of a memory-bound kernel to get there (the layer norm above 8192
// columns kept 3 of its 8 16-byte loads in flight and ran at 0.77 of Triton).
// Told the number of blocks to aim for (.minnctapersm), it fills that budget
// and keeps every load in flight. This analysis estimates the registers a
// kernel's tiles occupy, from which the occupancy pass picks that number.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_ANALYSIS_REGISTERFOOTPRINT_H
#define TILEC_ANALYSIS_REGISTERFOOTPRINT_H

#include "mlir/IR/Operation.h"

namespace mlir::tilec {

/// 32-bit registers of one SM, and the most threads and blocks resident on
/// it (sm_80 and sm_90 alike).
constexpr int64_t kRegistersPerSM = 65536;
constexpr int64_t kThreadsPerSM = 2048;
constexpr int64_t kBlocksPerSM = 32;

/// Shared memory of one SM that resident blocks divide among them, and what
/// the driver reserves of it per block: sm_80's 164 KB (sm_90 has 228 KB), so
/// that the blocks counted always fit; more would make ptxas cap registers
/// tighter than the blocks that really fit need.
constexpr int64_t kSharedBytesPerSM = 167936;
constexpr int64_t kSharedBytesReservedPerBlock = 1024;

/// Registers a thread needs beyond its tiles: indices, addresses, predicates
/// and loop counters.
constexpr int64_t kScalarRegisters = 16;

/// The estimate for one kernel.
struct RegisterFootprint {
  /// Registers per thread: the most that the kernel's data tiles hold at
  /// once (RegisterFootprint.cpp says how it counts), plus
  /// kScalarRegisters.
  int64_t registers = 0;
  /// The block where the largest is reached (null for a declaration).
  Block *peak = nullptr;
  /// Blocks of this kernel one SM can hold with `registers` per thread
  /// (allocated in units of 8), its threads and its shared memory.
  int64_t blocksPerSM = 1;
};

/// Estimates the footprint of kernel `func` (a func.func of the tilegpu
/// stage whose loops are still structured), with the shared memory the
/// allocation recorded on it (none before the allocation).
RegisterFootprint estimateRegisterFootprint(Operation *func);

} // namespace mlir::tilec

#endif // TILEC_ANALYSIS_REGISTERFOOTPRINT_H

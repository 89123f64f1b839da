//===- HostMemory.h - The interpreter's allocations -------------*- C++ -*-===//
//
// HostMemory::Impl: the allocations interpreted kernels may touch, each
// with a shadow byte per byte that says whether anything wrote it. A launch
// holds the shared lock for its whole run; allocating and freeing take it
// exclusively. Atomics serialize on one mutex, so that they are atomic
// across the host threads that run programs.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LIB_INTERPRETER_HOSTMEMORY_H
#define TILEC_LIB_INTERPRETER_HOSTMEMORY_H

#include "tilec/Interpreter.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <vector>

namespace tilec {

/// One allocation: its bytes and which of them were written.
struct HostAllocation {
  std::uint64_t base = 0;
  std::size_t bytes = 0;
  unsigned char *storage = nullptr;
  std::vector<unsigned char> written;

  /// True when [address, address + size) lies inside this allocation.
  bool contains(std::uint64_t address, std::size_t size) const {
    return address >= base && address - base <= bytes && size <= bytes - (address - base);
  }
  /// True when every byte of [address, address + size) was written.
  bool isWritten(std::uint64_t address, std::size_t size) const;
  /// Marks [address, address + size) written.
  void markWritten(std::uint64_t address, std::size_t size);
};

struct HostMemory::Impl {
  mutable std::shared_mutex lock;
  std::mutex atomics;
  std::map<std::uint64_t, HostAllocation> byBase;

  /// The allocation holding `address` (one past its end counts), or null.
  /// The caller holds `lock`.
  const HostAllocation *find(std::uint64_t address) const;
  HostAllocation *find(std::uint64_t address);
};

} // namespace tilec

#endif // TILEC_LIB_INTERPRETER_HOSTMEMORY_H

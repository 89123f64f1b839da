//===- HostMemory.cpp - The interpreter's allocations ---------------------===//

#include "HostMemory.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>

using namespace tilec;

bool HostAllocation::isWritten(std::uint64_t address, std::size_t size) const {
  const unsigned char *first = written.data() + (address - base);
  return std::all_of(first, first + size, [](unsigned char w) { return w != 0; });
}

void HostAllocation::markWritten(std::uint64_t address, std::size_t size) {
  std::memset(written.data() + (address - base), 1, size);
}

const HostAllocation *HostMemory::Impl::find(std::uint64_t address) const {
  auto it = byBase.upper_bound(address);
  if (it == byBase.begin())
    return nullptr;
  --it;
  return it->second.contains(address, 0) ? &it->second : nullptr;
}

HostAllocation *HostMemory::Impl::find(std::uint64_t address) {
  return const_cast<HostAllocation *>(std::as_const(*this).find(address));
}

HostMemory::HostMemory() : State(std::make_unique<Impl>()) {}

HostMemory::~HostMemory() {
  for (auto &[base, allocation] : State->byBase)
    std::free(allocation.storage);
}

std::uint64_t HostMemory::allocate(std::size_t bytes) {
  if (bytes == 0 || bytes > (std::size_t(1) << 46))
    return 0;
  std::size_t rounded = (bytes + 255) / 256 * 256;
  auto *storage = static_cast<unsigned char *>(std::aligned_alloc(256, rounded));
  if (!storage)
    return 0;
  HostAllocation allocation;
  allocation.base = reinterpret_cast<std::uint64_t>(storage);
  allocation.bytes = bytes;
  allocation.storage = storage;
  allocation.written.assign(bytes, 0);
  std::unique_lock guard(State->lock);
  std::uint64_t base = allocation.base;
  State->byBase.emplace(base, std::move(allocation));
  return base;
}

bool HostMemory::release(std::uint64_t address) {
  std::unique_lock guard(State->lock);
  auto it = State->byBase.find(address);
  if (it == State->byBase.end())
    return false;
  std::free(it->second.storage);
  State->byBase.erase(it);
  return true;
}

bool HostMemory::write(std::uint64_t address, const void *src, std::size_t bytes) {
  std::shared_lock guard(State->lock);
  HostAllocation *allocation = State->find(address);
  if (!allocation || !allocation->contains(address, bytes))
    return false;
  std::memcpy(reinterpret_cast<void *>(address), src, bytes);
  allocation->markWritten(address, bytes);
  return true;
}

bool HostMemory::read(std::uint64_t address, void *dst, std::size_t bytes) const {
  std::shared_lock guard(State->lock);
  const HostAllocation *allocation = State->find(address);
  if (!allocation || !allocation->contains(address, bytes))
    return false;
  std::memcpy(dst, reinterpret_cast<const void *>(address), bytes);
  return true;
}

bool HostMemory::fill(std::uint64_t address, std::uint8_t value, std::size_t bytes) {
  std::shared_lock guard(State->lock);
  HostAllocation *allocation = State->find(address);
  if (!allocation || !allocation->contains(address, bytes))
    return false;
  std::memset(reinterpret_cast<void *>(address), value, bytes);
  allocation->markWritten(address, bytes);
  return true;
}

//===- JitCache.h - The JIT's disk cache ------------------------*- C++ -*-===//
//
// One file per entry, named by the hash of its key, holding the key itself,
// its payloads and a checksum over all of them. Entries are written to a
// temporary file in the cache directory and renamed into place, so that any
// number of processes writing the same entry at once leave one whole entry
// and a reader never sees a torn or mixed one; an entry that does not read
// back whole (or holds another key) is ignored and rewritten.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_JITCACHE_H
#define TILE_LIB_JITCACHE_H

#include <optional>
#include <string>
#include <vector>

namespace tile {

/// A directory of cache entries.
class DiskCache {
public:
  /// Entries live in \p Dir, created on the first store.
  explicit DiskCache(std::string Dir) : Dir(std::move(Dir)) {}

  /// The payloads stored under \p Key, or std::nullopt when there is no
  /// whole entry for it.
  std::optional<std::vector<std::string>> load(const std::string &Key) const;
  /// Stores \p Payloads under \p Key; returns false (with \p Error) when the
  /// directory or the file cannot be written. Never leaves a partial entry.
  bool store(const std::string &Key, const std::vector<std::string> &Payloads,
             std::string &Error) const;
  /// The file that holds \p Key's entry.
  std::string pathFor(const std::string &Key) const;

private:
  std::string Dir;
};

} // namespace tile

#endif // TILE_LIB_JITCACHE_H

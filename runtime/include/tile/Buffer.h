//===- Buffer.h - Typed device memory ----------------------------*- C++
//-*-===//
//
// tile::DeviceBuffer<T>: an RAII, move-only array of T in device memory,
// copied to and from the host in order with the caller (copyFromHost) or on
// a stream (copyFromHostAsync); tile::PinnedBuffer<T>: page-locked host
// memory, which the asynchronous copies need to overlap with other work.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_BUFFER_H
#define TILE_BUFFER_H

#include "tile/Context.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace tile {

class Stream;

namespace detail {

/// Untyped device memory owned by one context; the base of DeviceBuffer<T>.
class DeviceAllocation {
public:
  /// Allocates \p Bytes (none when 0) in \p Ctx.
  DeviceAllocation(const Context &Ctx, std::size_t Bytes);
  /// Frees the memory; errors are ignored.
  ~DeviceAllocation();
  DeviceAllocation(DeviceAllocation &&Other) noexcept;
  DeviceAllocation &operator=(DeviceAllocation &&Other) noexcept;
  DeviceAllocation(const DeviceAllocation &) = delete;
  DeviceAllocation &operator=(const DeviceAllocation &) = delete;

  /// The device address (0 for an empty allocation).
  std::uint64_t address() const noexcept { return Ptr; }
  /// The size in bytes.
  std::size_t bytes() const noexcept { return Size; }
  /// Copies \p Bytes from host \p Src to the start; throws when too many.
  void upload(const void *Src, std::size_t Bytes);
  /// Copies \p Bytes from the start to host \p Dst; throws when too many.
  void download(void *Dst, std::size_t Bytes) const;
  /// Queues a copy of \p Bytes from host \p Src to the start on \p S.
  void uploadAsync(const void *Src, std::size_t Bytes, const Stream &S);
  /// Queues a copy of \p Bytes from the start to host \p Dst on \p S.
  void downloadAsync(void *Dst, std::size_t Bytes, const Stream &S) const;
  /// Sets every byte to \p Value.
  void fillBytes(std::uint8_t Value);

private:
  void release() noexcept;

  std::shared_ptr<ContextState> Ctx;
  std::uint64_t Ptr = 0;
  std::size_t Size = 0;
};

/// Page-locked host memory of one context; the base of PinnedBuffer<T>.
class PinnedAllocation {
public:
  /// Allocates \p Bytes (none when 0) for \p Ctx.
  PinnedAllocation(const Context &Ctx, std::size_t Bytes);
  /// Frees the memory; errors are ignored.
  ~PinnedAllocation();
  PinnedAllocation(PinnedAllocation &&Other) noexcept;
  PinnedAllocation &operator=(PinnedAllocation &&Other) noexcept;
  PinnedAllocation(const PinnedAllocation &) = delete;
  PinnedAllocation &operator=(const PinnedAllocation &) = delete;

  /// The host address (nullptr for an empty allocation).
  void *data() const noexcept { return Ptr; }

private:
  void release() noexcept;

  std::shared_ptr<ContextState> Ctx;
  void *Ptr = nullptr;
};

} // namespace detail

/// \p Count values of \p T in device memory; T is a trivially copyable type
/// such as float, int32_t, tile::Half. Passing it to Kernel::launch passes
/// its address, typed "*<T>".
template <class T> class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>,
                "DeviceBuffer holds trivially copyable values only");

public:
  /// Allocates \p Count elements (uninitialized) in \p Ctx.
  DeviceBuffer(const Context &Ctx, std::size_t Count)
      : Alloc(Ctx, byteCount(Count)), Count(Count) {}
  /// Takes over \p Other's memory; \p Other becomes empty.
  DeviceBuffer(DeviceBuffer &&Other) noexcept
      : Alloc(std::move(Other.Alloc)), Count(std::exchange(Other.Count, 0)) {}
  /// Frees this buffer's memory and takes over \p Other's.
  DeviceBuffer &operator=(DeviceBuffer &&Other) noexcept {
    Alloc = std::move(Other.Alloc);
    Count = std::exchange(Other.Count, 0);
    return *this;
  }

  /// The number of elements.
  std::size_t size() const noexcept { return Count; }
  /// The size in bytes.
  std::size_t bytes() const noexcept { return Alloc.bytes(); }
  /// The device address of the first element.
  std::uint64_t devicePtr() const noexcept { return Alloc.address(); }

  /// Copies \p N elements from \p Src to the start of the buffer.
  void copyFromHost(const T *Src, std::size_t N) {
    Alloc.upload(Src, byteCount(N));
  }
  /// Copies all of \p Src (at most size() elements) to the buffer.
  void copyFromHost(const std::vector<T> &Src) {
    copyFromHost(Src.data(), Src.size());
  }
  /// Copies the first \p N elements to \p Dst.
  void copyToHost(T *Dst, std::size_t N) const {
    Alloc.download(Dst, byteCount(N));
  }
  /// Queues a copy of \p N elements from \p Src to the start on \p S and
  /// returns; \p Src must stay unchanged until the stream reaches it (an
  /// Event or S.synchronize() tells). From a PinnedBuffer the copy overlaps
  /// with other work; from pageable memory the driver may copy at once.
  void copyFromHostAsync(const T *Src, std::size_t N, const Stream &S) {
    Alloc.uploadAsync(Src, byteCount(N), S);
  }
  /// Queues a copy of the first \p N elements to \p Dst on \p S; \p Dst
  /// holds them once the stream reaches the copy.
  void copyToHostAsync(T *Dst, std::size_t N, const Stream &S) const {
    Alloc.downloadAsync(Dst, byteCount(N), S);
  }
  /// Returns a host copy of the whole buffer.
  std::vector<T> toHost() const {
    std::vector<T> Result(Count);
    copyToHost(Result.data(), Count);
    return Result;
  }
  /// Sets every byte to \p Value; fillBytes(0xFF) makes floats NaN.
  void fillBytes(std::uint8_t Value) { Alloc.fillBytes(Value); }

private:
  static std::size_t byteCount(std::size_t N) {
    return N > std::numeric_limits<std::size_t>::max() / sizeof(T)
               ? std::numeric_limits<std::size_t>::max()
               : N * sizeof(T);
  }

  detail::DeviceAllocation Alloc;
  std::size_t Count;
};

/// \p Count values of \p T in page-locked host memory (cuMemHostAlloc),
/// for asynchronous copies that overlap with kernels. Move-only; on the
/// interpreter, ordinary host memory.
template <class T> class PinnedBuffer {
  static_assert(std::is_trivially_copyable_v<T>,
                "PinnedBuffer holds trivially copyable values only");

public:
  /// Allocates \p Count elements (uninitialized) for \p Ctx.
  PinnedBuffer(const Context &Ctx, std::size_t Count)
      : Alloc(Ctx, Count > std::numeric_limits<std::size_t>::max() / sizeof(T)
                       ? std::numeric_limits<std::size_t>::max()
                       : Count * sizeof(T)),
        Count(Count) {}
  /// Takes over \p Other's memory; \p Other becomes empty.
  PinnedBuffer(PinnedBuffer &&Other) noexcept
      : Alloc(std::move(Other.Alloc)), Count(std::exchange(Other.Count, 0)) {}
  /// Frees this buffer's memory and takes over \p Other's.
  PinnedBuffer &operator=(PinnedBuffer &&Other) noexcept {
    Alloc = std::move(Other.Alloc);
    Count = std::exchange(Other.Count, 0);
    return *this;
  }

  /// The number of elements.
  std::size_t size() const noexcept { return Count; }
  /// The first element's host address.
  T *data() noexcept { return static_cast<T *>(Alloc.data()); }
  const T *data() const noexcept { return static_cast<const T *>(Alloc.data()); }
  T &operator[](std::size_t I) noexcept { return data()[I]; }
  const T &operator[](std::size_t I) const noexcept { return data()[I]; }
  T *begin() noexcept { return data(); }
  T *end() noexcept { return data() + Count; }

private:
  detail::PinnedAllocation Alloc;
  std::size_t Count;
};

} // namespace tile

#endif // TILE_BUFFER_H

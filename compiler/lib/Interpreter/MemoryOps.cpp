//===- MemoryOps.cpp - addptr, loads, stores and atomics, checked ---------===//
//
// Every lane a mask enables is checked before it touches memory: its
// address must lie inside the buffer its pointer was derived from (the
// kernel argument it came from, or, for a pointer loaded from memory, any
// allocation), be aligned to its element, and, for reads, hold bytes that
// something wrote. Atomics hold HostMemory's atomics mutex for the whole
// op, so they are atomic across the threads that run programs.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include "tilec/Dialect/Tile/IR/Dialect.h"

#include <cmath>
#include <cstring>

using namespace tilec;
using namespace tilec::interp;
using mlir::Operation;

namespace {

ElemType pointeeOf(const TileValue &ptrs) { return ElemType::of(ptrs.type.pointee); }

std::string shapeText(const TileValue &tile) {
  if (tile.isScalar())
    return "a scalar";
  std::string text = "a ";
  for (auto [d, size] : llvm::enumerate(tile.shape))
    text += (d ? "x" : "") + std::to_string(size);
  return text + " tile";
}

std::string laneText(const TileValue &tile, std::size_t lane) {
  return tile.isScalar() ? "" : "element (" + indexText(tile, lane) + ") ";
}

/// Reports why lane `lane`'s access (see checkAccess) is wrong; returns
/// null.
HostAllocation *reportAccess(Runner &r, Operation &op, const char *what, const TileValue &ptrs,
                             std::size_t lane, std::uint64_t address, unsigned bytes,
                             bool reading, unsigned origin) {
  LaunchState &launch = r.launch;
  const HostAllocation *allocation = nullptr;
  std::string name;
  if (origin) {
    allocation = launch.argAllocations[origin - 1];
    name = launch.argNames[origin - 1];
    if (!allocation) {
      r.fail(op, llvm::Twine(what) + " of " + shapeText(ptrs) + ": " + laneText(ptrs, lane) +
                     "goes through '" + name +
                     "', which points into no buffer of this context");
      return nullptr;
    }
  } else {
    allocation = launch.memory->find(address);
    if (!allocation) {
      r.fail(op, llvm::Twine(what) + " of " + shapeText(ptrs) + ": " + laneText(ptrs, lane) +
                     "at address 0x" + llvm::Twine::utohexstr(address) +
                     " is in no buffer of this context");
      return nullptr;
    }
  }
  std::string buffer = std::to_string(allocation->bytes) + "-byte buffer" +
                       (name.empty() ? std::string() : " '" + name + "'");
  auto offset = static_cast<std::int64_t>(address - allocation->base);
  if (!allocation->contains(address, bytes)) {
    r.fail(op, "out-of-bounds " + llvm::Twine(what) + " of " + shapeText(ptrs) + ": " +
                   laneText(ptrs, lane) + "at byte offset " + llvm::Twine(offset) + " is " +
                   (offset < 0 ? "before the start" : "past the end") + " of the " + buffer);
    return nullptr;
  }
  if (address % bytes != 0) {
    r.fail(op, "misaligned " + llvm::Twine(what) + " of " + shapeText(ptrs) + ": " +
                   laneText(ptrs, lane) + "at byte offset " + llvm::Twine(offset) + " of the " +
                   buffer + " is not a multiple of its " + llvm::Twine(bytes) + " bytes");
    return nullptr;
  }
  if (reading && !allocation->isWritten(address, bytes)) {
    r.fail(op, llvm::Twine(what) + " of " + shapeText(ptrs) + ": " + laneText(ptrs, lane) +
                   "at byte offset " + llvm::Twine(offset) + " of the " + buffer +
                   " reads memory nothing wrote (uninitialized)");
    return nullptr;
  }
  // The checks passed this time: another program wrote the bytes between
  // the first check and this one.
  r.fail(op, llvm::Twine(what) + " of " + shapeText(ptrs) + ": " + laneText(ptrs, lane) +
                 "at byte offset " + llvm::Twine(offset) + " of the " + buffer +
                 " raced with a store of another program (bytes unwritten when read)");
  return nullptr;
}

/// Checks lane `lane` of an access of `bytes` at `address`; reports and
/// returns null when it is out of bounds, misaligned or (when `reading`)
/// uninitialized, else returns the allocation.
inline HostAllocation *checkAccess(Runner &r, Operation &op, const char *what,
                                   const TileValue &ptrs, std::size_t lane,
                                   std::uint64_t address, unsigned bytes, bool reading) {
  unsigned origin = ptrs.origin.empty() ? 0 : ptrs.origin[ptrs.size() == 1 ? 0 : lane];
  const HostAllocation *allocation =
      origin ? r.launch.argAllocations[origin - 1] : r.launch.memory->find(address);
  if (allocation && allocation->contains(address, bytes) && address % bytes == 0 &&
      (!reading || allocation->isWritten(address, bytes)))
    return const_cast<HostAllocation *>(allocation);
  return reportAccess(r, op, what, ptrs, lane, address, bytes, reading, origin);
}

bool enabled(const TileValue *mask, std::size_t lane) {
  return !mask || mask->data[mask->size() == 1 ? 0 : lane].i != 0;
}

bool addPtr(Runner &r, Operation &op) {
  const TileValue &ptrs = r.get(op.getOperand(0));
  const TileValue &offsets = r.get(op.getOperand(1));
  std::int64_t scale = pointeeOf(ptrs).storeBytes();
  auto out = makeTile(broadcastShape(ptrs, offsets), ptrs.type);
  bool onePtr = ptrs.size() == 1, oneOffset = offsets.size() == 1;
  for (std::size_t i = 0, n = out->size(); i < n; ++i) {
    std::size_t p = onePtr ? 0 : i;
    out->data[i].i = static_cast<std::int64_t>(
        static_cast<std::uint64_t>(ptrs.data[p].i) +
        static_cast<std::uint64_t>(offsets.data[oneOffset ? 0 : i].i) *
            static_cast<std::uint64_t>(scale));
    out->origin[i] = ptrs.origin[p];
  }
  r.set(op.getResult(0), std::move(out));
  return true;
}

/// tile.ptr_to_int / tile.int_to_ptr: the same addresses (a pointer made of
/// an integer has no argument of origin; its accesses are found by address).
bool castPointer(Runner &r, Operation &op) {
  const TileValue &src = r.get(op.getOperand(0));
  auto out = makeTile(src.shape, ElemType::of(op.getResult(0).getType()));
  for (std::size_t i = 0, n = out->size(); i < n; ++i)
    out->data[i].i = src.data[i].i;
  r.set(op.getResult(0), std::move(out));
  return true;
}

bool load(Runner &r, Operation &op) {
  auto loadOp = llvm::cast<mlir::tile::LoadOp>(op);
  const TileValue &ptrs = r.get(loadOp.getPtr());
  const TileValue *mask = loadOp.getMask() ? &r.get(loadOp.getMask()) : nullptr;
  const TileValue *other = loadOp.getOther() ? &r.get(loadOp.getOther()) : nullptr;
  ElemType type = ElemType::of(op.getResult(0).getType());
  unsigned bytes = type.storeBytes();
  auto out = makeTile(ptrs.shape, type);
  for (std::size_t i = 0, n = out->size(); i < n; ++i) {
    if (!enabled(mask, i)) {
      if (other)
        out->data[i] = other->data[other->size() == 1 ? 0 : i];
      continue;
    }
    auto address = static_cast<std::uint64_t>(ptrs.data[i].i);
    if (!checkAccess(r, op, "load", ptrs, i, address, bytes, /*reading=*/true))
      return false;
    out->data[i] = loadElement(reinterpret_cast<const void *>(address), type);
  }
  r.set(op.getResult(0), std::move(out));
  return true;
}

bool store(Runner &r, Operation &op) {
  auto storeOp = llvm::cast<mlir::tile::StoreOp>(op);
  const TileValue &ptrs = r.get(storeOp.getPtr());
  const TileValue &values = r.get(storeOp.getValue());
  const TileValue *mask = storeOp.getMask() ? &r.get(storeOp.getMask()) : nullptr;
  ElemType type = values.type;
  unsigned bytes = type.storeBytes();
  for (std::size_t i = 0, n = ptrs.size(); i < n; ++i) {
    if (!enabled(mask, i))
      continue;
    auto address = static_cast<std::uint64_t>(ptrs.data[i].i);
    HostAllocation *allocation =
        checkAccess(r, op, "store", ptrs, i, address, bytes, /*reading=*/false);
    if (!allocation)
      return false;
    storeElement(reinterpret_cast<void *>(address), values.data[values.size() == 1 ? 0 : i],
                 type);
    allocation->markWritten(address, bytes);
  }
  return true;
}

/// The new value of an atomic read-modify-write.
Scalar combineAtomic(mlir::tile::RMWKind kind, const ElemType &type, Scalar old, Scalar val) {
  using K = mlir::tile::RMWKind;
  if (type.isFloat()) {
    if (kind == K::Add)
      return floatScalar(roundToFloat(old.f + val.f, type));
    if (kind == K::Xchg)
      return val;
    bool max = kind == K::Max; // validateAtomicRMW admits Max and Min only
    if (type.bits == 16) { // a CAS loop over max.f32 / min.f32
      double pick = std::isnan(old.f) ? val.f
                    : std::isnan(val.f) ? old.f
                    : max ? std::max(old.f, val.f)
                          : std::min(old.f, val.f);
      return floatScalar(roundToFloat(pick, type));
    }
    // 32 and 64 bits: on the bits, a signed max (min) when the operand is
    // non-negative, an unsigned min (max) when it is negative, as the GPU's
    // atom.max.s / atom.min.u pair.
    std::uint64_t a = floatBits(old.f, type), b = floatBits(val.f, type);
    std::int64_t sa = signExtend(a, type.bits), sb = signExtend(b, type.bits);
    std::uint64_t bits = sb >= 0 ? (max == (sa >= sb) ? a : b) : (max == (a <= b) ? a : b);
    return floatScalar(floatFromBits(bits, type));
  }
  unsigned bits = type.bits;
  std::uint64_t ua = zeroExtend(old.i, bits), ub = zeroExtend(val.i, bits);
  std::uint64_t result = 0;
  switch (kind) {
  case K::Add: result = ua + ub; break;
  case K::Max: return old.i >= val.i ? old : val;
  case K::Min: return old.i <= val.i ? old : val;
  case K::UMax: result = std::max(ua, ub); break;
  case K::UMin: result = std::min(ua, ub); break;
  case K::Xchg: return val;
  case K::And: result = ua & ub; break;
  case K::Or: result = ua | ub; break;
  case K::Xor: result = ua ^ ub; break;
  }
  return Scalar{signExtend(result, bits)};
}

/// The GPU lowers float atomics for add, max, min and xchg only, and no
/// atomic on 8-bit or 1-bit values.
std::string validateAtomicRMW(Operation &op) {
  auto rmw = llvm::cast<mlir::tile::AtomicRMWOp>(op);
  ElemType type = ElemType::of(rmw.getVal().getType());
  using K = mlir::tile::RMWKind;
  if (type.bits < 16 ||
      (type.isFloat() && rmw.getKind() != K::Add && rmw.getKind() != K::Max &&
       rmw.getKind() != K::Min && rmw.getKind() != K::Xchg))
    return "atomic " + mlir::tile::stringifyRMWKind(rmw.getKind()).str() + " on this type";
  return "";
}

bool atomicRMW(Runner &r, Operation &op) {
  auto rmw = llvm::cast<mlir::tile::AtomicRMWOp>(op);
  const TileValue &ptrs = r.get(rmw.getPtr());
  const TileValue &values = r.get(rmw.getVal());
  const TileValue *mask = rmw.getMask() ? &r.get(rmw.getMask()) : nullptr;
  ElemType type = values.type;
  unsigned bytes = type.storeBytes();
  auto out = makeTile(ptrs.shape, type);
  std::lock_guard guard(r.launch.memory->atomics);
  for (std::size_t i = 0, n = ptrs.size(); i < n; ++i) {
    if (!enabled(mask, i))
      continue;
    auto address = static_cast<std::uint64_t>(ptrs.data[i].i);
    HostAllocation *allocation =
        checkAccess(r, op, "atomic", ptrs, i, address, bytes, /*reading=*/true);
    if (!allocation)
      return false;
    void *where = reinterpret_cast<void *>(address);
    Scalar old = loadElement(where, type);
    storeElement(where,
                 combineAtomic(rmw.getKind(), type, old, values.data[values.size() == 1 ? 0 : i]),
                 type);
    out->data[i] = old;
  }
  r.set(op.getResult(0), std::move(out));
  return true;
}

bool atomicCAS(Runner &r, Operation &op) {
  auto cas = llvm::cast<mlir::tile::AtomicCASOp>(op);
  const TileValue &ptrs = r.get(cas.getPtr());
  const TileValue &expected = r.get(cas.getCmp());
  const TileValue &values = r.get(cas.getVal());
  ElemType type = values.type;
  unsigned bytes = type.storeBytes();
  auto out = makeTile(ptrs.shape, type);
  std::lock_guard guard(r.launch.memory->atomics);
  for (std::size_t i = 0, n = ptrs.size(); i < n; ++i) {
    auto address = static_cast<std::uint64_t>(ptrs.data[i].i);
    if (!checkAccess(r, op, "atomic compare-and-swap", ptrs, i, address, bytes,
                     /*reading=*/true))
      return false;
    void *where = reinterpret_cast<void *>(address);
    unsigned char before[8] = {}, compare[8] = {};
    std::memcpy(before, where, bytes);
    storeElement(compare, expected.data[expected.size() == 1 ? 0 : i], type);
    out->data[i] = loadElement(where, type);
    if (std::memcmp(before, compare, bytes) == 0)
      storeElement(where, values.data[values.size() == 1 ? 0 : i], type);
  }
  r.set(op.getResult(0), std::move(out));
  return true;
}

/// A tensor map made in the kernel: only loads read it, and they run through
/// their pointers, so it holds nothing (0).
bool makeTensorMap(Runner &r, Operation &op) {
  r.set(op.getResult(0), makeTile({}, ElemType::of(op.getResult(0).getType())));
  return true;
}

} // namespace

void tilec::interp::registerMemoryOps(OpTable &t) {
  t["tile.addptr"] = {addPtr};
  t["tile.ptr_to_int"] = {castPointer};
  t["tile.int_to_ptr"] = {castPointer};
  t["tile.load"] = {load};
  t["tile.make_tensormap"] = {makeTensorMap};
  t["tile.store"] = {store};
  t["tile.atomic_rmw"] = {atomicRMW, validateAtomicRMW};
  t["tile.atomic_cas"] = {atomicCAS};
}

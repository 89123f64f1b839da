//===- AllocationTest.cpp - The shared-memory allocator -------------------===//
//
// Placement of buffers by lifetime (assignOffsets), lifetimes across loops
// (OpNumbering), scratch sizes (getScratchBytes), and the allocation of a
// parsed function.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/Allocation.h"

#include "tilec/Dialect/TileGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tilec;

namespace {

/// True when buffers `a` and `b` share a byte.
bool bytesOverlap(int64_t offsetA, int64_t bytesA, int64_t offsetB,
                  int64_t bytesB) {
  return offsetA < offsetB + bytesB && offsetB < offsetA + bytesA;
}

/// Checks the invariant of any placement: buffers live at the same time
/// occupy disjoint, aligned bytes inside the total.
void expectValidPlacement(ArrayRef<BufferRequest> buffers,
                          ArrayRef<int64_t> offsets, int64_t total) {
  ASSERT_EQ(buffers.size(), offsets.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    EXPECT_EQ(offsets[i] % kSharedBufferAlignment, 0) << "buffer " << i;
    EXPECT_LE(offsets[i] + buffers[i].bytes, total) << "buffer " << i;
    for (size_t j = i + 1; j < buffers.size(); ++j)
      if (buffers[i].lifetime.overlaps(buffers[j].lifetime))
        EXPECT_FALSE(bytesOverlap(offsets[i], buffers[i].bytes, offsets[j],
                                  buffers[j].bytes))
            << "buffers " << i << " and " << j;
  }
}

TEST(AssignOffsets, DisjointLifetimesShareBytes) {
  SmallVector<BufferRequest> buffers = {
      {1024, {1, 1}}, {4096, {3, 3}}, {256, {5, 5}}};
  int64_t total = 0;
  SmallVector<int64_t> offsets = assignOffsets(buffers, total);
  EXPECT_EQ(total, 4096);
  EXPECT_EQ(offsets, (SmallVector<int64_t>{0, 0, 0}));
}

TEST(AssignOffsets, OverlappingLifetimesGetDisjointBytes) {
  // A long-lived buffer (as pipelining's would be) beside two scratch
  // buffers inside its lifetime and one after it.
  SmallVector<BufferRequest> buffers = {
      {2048, {0, 10}}, {1024, {2, 2}}, {512, {4, 4}}, {4096, {12, 12}}};
  int64_t total = 0;
  SmallVector<int64_t> offsets = assignOffsets(buffers, total);
  expectValidPlacement(buffers, offsets, total);
  // The scratch buffers sit beside the long one and share their bytes; the
  // last one reuses everything.
  EXPECT_EQ(offsets[0], 0);
  EXPECT_EQ(offsets[1], 2048);
  EXPECT_EQ(offsets[2], 2048);
  EXPECT_EQ(offsets[3], 0);
  EXPECT_EQ(total, 4096);
}

TEST(AssignOffsets, FillsGapsAndAligns) {
  // Two buffers live throughout; a third, live with only the first, fits
  // in no gap and goes above; sizes round up to the alignment.
  SmallVector<BufferRequest> buffers = {
      {100, {0, 9}}, {64, {0, 3}}, {48, {5, 9}}, {20, {6, 6}}};
  int64_t total = 0;
  SmallVector<int64_t> offsets = assignOffsets(buffers, total);
  expectValidPlacement(buffers, offsets, total);
  EXPECT_EQ(offsets[0], 0);   // 112 bytes after rounding.
  EXPECT_EQ(offsets[1], 112); // Live with the first.
  EXPECT_EQ(offsets[2], 112); // Reuses the second's bytes.
  EXPECT_EQ(offsets[3], 160); // Above the third.
  EXPECT_EQ(total, 192);
}

TEST(AssignOffsets, EmptyAndZeroSized) {
  int64_t total = -1;
  EXPECT_TRUE(assignOffsets({}, total).empty());
  EXPECT_EQ(total, 0);
  SmallVector<BufferRequest> buffers = {{0, {0, 5}}, {32, {0, 5}}};
  SmallVector<int64_t> offsets = assignOffsets(buffers, total);
  EXPECT_EQ(offsets[1], 0);
  EXPECT_EQ(total, 32);
}

TEST(AssignOffsets, ManyRandomBuffersStayValid) {
  // A deterministic pseudo-random mix of lifetimes and sizes.
  SmallVector<BufferRequest> buffers;
  uint64_t state = 12345;
  auto next = [&](uint64_t bound) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int64_t>((state >> 33) % bound);
  };
  for (int i = 0; i < 200; ++i) {
    int64_t start = next(100);
    buffers.push_back({16 * (1 + next(64)), {start, start + next(20)}});
  }
  int64_t total = 0;
  SmallVector<int64_t> offsets = assignOffsets(buffers, total);
  expectValidPlacement(buffers, offsets, total);
}

/// A context with the dialects of the tilegpu stage.
class ParsedTest : public ::testing::Test {
protected:
  ParsedTest() {
    context
        .loadDialect<tile::TileDialect, tilegpu::TileGPUDialect,
                     arith::ArithDialect, func::FuncDialect, scf::SCFDialect>();
  }

  /// Parses `source` (failing the test when it does not parse).
  OwningOpRef<ModuleOp> parse(StringRef source) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    return module;
  }

  /// The first op named `name` under `root`.
  static Operation *find(Operation *root, StringRef name) {
    Operation *found = nullptr;
    root->walk([&](Operation *op) {
      if (!found && op->getName().getStringRef() == name)
        found = op;
    });
    return found;
  }

  MLIRContext context;
};

TEST_F(ParsedTest, LoopExtendsLifetimeOfOuterDefinition) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%n: index, %x: tensor<64xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %def = arith.addf %x, %x : tensor<64xf32>
      scf.for %i = %c0 to %n step %c1 {
        %use = arith.mulf %def, %def : tensor<64xf32>
        %other = arith.subf %x, %x : tensor<64xf32>
      }
      %after = arith.divf %x, %x : tensor<64xf32>
      return
    })mlir");
  ASSERT_TRUE(module);
  auto func = cast<func::FuncOp>(&module->getBody()->front());
  OpNumbering numbering(func);
  Operation *def = find(func, "arith.addf");
  Operation *loop = find(func, "scf.for");
  Operation *use = find(func, "arith.mulf");
  Operation *after = find(func, "arith.divf");
  // Pre-order: the loop before its body, the body before what follows.
  EXPECT_LT(numbering.getPosition(def), numbering.getPosition(loop));
  EXPECT_LT(numbering.getPosition(loop), numbering.getPosition(use));
  EXPECT_LT(numbering.getLastPositionWithin(loop),
            numbering.getPosition(after));
  // Used inside the loop, defined outside: alive until the loop ends.
  Interval lifetime = numbering.getLifetime(def, {use});
  EXPECT_EQ(lifetime.start, numbering.getPosition(def));
  EXPECT_EQ(lifetime.end, numbering.getLastPositionWithin(loop));
  // A buffer of the loop body used only there lives only at its op.
  Interval inner = numbering.getLifetime(use, {use});
  EXPECT_EQ(inner.start, inner.end);
  EXPECT_EQ(inner.start, numbering.getPosition(use));
}

TEST_F(ParsedTest, ScratchSizesAndAllocation) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    #b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
    #b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
    func.func @f(%x: tensor<1024xf16, #b4>, %a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %c: tensor<64x64xf32>, %p: !tile.ptr<i32>, %v: i32) attributes {"tilegpu.num-warps" = 8 : i32} {
      %y = tilegpu.convert_layout %x : tensor<1024xf16, #b4> -> tensor<1024xf16, #b1>
      %s = tile.reduce(%a) axis = 0 : (tensor<64x32xf32>) -> tensor<32xf32> {
      ^bb0(%l: f32, %r: f32):
        %sum = arith.addf %l, %r : f32
        tile.reduce.return %sum : f32
      }
      %d = tile.dot %a, %b, %c : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
      %old = tile.atomic_rmw add %p, %v : (!tile.ptr<i32>, i32) -> i32
      tile.store %p, %old : (!tile.ptr<i32>, i32) -> ()
      return
    })mlir");
  ASSERT_TRUE(module);
  auto func = cast<func::FuncOp>(&module->getBody()->front());
  Operation *convert = find(func, "tilegpu.convert_layout");
  Operation *reduce = find(func, "tile.reduce");
  Operation *dot = find(func, "tile.dot");
  Operation *atomic = find(func, "tile.atomic_rmw");
  EXPECT_EQ(getScratchBytes(convert), 1024 * 2);
  EXPECT_EQ(getScratchBytes(reduce), 4 * 32 * 8);
  EXPECT_EQ(getScratchBytes(dot), (64 * 32 + 32 * 64) * 4);
  EXPECT_EQ(getScratchBytes(atomic), 16); // 8 for its used old value, aligned.
  EXPECT_EQ(getScratchBytes(find(func, "func.return")), 0);

  SharedMemoryAllocation allocation(func);
  ASSERT_EQ(allocation.getBuffers().size(), 4u);
  EXPECT_EQ(allocation.getBuffers()[0].owner, convert);
  EXPECT_EQ(allocation.getBuffers()[2].owner, dot);
  // Each lives only during its op, so all start at 0 and the total is the
  // dot's.
  for (const SharedBuffer &buffer : allocation.getBuffers())
    EXPECT_EQ(buffer.offset, 0);
  EXPECT_EQ(allocation.getSharedBytes(), (64 * 32 + 32 * 64) * 4);
  ASSERT_NE(allocation.getLargestBuffer(), nullptr);
  EXPECT_EQ(allocation.getLargestBuffer()->owner, dot);
}

} // namespace

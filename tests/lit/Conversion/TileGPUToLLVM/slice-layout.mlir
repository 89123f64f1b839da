// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// A slice layout holds exactly the registers of its parent for the parent
// shape with a 1 at the sliced dimension: make_range in slice(P, 0) with P a
// [1, 4] x [4, 8] x [1, 1] blocked layout gives each thread 4 consecutive
// elements, indexed by the lane's position along dimension 1.

#p = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#s0 = #tilegpu.slice<{dim = 0, parent = #p}>
#s1 = #tilegpu.slice<{dim = 1, parent = #p}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @columns
  func.func @columns(%a: i32) attributes {tile.kernel, "tilegpu.num-warps" = 1 : i32} {
    // CHECK: nvvm.read.ptx.sreg.tid.x
    // CHECK: %[[LANE:.*]] = llvm.urem %{{.*}}, %{{.*}} : i32
    // CHECK: %[[COL:.*]] = llvm.urem %[[LANE]], %{{.*}} : i32
    // CHECK: %[[BASE:.*]] = llvm.mul %{{.*}}, %{{.*}} : i32
    // CHECK: llvm.mlir.undef : !llvm.struct<(i32, i32, i32, i32)>
    // CHECK-NOT: !llvm.struct<(i32, i32, i32, i32, i32
    // CHECK: llvm.return
    %r = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #s0>
    %s = tile.splat %a : tensor<32xi32, #s0>
    %x = arith.addi %r, %s : tensor<32xi32, #s0>
    return
  }
  // Slicing away the fast dimension: the parent tile [4, 1] has 1 element
  // per thread along dimension 1 (never duplicated in a thread), and 16 rows
  // over 4 row-lanes repeat 4 times.
  // CHECK-LABEL: llvm.func @rows
  func.func @rows(%a: i32) attributes {tile.kernel, "tilegpu.num-warps" = 1 : i32} {
    // CHECK-COUNT-4: llvm.add %{{.*}}, %{{.*}} : i32
    // CHECK: llvm.mlir.undef : !llvm.struct<(i32, i32, i32, i32)>
    // CHECK-NOT: !llvm.struct<(i32, i32, i32, i32, i32
    // CHECK: llvm.return
    %r = tile.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32, #s1>
    return
  }
}

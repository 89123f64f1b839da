// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// tile.hint is its operand at run time; what it promises lets the loads
// use 128-bit accesses where nothing else proves alignment.

#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @hinted
  // CHECK-NOT: tile.hint
  // CHECK: ld.global.v4.b32
  // CHECK-NOT: tile.hint
  func.func @hinted(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %s: i32) -> tensor<512xf32, #b4> attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32} {
    %pid = tile.program_id 0 : i32
    %start = arith.muli %pid, %s : i32
    %aligned = tile.hint %start {divisibility = array<i64: 16>} : i32
    %r = tile.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #b4>
    %ss = tile.splat %aligned : tensor<512xi32, #b4>
    %offs = arith.addi %ss, %r : tensor<512xi32, #b4>
    %xs = tile.splat %x : tensor<512x!tile.ptr<f32>, #b4>
    %xp = tile.addptr %xs, %offs : tensor<512x!tile.ptr<f32>, #b4>, tensor<512xi32, #b4>
    %v = tile.load %xp : (tensor<512x!tile.ptr<f32>, #b4>) -> tensor<512xf32, #b4>
    return %v : tensor<512xf32, #b4>
  }
}

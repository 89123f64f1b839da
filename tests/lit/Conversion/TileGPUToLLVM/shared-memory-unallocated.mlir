// RUN: tile-opt %s -convert-tilegpu-to-llvm -verify-diagnostics -o /dev/null
// A scratch user lowered without the allocation pass is an internal error
// at the op, not a crash.

#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  func.func @sum(%x: tensor<256xf32, #b>) -> f32 attributes {"tilegpu.num-warps" = 4 : i32} {
    // expected-error @+2 {{internal error: no shared memory was allocated for this operation}}
    // expected-error @+1 {{failed to legalize operation 'tile.reduce'}}
    %s = tile.reduce(%x) axis = 0 : (tensor<256xf32, #b>) -> f32 {
    ^bb0(%l: f32, %r: f32):
      %sum = arith.addf %l, %r : f32
      tile.reduce.return %sum : f32
    }
    return %s : f32
  }
}

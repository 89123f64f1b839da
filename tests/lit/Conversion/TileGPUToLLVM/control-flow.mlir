// RUN: tile-opt %s -convert-scf-to-cf -convert-tilegpu-to-llvm | FileCheck %s
// Loops and branches carry tiles in registers: scf becomes cf, and the
// branches' block arguments of tensor type become the structs of each
// thread's elements; tile.barrier is bar.sync 0 (nvvm.barrier0).

#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  func.func @loop(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32} {
    // CHECK-LABEL: llvm.func @loop
    // CHECK: llvm.br ^bb1(%{{.*}}, %{{.*}} : i32, !llvm.struct<(f32, f32)>)
    // CHECK: ^bb1(%{{.*}}: i32, %[[ACC:.*]]: !llvm.struct<(f32, f32)>):
    // CHECK: llvm.cond_br
    // The loop body adds each thread's two elements and loops back.
    // CHECK: llvm.extractvalue %[[ACC]][0]
    // CHECK-COUNT-2: llvm.fadd
    // CHECK: llvm.br ^bb1(%{{.*}}, %{{.*}} : i32, !llvm.struct<(f32, f32)>)
    // The if merges the two branches' tiles in one block argument.
    // CHECK: ^bb{{[0-9]+}}(%{{.*}}: !llvm.struct<(f32, f32)>):
    // The while loop's condition forwards its tile to the body.
    // CHECK: llvm.cond_br %{{.*}}, ^bb{{[0-9]+}}(%{{.*}} : !llvm.struct<(f32, f32)>), ^bb{{[0-9]+}}
    // CHECK: nvvm.barrier0
    // CHECK: llvm.return
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #b>
    %xs = tile.splat %x : tensor<256x!tile.ptr<f32>, #b>
    %xp = tile.addptr %xs, %r : tensor<256x!tile.ptr<f32>, #b>, tensor<256xi32, #b>
    %init = arith.constant dense<0.0> : tensor<256xf32, #b>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %init) -> (tensor<256xf32, #b>) : i32 {
      %v = tile.load %xp : (tensor<256x!tile.ptr<f32>, #b>) -> tensor<256xf32, #b>
      %s = arith.addf %a, %v : tensor<256xf32, #b>
      scf.yield %s : tensor<256xf32, #b>
    }
    %pos = arith.cmpi sgt, %n, %c0 : i32
    %res = scf.if %pos -> tensor<256xf32, #b> {
      %e = math.exp %acc : tensor<256xf32, #b>
      scf.yield %e : tensor<256xf32, #b>
    } else {
      scf.yield %acc : tensor<256xf32, #b>
    }
    %w = scf.while (%arg = %res) : (tensor<256xf32, #b>) -> tensor<256xf32, #b> {
      %cond = arith.cmpi sgt, %n, %c1 : i32
      scf.condition(%cond) %arg : tensor<256xf32, #b>
    } do {
    ^bb0(%arg2: tensor<256xf32, #b>):
      %d = arith.addf %arg2, %arg2 : tensor<256xf32, #b>
      scf.yield %d : tensor<256xf32, #b>
    }
    tile.barrier
    tile.store %xp, %w : (tensor<256x!tile.ptr<f32>, #b>, tensor<256xf32, #b>) -> ()
    return
  }
}

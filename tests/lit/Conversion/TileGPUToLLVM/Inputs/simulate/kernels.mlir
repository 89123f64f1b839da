// Reductions, scans, dots, transposes and layout conversions at the tilegpu
// level, lowered to LLVM and run on the CPU by harness.cpp with 128 emulated
// threads (see simulate.test). The last two move through swizzled scratch.
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
#c = #tilegpu.blocked<{sizePerThread = [2, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#l = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  func.func @rows(%x: tensor<32x64xf32, #b>) -> tensor<32xf32, #tilegpu.slice<{dim = 1, parent = #b}>> attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.reduce.return %c : f32
    }) {axis = 1 : i32} : (tensor<32x64xf32, #b>) -> tensor<32xf32, #tilegpu.slice<{dim = 1, parent = #b}>>
    return %s : tensor<32xf32, #tilegpu.slice<{dim = 1, parent = #b}>>
  }
  func.func @cols(%x: tensor<32x64xf32, #b>) -> tensor<64xf32, #tilegpu.slice<{dim = 0, parent = #b}>> attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<32x64xf32, #b>) -> tensor<64xf32, #tilegpu.slice<{dim = 0, parent = #b}>>
    return %s : tensor<64xf32, #tilegpu.slice<{dim = 0, parent = #b}>>
  }
  func.func @small(%x: tensor<4x4xf32, #b>) -> tensor<4xf32, #tilegpu.slice<{dim = 0, parent = #b}>> attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<4x4xf32, #b>) -> tensor<4xf32, #tilegpu.slice<{dim = 0, parent = #b}>>
    return %s : tensor<4xf32, #tilegpu.slice<{dim = 0, parent = #b}>>
  }
  func.func @total(%x: tensor<1024xf32, #l>) -> f32 attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<1024xf32, #l>) -> f32
    return %s : f32
  }
  func.func @total16(%x: tensor<16xf32, #l>) -> f32 attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<16xf32, #l>) -> f32
    return %s : f32
  }
  func.func @scan(%x: tensor<32x64xf32, #b>) -> tensor<32x64xf32, #b> attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.scan"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.reduce.return %c : f32
    }) {axis = 1 : i32} : (tensor<32x64xf32, #b>) -> tensor<32x64xf32, #b>
    return %s : tensor<32x64xf32, #b>
  }
  func.func @rscan(%x: tensor<32x64xf32, #b>) -> tensor<32x64xf32, #b> attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.scan"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.reduce.return %c : f32
    }) {axis = 0 : i32, reverse = true} : (tensor<32x64xf32, #b>) -> tensor<32x64xf32, #b>
    return %s : tensor<32x64xf32, #b>
  }
  func.func @lscan(%x: tensor<1024xf32, #l>) -> tensor<1024xf32, #l> attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.scan"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<1024xf32, #l>) -> tensor<1024xf32, #l>
    return %s : tensor<1024xf32, #l>
  }
  func.func @lrscan(%x: tensor<1024xf32, #l>) -> tensor<1024xf32, #l> attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.scan"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.reduce.return %c : f32
    }) {axis = 0 : i32, reverse = true} : (tensor<1024xf32, #l>) -> tensor<1024xf32, #l>
    return %s : tensor<1024xf32, #l>
  }
  func.func @scan16(%x: tensor<16xf32, #l>) -> tensor<16xf32, #l> attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.scan"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.reduce.return %c : f32
    }) {axis = 0 : i32} : (tensor<16xf32, #l>) -> tensor<16xf32, #l>
    return %s : tensor<16xf32, #l>
  }
  func.func @cscan(%x: tensor<32x64xf32, #c>) -> tensor<32x64xf32, #c> attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.scan"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.reduce.return %c : f32
    }) {axis = 1 : i32} : (tensor<32x64xf32, #c>) -> tensor<32x64xf32, #c>
    return %s : tensor<32x64xf32, #c>
  }
  func.func @first(%x: tensor<1024xf32, #l>) -> tensor<1024xf32, #l> attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.scan"(%x) ({
    ^bb0(%a: f32, %b: f32):
      tile.reduce.return %a : f32
    }) {axis = 0 : i32} : (tensor<1024xf32, #l>) -> tensor<1024xf32, #l>
    return %s : tensor<1024xf32, #l>
  }
  func.func @rlast(%x: tensor<1024xf32, #l>) -> tensor<1024xf32, #l> attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.scan"(%x) ({
    ^bb0(%a: f32, %b: f32):
      tile.reduce.return %b : f32
    }) {axis = 0 : i32, reverse = true} : (tensor<1024xf32, #l>) -> tensor<1024xf32, #l>
    return %s : tensor<1024xf32, #l>
  }
  func.func @dot(%a: tensor<32x64xf32, #b>, %bb: tensor<64x64xf32, #b>, %c: tensor<32x64xf32, #b>) -> tensor<32x64xf32, #b> attributes {"tilegpu.num-warps" = 4 : i32} {
    %d = tile.dot %a, %bb, %c : tensor<32x64xf32, #b> * tensor<64x64xf32, #b> -> tensor<32x64xf32, #b>
    return %d : tensor<32x64xf32, #b>
  }
  func.func @argmax(%x: tensor<32x64xf32, #c>, %i: tensor<32x64xi32, #c>) -> tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #c}>> attributes {"tilegpu.num-warps" = 4 : i32} {
    %mx:2 = "tile.reduce"(%x, %i) ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %a, %b : f32
      %eq = arith.cmpf oeq, %a, %b : f32
      %lt = arith.cmpi slt, %ai, %bi : i32
      %tie = arith.andi %eq, %lt : i1
      %pick = arith.ori %gt, %tie : i1
      %m = arith.select %pick, %a, %b : f32
      %j = arith.select %pick, %ai, %bi : i32
      tile.reduce.return %m, %j : f32, i32
    }) {axis = 1 : i32} : (tensor<32x64xf32, #c>, tensor<32x64xi32, #c>) -> (tensor<32xf32, #tilegpu.slice<{dim = 1, parent = #c}>>, tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #c}>>)
    return %mx#1 : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #c}>>
  }
  func.func @lsum(%x: tensor<4x64xi64, #b>) -> tensor<64xi64, #tilegpu.slice<{dim = 0, parent = #b}>> attributes {"tilegpu.num-warps" = 4 : i32} {
    %s = "tile.reduce"(%x) ({
    ^bb0(%a: i64, %b: i64):
      %c = arith.addi %a, %b : i64
      tile.reduce.return %c : i64
    }) {axis = 0 : i32} : (tensor<4x64xi64, #b>) -> tensor<64xi64, #tilegpu.slice<{dim = 0, parent = #b}>>
    return %s : tensor<64xi64, #tilegpu.slice<{dim = 0, parent = #b}>>
  }
  func.func @trans(%x: tensor<32x64xf32, #b>) -> tensor<64x32xf32, #b> attributes {"tilegpu.num-warps" = 4 : i32} {
    %t = tile.trans %x {order = array<i32: 1, 0>} : tensor<32x64xf32, #b> -> tensor<64x32xf32, #b>
    return %t : tensor<64x32xf32, #b>
  }
  func.func @htrans(%x: tensor<64x64xf16, #b>) -> tensor<64x64xf16, #b> attributes {"tilegpu.num-warps" = 4 : i32} {
    %t = tile.trans %x {order = array<i32: 1, 0>} : tensor<64x64xf16, #b> -> tensor<64x64xf16, #b>
    return %t : tensor<64x64xf16, #b>
  }
  func.func @convert(%x: tensor<32x64xf32, #b>) -> tensor<32x64xf32, #c> attributes {"tilegpu.num-warps" = 4 : i32} {
    %y = tilegpu.convert_layout %x : tensor<32x64xf32, #b> -> tensor<32x64xf32, #c>
    return %y : tensor<32x64xf32, #c>
  }
  func.func @hdot(%a: tensor<32x64xf16, #c>, %bb: tensor<64x64xf16, #b>, %acc: tensor<32x64xf32, #c>) -> tensor<32x64xf32, #c> attributes {"tilegpu.num-warps" = 4 : i32} {
    %d = tile.dot %a, %bb, %acc : tensor<32x64xf16, #c> * tensor<64x64xf16, #b> -> tensor<32x64xf32, #c>
    return %d : tensor<32x64xf32, #c>
  }
}

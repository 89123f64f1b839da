// RUN: tile-opt %s -test-print-register-footprint -split-input-file -verify-diagnostics -o /dev/null
// The register footprint: the most registers per thread that data tiles
// hold at once, plus 16 for scalars, and the blocks per SM it allows.

#b8 = #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// A loop carries an f32 accumulator (64 registers a thread) and loads an
// f16 tile (32): 64 + 32 + 16 = 112, so two blocks of 256 threads. The
// index, pointer and mask tiles and the extension cost nothing: they become
// offsets, predicates and per-element conversions.
// expected-remark @+1 {{registers = 112, blocks per SM = 2}}
func.func @carried_and_loaded(%x: !tile.ptr<f16>, %n: i32) attributes {tile.kernel, "tilegpu.num-warps" = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %step = arith.constant 16384 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16384xf32, #b8>
  %range = tile.make_range {end = 16384 : i32, start = 0 : i32} : tensor<16384xi32, #b8>
  %base = tile.splat %x : tensor<16384x!tile.ptr<f16>, #b8>
  %bound = tile.splat %n : tensor<16384xi32, #b8>
  // expected-remark @+1 {{register footprint peaks here}}
  %sum = scf.for %i = %c0 to %n step %step iter_args(%acc = %zero) -> (tensor<16384xf32, #b8>) : i32 {
    %off = tile.splat %i : tensor<16384xi32, #b8>
    %cols = arith.addi %off, %range : tensor<16384xi32, #b8>
    %ptrs = tile.addptr %base, %cols : tensor<16384x!tile.ptr<f16>, #b8>, tensor<16384xi32, #b8>
    %mask = arith.cmpi slt, %cols, %bound : tensor<16384xi32, #b8>
    %v = tile.load %ptrs mask %mask : (tensor<16384x!tile.ptr<f16>, #b8>, tensor<16384xi1, #b8>) -> tensor<16384xf16, #b8>
    %w = arith.extf %v : tensor<16384xf16, #b8> to tensor<16384xf32, #b8>
    %next = arith.addf %acc, %w : tensor<16384xf32, #b8>
    scf.yield %next : tensor<16384xf32, #b8>
  }
  return
}

// -----

#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// Two loaded tiles (8 registers each) added element by element into a
// store: 16 + 16 = 32, and 128 threads allow 16 blocks.
// expected-remark @+1 {{registers = 32, blocks per SM = 16}}
func.func @elementwise_into_store(%p: !tile.ptr<f32>) attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32} {
  %range = tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b4>
  %base = tile.splat %p : tensor<1024x!tile.ptr<f32>, #b4>
  %ptrs = tile.addptr %base, %range : tensor<1024x!tile.ptr<f32>, #b4>, tensor<1024xi32, #b4>
  %x = tile.load %ptrs : (tensor<1024x!tile.ptr<f32>, #b4>) -> tensor<1024xf32, #b4>
  %y = tile.load %ptrs : (tensor<1024x!tile.ptr<f32>, #b4>) -> tensor<1024xf32, #b4>
  %sum = arith.addf %x, %y : tensor<1024xf32, #b4>
  %out = arith.mulf %sum, %sum : tensor<1024xf32, #b4>
  tile.store %ptrs, %out : (tensor<1024x!tile.ptr<f32>, #b4>, tensor<1024xf32, #b4>) -> ()
  return
}

// -----

#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// A tile a reduction reads exists whole: the load (32 registers for 4096
// elements over 128 threads) and its exponential, which the reduction and
// the division both read, are live together at the exponential's
// reduction: 32 + 32 + 16 = 80, so 6 blocks.
// expected-remark @+1 {{registers = 80, blocks per SM = 6}}
func.func @reduction_keeps_tiles(%p: !tile.ptr<f32>) attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32} {
  %range = tile.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32, #b4>
  %base = tile.splat %p : tensor<4096x!tile.ptr<f32>, #b4>
  %ptrs = tile.addptr %base, %range : tensor<4096x!tile.ptr<f32>, #b4>, tensor<4096xi32, #b4>
  %x = tile.load %ptrs : (tensor<4096x!tile.ptr<f32>, #b4>) -> tensor<4096xf32, #b4>
  %e = math.exp %x : tensor<4096xf32, #b4>
  %s = tile.reduce(%e) axis = 0 : (tensor<4096xf32, #b4>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %a = arith.addf %l, %r : f32
    tile.reduce.return %a : f32
  }
  %d = tile.splat %s : tensor<4096xf32, #b4>
  %q = arith.divf %e, %d : tensor<4096xf32, #b4>
  %m = arith.addf %q, %x : tensor<4096xf32, #b4>
  tile.store %ptrs, %m : (tensor<4096x!tile.ptr<f32>, #b4>, tensor<4096xf32, #b4>) -> ()
  return
}

// -----

#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// Shared memory bounds the blocks too: 100000 bytes a block leave room for
// two of 228 KB.
// expected-remark @+1 {{registers = 20, blocks per SM = 2}}
func.func @shared_memory_bound(%p: !tile.ptr<f32>) attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32, tilegpu.shared_bytes = 100000 : i64} {
  %range = tile.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b4>
  %base = tile.splat %p : tensor<512x!tile.ptr<f32>, #b4>
  %ptrs = tile.addptr %base, %range : tensor<512x!tile.ptr<f32>, #b4>, tensor<512xi32, #b4>
  %x = tile.load %ptrs : (tensor<512x!tile.ptr<f32>, #b4>) -> tensor<512xf32, #b4>
  tile.store %ptrs, %x : (tensor<512x!tile.ptr<f32>, #b4>, tensor<512xf32, #b4>) -> ()
  return
}

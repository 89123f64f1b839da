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
// Shared memory bounds the blocks too: 60000 bytes a block (and 1 KB the
// driver reserves) leave room for two in sm_80's 164 KB.
// expected-remark @+1 {{registers = 20, blocks per SM = 2}}
func.func @shared_memory_bound(%p: !tile.ptr<f32>) attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32, tilegpu.shared_bytes = 60000 : i64} {
  %range = tile.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b4>
  %base = tile.splat %p : tensor<512x!tile.ptr<f32>, #b4>
  %ptrs = tile.addptr %base, %range : tensor<512x!tile.ptr<f32>, #b4>, tensor<512xi32, #b4>
  %x = tile.load %ptrs : (tensor<512x!tile.ptr<f32>, #b4>) -> tensor<512xf32, #b4>
  tile.store %ptrs, %x : (tensor<512x!tile.ptr<f32>, #b4>, tensor<512xf32, #b4>) -> ()
  return
}

// -----

#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// A chain of 48 squares into a store never exists whole (8 registers for the
// load, 16 for scalars), and the walk stays linear in the chain's length.
// expected-remark @+1 {{registers = 24, blocks per SM = 16}}
func.func @long_chain(%p: !tile.ptr<f32>) attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32} {
  %range = tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b4>
  %base = tile.splat %p : tensor<1024x!tile.ptr<f32>, #b4>
  %ptrs = tile.addptr %base, %range : tensor<1024x!tile.ptr<f32>, #b4>, tensor<1024xi32, #b4>
  %s0 = tile.load %ptrs : (tensor<1024x!tile.ptr<f32>, #b4>) -> tensor<1024xf32, #b4>
  %s1 = arith.mulf %s0, %s0 : tensor<1024xf32, #b4>
  %s2 = arith.mulf %s1, %s1 : tensor<1024xf32, #b4>
  %s3 = arith.mulf %s2, %s2 : tensor<1024xf32, #b4>
  %s4 = arith.mulf %s3, %s3 : tensor<1024xf32, #b4>
  %s5 = arith.mulf %s4, %s4 : tensor<1024xf32, #b4>
  %s6 = arith.mulf %s5, %s5 : tensor<1024xf32, #b4>
  %s7 = arith.mulf %s6, %s6 : tensor<1024xf32, #b4>
  %s8 = arith.mulf %s7, %s7 : tensor<1024xf32, #b4>
  %s9 = arith.mulf %s8, %s8 : tensor<1024xf32, #b4>
  %s10 = arith.mulf %s9, %s9 : tensor<1024xf32, #b4>
  %s11 = arith.mulf %s10, %s10 : tensor<1024xf32, #b4>
  %s12 = arith.mulf %s11, %s11 : tensor<1024xf32, #b4>
  %s13 = arith.mulf %s12, %s12 : tensor<1024xf32, #b4>
  %s14 = arith.mulf %s13, %s13 : tensor<1024xf32, #b4>
  %s15 = arith.mulf %s14, %s14 : tensor<1024xf32, #b4>
  %s16 = arith.mulf %s15, %s15 : tensor<1024xf32, #b4>
  %s17 = arith.mulf %s16, %s16 : tensor<1024xf32, #b4>
  %s18 = arith.mulf %s17, %s17 : tensor<1024xf32, #b4>
  %s19 = arith.mulf %s18, %s18 : tensor<1024xf32, #b4>
  %s20 = arith.mulf %s19, %s19 : tensor<1024xf32, #b4>
  %s21 = arith.mulf %s20, %s20 : tensor<1024xf32, #b4>
  %s22 = arith.mulf %s21, %s21 : tensor<1024xf32, #b4>
  %s23 = arith.mulf %s22, %s22 : tensor<1024xf32, #b4>
  %s24 = arith.mulf %s23, %s23 : tensor<1024xf32, #b4>
  %s25 = arith.mulf %s24, %s24 : tensor<1024xf32, #b4>
  %s26 = arith.mulf %s25, %s25 : tensor<1024xf32, #b4>
  %s27 = arith.mulf %s26, %s26 : tensor<1024xf32, #b4>
  %s28 = arith.mulf %s27, %s27 : tensor<1024xf32, #b4>
  %s29 = arith.mulf %s28, %s28 : tensor<1024xf32, #b4>
  %s30 = arith.mulf %s29, %s29 : tensor<1024xf32, #b4>
  %s31 = arith.mulf %s30, %s30 : tensor<1024xf32, #b4>
  %s32 = arith.mulf %s31, %s31 : tensor<1024xf32, #b4>
  %s33 = arith.mulf %s32, %s32 : tensor<1024xf32, #b4>
  %s34 = arith.mulf %s33, %s33 : tensor<1024xf32, #b4>
  %s35 = arith.mulf %s34, %s34 : tensor<1024xf32, #b4>
  %s36 = arith.mulf %s35, %s35 : tensor<1024xf32, #b4>
  %s37 = arith.mulf %s36, %s36 : tensor<1024xf32, #b4>
  %s38 = arith.mulf %s37, %s37 : tensor<1024xf32, #b4>
  %s39 = arith.mulf %s38, %s38 : tensor<1024xf32, #b4>
  %s40 = arith.mulf %s39, %s39 : tensor<1024xf32, #b4>
  %s41 = arith.mulf %s40, %s40 : tensor<1024xf32, #b4>
  %s42 = arith.mulf %s41, %s41 : tensor<1024xf32, #b4>
  %s43 = arith.mulf %s42, %s42 : tensor<1024xf32, #b4>
  %s44 = arith.mulf %s43, %s43 : tensor<1024xf32, #b4>
  %s45 = arith.mulf %s44, %s44 : tensor<1024xf32, #b4>
  %s46 = arith.mulf %s45, %s45 : tensor<1024xf32, #b4>
  %s47 = arith.mulf %s46, %s46 : tensor<1024xf32, #b4>
  %s48 = arith.mulf %s47, %s47 : tensor<1024xf32, #b4>
  tile.store %ptrs, %s48 : (tensor<1024x!tile.ptr<f32>, #b4>, tensor<1024xf32, #b4>) -> ()
  return
}

// -----

#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// A loaded tile (32 registers) that starts a loop's accumulator is counted
// once: as the loop's operand before it, as the body's argument inside it
// (32 + 32 for the loaded tile of each iteration + 16).
// expected-remark @+1 {{registers = 80, blocks per SM = 6}}
func.func @loaded_init(%p: !tile.ptr<f32>, %n: i32) attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %range = tile.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32, #b4>
  %base = tile.splat %p : tensor<4096x!tile.ptr<f32>, #b4>
  %ptrs = tile.addptr %base, %range : tensor<4096x!tile.ptr<f32>, #b4>, tensor<4096xi32, #b4>
  %init = tile.load %ptrs : (tensor<4096x!tile.ptr<f32>, #b4>) -> tensor<4096xf32, #b4>
  // expected-remark @+1 {{register footprint peaks here}}
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<4096xf32, #b4>) : i32 {
    %v = tile.load %ptrs : (tensor<4096x!tile.ptr<f32>, #b4>) -> tensor<4096xf32, #b4>
    %next = arith.addf %acc, %v : tensor<4096xf32, #b4>
    scf.yield %next : tensor<4096xf32, #b4>
  }
  tile.store %ptrs, %sum : (tensor<4096x!tile.ptr<f32>, #b4>, tensor<4096xf32, #b4>) -> ()
  return
}

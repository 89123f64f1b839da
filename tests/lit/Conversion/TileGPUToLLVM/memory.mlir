// RUN: tile-opt %s -convert-tilegpu-to-llvm -split-input-file | FileCheck %s
// Loads and stores become one predicated PTX instruction per vector.

#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @uniform_mask
  // CHECK-SAME: nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>
  func.func @uniform_mask(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32} {
    %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #b4>
    %ns = tile.splat %n : tensor<1024xi32, #b4>
    %m = arith.cmpi slt, %r, %ns : tensor<1024xi32, #b4>
    %xs = tile.splat %x : tensor<1024x!tile.ptr<f32>, #b4>
    %xp = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f32>, #b4>, tensor<1024xi32, #b4>
    // The mask is constant over each 4-element vector: one guard.
    // CHECK: llvm.inline_asm has_side_effects {{.*}}"{\0Amov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0A@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];\0A}", "=r,=r,=r,=r,l,b"
    // CHECK-SAME: -> !llvm.struct<(i32, i32, i32, i32)>
    %v = tile.load %xp mask %m : (tensor<1024x!tile.ptr<f32>, #b4>, tensor<1024xi1, #b4>) -> tensor<1024xf32, #b4>
    // CHECK: "{\0A@$5 st.global.v4.b32 [ $0 + 0 ], { $1, $2, $3, $4 };\0A}", "l,r,r,r,r,b"
    tile.store %xp, %v mask %m : (tensor<1024x!tile.ptr<f32>, #b4>, tensor<1024xf32, #b4>, tensor<1024xi1, #b4>) -> ()
    return
  }
}

// -----

#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @any_bound
  func.func @any_bound(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32} {
    %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #b4>
    %ns = tile.splat %n : tensor<1024xi32, #b4>
    %m = arith.cmpi slt, %r, %ns : tensor<1024xi32, #b4>
    %xs = tile.splat %x : tensor<1024x!tile.ptr<f32>, #b4>
    %xp = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f32>, #b4>, tensor<1024xi32, #b4>
    %other = arith.constant dense<1.5> : tensor<1024xf32, #b4>
    // The vector load runs where all four lanes are in bounds; single loads
    // cover a partial vector; masked-off elements take `other`.
    // CHECK: mov.pred %pall, $5;\0Aand.pred %pall, %pall, $6;\0Aand.pred %pall, %pall, $7;\0Aand.pred %pall, %pall, $8;\0Anot.pred %pnot, %pall;\0Amov.b32 $0, $9;
    // CHECK-SAME: @%pall ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];
    // CHECK-SAME: and.pred %pone, %pnot, $8;\0A@%pone ld.global.b32 $3, [ $4 + 12 ];
    // CHECK-SAME: "=r,=r,=r,=r,l,b,b,b,b,r,r,r,r"
    %v = tile.load %xp mask %m other %other : (tensor<1024x!tile.ptr<f32>, #b4>, tensor<1024xi1, #b4>, tensor<1024xf32, #b4>) -> tensor<1024xf32, #b4>
    // CHECK: @%pall st.global.v4.b32 [ $0 + 0 ], { $1, $2, $3, $4 };
    // CHECK-SAME: @%pone st.global.b32 [ $0 + 12 ], $4;
    tile.store %xp, %v mask %m : (tensor<1024x!tile.ptr<f32>, #b4>, tensor<1024xf32, #b4>, tensor<1024xi1, #b4>) -> ()
    return
  }
}

// -----

#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // A 64-element tile on 128 threads: threads 64..127 hold replicas and
  // must not store.
  // CHECK-LABEL: llvm.func @replicated_store
  func.func @replicated_store(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32} {
    %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #b1>
    %xs = tile.splat %x : tensor<64x!tile.ptr<f32>, #b1>
    %xp = tile.addptr %xs, %r : tensor<64x!tile.ptr<f32>, #b1>, tensor<64xi32, #b1>
    %v = arith.constant dense<2.0> : tensor<64xf32, #b1>
    // CHECK: %[[OWNER:.*]] = llvm.icmp "ult" %{{.*}}, %{{.*}} : i32
    // CHECK: llvm.inline_asm has_side_effects {{.*}}"{\0A@$2 st.global.b32 [ $0 + 0 ], $1;\0A}", "l,r,b" %{{.*}}, %{{.*}}, %[[OWNER]]
    tile.store %xp, %v : (tensor<64x!tile.ptr<f32>, #b1>, tensor<64xf32, #b1>) -> ()
    return
  }
}

// RUN: tile-opt %s -tilegpu-pipeline=target=sm_90 -canonicalize -tilegpu-allocate-shared-memory -convert-scf-to-cf -convert-tilegpu-to-llvm | FileCheck %s
// The pipelined loop in LLVM: local_alloc is the address of its slots in the
// shared-memory array; each thread's two 16-byte vectors of a slot are
// cp.async copies (cache global, the source size 0 where the mask is off);
// groups are committed and waited for with the NVVM ops; the dot reads its
// slots one K step at a time with ldmatrix, and the local_loads emit nothing.

// CHECK-LABEL: llvm.func @mm
// CHECK: %[[SHARED:.*]] = llvm.mlir.addressof @tilegpu_shared : !llvm.ptr<3>
// CHECK: %[[SIZE:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %[[SIZE]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-COUNT-3: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-COUNT-4: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: nvvm.barrier0
// CHECK-NOT: ldmatrix
// CHECK-COUNT-4: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK: nvvm.cp.async.wait.group 0

// K^T (a b tile running along K, order [0, 1]): its slots store it
// transposed, cp.async copies 16 bytes along K, and the dot reads it with
// ldmatrix.x4 without .trans (two per K step, like a).
// CHECK-LABEL: llvm.func @k_transposed
// CHECK-COUNT-2: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: .trans
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-COUNT-2: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK: nvvm.cp.async.commit.group
// CHECK-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: .trans
// CHECK: nvvm.cp.async.wait.group 0

#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #tilegpu.slice<{dim = 1, parent = #blocked1}>
#slice1 = #tilegpu.slice<{dim = 0, parent = #blocked}>
#slice2 = #tilegpu.slice<{dim = 1, parent = #blocked}>
#slice3 = #tilegpu.slice<{dim = 0, parent = #blocked1}>
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#bt = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#d = #tilegpu.slice<{dim = 1, parent = #bt}>
#n = #tilegpu.slice<{dim = 0, parent = #bt}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  func.func @mm(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg3: i32) attributes {tile.kernel, tile.num_stages = 3 : i32, tile.num_warps = 4 : i32, "tilegpu.num-warps" = 4 : i32} {
    %c31_i32 = arith.constant 31 : i32
    %cst = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %cst_0 = arith.constant dense<2048> : tensor<32x64xi32, #blocked>
    %cst_1 = arith.constant dense<32> : tensor<64x32xi32, #blocked1>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<64x32xf16, #blocked1>
    %c1_i32 = arith.constant 1 : i32
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %cst_4 = arith.constant dense<64> : tensor<32x1xi32, #blocked>
    %0 = tile.hint %arg3 {divisibility = array<i64: 16>} : i32
    %1 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #slice>
    %2 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #slice1>
    %3 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #slice2>
    %4 = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #slice3>
    %5 = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #slice2>
    %6 = tile.splat %arg0 : tensor<64x1x!tile.ptr<f16>, #blocked1>
    %7 = tile.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked1>
    %8 = tile.expand_dims %3 {axis = 1 : i32} : tensor<64xi32, #slice2> -> tensor<64x1xi32, #blocked>
    %9 = tile.splat %0 : tensor<64x1xi32, #blocked1>
    %10 = arith.muli %7, %9 : tensor<64x1xi32, #blocked1>
    %11 = tile.addptr %6, %10 : tensor<64x1x!tile.ptr<f16>, #blocked1>, tensor<64x1xi32, #blocked1>
    %12 = tile.broadcast %11 : tensor<64x1x!tile.ptr<f16>, #blocked1> -> tensor<64x32x!tile.ptr<f16>, #blocked1>
    %13 = tile.expand_dims %4 {axis = 0 : i32} : tensor<32xi32, #slice3> -> tensor<1x32xi32, #blocked1>
    %14 = tile.broadcast %13 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %15 = tile.addptr %12, %14 : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
    %16 = tile.splat %arg1 : tensor<32x1x!tile.ptr<f16>, #blocked>
    %17 = tile.expand_dims %5 {axis = 1 : i32} : tensor<32xi32, #slice2> -> tensor<32x1xi32, #blocked>
    %18 = arith.muli %17, %cst_4 : tensor<32x1xi32, #blocked>
    %19 = tile.addptr %16, %18 : tensor<32x1x!tile.ptr<f16>, #blocked>, tensor<32x1xi32, #blocked>
    %20 = tile.broadcast %19 : tensor<32x1x!tile.ptr<f16>, #blocked> -> tensor<32x64x!tile.ptr<f16>, #blocked>
    %21 = tile.expand_dims %2 {axis = 0 : i32} : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blocked>
    %22 = tile.broadcast %21 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %23 = tile.addptr %20, %22 : tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
    %24 = arith.addi %0, %c31_i32 : i32
    %25 = arith.divsi %24, %c32_i32 : i32
    %26:3 = scf.for %arg4 = %c0_i32 to %25 step %c1_i32 iter_args(%arg5 = %cst_3, %arg6 = %15, %arg7 = %23) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<32x64x!tile.ptr<f16>, #blocked>)  : i32 {
      %34 = arith.muli %arg4, %c32_i32 : i32
      %35 = arith.subi %0, %34 : i32
      %36 = tile.splat %35 : tensor<1x32xi32, #blocked1>
      %37 = arith.cmpi slt, %13, %36 : tensor<1x32xi32, #blocked1>
      %38 = tile.broadcast %37 : tensor<1x32xi1, #blocked1> -> tensor<64x32xi1, #blocked1>
      %39 = tile.load %arg6 mask %38 other %cst_2 : (tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi1, #blocked1>, tensor<64x32xf16, #blocked1>) -> tensor<64x32xf16, #blocked1>
      %40 = tile.load %arg7 : (tensor<32x64x!tile.ptr<f16>, #blocked>) -> tensor<32x64xf16, #blocked>
      %41 = tile.dot %39, %40, %arg5 : tensor<64x32xf16, #blocked1> * tensor<32x64xf16, #blocked> -> tensor<64x64xf32, #mma>
      %42 = tile.addptr %arg6, %cst_1 : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %43 = tile.addptr %arg7, %cst_0 : tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %41, %42, %43 : tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<32x64x!tile.ptr<f16>, #blocked>
    }
    %27 = tilegpu.convert_layout %26#0 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %28 = tile.splat %arg2 : tensor<64x1x!tile.ptr<f32>, #blocked>
    %29 = arith.muli %8, %cst : tensor<64x1xi32, #blocked>
    %30 = tile.addptr %28, %29 : tensor<64x1x!tile.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %31 = tile.broadcast %30 : tensor<64x1x!tile.ptr<f32>, #blocked> -> tensor<64x64x!tile.ptr<f32>, #blocked>
    %32 = tile.broadcast %21 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %33 = tile.addptr %31, %32 : tensor<64x64x!tile.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    tile.store %33, %27 : (tensor<64x64x!tile.ptr<f32>, #blocked>, tensor<64x64xf32, #blocked>) -> ()
    return
  }
  func.func @k_transposed(%q: tensor<64x32xf16, #blocked1>, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n_ctx: i32) -> tensor<64x64xf32, #mma> attributes {tile.num_stages = 3 : i32, "tilegpu.num-warps" = 4 : i32} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %row = arith.constant dense<32> : tensor<1x64xi32, #bt>
    %zero = arith.constant dense<0.000000e+00> : tensor<32x64xf16, #bt>
    %init = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %offs_d = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #d>
    %offs_n = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #n>
    %d2 = tile.expand_dims %offs_d {axis = 1 : i32} : tensor<32xi32, #d> -> tensor<32x1xi32, #bt>
    %d3 = tile.broadcast %d2 : tensor<32x1xi32, #bt> -> tensor<32x64xi32, #bt>
    %n2 = tile.expand_dims %offs_n {axis = 0 : i32} : tensor<64xi32, #n> -> tensor<1x64xi32, #bt>
    %base = tile.splat %k : tensor<32x64x!tile.ptr<f16>, #bt>
    %limit = tile.splat %n_ctx : tensor<1x64xi32, #bt>
    %r = scf.for %start = %c0 to %n_ctx step %c64 iter_args(%acc = %init) -> (tensor<64x64xf32, #mma>) : i32 {
      %s = tile.splat %start : tensor<1x64xi32, #bt>
      %cols = arith.addi %s, %n2 : tensor<1x64xi32, #bt>
      %rows = arith.muli %cols, %row : tensor<1x64xi32, #bt>
      %rows2 = tile.broadcast %rows : tensor<1x64xi32, #bt> -> tensor<32x64xi32, #bt>
      %p0 = tile.addptr %base, %rows2 : tensor<32x64x!tile.ptr<f16>, #bt>, tensor<32x64xi32, #bt>
      %p = tile.addptr %p0, %d3 : tensor<32x64x!tile.ptr<f16>, #bt>, tensor<32x64xi32, #bt>
      %in = arith.cmpi slt, %cols, %limit : tensor<1x64xi32, #bt>
      %m = tile.broadcast %in : tensor<1x64xi1, #bt> -> tensor<32x64xi1, #bt>
      %kt = tile.load %p mask %m other %zero : (tensor<32x64x!tile.ptr<f16>, #bt>, tensor<32x64xi1, #bt>, tensor<32x64xf16, #bt>) -> tensor<32x64xf16, #bt>
      %prod = tile.dot %q, %kt, %acc : tensor<64x32xf16, #blocked1> * tensor<32x64xf16, #bt> -> tensor<64x64xf32, #mma>
      scf.yield %prod : tensor<64x64xf32, #mma>
    }
    return %r : tensor<64x64xf32, #mma>
  }
}

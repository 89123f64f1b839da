// RUN: tile-opt %s -split-input-file -tilegpu-pipeline=target=sm_90 -canonicalize | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-pipeline=target=sm_75 | FileCheck %s --check-prefix=OLD
// RUN: tile-opt %s -split-input-file "-tilegpu-pipeline=target=sm_90 shared-memory-limit=20000" -canonicalize | FileCheck %s --check-prefix=SMALL
// The loads feeding a tensor-core dot in a loop become cp.async copies into
// num_stages slots, issued num_stages - 1 iterations ahead (with the mask
// and pointer arithmetic they need); each iteration waits for its slot,
// barriers, reads it, issues the copies ahead into the slot read last, then
// multiplies. Below sm_80 nothing changes; with too little shared memory for
// three stages (20000 bytes: the epilogue's conversion after the loop may
// reuse the slots' bytes), two are used (each iteration then waits for all
// of its copies).

// CHECK-LABEL: func.func @three_stages
// CHECK-DAG: %[[A:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<[3, 64, 32], f16, #tilegpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>>
// CHECK-DAG: %[[B:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<[3, 32, 64], f16, #tilegpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>
// Prologue: iterations 0 and 1 into slots 0 and 1, masked off past the end
// (the bound compared in 64 bits).
// CHECK: %[[N64:.*]] = arith.extsi %[[N:.*]] : i32 to i64
// CHECK: %[[IN0:.*]] = arith.cmpi sgt, %[[N64]], %c0_i64 : i64
// CHECK: %[[V0:.*]] = tile.splat %[[IN0]] : tensor<64x32xi1, #blocked1>
// CHECK: %[[M0:.*]] = arith.andi %{{.*}}, %[[V0]]
// CHECK: tilegpu.async_copy %{{.*}}, %[[A]][%c0_i32] mask %[[M0]] {vec = 8 : i32}
// CHECK: tilegpu.async_copy %{{.*}}, %[[B]][%c0_i32] mask %{{.*}} {vec = 8 : i32}
// CHECK: tilegpu.async_commit_group
// CHECK: arith.cmpi sgt, %{{.*}}, %c1_i64 : i64
// CHECK: tilegpu.async_copy %{{.*}}, %[[A]][%c1_i32]
// CHECK: tilegpu.async_copy %{{.*}}, %[[B]][%c1_i32]
// CHECK: tilegpu.async_commit_group
// CHECK: %[[LOOP:.*]]:4 = scf.for %[[IV:.*]] = %c0_i32 to %[[N]] step %c1_i32 iter_args(%[[ACC:.*]] = %{{.*}}, %[[PA:.*]] = %{{.*}}, %[[PB:.*]] = %{{.*}}, %[[SLOT:.*]] = %c0_i32)
// CHECK-NEXT: tilegpu.async_wait 1
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: %[[LA:.*]] = tilegpu.local_load %[[A]][%[[SLOT]]] : {{.*}} -> tensor<64x32xf16, #tilegpu.dot_op<{opIdx = 0, parent = #tilegpu.mma<{{.*}}>, kWidth = 2}>>
// CHECK-NEXT: %[[LB:.*]] = tilegpu.local_load %[[B]][%[[SLOT]]] : {{.*}} -> tensor<32x64xf16, #tilegpu.dot_op<{opIdx = 1, parent = #tilegpu.mma<{{.*}}>, kWidth = 2}>>
// CHECK: %[[SUM:.*]] = arith.addi %[[SLOT]], %c2_i32 : i32
// CHECK: %[[WRAPS:.*]] = arith.cmpi sge, %[[SUM]], %c3_i32 : i32
// CHECK: %[[WRITE:.*]] = arith.select %[[WRAPS]], %{{.*}}, %[[SUM]] : i32
// CHECK: %[[AHEAD:.*]] = arith.addi %[[IV]], %c2_i32 : i32
// CHECK: %[[IV64:.*]] = arith.extsi %[[IV]] : i32 to i64
// CHECK: %[[AHEAD64:.*]] = arith.addi %[[IV64]], %c2_i64 : i64
// CHECK: arith.cmpi slt, %[[AHEAD64]], %{{.*}} : i64
// CHECK: arith.muli %[[AHEAD]], %c32_i32 : i32
// CHECK: tilegpu.async_copy %[[PA]], %[[A]][%[[WRITE]]] mask
// CHECK: tilegpu.async_copy %[[PB]], %[[B]][%[[WRITE]]] mask
// CHECK: tilegpu.async_commit_group
// CHECK: %[[D:.*]] = tile.dot %[[LA]], %[[LB]], %[[ACC]]
// CHECK: scf.yield %[[D]], %{{.*}}, %{{.*}}, %{{.*}} : {{.*}}, i32
// CHECK: tilegpu.async_wait 0
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tilegpu.convert_layout %[[LOOP]]#0
// OLD-LABEL: func.func @three_stages
// OLD-NOT: tilegpu.async_copy
// SMALL-LABEL: func.func @three_stages
// SMALL: tilegpu.local_alloc : !tilegpu.memdesc<[2, 64, 32]
// SMALL: scf.for
// SMALL-NEXT: tilegpu.async_wait 0
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #tilegpu.slice<{dim = 1, parent = #blocked1}>
#slice1 = #tilegpu.slice<{dim = 0, parent = #blocked}>
#slice2 = #tilegpu.slice<{dim = 1, parent = #blocked}>
#slice3 = #tilegpu.slice<{dim = 0, parent = #blocked1}>
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  func.func @three_stages(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg3: i32) attributes {tile.kernel, tile.num_stages = 3 : i32, tile.num_warps = 4 : i32, "tilegpu.num-warps" = 4 : i32} {
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
}

// -----

// num_stages = 1: no pipelining.

// CHECK-LABEL: func.func @one_stage
// CHECK-NOT: tilegpu.local_alloc
// CHECK: tile.load
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #tilegpu.slice<{dim = 1, parent = #blocked1}>
#slice1 = #tilegpu.slice<{dim = 0, parent = #blocked}>
#slice2 = #tilegpu.slice<{dim = 1, parent = #blocked}>
#slice3 = #tilegpu.slice<{dim = 0, parent = #blocked1}>
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  func.func @one_stage(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg3: i32) attributes {tile.kernel, tile.num_stages = 1 : i32, tile.num_warps = 4 : i32, "tilegpu.num-warps" = 4 : i32} {
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
}

// -----

// A load whose masked-off elements are not zero keeps its tile.load; the
// other operand is still pipelined.

// CHECK-LABEL: func.func @other_not_zero
// CHECK-COUNT-1: tilegpu.local_alloc : !tilegpu.memdesc<[3, 32, 64]
// CHECK-NOT: tilegpu.local_alloc
// CHECK: scf.for
// CHECK: tilegpu.async_copy
// CHECK: tile.load %{{.*}} mask %{{.*}} other %{{.*}} :
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #tilegpu.slice<{dim = 1, parent = #blocked1}>
#slice1 = #tilegpu.slice<{dim = 0, parent = #blocked}>
#slice2 = #tilegpu.slice<{dim = 1, parent = #blocked}>
#slice3 = #tilegpu.slice<{dim = 0, parent = #blocked1}>
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  func.func @other_not_zero(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg3: i32) attributes {tile.kernel, tile.num_stages = 3 : i32, tile.num_warps = 4 : i32, "tilegpu.num-warps" = 4 : i32} {
    %c31_i32 = arith.constant 31 : i32
    %cst = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %cst_0 = arith.constant dense<2048> : tensor<32x64xi32, #blocked>
    %cst_1 = arith.constant dense<32> : tensor<64x32xi32, #blocked1>
    %cst_2 = arith.constant dense<1.000000e+00> : tensor<64x32xf16, #blocked1>
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
}

// -----

// The pointers of a are used after the loop: running them ahead would change
// that value, so the loop stays as it is.

// CHECK-LABEL: func.func @pointer_used_after
// CHECK-NOT: tilegpu.local_alloc
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #tilegpu.slice<{dim = 1, parent = #blocked1}>
#slice1 = #tilegpu.slice<{dim = 0, parent = #blocked}>
#slice2 = #tilegpu.slice<{dim = 1, parent = #blocked}>
#slice3 = #tilegpu.slice<{dim = 0, parent = #blocked1}>
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  func.func @pointer_used_after(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg3: i32) -> tensor<64x32x!tile.ptr<f16>, #blocked1> attributes {tile.kernel, tile.num_stages = 3 : i32, tile.num_warps = 4 : i32, "tilegpu.num-warps" = 4 : i32} {
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
    return %26#1 : tensor<64x32x!tile.ptr<f16>, #blocked1>
  }
}

// -----

// wgmma dots whose accumulator is only carried leave their group in flight
// into the next iteration: one more slot, so that the copies never target
// the slot the previous iteration's wgmma may still read; a proxy fence
// after the wait; wgmma_wait 1 after the dot, wgmma_wait 0 after the loop;
// the loop and that wait run under an scf.if on the loop having iterations
// (a path that skips the loop and reaches the wait, or a copy of the loop's
// results, would make ptxas serialize every wgmma).
// CHECK-LABEL: func.func @wgmma_in_flight
// CHECK-DAG: %[[A:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<[4, 64, 32]
// CHECK-DAG: %[[B:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<[4, 32, 64]
// CHECK: %[[RAN:.*]] = arith.cmpi sgt, %{{.*}}, %c0_i32 : i32
// CHECK-NEXT: %[[FINAL:.*]] = scf.if %[[RAN]]
// CHECK-NEXT: %[[LOOP:.*]]:4 = scf.for
// CHECK-NEXT: tilegpu.async_wait 1
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: tile.barrier
// CHECK: %[[SUM:.*]] = arith.addi %{{.*}}, %c2_i32 : i32
// CHECK: arith.cmpi sge, %[[SUM]], %c4_i32 : i32
// CHECK: %[[D:.*]] = tile.dot %{{.*}} {tilegpu.wgmma_async}
// CHECK-NEXT: %[[W:.*]] = tilegpu.wgmma_wait %[[D]], 1
// CHECK: scf.yield %[[W]]
// CHECK: %[[DONE:.*]] = tilegpu.wgmma_wait %[[LOOP]]#0, 0
// CHECK-NEXT: scf.yield %[[DONE]] :
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %{{.*}} :
// CHECK-NEXT: {{^ *[}]$}}
// CHECK-NEXT: tilegpu.async_wait 0
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tilegpu.convert_layout %[[FINAL]]
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #tilegpu.slice<{dim = 1, parent = #blocked1}>
#slice1 = #tilegpu.slice<{dim = 0, parent = #blocked}>
#slice2 = #tilegpu.slice<{dim = 1, parent = #blocked}>
#slice3 = #tilegpu.slice<{dim = 0, parent = #blocked1}>
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  func.func @wgmma_in_flight(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg3: i32) attributes {tile.kernel, tile.num_stages = 3 : i32, tile.num_warps = 4 : i32, "tilegpu.num-warps" = 4 : i32} {
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
  // The same loop, but the carried accumulator is also read after the dot
  // (a running sum of the previous products): a wait there would wait for
  // the group just issued, so the dot waits for its own group (3 slots).
  // CHECK-LABEL: func.func @wgmma_read_after_dot
  // CHECK: tilegpu.local_alloc : !tilegpu.memdesc<[3, 64, 32]
  // CHECK: scf.for
  // CHECK-NOT: tilegpu.wgmma_async
  // CHECK-NOT: tilegpu.wgmma_wait
  // CHECK: scf.yield
  func.func @wgmma_read_after_dot(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg3: i32) attributes {tile.kernel, tile.num_stages = 3 : i32, tile.num_warps = 4 : i32, "tilegpu.num-warps" = 4 : i32} {
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
    %26:4 = scf.for %arg4 = %c0_i32 to %25 step %c1_i32 iter_args(%arg5 = %cst_3, %arg6 = %15, %arg7 = %23, %arg8 = %cst_3) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<64x64xf32, #mma>)  : i32 {
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
      %44 = arith.addf %arg8, %arg5 : tensor<64x64xf32, #mma>
      scf.yield %41, %42, %43, %44 : tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<64x64xf32, #mma>
    }
    %sum = arith.addf %26#0, %26#3 : tensor<64x64xf32, #mma>
    %27 = tilegpu.convert_layout %sum : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %28 = tile.splat %arg2 : tensor<64x1x!tile.ptr<f32>, #blocked>
    %29 = arith.muli %8, %cst : tensor<64x1xi32, #blocked>
    %30 = tile.addptr %28, %29 : tensor<64x1x!tile.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %31 = tile.broadcast %30 : tensor<64x1x!tile.ptr<f32>, #blocked> -> tensor<64x64x!tile.ptr<f32>, #blocked>
    %32 = tile.broadcast %21 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %33 = tile.addptr %31, %32 : tensor<64x64x!tile.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    tile.store %33, %27 : (tensor<64x64x!tile.ptr<f32>, #blocked>, tensor<64x64xf32, #blocked>) -> ()
    return
  }
}

// -----

// K^T as in attention: the b tile [32, 64] is loaded from k rows of 32
// elements (kt[d, n] at k + n * 32 + d), contiguous along dimension 0 (K)
// in a layout with order [0, 1]. For mma.sync its copies run along K in
// 16-byte vectors (the mask is constant along K) into slots that store the
// tile transposed ([N, K]: 64-byte rows, order [0, 1]); the loop-invariant
// a stays where it is. The same loop with wgmma (version 3) is pipelined
// into the same transposed slots, which wgmma reads as a K-major b, behind
// a proxy fence.
// CHECK-LABEL: func.func @k_transposed
// CHECK: %[[KT:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<[3, 32, 64], f16, #tilegpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1]}>>
// CHECK: tilegpu.async_copy %{{.*}}, %[[KT]][%c0_i32] mask %{{.*}} {vec = 8 : i32} : tensor<32x64x!tile.ptr<f16>, #[[BT:blocked[0-9]*]]>
// CHECK: tilegpu.async_copy %{{.*}}, %[[KT]][%c1_i32] mask
// CHECK: scf.for
// CHECK: tilegpu.local_load %[[KT]][%{{.*}}] : {{.*}} -> tensor<32x64xf16, #tilegpu.dot_op<{opIdx = 1, parent = #tilegpu.mma<{version = 2, {{.*}}}>, kWidth = 2}>>
// CHECK: tilegpu.async_copy %{{.*}}, %[[KT]][%{{.*}}] mask %{{.*}} {vec = 8 : i32} : tensor<32x64x!tile.ptr<f16>, #[[BT]]>
// CHECK-NOT: tile.load
// CHECK: tile.dot
// CHECK-LABEL: func.func @k_transposed_wgmma
// CHECK: %[[KW:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<[3, 32, 64], f16, #tilegpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1]}>>
// CHECK: scf.for
// CHECK: tilegpu.fence_async_shared
// CHECK: tilegpu.local_load %[[KW]][%{{.*}}] : {{.*}} -> tensor<32x64xf16, #tilegpu.dot_op<{opIdx = 1, parent = #tilegpu.mma<{version = 3, {{.*}}}>, kWidth = 2}>>
// CHECK-NOT: tile.load
// CHECK: tile.dot
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#bt = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#d = #tilegpu.slice<{dim = 1, parent = #bt}>
#n = #tilegpu.slice<{dim = 0, parent = #bt}>
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#wgmma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  func.func @k_transposed(%q: tensor<64x32xf16, #a>, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n_ctx: i32) -> tensor<64x64xf32, #mma> attributes {tile.kernel, tile.num_stages = 3 : i32, "tilegpu.num-warps" = 4 : i32} {
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
      %prod = tile.dot %q, %kt, %acc : tensor<64x32xf16, #a> * tensor<32x64xf16, #bt> -> tensor<64x64xf32, #mma>
      scf.yield %prod : tensor<64x64xf32, #mma>
    }
    return %r : tensor<64x64xf32, #mma>
  }
  func.func @k_transposed_wgmma(%q: tensor<64x32xf16, #a>, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n_ctx: i32) -> tensor<64x64xf32, #wgmma> attributes {tile.kernel, tile.num_stages = 3 : i32, "tilegpu.num-warps" = 4 : i32} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %row = arith.constant dense<32> : tensor<1x64xi32, #bt>
    %zero = arith.constant dense<0.000000e+00> : tensor<32x64xf16, #bt>
    %init = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #wgmma>
    %offs_d = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #d>
    %offs_n = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #n>
    %d2 = tile.expand_dims %offs_d {axis = 1 : i32} : tensor<32xi32, #d> -> tensor<32x1xi32, #bt>
    %d3 = tile.broadcast %d2 : tensor<32x1xi32, #bt> -> tensor<32x64xi32, #bt>
    %n2 = tile.expand_dims %offs_n {axis = 0 : i32} : tensor<64xi32, #n> -> tensor<1x64xi32, #bt>
    %base = tile.splat %k : tensor<32x64x!tile.ptr<f16>, #bt>
    %limit = tile.splat %n_ctx : tensor<1x64xi32, #bt>
    %r = scf.for %start = %c0 to %n_ctx step %c64 iter_args(%acc = %init) -> (tensor<64x64xf32, #wgmma>) : i32 {
      %s = tile.splat %start : tensor<1x64xi32, #bt>
      %cols = arith.addi %s, %n2 : tensor<1x64xi32, #bt>
      %rows = arith.muli %cols, %row : tensor<1x64xi32, #bt>
      %rows2 = tile.broadcast %rows : tensor<1x64xi32, #bt> -> tensor<32x64xi32, #bt>
      %p0 = tile.addptr %base, %rows2 : tensor<32x64x!tile.ptr<f16>, #bt>, tensor<32x64xi32, #bt>
      %p = tile.addptr %p0, %d3 : tensor<32x64x!tile.ptr<f16>, #bt>, tensor<32x64xi32, #bt>
      %in = arith.cmpi slt, %cols, %limit : tensor<1x64xi32, #bt>
      %m = tile.broadcast %in : tensor<1x64xi1, #bt> -> tensor<32x64xi1, #bt>
      %kt = tile.load %p mask %m other %zero : (tensor<32x64x!tile.ptr<f16>, #bt>, tensor<32x64xi1, #bt>, tensor<32x64xf16, #bt>) -> tensor<32x64xf16, #bt>
      %prod = tile.dot %q, %kt, %acc : tensor<64x32xf16, #a> * tensor<32x64xf16, #bt> -> tensor<64x64xf32, #wgmma>
      scf.yield %prod : tensor<64x64xf32, #wgmma>
    }
    return %r : tensor<64x64xf32, #wgmma>
  }
}

// -----

// Flash attention on wgmma whose tiles leave room for two programs per SM
// (about 72 of 256 registers per thread): q k^T (q in registers, k^T from
// transposed slots) and p v (p in registers, v from a slot) both wait for
// their groups; 3 slots for 3 stages.
// CHECK-LABEL: func.func @attention_wgmma
// CHECK: tilegpu.local_alloc : !tilegpu.memdesc<[3, 32, 64], f16, {{.*}}order = [0, 1]}>>
// CHECK: tilegpu.local_alloc : !tilegpu.memdesc<[3, 64, 32], f16, {{.*}}order = [1, 0]}>>
// CHECK: scf.for
// CHECK-NOT: tilegpu.wgmma_wait
// CHECK-NOT: tilegpu.wgmma_async
// CHECK: return
#bt = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#bv = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #tilegpu.slice<{dim = 1, parent = #bt}>
#n = #tilegpu.slice<{dim = 0, parent = #bt}>
#vn = #tilegpu.slice<{dim = 1, parent = #bv}>
#vd = #tilegpu.slice<{dim = 0, parent = #bv}>
#wgmma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#qa = #tilegpu.dot_op<{opIdx = 0, parent = #wgmma, kWidth = 2}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  func.func @attention_wgmma(%q: tensor<64x32xf16, #qa>, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %v: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n_ctx: i32) -> tensor<64x32xf32, #wgmma> attributes {tile.kernel, tile.num_stages = 3 : i32, "tilegpu.num-warps" = 4 : i32} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %row = arith.constant dense<32> : tensor<1x64xi32, #bt>
    %vrow = arith.constant dense<32> : tensor<64x1xi32, #bv>
    %two = arith.constant dense<2.000000e+00> : tensor<64x32xf32, #wgmma>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #wgmma>
    %init = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #wgmma>
    %offs_d = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #d>
    %offs_n = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #n>
    %d2 = tile.expand_dims %offs_d {axis = 1 : i32} : tensor<32xi32, #d> -> tensor<32x1xi32, #bt>
    %d3 = tile.broadcast %d2 : tensor<32x1xi32, #bt> -> tensor<32x64xi32, #bt>
    %n2 = tile.expand_dims %offs_n {axis = 0 : i32} : tensor<64xi32, #n> -> tensor<1x64xi32, #bt>
    %kbase = tile.splat %k : tensor<32x64x!tile.ptr<f16>, #bt>
    %vn_r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #vn>
    %vd_r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #vd>
    %vn2 = tile.expand_dims %vn_r {axis = 1 : i32} : tensor<64xi32, #vn> -> tensor<64x1xi32, #bv>
    %vd2 = tile.expand_dims %vd_r {axis = 0 : i32} : tensor<32xi32, #vd> -> tensor<1x32xi32, #bv>
    %vd3 = tile.broadcast %vd2 : tensor<1x32xi32, #bv> -> tensor<64x32xi32, #bv>
    %vbase = tile.splat %v : tensor<64x32x!tile.ptr<f16>, #bv>
    %r = scf.for %start = %c0 to %n_ctx step %c64 iter_args(%acc = %init) -> (tensor<64x32xf32, #wgmma>) : i32 {
      %s = tile.splat %start : tensor<1x64xi32, #bt>
      %cols = arith.addi %s, %n2 : tensor<1x64xi32, #bt>
      %rows = arith.muli %cols, %row : tensor<1x64xi32, #bt>
      %rows2 = tile.broadcast %rows : tensor<1x64xi32, #bt> -> tensor<32x64xi32, #bt>
      %p0 = tile.addptr %kbase, %rows2 : tensor<32x64x!tile.ptr<f16>, #bt>, tensor<32x64xi32, #bt>
      %kp = tile.addptr %p0, %d3 : tensor<32x64x!tile.ptr<f16>, #bt>, tensor<32x64xi32, #bt>
      %kt = tile.load %kp : (tensor<32x64x!tile.ptr<f16>, #bt>) -> tensor<32x64xf16, #bt>
      %sc = tile.dot %q, %kt, %zero : tensor<64x32xf16, #qa> * tensor<32x64xf16, #bt> -> tensor<64x64xf32, #wgmma>
      %p = arith.truncf %sc : tensor<64x64xf32, #wgmma> to tensor<64x64xf16, #wgmma>
      %pa = tilegpu.convert_layout %p : tensor<64x64xf16, #wgmma> -> tensor<64x64xf16, #tilegpu.dot_op<{opIdx = 0, parent = #wgmma, kWidth = 2}>>
      %vs = tile.splat %start : tensor<64x1xi32, #bv>
      %vrows = arith.addi %vs, %vn2 : tensor<64x1xi32, #bv>
      %voffs = arith.muli %vrows, %vrow : tensor<64x1xi32, #bv>
      %voffs2 = tile.broadcast %voffs : tensor<64x1xi32, #bv> -> tensor<64x32xi32, #bv>
      %vp0 = tile.addptr %vbase, %voffs2 : tensor<64x32x!tile.ptr<f16>, #bv>, tensor<64x32xi32, #bv>
      %vp = tile.addptr %vp0, %vd3 : tensor<64x32x!tile.ptr<f16>, #bv>, tensor<64x32xi32, #bv>
      %vt = tile.load %vp : (tensor<64x32x!tile.ptr<f16>, #bv>) -> tensor<64x32xf16, #bv>
      %scaled = arith.mulf %acc, %two : tensor<64x32xf32, #wgmma>
      %o = tile.dot %pa, %vt, %scaled : tensor<64x64xf16, #tilegpu.dot_op<{opIdx = 0, parent = #wgmma, kWidth = 2}>> * tensor<64x32xf16, #bv> -> tensor<64x32xf32, #wgmma>
      scf.yield %o : tensor<64x32xf32, #wgmma>
    }
    return %r : tensor<64x32xf32, #wgmma>
  }
}

// -----

// Flash attention on wgmma with head dim 128 on 8 warps, whose tiles need
// more registers than two programs per SM leave (about 144 of 128): s = q k^T (q in registers, k^T from transposed
// slots) waits for its own group, which also retires the previous
// iteration's p v; acc = p v + acc * 2 reads p from registers and v from a
// slot and is only carried, so its group stays in flight (4 slots for 3
// stages). The carried accumulator is waited for where it is first read
// (the scaling, after s), not at the top of the body.
// CHECK-LABEL: func.func @attention_wgmma_d128
// CHECK: tilegpu.local_alloc : !tilegpu.memdesc<[4, 128, 64], f16, {{.*}}order = [0, 1]}>>
// CHECK: tilegpu.local_alloc : !tilegpu.memdesc<[4, 64, 128], f16, {{.*}}order = [1, 0]}>>
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK-NOT: tilegpu.wgmma_wait
// CHECK: %[[S:.*]] = tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x128xf16, #tilegpu.dot_op
// CHECK-NOT: {tilegpu.wgmma_async}
// CHECK: %[[W0:.*]] = tilegpu.wgmma_wait %[[ACC]], 0
// CHECK: arith.mulf %[[W0]]
// CHECK: %[[O:.*]] = tile.dot %{{.*}} {tilegpu.wgmma_async}
// CHECK-NEXT: %[[W1:.*]] = tilegpu.wgmma_wait %[[O]], 1
// CHECK: scf.yield %[[W1]], %{{.*}}
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.wgmma_wait %[[LOOP]]#0, 0
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
#bt = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 8], order = [0, 1]}>
#bv = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#d = #tilegpu.slice<{dim = 1, parent = #bt}>
#n = #tilegpu.slice<{dim = 0, parent = #bt}>
#vn = #tilegpu.slice<{dim = 1, parent = #bv}>
#vd = #tilegpu.slice<{dim = 0, parent = #bv}>
#wgmma = #tilegpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 8]}>
#qa = #tilegpu.dot_op<{opIdx = 0, parent = #wgmma, kWidth = 2}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  func.func @attention_wgmma_d128(%q: tensor<128x128xf16, #qa>, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %v: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n_ctx: i32) -> tensor<128x128xf32, #wgmma> attributes {tile.kernel, tile.num_stages = 3 : i32, "tilegpu.num-warps" = 8 : i32} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %row = arith.constant dense<128> : tensor<1x64xi32, #bt>
    %vrow = arith.constant dense<128> : tensor<64x1xi32, #bv>
    %two = arith.constant dense<2.000000e+00> : tensor<128x128xf32, #wgmma>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #wgmma>
    %init = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #wgmma>
    %offs_d = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #d>
    %offs_n = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #n>
    %d2 = tile.expand_dims %offs_d {axis = 1 : i32} : tensor<128xi32, #d> -> tensor<128x1xi32, #bt>
    %d3 = tile.broadcast %d2 : tensor<128x1xi32, #bt> -> tensor<128x64xi32, #bt>
    %n2 = tile.expand_dims %offs_n {axis = 0 : i32} : tensor<64xi32, #n> -> tensor<1x64xi32, #bt>
    %kbase = tile.splat %k : tensor<128x64x!tile.ptr<f16>, #bt>
    %vn_r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #vn>
    %vd_r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #vd>
    %vn2 = tile.expand_dims %vn_r {axis = 1 : i32} : tensor<64xi32, #vn> -> tensor<64x1xi32, #bv>
    %vd2 = tile.expand_dims %vd_r {axis = 0 : i32} : tensor<128xi32, #vd> -> tensor<1x128xi32, #bv>
    %vd3 = tile.broadcast %vd2 : tensor<1x128xi32, #bv> -> tensor<64x128xi32, #bv>
    %vbase = tile.splat %v : tensor<64x128x!tile.ptr<f16>, #bv>
    %r = scf.for %start = %c0 to %n_ctx step %c64 iter_args(%acc = %init) -> (tensor<128x128xf32, #wgmma>) : i32 {
      %s = tile.splat %start : tensor<1x64xi32, #bt>
      %cols = arith.addi %s, %n2 : tensor<1x64xi32, #bt>
      %rows = arith.muli %cols, %row : tensor<1x64xi32, #bt>
      %rows2 = tile.broadcast %rows : tensor<1x64xi32, #bt> -> tensor<128x64xi32, #bt>
      %p0 = tile.addptr %kbase, %rows2 : tensor<128x64x!tile.ptr<f16>, #bt>, tensor<128x64xi32, #bt>
      %kp = tile.addptr %p0, %d3 : tensor<128x64x!tile.ptr<f16>, #bt>, tensor<128x64xi32, #bt>
      %kt = tile.load %kp : (tensor<128x64x!tile.ptr<f16>, #bt>) -> tensor<128x64xf16, #bt>
      %sc = tile.dot %q, %kt, %zero : tensor<128x128xf16, #qa> * tensor<128x64xf16, #bt> -> tensor<128x64xf32, #wgmma>
      %p = arith.truncf %sc : tensor<128x64xf32, #wgmma> to tensor<128x64xf16, #wgmma>
      %pa = tilegpu.convert_layout %p : tensor<128x64xf16, #wgmma> -> tensor<128x64xf16, #tilegpu.dot_op<{opIdx = 0, parent = #wgmma, kWidth = 2}>>
      %vs = tile.splat %start : tensor<64x1xi32, #bv>
      %vrows = arith.addi %vs, %vn2 : tensor<64x1xi32, #bv>
      %voffs = arith.muli %vrows, %vrow : tensor<64x1xi32, #bv>
      %voffs2 = tile.broadcast %voffs : tensor<64x1xi32, #bv> -> tensor<64x128xi32, #bv>
      %vp0 = tile.addptr %vbase, %voffs2 : tensor<64x128x!tile.ptr<f16>, #bv>, tensor<64x128xi32, #bv>
      %vp = tile.addptr %vp0, %vd3 : tensor<64x128x!tile.ptr<f16>, #bv>, tensor<64x128xi32, #bv>
      %vt = tile.load %vp : (tensor<64x128x!tile.ptr<f16>, #bv>) -> tensor<64x128xf16, #bv>
      %scaled = arith.mulf %acc, %two : tensor<128x128xf32, #wgmma>
      %o = tile.dot %pa, %vt, %scaled : tensor<128x64xf16, #tilegpu.dot_op<{opIdx = 0, parent = #wgmma, kWidth = 2}>> * tensor<64x128xf16, #bv> -> tensor<128x128xf32, #wgmma>
      scf.yield %o : tensor<128x128xf32, #wgmma>
    }
    return %r : tensor<128x128xf32, #wgmma>
  }
}

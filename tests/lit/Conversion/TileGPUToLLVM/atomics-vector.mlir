// RUN: tile-opt %s -tilegpu-allocate-shared-memory -convert-tilegpu-to-llvm="target=sm_90a" | FileCheck %s
// RUN: tile-opt %s -tilegpu-allocate-shared-memory -convert-tilegpu-to-llvm="target=sm_80" | FileCheck %s --check-prefix=SM80
// On sm_90 an fp32 add along a thread's run of 4 contiguous elements whose
// address is 16-byte aligned is one .v4.f32 atomic (and the kernel asks for
// PTX 8.1), masked or not when the mask is one value per run; a run of 2 is
// one .v2.f32. Other kinds and targets stay one atomic per element.

#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @adds
  // CHECK-SAME: passthrough = {{.*}}["tilec-min-ptx", "81"]
  func.func @adds(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %c: i1) attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32} {
    %r = tile.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #b>
    %ps = tile.splat %p : tensor<512x!tile.ptr<f32>, #b>
    %pp = tile.addptr %ps, %r : tensor<512x!tile.ptr<f32>, #b>, tensor<512xi32, #b>
    %f = arith.sitofp %r : tensor<512xi32, #b> to tensor<512xf32, #b>
    // CHECK: "{\0Amov.b32 $0, 0;\0Amov.b32 $1, 0;\0Amov.b32 $2, 0;\0Amov.b32 $3, 0;\0Aatom.acq_rel.gpu.global.add.v4.f32 {$0, $1, $2, $3}, [ $4 ], {$5, $6, $7, $8};\0A}", "=r,=r,=r,=r,l,r,r,r,r"
    // CHECK-NOT: atom.acq_rel.gpu.global.add.f32
    %a0 = tile.atomic_rmw add %pp, %f : (tensor<512x!tile.ptr<f32>, #b>, tensor<512xf32, #b>) -> tensor<512xf32, #b>
    %m = tile.splat %c : tensor<512xi1, #b>
    // CHECK: @$9 atom.acq_rel.gpu.global.add.v4.f32 {$0, $1, $2, $3}, [ $4 ], {$5, $6, $7, $8};\0A}", "=r,=r,=r,=r,l,r,r,r,r,b"
    %a1 = tile.atomic_rmw add %pp, %a0 mask %m : (tensor<512x!tile.ptr<f32>, #b>, tensor<512xf32, #b>, tensor<512xi1, #b>) -> tensor<512xf32, #b>
    %r2 = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #b2>
    %ps2 = tile.splat %p : tensor<256x!tile.ptr<f32>, #b2>
    %pp2 = tile.addptr %ps2, %r2 : tensor<256x!tile.ptr<f32>, #b2>, tensor<256xi32, #b2>
    %f2 = arith.sitofp %r2 : tensor<256xi32, #b2> to tensor<256xf32, #b2>
    // CHECK: atom.acq_rel.gpu.global.add.v2.f32 {$0, $1}, [ $2 ], {$3, $4};
    %a3 = tile.atomic_rmw add %pp2, %f2 : (tensor<256x!tile.ptr<f32>, #b2>, tensor<256xf32, #b2>) -> tensor<256xf32, #b2>
    // CHECK: atom.acq_rel.gpu.global.max.s32
    %a2 = tile.atomic_rmw max %pp, %a1 : (tensor<512x!tile.ptr<f32>, #b>, tensor<512xf32, #b>) -> tensor<512xf32, #b>
    return
  }
}

// SM80-LABEL: llvm.func @adds
// SM80-NOT: tilec-min-ptx
// SM80-NOT: .v4.f32
// SM80: atom.acq_rel.gpu.global.add.f32 $0, [ $1 ], $2;
// SM80-NOT: .v2.f32

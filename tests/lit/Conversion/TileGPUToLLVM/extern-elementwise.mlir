// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// tile.extern_elementwise calls its libdevice symbol once per element a
// thread holds (two here), or once on scalars.

#blocked = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-DAG: llvm.func @__nv_powif(f32, i32) -> f32
  // CHECK-DAG: llvm.func @__nv_fast_expf(f32) -> f32
  // CHECK-LABEL: llvm.func @calls
  func.func @calls(%x: tensor<64xf32, #blocked>, %n: tensor<64xi32, #blocked>, %s: f32) -> f32 attributes {"tilegpu.num-warps" = 1 : i32} {
    // CHECK-COUNT-2: llvm.call @__nv_powif(%{{.*}}, %{{.*}}) : (f32, i32) -> f32
    // CHECK-NOT: llvm.call @__nv_powif
    %0 = tile.extern_elementwise "__nv_powif"(%x, %n) : (tensor<64xf32, #blocked>, tensor<64xi32, #blocked>) -> tensor<64xf32, #blocked>
    // CHECK: llvm.call @__nv_fast_expf(%{{.*}}) : (f32) -> f32
    %1 = tile.extern_elementwise "__nv_fast_expf"(%s) : (f32) -> f32
    return %1 : f32
  }
}

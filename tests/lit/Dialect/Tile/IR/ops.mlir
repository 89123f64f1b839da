// RUN: tile-opt %s | tile-opt | FileCheck %s
// Every tile op prints and parses back to itself.

// CHECK-LABEL: func.func @all_ops
func.func @all_ops(%p: !tile.ptr<f32>, %n: i32) {
  // CHECK: tile.program_id 1 : i32
  %pid = tile.program_id 1 : i32
  // CHECK: tile.num_programs 2 : i32
  %np = tile.num_programs 2 : i32
  // CHECK: tile.make_range {end = 136 : i32, start = 8 : i32} : tensor<128xi32>
  %r = tile.make_range {start = 8 : i32, end = 136 : i32} : tensor<128xi32>
  // CHECK: tile.splat %{{.*}} : tensor<128x!tile.ptr<f32>>
  %ps = tile.splat %p : tensor<128x!tile.ptr<f32>>
  // CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %ptrs = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %ns = tile.splat %n : tensor<128xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<128xi32>
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  // CHECK: tile.load %{{.*}} mask %{{.*}} other %{{.*}} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
  %v = tile.load %ptrs mask %m other %zero : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
  // CHECK: tile.load %{{.*}} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %w = tile.load %ptrs : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  // CHECK: tile.store %{{.*}}, %{{.*}} mask %{{.*}} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
  tile.store %ptrs, %v mask %m : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
  // CHECK: tile.load %{{.*}} : (!tile.ptr<f32>) -> f32
  %s = tile.load %p : (!tile.ptr<f32>) -> f32
  // CHECK: tile.expand_dims %{{.*}} {axis = 0 : i32} : tensor<128xf32> -> tensor<1x128xf32>
  %e = tile.expand_dims %w {axis = 0 : i32} : tensor<128xf32> -> tensor<1x128xf32>
  // CHECK: tile.broadcast %{{.*}} : tensor<1x128xf32> -> tensor<4x128xf32>
  %b = tile.broadcast %e : tensor<1x128xf32> -> tensor<4x128xf32>
  return
}

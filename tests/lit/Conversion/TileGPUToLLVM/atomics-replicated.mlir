// RUN: tile-opt %s -tilegpu-allocate-shared-memory -convert-tilegpu-to-llvm | FileCheck %s
// A 16-element atomic over 128 threads: only the owner of each element runs
// the atomic; when the old values are used, owners store them to scratch at
// the element's linear index and every thread (replicas included) reads its
// elements back after a barrier. Unused old values need no scratch.

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @used
  func.func @used(%q: !tile.ptr<i32>) attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32} {
    %r = tile.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32, #b>
    %qs = tile.splat %q : tensor<16x!tile.ptr<i32>, #b>
    %qp = tile.addptr %qs, %r : tensor<16x!tile.ptr<i32>, #b>, tensor<16xi32, #b>
    // CHECK: %[[OWNER:.*]] = llvm.icmp "ult"
    // CHECK: atom.acq_rel.gpu.global.add.u32{{.*}}%[[OWNER]]
    // CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
    // CHECK: "@$2 st.b32 [ $0 ], $1;", "l,r,b" %{{.*}}, %{{.*}}, %[[OWNER]]
    // CHECK: nvvm.barrier0
    // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
    %old = tile.atomic_rmw add %qp, %r : (tensor<16x!tile.ptr<i32>, #b>, tensor<16xi32, #b>) -> tensor<16xi32, #b>
    tile.store %qp, %old : (tensor<16x!tile.ptr<i32>, #b>, tensor<16xi32, #b>) -> ()
    return
  }
  // CHECK-LABEL: llvm.func @unused
  // CHECK: atom.acq_rel.gpu.global.add.u32
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  func.func @unused(%q: !tile.ptr<i32>) attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32} {
    %r = tile.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32, #b>
    %qs = tile.splat %q : tensor<16x!tile.ptr<i32>, #b>
    %qp = tile.addptr %qs, %r : tensor<16x!tile.ptr<i32>, #b>, tensor<16xi32, #b>
    %old = tile.atomic_rmw add %qp, %r : (tensor<16x!tile.ptr<i32>, #b>, tensor<16xi32, #b>) -> tensor<16xi32, #b>
    return
  }
}

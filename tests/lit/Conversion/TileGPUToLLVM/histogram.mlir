// RUN: tile-opt %s -tilegpu-allocate-shared-memory -convert-tilegpu-to-llvm | FileCheck %s
// tl.histogram counts in the op's scratch, 4 bytes per bin: the bins are
// zeroed (every thread its share, modulo the bins), a barrier, each enabled
// element in range adds 1 to its bin with red.shared.add (an unsigned
// compare leaves negative values out; only the owner of a replicated element
// counts it), a barrier, and each result element is its bin.

#src = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#bins = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @counts
  // CHECK-SAME: "tilec-shared-bytes", "2048"
  // CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK: %[[LIMIT:.*]] = llvm.mlir.constant(512 : i32) : i32
  // CHECK: llvm.icmp "ult" %{{.*}}, %[[LIMIT]] : i32
  // CHECK: llvm.and
  // CHECK: red.shared.add.u32
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  func.func @counts(%x: tensor<128xi32, #src>, %m: tensor<128xi1, #src>) -> tensor<512xi32, #bins> attributes {"tilegpu.num-warps" = 4 : i32} {
    %h = tile.histogram %x mask %m : tensor<128xi32, #src>, tensor<128xi1, #src> -> tensor<512xi32, #bins>
    return %h : tensor<512xi32, #bins>
  }

  // 32 elements on 128 threads: four threads hold each, one counts it.
  // CHECK-LABEL: llvm.func @replicated
  // CHECK: llvm.icmp "ult"
  // CHECK: llvm.and
  // CHECK: red.shared.add.u32
  func.func @replicated(%x: tensor<32xi32, #src>) -> tensor<32xi32, #src> attributes {"tilegpu.num-warps" = 4 : i32} {
    %h = tile.histogram %x : tensor<32xi32, #src> -> tensor<32xi32, #src>
    return %h : tensor<32xi32, #src>
  }
}

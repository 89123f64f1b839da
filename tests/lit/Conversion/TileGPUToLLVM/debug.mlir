// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// device_print: one vprintf per owned element (pid, index, prefix, value),
// scalars once from thread 0, '%' in the prefix escaped; device_assert calls
// __assertfail with the op's file and line when an owned element is false.

#l = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-DAG: llvm.mlir.global internal constant @printf_format_0("pid (%d, %d, %d) idx (%d) r = %d\0A\00")
  // CHECK-DAG: llvm.mlir.global internal constant @printf_format_1("pid (%d, %d, %d) scalars: (operand 0) %d (operand 1) %f (operand 2) %f\0A\00")
  // CHECK-DAG: llvm.mlir.global internal constant @printf_format_2("pid (%d, %d, %d) 100%% done\0A\00")
  // CHECK-DAG: llvm.mlir.global internal constant @printf_format_3("pid (%d, %d, %d) idx (%d) h 0x%x\0A\00")
  // CHECK-DAG: llvm.mlir.global internal constant @assert_message_0("k.tile:12: device_assert failed: r < 50\00")
  // CHECK-DAG: llvm.mlir.global internal constant @assert_file_0("k.tile\00")
  // CHECK-DAG: llvm.mlir.global internal constant @assert_function_0("dbg\00")
  // CHECK-DAG: llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
  // CHECK-DAG: llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64)
  // CHECK-LABEL: llvm.func @dbg
  // The argument buffers are static stack slots in the entry block.
  // CHECK-DAG: llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32, i32, i32)>
  // CHECK-DAG: llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32, i32, f64, f64)>
  // CHECK-DAG: llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32)>
  func.func @dbg(%x: i32, %f: f32, %h: f16) attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32} {
    // 64 elements over 128 threads: only owners print.
    // CHECK: nvvm.read.ptx.sreg.ctaid.x
    // CHECK: %[[OWNER:.*]] = llvm.icmp "ult"
    // CHECK: llvm.cond_br %[[OWNER]]
    // CHECK: llvm.call @vprintf
    %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #l>
    tile.print "r = " %r : tensor<64xi32, #l>
    // Scalars: f32 and f16 widened to double, thread 0 only.
    // CHECK: llvm.fpext %{{.*}} : f32 to f64
    // CHECK: llvm.fpext %{{.*}} : f16 to f64
    // CHECK: %[[T0:.*]] = llvm.icmp "eq"
    // CHECK: llvm.cond_br %[[T0]]
    // CHECK: llvm.call @vprintf
    tile.print "scalars: " %x, %f, %h : i32, f32, f16
    // CHECK: llvm.call @vprintf
    tile.print "100% done"
    tile.print "h " {hex = true} %r : tensor<64xi32, #l>
    %c = arith.constant dense<50> : tensor<64xi32, #l>
    %m = arith.cmpi slt, %r, %c : tensor<64xi32, #l>
    // CHECK: %[[NOT:.*]] = llvm.xor %{{.*}}, %{{.*}} : i1
    // CHECK: %[[FAIL:.*]] = llvm.and %[[NOT]], %{{.*}} : i1
    // CHECK: llvm.cond_br %[[FAIL]], ^[[THEN:.*]], ^
    // CHECK: ^[[THEN]]:
    // CHECK: %[[LINE:.*]] = llvm.mlir.constant(12 : i32) : i32
    // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
    // CHECK: llvm.call @__assertfail(%{{.*}}, %{{.*}}, %[[LINE]], %{{.*}}, %[[ONE]])
    tile.assert %m, "r < 50" : tensor<64xi1, #l> loc("k.tile":12:5)
    return
  }
}

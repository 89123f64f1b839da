// RUN: tile-opt %s -tilegpu-allocate-shared-memory -convert-tilegpu-to-llvm | FileCheck %s
// Atomics: one predicated atom.acq_rel.gpu.global per element, guarded by the
// mask and by ownership (64 elements over 128 threads: half the threads hold
// replicas, so the owners pass the old values on through scratch); float
// max/min split on the operand's sign; scalar atomics run in thread 0 and
// share the old value through scratch.

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @atomics
  func.func @atomics(%p: !tile.ptr<f32>, %q: !tile.ptr<i32>, %h: !tile.ptr<f16>, %d: !tile.ptr<f64>) attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32} {
    %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #b>
    %c10 = arith.constant dense<10> : tensor<64xi32, #b>
    %m = arith.cmpi slt, %r, %c10 : tensor<64xi32, #b>
    %ps = tile.splat %p : tensor<64x!tile.ptr<f32>, #b>
    %pp = tile.addptr %ps, %r : tensor<64x!tile.ptr<f32>, #b>, tensor<64xi32, #b>
    %f = arith.sitofp %r : tensor<64xi32, #b> to tensor<64xf32, #b>
    // The owner test: this thread's element index is below 64.
    // CHECK: %[[OWNER:.*]] = llvm.icmp "ult"
    // CHECK: %[[PRED:.*]] = llvm.and %[[OWNER]], %{{.*}} : i1
    // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0Amov.b32 $0, 0;\0A@$3 atom.acq_rel.gpu.global.add.f32 $0, [ $1 ], $2;\0A}", "=r,l,r,b" %{{.*}}, %{{.*}}, %[[PRED]]
    %a0 = tile.atomic_rmw add %pp, %f mask %m : (tensor<64x!tile.ptr<f32>, #b>, tensor<64xf32, #b>, tensor<64xi1, #b>) -> tensor<64xf32, #b>
    // CHECK: "{\0Amov.b32 $0, 0;\0A.reg .pred %pos, %neg;\0Asetp.ge.s32 %pos, $2, 0;\0Asetp.lt.s32 %neg, $2, 0;\0Aand.pred %pos, %pos, $3;\0Aand.pred %neg, %neg, $3;\0A@%pos atom.acq_rel.gpu.global.max.s32 $0, [ $1 ], $2;\0A@%neg atom.acq_rel.gpu.global.min.u32 $0, [ $1 ], $2;\0A}"
    %a1 = tile.atomic_rmw max %pp, %a0 : (tensor<64x!tile.ptr<f32>, #b>, tensor<64xf32, #b>) -> tensor<64xf32, #b>
    // CHECK: @%pos atom.acq_rel.gpu.global.min.s32 $0, [ $1 ], $2;\0A@%neg atom.acq_rel.gpu.global.max.u32
    %a2 = tile.atomic_rmw min %pp, %a1 : (tensor<64x!tile.ptr<f32>, #b>, tensor<64xf32, #b>) -> tensor<64xf32, #b>
    // CHECK: atom.acq_rel.gpu.global.exch.b32
    %a3 = tile.atomic_rmw xchg %pp, %a2 : (tensor<64x!tile.ptr<f32>, #b>, tensor<64xf32, #b>) -> tensor<64xf32, #b>
    // CHECK: "{\0Amov.b32 $0, 0;\0A@$4 atom.acq_rel.gpu.global.cas.b32 $0, [ $1 ], $2, $3;\0A}", "=r,l,r,r,b"
    %a4 = tile.atomic_cas %pp, %a3, %f : (tensor<64x!tile.ptr<f32>, #b>, tensor<64xf32, #b>, tensor<64xf32, #b>) -> tensor<64xf32, #b>
    %qs = tile.splat %q : tensor<64x!tile.ptr<i32>, #b>
    %qp = tile.addptr %qs, %r : tensor<64x!tile.ptr<i32>, #b>, tensor<64xi32, #b>
    // CHECK: atom.acq_rel.gpu.global.add.u32
    %i0 = tile.atomic_rmw add %qp, %r : (tensor<64x!tile.ptr<i32>, #b>, tensor<64xi32, #b>) -> tensor<64xi32, #b>
    // CHECK: atom.acq_rel.gpu.global.max.s32
    %i1 = tile.atomic_rmw max %qp, %i0 : (tensor<64x!tile.ptr<i32>, #b>, tensor<64xi32, #b>) -> tensor<64xi32, #b>
    // CHECK: atom.acq_rel.gpu.global.min.u32
    %i2 = tile.atomic_rmw umin %qp, %i1 : (tensor<64x!tile.ptr<i32>, #b>, tensor<64xi32, #b>) -> tensor<64xi32, #b>
    // CHECK: atom.acq_rel.gpu.global.and.b32
    %i3 = tile.atomic_rmw and %qp, %i2 : (tensor<64x!tile.ptr<i32>, #b>, tensor<64xi32, #b>) -> tensor<64xi32, #b>
    // CHECK: atom.acq_rel.gpu.global.or.b32
    %i4 = tile.atomic_rmw or %qp, %i3 : (tensor<64x!tile.ptr<i32>, #b>, tensor<64xi32, #b>) -> tensor<64xi32, #b>
    // CHECK: atom.acq_rel.gpu.global.xor.b32
    %i5 = tile.atomic_rmw xor %qp, %i4 : (tensor<64x!tile.ptr<i32>, #b>, tensor<64xi32, #b>) -> tensor<64xi32, #b>
    %hs = tile.splat %h : tensor<64x!tile.ptr<f16>, #b>
    %hp = tile.addptr %hs, %r : tensor<64x!tile.ptr<f16>, #b>, tensor<64xi32, #b>
    %hf = arith.sitofp %r : tensor<64xi32, #b> to tensor<64xf16, #b>
    // CHECK: "{\0Amov.b16 $0, 0;\0A@$3 atom.acq_rel.gpu.global.add.noftz.f16 $0, [ $1 ], $2;\0A}", "=h,l,h,b"
    %h0 = tile.atomic_rmw add %hp, %hf : (tensor<64x!tile.ptr<f16>, #b>, tensor<64xf16, #b>) -> tensor<64xf16, #b>
    %ds = tile.splat %d : tensor<64x!tile.ptr<f64>, #b>
    %dp = tile.addptr %ds, %r : tensor<64x!tile.ptr<f64>, #b>, tensor<64xi32, #b>
    %df = arith.sitofp %r : tensor<64xi32, #b> to tensor<64xf64, #b>
    // CHECK: atom.acq_rel.gpu.global.max.s64 $0, [ $1 ], $2;\0A@%neg atom.acq_rel.gpu.global.min.u64 {{.*}}"=l,l,l,b"
    %d0 = tile.atomic_rmw max %dp, %df : (tensor<64x!tile.ptr<f64>, #b>, tensor<64xf64, #b>) -> tensor<64xf64, #b>
    // A scalar atomic: thread 0 performs it and stores the old value to
    // scratch; after a barrier every thread reads it.
    // CHECK: %[[ZERO:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
    // CHECK: llvm.inline_asm {{.*}}atom.acq_rel.gpu.global.add.u32{{.*}}%[[ZERO]]
    // CHECK: llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr
    // CHECK: "@$2 st.b32 [ $0 ], $1;", "l,r,b"
    // CHECK: nvvm.barrier0
    // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
    %c1 = arith.constant 1 : i32
    %s0 = tile.atomic_rmw add %q, %c1 : (!tile.ptr<i32>, i32) -> i32
    tile.store %q, %s0 : (!tile.ptr<i32>, i32) -> ()
    // sem and scope other than Triton's defaults reach the instruction.
    // CHECK: atom.relaxed.cta.global.add.u32
    %s1 = tile.atomic_rmw add %q, %c1 {sem = 0 : i32, scope = 1 : i32} : (!tile.ptr<i32>, i32) -> i32
    // CHECK: atom.acquire.sys.global.cas.b32
    %s2 = tile.atomic_cas %q, %s1, %c1 {sem = 1 : i32, scope = 2 : i32} : (!tile.ptr<i32>, i32, i32) -> i32
    // CHECK: atom.release.gpu.global.exch.b32
    %s3 = tile.atomic_rmw xchg %q, %s2 {sem = 2 : i32} : (!tile.ptr<i32>, i32) -> i32
    tile.store %q, %s3 : (!tile.ptr<i32>, i32) -> ()
    // CHECK-NOT: atom.
    tile.print "" %a4, %i5, %h0, %d0 : tensor<64xf32, #b>, tensor<64xi32, #b>, tensor<64xf16, #b>, tensor<64xf64, #b>
    return
  }
}

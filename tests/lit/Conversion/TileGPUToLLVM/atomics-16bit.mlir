// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// 16-bit atomics PTX has no instruction for (bf16 add, f16/bf16 max and
// min, 16-bit exchange) are compare-and-swap loops computing in f32; a
// masked-off element skips the loop and reads 0.

// CHECK-LABEL: llvm.func @atomics16
// f16 max: both operands widened with cvt.f32.f16, max.f32, rounded back.
// CHECK: "{\0Amov.b16 $0, 0;\0A.reg .pred %again;{{.*}}@!$3 bra DONE_${:uid};\0Ald.global.b16 %cur, [ $1 ];\0ALOOP_${:uid}:\0Acvt.f32.f16 %fa, %cur;\0Acvt.f32.f16 %fb, $2;\0Amax.f32 %fa, %fa, %fb;\0Acvt.rn.f16.f32 %new, %fa;\0Aatom.acq_rel.gpu.global.cas.b16 $0, [ $1 ], %cur, %new;\0Asetp.ne.b16 %again, $0, %cur;\0Amov.b16 %cur, $0;\0A@%again bra LOOP_${:uid};\0ADONE_${:uid}:\0A}", "=h,l,h,b"
// CHECK: min.f32 %fa, %fa, %fb;
// bf16 is the high half of an f32.
// CHECK: mov.b32 %ia, {%zero, %cur};\0Amov.b32 %ib, {%zero, $2};{{.*}}add.f32 %fa, %fa, %fb;\0Acvt.rn.bf16.f32 %new, %fa;
// CHECK: max.f32 %fa, %fa, %fb;\0Acvt.rn.bf16.f32
// CHECK: LOOP_${:uid}:\0Amov.b16 %new, $2;\0Aatom.acq_rel.gpu.global.cas.b16
// CHECK: atom.acq_rel.gpu.global.cas.b16 $0, [ $1 ], $2, $3;
#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  func.func @atomics16(%h: !tile.ptr<f16>, %bp: !tile.ptr<bf16>, %ip: !tile.ptr<i16>) attributes {tile.kernel, "tilegpu.num-warps" = 4 : i32} {
    %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #b>
    %c10 = arith.constant dense<10> : tensor<128xi32, #b>
    %m = arith.cmpi slt, %r, %c10 : tensor<128xi32, #b>
    %hs = tile.splat %h : tensor<128x!tile.ptr<f16>, #b>
    %hp = tile.addptr %hs, %r : tensor<128x!tile.ptr<f16>, #b>, tensor<128xi32, #b>
    %hf = arith.sitofp %r : tensor<128xi32, #b> to tensor<128xf16, #b>
    %h0 = tile.atomic_rmw max %hp, %hf mask %m : (tensor<128x!tile.ptr<f16>, #b>, tensor<128xf16, #b>, tensor<128xi1, #b>) -> tensor<128xf16, #b>
    %h1 = tile.atomic_rmw min %hp, %h0 : (tensor<128x!tile.ptr<f16>, #b>, tensor<128xf16, #b>) -> tensor<128xf16, #b>
    %bs = tile.splat %bp : tensor<128x!tile.ptr<bf16>, #b>
    %bpp = tile.addptr %bs, %r : tensor<128x!tile.ptr<bf16>, #b>, tensor<128xi32, #b>
    %bf = arith.sitofp %r : tensor<128xi32, #b> to tensor<128xbf16, #b>
    %b0 = tile.atomic_rmw add %bpp, %bf mask %m : (tensor<128x!tile.ptr<bf16>, #b>, tensor<128xbf16, #b>, tensor<128xi1, #b>) -> tensor<128xbf16, #b>
    %b1 = tile.atomic_rmw max %bpp, %b0 : (tensor<128x!tile.ptr<bf16>, #b>, tensor<128xbf16, #b>) -> tensor<128xbf16, #b>
    %b2 = tile.atomic_rmw xchg %bpp, %b1 : (tensor<128x!tile.ptr<bf16>, #b>, tensor<128xbf16, #b>) -> tensor<128xbf16, #b>
    %b3 = tile.atomic_cas %bpp, %b2, %bf : (tensor<128x!tile.ptr<bf16>, #b>, tensor<128xbf16, #b>, tensor<128xbf16, #b>) -> tensor<128xbf16, #b>
    tile.store %hp, %h1 : (tensor<128x!tile.ptr<f16>, #b>, tensor<128xf16, #b>) -> ()
    tile.store %bpp, %b3 : (tensor<128x!tile.ptr<bf16>, #b>, tensor<128xbf16, #b>) -> ()
    return
  }
}

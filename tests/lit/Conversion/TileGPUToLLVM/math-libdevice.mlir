// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// Transcendentals without an accurate PTX instruction call libdevice (f16 and
// bf16 through f32); rsqrt is rsqrt.approx; sqrt, floor, ceil, abs, fma and
// maxnum stay LLVM intrinsics that NVPTX lowers exactly.

module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-DAG: llvm.func @__nv_sinf(f32) -> f32
  // CHECK-DAG: llvm.func @__nv_sin(f64) -> f64
  // CHECK-DAG: llvm.func @__nv_exp(f64) -> f64
  // CHECK-LABEL: llvm.func @math
  func.func @math(%x: f32, %y: f64, %h: f16, %b: bf16) -> f32 attributes {"tilegpu.num-warps" = 1 : i32} {
    // CHECK: llvm.call @__nv_sinf(%{{.*}}) : (f32) -> f32
    %0 = math.sin %x : f32
    // CHECK: llvm.call @__nv_cosf
    %1 = math.cos %0 : f32
    // CHECK: llvm.call @__nv_tanhf
    %2 = math.tanh %1 : f32
    // CHECK: llvm.call @__nv_erff
    %3 = math.erf %2 : f32
    // CHECK: llvm.call @__nv_logf
    %4 = math.log %3 : f32
    // CHECK: llvm.call @__nv_log2f
    %5 = math.log2 %4 : f32
    // CHECK: llvm.intr.sqrt
    %6 = math.sqrt %5 : f32
    // CHECK: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.f"
    %7 = math.rsqrt %6 : f32
    // CHECK: llvm.intr.fabs
    %8 = math.absf %7 : f32
    // CHECK: llvm.intr.floor
    %9 = math.floor %8 : f32
    // CHECK: llvm.intr.ceil
    %10 = math.ceil %9 : f32
    // CHECK: llvm.intr.fma
    %11 = math.fma %10, %x, %0 : f32
    // CHECK: llvm.intr.maxnum
    %12 = arith.maxnumf %11, %x : f32
    // CHECK: llvm.intr.minnum
    %13 = arith.minnumf %12, %x : f32
    // f64: libdevice for the transcendentals, including exp and rsqrt.
    // CHECK: llvm.call @__nv_exp(%{{.*}}) : (f64) -> f64
    %y1 = math.exp %y : f64
    // CHECK: llvm.call @__nv_sin(%{{.*}}) : (f64) -> f64
    %y2 = math.sin %y1 : f64
    // CHECK: llvm.call @__nv_rsqrt(%{{.*}}) : (f64) -> f64
    %y3 = math.rsqrt %y2 : f64
    // CHECK: llvm.call @__nv_exp2(%{{.*}}) : (f64) -> f64
    %y4 = math.exp2 %y3 : f64
    // f16 and bf16 compute in f32.
    // CHECK: %[[H:.*]] = llvm.fpext %{{.*}} : f16 to f32
    // CHECK: %[[HS:.*]] = llvm.call @__nv_sinf(%[[H]])
    // CHECK: llvm.fptrunc %[[HS]] : f32 to f16
    %h1 = math.sin %h : f16
    // bf16 widens as bits (float-narrowing.mlir).
    // CHECK: %[[B:.*]] = llvm.bitcast %{{.*}} : i32 to f32
    // CHECK: %[[BL:.*]] = llvm.call @__nv_logf(%[[B]])
    // CHECK: llvm.fptrunc %[[BL]] : f32 to bf16
    %b1 = math.log %b : bf16
    %hf = arith.extf %h1 : f16 to f32
    %bf = arith.extf %b1 : bf16 to f32
    %yf = arith.truncf %y4 : f64 to f32
    %s0 = arith.addf %13, %hf : f32
    %s1 = arith.addf %s0, %bf : f32
    %s2 = arith.addf %s1, %yf : f32
    return %s2 : f32
  }
}

// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// Float ops that LLVM's InstCombine would narrow wrongly lower without the
// fpext and frem it narrows (FloatNarrowingOpToLLVM.cpp): a bf16 widens as
// bits, and remf is fma(-trunc(a / b), b, a) (a when b is infinite) in f32
// for 16-bit types, in f64 for f64. Other conversions stay fpext/fptrunc.

module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @casts
  func.func @casts(%b: bf16, %h: f16, %x: f32) -> (f32, f64, f32, bf16) attributes {"tilegpu.num-warps" = 1 : i32} {
    // CHECK: %[[BITS:.*]] = llvm.bitcast %{{.*}} : bf16 to i16
    // CHECK: %[[WIDE:.*]] = llvm.zext %[[BITS]] : i16 to i32
    // CHECK: %[[HIGH:.*]] = llvm.shl %[[WIDE]], %{{.*}} : i32
    // CHECK: llvm.bitcast %[[HIGH]] : i32 to f32
    %0 = arith.extf %b : bf16 to f32
    // CHECK: llvm.shl
    // CHECK: %[[F32:.*]] = llvm.bitcast %{{.*}} : i32 to f32
    // CHECK: llvm.fpext %[[F32]] : f32 to f64
    %1 = arith.extf %b : bf16 to f64
    // CHECK: llvm.fpext %{{.*}} : f16 to f32
    %2 = arith.extf %h : f16 to f32
    // CHECK: llvm.fptrunc %{{.*}} : f32 to bf16
    %3 = arith.truncf %x : f32 to bf16
    return %0, %1, %2, %3 : f32, f64, f32, bf16
  }

  // CHECK-LABEL: llvm.func @remainders
  func.func @remainders(%b: bf16, %h: f16, %x: f32, %d: f64) -> (bf16, f16, f32, f64) attributes {"tilegpu.num-warps" = 1 : i32} {
    // CHECK-NOT: llvm.frem
    // CHECK: %[[A:.*]] = llvm.bitcast %{{.*}} : i32 to f32
    // CHECK: %[[B:.*]] = llvm.bitcast %{{.*}} : i32 to f32
    // CHECK: %[[Q:.*]] = llvm.fdiv %[[A]], %[[B]] : f32
    // CHECK: %[[T:.*]] = llvm.intr.trunc(%[[Q]]) : (f32) -> f32
    // CHECK: %[[N:.*]] = llvm.fneg %[[T]] : f32
    // CHECK: %[[R:.*]] = llvm.intr.fma(%[[N]], %[[B]], %[[A]]) : (f32, f32, f32) -> f32
    // CHECK: %[[ABS:.*]] = llvm.intr.fabs(%[[B]]) : (f32) -> f32
    // CHECK: %[[INF:.*]] = llvm.fcmp "oeq" %[[ABS]], %{{.*}} : f32
    // CHECK: %[[S:.*]] = llvm.select %[[INF]], %[[A]], %[[R]] : i1, f32
    // CHECK: llvm.fptrunc %[[S]] : f32 to bf16
    %0 = arith.remf %b, %b : bf16
    // CHECK: llvm.fpext %{{.*}} : f16 to f32
    // CHECK: llvm.fdiv %{{.*}} : f32
    // CHECK: llvm.fptrunc %{{.*}} : f32 to f16
    %1 = arith.remf %h, %h : f16
    // CHECK: llvm.fdiv %{{.*}} : f32
    // CHECK: llvm.intr.fma
    %2 = arith.remf %x, %x : f32
    // CHECK: llvm.fdiv %{{.*}} : f64
    // CHECK: llvm.intr.trunc(%{{.*}}) : (f64) -> f64
    // CHECK: llvm.intr.fma(%{{.*}}) : (f64, f64, f64) -> f64
    // CHECK-NOT: llvm.fptrunc
    %3 = arith.remf %d, %d : f64
    return %0, %1, %2, %3 : bf16, f16, f32, f64
  }
}

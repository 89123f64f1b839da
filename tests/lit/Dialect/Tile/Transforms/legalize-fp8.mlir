// RUN: tile-opt %s -split-input-file -verify-diagnostics -tile-legalize-fp8 | FileCheck %s
// fp8 arithmetic computes in fp32 with one rounding back per fp8 result;
// data movement, constants, selects and conversions stay on fp8; every
// rounding to fp8 states its mode (to_nearest_even), which keeps
// canonicalization from folding an earlier rounding into it.

// CHECK-LABEL: func.func @arith
func.func @arith(%a: tensor<64xf8E4M3FN>, %b: tensor<64xf8E4M3FN>, %c: tensor<64xi1>)
    -> (tensor<64xf8E4M3FN>, tensor<64xi1>, tensor<64xf8E4M3FN>, f8E5M2) {
  // CHECK: %[[A:.*]] = arith.extf %arg0 : tensor<64xf8E4M3FN> to tensor<64xf32>
  // CHECK: %[[B:.*]] = arith.extf %arg1 : tensor<64xf8E4M3FN> to tensor<64xf32>
  // CHECK: %[[SUM:.*]] = arith.addf %[[A]], %[[B]] : tensor<64xf32>
  // CHECK: %[[ROUNDED:.*]] = arith.truncf %[[SUM]] to_nearest_even : tensor<64xf32> to tensor<64xf8E4M3FN>
  %sum = arith.addf %a, %b : tensor<64xf8E4M3FN>
  // CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : tensor<64xf32>
  %less = arith.cmpf olt, %a, %b : tensor<64xf8E4M3FN>
  // CHECK: arith.select %arg2, %[[ROUNDED]], %arg0 : tensor<64xi1>, tensor<64xf8E4M3FN>
  %pick = arith.select %c, %sum, %a : tensor<64xi1>, tensor<64xf8E4M3FN>
  // CHECK: %[[CST:.*]] = arith.constant 1.500000e+00 : f8E5M2
  // CHECK: %[[WIDE:.*]] = arith.extf %[[CST]] : f8E5M2 to f32
  // CHECK: %[[EXP:.*]] = math.exp %[[WIDE]] : f32
  // CHECK: arith.truncf %[[EXP]] to_nearest_even : f32 to f8E5M2
  %one = arith.constant 1.5 : f8E5M2
  %exp = math.exp %one : f8E5M2
  return %sum, %less, %pick, %exp : tensor<64xf8E4M3FN>, tensor<64xi1>, tensor<64xf8E4M3FN>, f8E5M2
}

// -----

// CHECK-LABEL: func.func @print
func.func @print(%a: tensor<16xf8E5M2>) {
  // CHECK: %[[WIDE:.*]] = arith.extf %arg0 : tensor<16xf8E5M2> to tensor<16xf32>
  // CHECK: tile.print " a" %[[WIDE]] : tensor<16xf32>
  tile.print " a" %a : tensor<16xf8E5M2>
  // CHECK: %[[BITS:.*]] = arith.bitcast %arg0 : tensor<16xf8E5M2> to tensor<16xi8>
  // CHECK: tile.print " a" {hex = true} %[[BITS]] : tensor<16xi8>
  tile.print " a" {hex = true} %a : tensor<16xf8E5M2>
  return
}

// -----

func.func @atomic(%p: !tile.ptr<f8E4M3FN>, %v: f8E4M3FN) -> f8E4M3FN {
  // expected-error @+1 {{not supported: fp8 operands of 'tile.atomic_rmw'}}
  %old = tile.atomic_rmw add %p, %v : (!tile.ptr<f8E4M3FN>, f8E4M3FN) -> f8E4M3FN
  return %old : f8E4M3FN
}

// -----

// The user's PTX gets fp8 values as their bytes, and gives its fp8 results
// as bytes that are bitcast back.
// CHECK-LABEL: func.func @inline_asm
func.func @inline_asm(%a: tensor<64xf8E4M3FN>) -> (tensor<64xf16>, tensor<64xf8E5M2>) {
  // CHECK: %[[BYTES:.*]] = arith.bitcast %arg0 : tensor<64xf8E4M3FN> to tensor<64xi8>
  // CHECK: %[[OUT:.*]]:2 = tile.inline_asm "{{.*}}"(%[[BYTES]]) {{.*}} : (tensor<64xi8>) -> (tensor<64xf16>, tensor<64xi8>)
  // CHECK: %[[BACK:.*]] = arith.bitcast %[[OUT]]#1 : tensor<64xi8> to tensor<64xf8E5M2>
  // CHECK: return %[[OUT]]#0, %[[BACK]]
  %h, %e = tile.inline_asm "cvt.rn.f16x2.e4m3x2 $0, $2; mov.b16 $1, $2;"(%a) {constraints = "=r,=h,h", pure = true, pack = 2 : i32} : (tensor<64xf8E4M3FN>) -> (tensor<64xf16>, tensor<64xf8E5M2>)
  return %h, %e : tensor<64xf16>, tensor<64xf8E5M2>
}

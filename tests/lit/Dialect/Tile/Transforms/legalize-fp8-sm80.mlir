// RUN: tile-opt %s -verify-diagnostics -tile-legalize-fp8=target=sm_80
// sm_80's cvt has no fp8 formats: a conversion is a located error; moving
// fp8 bytes is not.

func.func @convert(%a: tensor<64xf8E4M3FN>, %c: tensor<64xi1>) -> (tensor<64xf32>, tensor<64xf8E4M3FN>) {
  %pick = arith.select %c, %a, %a : tensor<64xi1>, tensor<64xf8E4M3FN>
  // expected-error @+1 {{fp8 conversions need sm_89 or newer (the target is sm_80); compile with --arch sm_90}}
  %wide = arith.extf %a : tensor<64xf8E4M3FN> to tensor<64xf32>
  return %wide, %pick : tensor<64xf32>, tensor<64xf8E4M3FN>
}

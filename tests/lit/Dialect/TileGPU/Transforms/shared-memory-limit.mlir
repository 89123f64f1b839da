// RUN: tile-opt %s -tilegpu-allocate-shared-memory="shared-memory-limit=232448 target-name=sm_90" -verify-diagnostics -split-input-file -o /dev/null
// A kernel that needs more shared memory than the target allows per
// program is a compile error at the kernel, with a note at the op that
// owns the largest buffer; never a launch failure.

// expected-error @+1 {{kernel 'big_dot' needs 262144 bytes of shared memory but sm_90 allows at most 232448 per program}}
func.func @big_dot(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> attributes {tile.kernel} {
  // expected-note @+1 {{the largest buffer is 262144 bytes for this tl.dot (256x256xf16 * 256x256xf16); smaller block sizes need less}}
  %d = tile.dot %a, %b, %c : tensor<256x256xf16> * tensor<256x256xf16> -> tensor<256x256xf32>
  return %d : tensor<256x256xf32>
}

// -----

// Exactly at the limit is fine.
func.func @fits(%x: tensor<58112xf32>) -> tensor<58112xf32> attributes {tile.kernel} {
  %c = tile.scan(%x) axis = 0 : (tensor<58112xf32>) -> tensor<58112xf32> {
  ^bb0(%l: f32, %r: f32):
    %sum = arith.addf %l, %r : f32
    tile.reduce.return %sum : f32
  }
  return %c : tensor<58112xf32>
}

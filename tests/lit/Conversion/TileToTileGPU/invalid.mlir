// RUN: tile-opt %s -convert-tile-to-tilegpu -verify-diagnostics

// expected-error @+1 {{num_warps must be a power of two from 1 to 32, got 3}}
func.func @three_warps() attributes {tile.num_warps = 3 : i32} {
  return
}

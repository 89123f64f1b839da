// RUN: tile-opt %s -test-print-axis-info -verify-diagnostics -o /dev/null
// The induction variable of an scf.for takes the values lb + j * step, so it
// is a multiple of what both bounds are multiples of (with or without
// iteration arguments); an unknown lower bound gives nothing.

func.func @induction(%lb: i32, %n: i32) {
  // expected-remark @+1 {{divisibility = [1073741824]}}
  %c0 = arith.constant 0 : i32
  // expected-remark @+1 {{divisibility = [64]}}
  %c64 = arith.constant 64 : i32
  // expected-remark @+1 {{divisibility = [16]}}
  %c16 = arith.constant 16 : i32
  // expected-remark @+1 {{divisibility = [16]}}
  %c48 = arith.constant 48 : i32
  scf.for %i = %c0 to %n step %c64 : i32 {
    // expected-remark @+1 {{contiguity = [1], divisibility = [64], constancy = [1]}}
    %x = arith.addi %i, %c0 : i32
  }
  // expected-remark @+1 {{divisibility = [16]}}
  %r = scf.for %j = %c16 to %n step %c64 iter_args(%acc = %c0) -> (i32) : i32 {
    // expected-remark @+1 {{contiguity = [1], divisibility = [16], constancy = [1]}}
    %y = arith.addi %j, %acc : i32
    scf.yield %y : i32
  }
  scf.for %k = %lb to %n step %c48 : i32 {
    // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
    %z = arith.addi %k, %c0 : i32
  }
  return
}

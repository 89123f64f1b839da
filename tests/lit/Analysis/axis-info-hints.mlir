// RUN: tile-opt %s -test-print-axis-info -verify-diagnostics -o /dev/null
// tile.hint (multiple_of, max_contiguous) adds what it promises to what the
// analysis knows: divisibility as the largest power of two dividing the
// promised multiple, contiguity up to the dimension's size.

func.func @hints(%s: i32) {
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = tile.program_id 0 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %start = arith.muli %pid, %s : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %aligned = tile.hint %start {divisibility = array<i64: 48>} : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [16], constancy = [256]}}
  %splat = tile.splat %aligned : tensor<256xi32>
  // expected-remark @+1 {{contiguity = [256], divisibility = [1073741824], constancy = [1]}}
  %range = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  // expected-remark @+1 {{contiguity = [256], divisibility = [16], constancy = [1]}}
  %offs = arith.addi %splat, %range : tensor<256xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [256]}}
  %ns = tile.splat %s : tensor<256xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %mixed = arith.xori %ns, %range : tensor<256xi32>
  // A promise never lowers what is known, and contiguity stops at the size.
  // expected-remark @+1 {{contiguity = [256], divisibility = [8], constancy = [1]}}
  %runs = tile.hint %mixed {contiguity = array<i64: 1024>, divisibility = array<i64: 8>} : tensor<256xi32>
  // expected-remark @+1 {{contiguity = [256], divisibility = [16], constancy = [1]}}
  %same = tile.hint %offs {divisibility = array<i64: 4>} : tensor<256xi32>
  return
}

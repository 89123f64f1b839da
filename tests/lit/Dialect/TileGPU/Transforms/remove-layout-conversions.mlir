// RUN: tile-opt %s -split-input-file -tilegpu-remove-layout-conversions | FileCheck %s
// One function per rule of tilegpu-remove-layout-conversions.

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// convert(convert(x)) -> convert(x); back to the source layout -> x.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<512xf32, #blocked>)
// CHECK-NEXT: %[[C:.*]] = tilegpu.convert_layout %[[X]] : tensor<512xf32, #blocked> -> tensor<512xf32, #blocked1>
// CHECK-NEXT: return %[[C]], %[[X]]
func.func @chain(%x: tensor<512xf32, #a>) -> (tensor<512xf32, #c>, tensor<512xf32, #a>) {
  %0 = tilegpu.convert_layout %x : tensor<512xf32, #a> -> tensor<512xf32, #b>
  %1 = tilegpu.convert_layout %0 : tensor<512xf32, #b> -> tensor<512xf32, #c>
  %2 = tilegpu.convert_layout %0 : tensor<512xf32, #b> -> tensor<512xf32, #a>
  return %1, %2 : tensor<512xf32, #c>, tensor<512xf32, #a>
}

// A value that cannot be recomputed (a function argument, a load) keeps its
// conversion.
// CHECK-LABEL: func.func @kept
// CHECK: tilegpu.convert_layout
func.func @kept(%x: tensor<512xf32, #a>) -> tensor<512xf32, #b> {
  %0 = tilegpu.convert_layout %x : tensor<512xf32, #a> -> tensor<512xf32, #b>
  return %0 : tensor<512xf32, #b>
}

// -----

// Rematerialization: make_range, splat, constants and elementwise ops are
// recomputed in the target layout instead of converted.
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @remat_elementwise
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.make_range {{.*}} : tensor<512xi32, #[[B:blocked[0-9]*]]>
// CHECK: tile.splat {{.*}} : tensor<512xi32, #[[B]]>
// CHECK: arith.muli {{.*}} : tensor<512xi32, #[[B]]>
// CHECK: arith.addi {{.*}} : tensor<512xi32, #[[B]]>
// CHECK-NOT: tilegpu.convert_layout
func.func @remat_elementwise(%s: i32) -> tensor<512xi32, #b> {
  %r = tile.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #a>
  %sp = tile.splat %s : tensor<512xi32, #a>
  %one = arith.constant dense<1> : tensor<512xi32, #a>
  %m = arith.muli %r, %sp : tensor<512xi32, #a>
  %o = arith.addi %m, %one : tensor<512xi32, #a>
  %c = tilegpu.convert_layout %o : tensor<512xi32, #a> -> tensor<512xi32, #b>
  return %c : tensor<512xi32, #b>
}

// -----

// Rematerialization through expand_dims and broadcast: the 2-D offsets
// `offs_m[:, None] * stride + offs_n[None, :]` end up computed in the layout
// of the access from make_ranges in slices of it.
#d1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#col = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#d2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[D2:blocked[0-9]*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32]
// CHECK-DAG: #[[S1:slice[0-9]*]] = #tilegpu.slice<{dim = 1, parent = #[[D2]]}>
// CHECK-DAG: #[[S0:slice[0-9]*]] = #tilegpu.slice<{dim = 0, parent = #[[D2]]}>
// CHECK-LABEL: func.func @remat_2d
// CHECK-NOT: tilegpu.convert_layout
// CHECK-DAG: tile.make_range {{.*}} : tensor<64xi32, #[[S1]]>
// CHECK-DAG: tile.make_range {{.*}} : tensor<32xi32, #[[S0]]>
// CHECK: tile.broadcast {{.*}} : tensor<64x1xi32, #[[D2]]> -> tensor<64x32xi32, #[[D2]]>
// CHECK-NOT: tilegpu.convert_layout
func.func @remat_2d(%stride: i32) -> tensor<64x32xi32, #d2> {
  %m = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #d1>
  %n = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #d1>
  %m1 = tilegpu.convert_layout %m : tensor<64xi32, #d1> -> tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #col}>>
  %mc = tile.expand_dims %m1 {axis = 1 : i32} : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #col}>> -> tensor<64x1xi32, #col>
  %s = tile.splat %stride : tensor<64x1xi32, #col>
  %ms = arith.muli %mc, %s : tensor<64x1xi32, #col>
  %n1 = tilegpu.convert_layout %n : tensor<32xi32, #d1> -> tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #d2}>>
  %nr = tile.expand_dims %n1 {axis = 0 : i32} : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #d2}>> -> tensor<1x32xi32, #d2>
  %msc = tilegpu.convert_layout %ms : tensor<64x1xi32, #col> -> tensor<64x1xi32, #d2>
  %a = tile.broadcast %msc : tensor<64x1xi32, #d2> -> tensor<64x32xi32, #d2>
  %b = tile.broadcast %nr : tensor<1x32xi32, #d2> -> tensor<64x32xi32, #d2>
  %o = arith.addi %a, %b : tensor<64x32xi32, #d2>
  return %o : tensor<64x32xi32, #d2>
}

// -----

// Sinking: a reduction's result, converted out of its slice layout and
// scaled, is stored in the slice layout; the pointers are recomputed there.
#d1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#d2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.slice<{dim = 1, parent = #d2}>
// CHECK-LABEL: func.func @sink_to_store
// CHECK-NOT: tilegpu.convert_layout
// CHECK: arith.mulf {{.*}} : tensor<64xf32, #[[S:slice[0-9]*]]>
// CHECK: tile.store {{.*}} : (tensor<64x!tile.ptr<f32>, #[[S]]>, tensor<64xf32, #[[S]]>) -> ()
func.func @sink_to_store(%x: tensor<64x32xf32, #d2>, %out: !tile.ptr<f32>, %k: f32) {
  %r = tile.reduce(%x) axis = 1 : (tensor<64x32xf32, #d2>) -> tensor<64xf32, #s> {
  ^bb0(%l: f32, %rr: f32):
    %sum = arith.addf %l, %rr : f32
    tile.reduce.return %sum : f32
  }
  %c = tilegpu.convert_layout %r : tensor<64xf32, #s> -> tensor<64xf32, #d1>
  %ks = tile.splat %k : tensor<64xf32, #d1>
  %y = arith.mulf %c, %ks : tensor<64xf32, #d1>
  %offs = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #d1>
  %ps = tile.splat %out : tensor<64x!tile.ptr<f32>, #d1>
  %p = tile.addptr %ps, %offs : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xi32, #d1>
  tile.store %p, %y : (tensor<64x!tile.ptr<f32>, #d1>, tensor<64xf32, #d1>) -> ()
  return
}

// -----

// A loop-carried accumulator of row sums is carried in the reduction's slice
// layout: no conversion inside the loop, and the store after it is sunk
// into the slice layout too.
#d1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#d2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.slice<{dim = 1, parent = #d2}>
// CHECK-LABEL: func.func @loop_carried
// CHECK-NOT: tilegpu.convert_layout
// CHECK: scf.for {{.*}} -> (tensor<64xf32, #[[S:slice[0-9]*]]>)
// CHECK: arith.addf {{.*}} : tensor<64xf32, #[[S]]>
// CHECK: scf.yield {{.*}} : tensor<64xf32, #[[S]]>
// CHECK: tile.store {{.*}} : (tensor<64x!tile.ptr<f32>, #[[S]]>, tensor<64xf32, #[[S]]>) -> ()
func.func @loop_carried(%x: tensor<64x32xf32, #d2>, %out: !tile.ptr<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64xf32, #d1>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<64xf32, #d1>) {
    %r = tile.reduce(%x) axis = 1 : (tensor<64x32xf32, #d2>) -> tensor<64xf32, #s> {
    ^bb0(%l: f32, %rr: f32):
      %sum = arith.addf %l, %rr : f32
      tile.reduce.return %sum : f32
    }
    %c = tilegpu.convert_layout %r : tensor<64xf32, #s> -> tensor<64xf32, #d1>
    %next = arith.addf %a, %c : tensor<64xf32, #d1>
    scf.yield %next : tensor<64xf32, #d1>
  }
  %offs = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #d1>
  %ps = tile.splat %out : tensor<64x!tile.ptr<f32>, #d1>
  %p = tile.addptr %ps, %offs : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xi32, #d1>
  tile.store %p, %acc : (tensor<64x!tile.ptr<f32>, #d1>, tensor<64xf32, #d1>) -> ()
  return
}

// -----

// A load used only by a conversion into a slice layout (`w[None, :]`) is
// moved into that layout when it holds at most 4 times as many elements per
// thread there; otherwise the conversion stays.
#d1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#d2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#wide = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#r = #tilegpu.slice<{dim = 0, parent = #d2}>
#rw = #tilegpu.slice<{dim = 0, parent = #wide}>
// CHECK-LABEL: func.func @moved_load
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.load {{.*}} -> tensor<128xf32, #[[R:slice[0-9]*]]>
// CHECK: tile.expand_dims {{.*}} : tensor<128xf32, #[[R]]>
func.func @moved_load(%w: !tile.ptr<f32>) -> tensor<1x128xf32, #d2> {
  %offs = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #d1>
  %ps = tile.splat %w : tensor<128x!tile.ptr<f32>, #d1>
  %p = tile.addptr %ps, %offs : tensor<128x!tile.ptr<f32>, #d1>, tensor<128xi32, #d1>
  %v = tile.load %p : (tensor<128x!tile.ptr<f32>, #d1>) -> tensor<128xf32, #d1>
  %c = tilegpu.convert_layout %v : tensor<128xf32, #d1> -> tensor<128xf32, #r>
  %e = tile.expand_dims %c {axis = 0 : i32} : tensor<128xf32, #r> -> tensor<1x128xf32, #d2>
  return %e : tensor<1x128xf32, #d2>
}
// In #wide every thread would hold all 128 elements (128 times as many).
// CHECK-LABEL: func.func @kept_load
// CHECK: tile.load {{.*}} -> tensor<128xf32, #blocked{{[0-9]*}}>
// CHECK: tilegpu.convert_layout
func.func @kept_load(%w: !tile.ptr<f32>) -> tensor<1x128xf32, #wide> {
  %offs = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #d1>
  %ps = tile.splat %w : tensor<128x!tile.ptr<f32>, #d1>
  %p = tile.addptr %ps, %offs : tensor<128x!tile.ptr<f32>, #d1>, tensor<128xi32, #d1>
  %v = tile.load %p : (tensor<128x!tile.ptr<f32>, #d1>) -> tensor<128xf32, #d1>
  %c = tilegpu.convert_layout %v : tensor<128xf32, #d1> -> tensor<128xf32, #rw>
  %e = tile.expand_dims %c {axis = 0 : i32} : tensor<128xf32, #rw> -> tensor<1x128xf32, #wide>
  return %e : tensor<1x128xf32, #wide>
}

// -----

// A dot's accumulator loaded before its loop (blocked) and converted into the
// MMA layout every iteration is converted once, before the loop, and carried
// in the MMA layout; one conversion back follows the loop.
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: func.func @loaded_accumulator
// CHECK: %[[C:.*]] = tile.load
// CHECK: %[[INIT:.*]] = tilegpu.convert_layout %[[C]] : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #tilegpu.mma
// CHECK: %[[LOOP:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<64x64xf32, #tilegpu.mma
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.dot %{{.*}}, %{{.*}}, %[[ACC]]
// CHECK: scf.yield
// CHECK: tilegpu.convert_layout %[[LOOP]] : tensor<64x64xf32, #tilegpu.mma{{.*}} -> tensor<64x64xf32, #blocked>
func.func @loaded_accumulator(%a: tensor<64x32xf16, #b>, %bb: tensor<32x64xf16, #b>, %cp: tensor<64x64x!tile.ptr<f32>, #b>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c = tile.load %cp : (tensor<64x64x!tile.ptr<f32>, #b>) -> tensor<64x64xf32, #b>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%x = %c) -> (tensor<64x64xf32, #b>) {
    %in = tilegpu.convert_layout %x : tensor<64x64xf32, #b> -> tensor<64x64xf32, #mma>
    %d = tile.dot %a, %bb, %in : tensor<64x32xf16, #b> * tensor<32x64xf16, #b> -> tensor<64x64xf32, #mma>
    %out = tilegpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
    scf.yield %out : tensor<64x64xf32, #b>
  }
  tile.store %cp, %acc : (tensor<64x64x!tile.ptr<f32>, #b>, tensor<64x64xf32, #b>) -> ()
  return
}

// -----

// A row softmax of a product (flash attention): the reductions run on the
// MMA tile (their results in its slice layout), the mask's index arithmetic
// and the broadcast row maxima are recomputed there, the running maximum is
// carried in the slice layout, and p reaches the second dot's a operand
// with one conversion (the store stays in the blocked layout).
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#dota = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#rows = #tilegpu.slice<{dim = 1, parent = #b}>
#cols = #tilegpu.slice<{dim = 0, parent = #b}>
// CHECK: #[[ROWS:[a-z0-9_]+]] = #tilegpu.slice<{dim = 1, parent = #tilegpu.mma
// CHECK: #[[COLS:[a-z0-9_]+]] = #tilegpu.slice<{dim = 0, parent = #tilegpu.mma
// CHECK-LABEL: func.func @softmax_of_product
// CHECK: scf.for {{.*}} -> (tensor<64xf32, #[[ROWS]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.make_range {{.*}} : tensor<64xi32, #[[COLS]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.reduce(%{{.*}}) axis = 1 : (tensor<64x64xf32, #tilegpu.mma
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[P:.*]] = arith.truncf %{{.*}} : tensor<64x64xf32, #tilegpu.mma{{.*}}> to tensor<64x64xf16, #tilegpu.mma
// CHECK-NEXT: tilegpu.convert_layout %[[P]] : tensor<64x64xf16, #tilegpu.mma{{.*}} -> tensor<64x64xf16, #tilegpu.dot_op
// CHECK-NOT: tilegpu.convert_layout
// CHECK: scf.yield
module attributes {"tilegpu.threads-per-warp" = 32 : i32, "tilegpu.num-warps" = 4 : i32} {
  func.func @softmax_of_product(%q: tensor<64x32xf16, #dota>, %k: tensor<32x64xf16, #b>, %v: tensor<64x64xf16, #b>, %n: i32, %ub: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %ninf = arith.constant dense<0xFF800000> : tensor<64xf32, #rows>
    %ninf2 = arith.constant dense<0xFF800000> : tensor<64x64xf32, #b>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %res:2 = scf.for %i = %c0 to %ub step %c1 iter_args(%m = %ninf, %acc = %zero) -> (tensor<64xf32, #rows>, tensor<64x64xf32, #mma>) : i32 {
      %s = tile.dot %q, %k, %zero : tensor<64x32xf16, #dota> * tensor<32x64xf16, #b> -> tensor<64x64xf32, #mma>
      %sb = tilegpu.convert_layout %s : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
      %cols = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
      %ce = tile.expand_dims %cols {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #b>
      %ns = tile.splat %n : tensor<1x64xi32, #b>
      %ok = arith.cmpi slt, %ce, %ns : tensor<1x64xi32, #b>
      %okb = tile.broadcast %ok : tensor<1x64xi1, #b> -> tensor<64x64xi1, #b>
      %masked = arith.select %okb, %sb, %ninf2 : tensor<64x64xi1, #b>, tensor<64x64xf32, #b>
      %rmax = "tile.reduce"(%masked) <{axis = 1 : i32}> ({
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tile.reduce.return %mx : f32
      }) : (tensor<64x64xf32, #b>) -> tensor<64xf32, #rows>
      %mnew = arith.maxnumf %m, %rmax : tensor<64xf32, #rows>
      %me = tile.expand_dims %mnew {axis = 1 : i32} : tensor<64xf32, #rows> -> tensor<64x1xf32, #b>
      %mb = tile.broadcast %me : tensor<64x1xf32, #b> -> tensor<64x64xf32, #b>
      %d = arith.subf %masked, %mb : tensor<64x64xf32, #b>
      %p = math.exp2 %d : tensor<64x64xf32, #b>
      %p16 = arith.truncf %p : tensor<64x64xf32, #b> to tensor<64x64xf16, #b>
      %pa = tilegpu.convert_layout %p16 : tensor<64x64xf16, #b> -> tensor<64x64xf16, #dota>
      %accn = tile.dot %pa, %v, %acc : tensor<64x64xf16, #dota> * tensor<64x64xf16, #b> -> tensor<64x64xf32, #mma>
      scf.yield %mnew, %accn : tensor<64xf32, #rows>, tensor<64x64xf32, #mma>
    }
    return %res#1 : tensor<64x64xf32, #mma>
  }
}

// -----

// A tensor-core dot stages its operands from any layout: a column-major
// operand (K^T loaded where it is contiguous) feeds it without a conversion,
// and the load is not moved into the conversion's row-major layout.
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-LABEL: func.func @column_major_operand
// CHECK: %[[K:.*]] = tile.load %{{.*}} -> tensor<32x64xf16, #[[COL:blocked[0-9]*]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.dot %{{.*}}, %[[K]], %{{.*}} : tensor<64x32xf16, #{{.*}}> * tensor<32x64xf16, #[[COL]]>
module attributes {"tilegpu.threads-per-warp" = 32 : i32, "tilegpu.num-warps" = 4 : i32} {
  func.func @column_major_operand(%q: tensor<64x32xf16, #b>, %kp: tensor<32x64x!tile.ptr<f16>, #col>) -> tensor<64x64xf32, #mma> {
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %k = tile.load %kp : (tensor<32x64x!tile.ptr<f16>, #col>) -> tensor<32x64xf16, #col>
    %kb = tilegpu.convert_layout %k : tensor<32x64xf16, #col> -> tensor<32x64xf16, #b>
    %s = tile.dot %q, %kb, %zero : tensor<64x32xf16, #b> * tensor<32x64xf16, #b> -> tensor<64x64xf32, #mma>
    return %s : tensor<64x64xf32, #mma>
  }
}

// -----

// A pointer tile advanced each iteration (`b_ptrs += BK`) whose load has a
// layout of its own (K^T, contiguous along dimension 0) is carried in that
// layout: no conversion of 8-byte pointers in the loop.
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: func.func @advanced_pointers
// CHECK: scf.for {{.*}} -> (tensor<32x64x!tile.ptr<f16>, #[[COL:blocked[0-9]*]]>, tensor<32x64xf16, #[[COL]]>)
// CHECK-NOT: tilegpu.convert_layout
// CHECK: scf.yield
module attributes {"tilegpu.threads-per-warp" = 32 : i32, "tilegpu.num-warps" = 4 : i32} {
  func.func @advanced_pointers(%p: tensor<32x64x!tile.ptr<f16>, #b>, %n: i32) -> tensor<32x64xf16, #col> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<32> : tensor<32x64xi32, #b>
    %zero = arith.constant dense<0.0> : tensor<32x64xf16, #col>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%ptrs = %p, %sum = %zero) -> (tensor<32x64x!tile.ptr<f16>, #b>, tensor<32x64xf16, #col>) : i32 {
      %q = tilegpu.convert_layout %ptrs : tensor<32x64x!tile.ptr<f16>, #b> -> tensor<32x64x!tile.ptr<f16>, #col>
      %v = tile.load %q : (tensor<32x64x!tile.ptr<f16>, #col>) -> tensor<32x64xf16, #col>
      %s = arith.addf %sum, %v : tensor<32x64xf16, #col>
      %next = tile.addptr %ptrs, %step : tensor<32x64x!tile.ptr<f16>, #b>, tensor<32x64xi32, #b>
      scf.yield %next, %s : tensor<32x64x!tile.ptr<f16>, #b>, tensor<32x64xf16, #col>
    }
    return %r#1 : tensor<32x64xf16, #col>
  }
}

// Tensor-core dots (mma.sync) at the tilegpu level, lowered to LLVM and run
// on the CPU by mma-harness.cpp with emulated ldmatrix, mma.sync and
// cp.async (see simulate-mma.test). b comes row-major ([K, N], #bkn) or
// running along K (#bnk*: stored transposed, [N, K]), staged by the dot,
// converted into its registers first, or copied into a slot with cp.async.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#o = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#o16 = #tilegpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bkn = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bnk = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#bnk1 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#bnk2 = #tilegpu.blocked<{sizePerThread = [2, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#bnk4 = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#a8 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#o8 = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#bnk8 = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 8], order = [0, 1]}>
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#mma14 = #tilegpu.mma<{version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8]}>
#mma42 = #tilegpu.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
#kn = #tilegpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#nk = #tilegpu.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // Staged by the dot: b row-major, and running along K in runs of 8, 1
  // and 2; bf16.
  func.func @kn(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #bkn>, %c: tensor<64x64xf32, #o>) -> tensor<64x64xf32, #o> attributes {"tilegpu.num-warps" = 4 : i32} {
    %acc = tilegpu.convert_layout %c : tensor<64x64xf32, #o> -> tensor<64x64xf32, #mma>
    %d = tile.dot %a, %b, %acc : tensor<64x32xf16, #a> * tensor<32x64xf16, #bkn> -> tensor<64x64xf32, #mma>
    %r = tilegpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #o>
    return %r : tensor<64x64xf32, #o>
  }
  func.func @nk(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #bnk>, %c: tensor<64x64xf32, #o>) -> tensor<64x64xf32, #o> attributes {"tilegpu.num-warps" = 4 : i32} {
    %acc = tilegpu.convert_layout %c : tensor<64x64xf32, #o> -> tensor<64x64xf32, #mma>
    %d = tile.dot %a, %b, %acc : tensor<64x32xf16, #a> * tensor<32x64xf16, #bnk> -> tensor<64x64xf32, #mma>
    %r = tilegpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #o>
    return %r : tensor<64x64xf32, #o>
  }
  func.func @nk1(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #bnk1>, %c: tensor<64x64xf32, #o>) -> tensor<64x64xf32, #o> attributes {"tilegpu.num-warps" = 4 : i32} {
    %acc = tilegpu.convert_layout %c : tensor<64x64xf32, #o> -> tensor<64x64xf32, #mma>
    %d = tile.dot %a, %b, %acc : tensor<64x32xf16, #a> * tensor<32x64xf16, #bnk1> -> tensor<64x64xf32, #mma>
    %r = tilegpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #o>
    return %r : tensor<64x64xf32, #o>
  }
  func.func @nk2(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #bnk2>, %c: tensor<64x64xf32, #o>) -> tensor<64x64xf32, #o> attributes {"tilegpu.num-warps" = 4 : i32} {
    %acc = tilegpu.convert_layout %c : tensor<64x64xf32, #o> -> tensor<64x64xf32, #mma>
    %d = tile.dot %a, %b, %acc : tensor<64x32xf16, #a> * tensor<32x64xf16, #bnk2> -> tensor<64x64xf32, #mma>
    %r = tilegpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #o>
    return %r : tensor<64x64xf32, #o>
  }
  func.func @nk_bf16(%a: tensor<64x32xbf16, #a>, %b: tensor<32x64xbf16, #bnk>, %c: tensor<64x64xf32, #o>) -> tensor<64x64xf32, #o> attributes {"tilegpu.num-warps" = 4 : i32} {
    %acc = tilegpu.convert_layout %c : tensor<64x64xf32, #o> -> tensor<64x64xf32, #mma>
    %d = tile.dot %a, %b, %acc : tensor<64x32xbf16, #a> * tensor<32x64xbf16, #bnk> -> tensor<64x64xf32, #mma>
    %r = tilegpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #o>
    return %r : tensor<64x64xf32, #o>
  }
  // One N tile per warp (ldmatrix.x2), and an N smaller than the warps'
  // (warps 2 and 3 wrap around onto the columns of 0 and 1).
  func.func @nk_x2(%a: tensor<64x32xf16, #a>, %b: tensor<32x16xf16, #bnk>, %c: tensor<64x16xf32, #o16>) -> tensor<64x16xf32, #o16> attributes {"tilegpu.num-warps" = 4 : i32} {
    %acc = tilegpu.convert_layout %c : tensor<64x16xf32, #o16> -> tensor<64x16xf32, #mma>
    %d = tile.dot %a, %b, %acc : tensor<64x32xf16, #a> * tensor<32x16xf16, #bnk> -> tensor<64x16xf32, #mma>
    %r = tilegpu.convert_layout %d : tensor<64x16xf32, #mma> -> tensor<64x16xf32, #o16>
    return %r : tensor<64x16xf32, #o16>
  }
  func.func @nk_wrap(%a: tensor<64x32xf16, #a>, %b: tensor<32x16xf16, #bnk>, %c: tensor<64x16xf32, #o16>) -> tensor<64x16xf32, #o16> attributes {"tilegpu.num-warps" = 4 : i32} {
    %acc = tilegpu.convert_layout %c : tensor<64x16xf32, #o16> -> tensor<64x16xf32, #mma14>
    %d = tile.dot %a, %b, %acc : tensor<64x32xf16, #a> * tensor<32x16xf16, #bnk> -> tensor<64x16xf32, #mma14>
    %r = tilegpu.convert_layout %d : tensor<64x16xf32, #mma14> -> tensor<64x16xf32, #o16>
    return %r : tensor<64x16xf32, #o16>
  }
  // 8 warps, two along N.
  func.func @nk_w8(%a: tensor<64x32xf16, #a8>, %b: tensor<32x64xf16, #bnk8>, %c: tensor<64x64xf32, #o8>) -> tensor<64x64xf32, #o8> attributes {"tilegpu.num-warps" = 8 : i32} {
    %acc = tilegpu.convert_layout %c : tensor<64x64xf32, #o8> -> tensor<64x64xf32, #mma42>
    %d = tile.dot %a, %b, %acc : tensor<64x32xf16, #a8> * tensor<32x64xf16, #bnk8> -> tensor<64x64xf32, #mma42>
    %r = tilegpu.convert_layout %d : tensor<64x64xf32, #mma42> -> tensor<64x64xf32, #o8>
    return %r : tensor<64x64xf32, #o8>
  }
  // b converted into its registers before the dot (staged and read whole).
  func.func @nk_regs(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #bnk>, %c: tensor<64x64xf32, #o>) -> tensor<64x64xf32, #o> attributes {"tilegpu.num-warps" = 4 : i32} {
    %acc = tilegpu.convert_layout %c : tensor<64x64xf32, #o> -> tensor<64x64xf32, #mma>
    %rb = tilegpu.convert_layout %b : tensor<32x64xf16, #bnk> -> tensor<32x64xf16, #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tile.dot %a, %rb, %acc : tensor<64x32xf16, #a> * tensor<32x64xf16, #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %r = tilegpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #o>
    return %r : tensor<64x64xf32, #o>
  }
  // b copied into slot 1 of two with cp.async (masked-off elements zero),
  // read by the dot from the slot: row-major, transposed in 16- and 8-byte
  // copies, and transposed with 8 warps. The accumulator is converted
  // first: its scratch may reuse the slots' bytes once the local_load has
  // run (in a pipelined loop the slots are live through the loop).
  func.func @slot_kn(%p: tensor<32x64x!tile.ptr<f16>, #bkn>, %m: tensor<32x64xi1, #bkn>, %a: tensor<64x32xf16, #a>, %c: tensor<64x64xf32, #o>) -> tensor<64x64xf32, #o> attributes {"tilegpu.num-warps" = 4 : i32} {
    %acc = tilegpu.convert_layout %c : tensor<64x64xf32, #o> -> tensor<64x64xf32, #mma>
    %c1 = arith.constant 1 : i32
    %buf = tilegpu.local_alloc : !tilegpu.memdesc<[2, 32, 64], f16, #kn>
    tilegpu.async_copy %p, %buf[%c1] mask %m {vec = 8 : i32} : tensor<32x64x!tile.ptr<f16>, #bkn>, !tilegpu.memdesc<[2, 32, 64], f16, #kn>, tensor<32x64xi1, #bkn>
    tilegpu.async_commit_group
    tilegpu.async_wait 0
    tile.barrier
    %b = tilegpu.local_load %buf[%c1] : !tilegpu.memdesc<[2, 32, 64], f16, #kn> -> tensor<32x64xf16, #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tile.dot %a, %b, %acc : tensor<64x32xf16, #a> * tensor<32x64xf16, #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %r = tilegpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #o>
    return %r : tensor<64x64xf32, #o>
  }
  func.func @slot_nk(%p: tensor<32x64x!tile.ptr<f16>, #bnk>, %m: tensor<32x64xi1, #bnk>, %a: tensor<64x32xf16, #a>, %c: tensor<64x64xf32, #o>) -> tensor<64x64xf32, #o> attributes {"tilegpu.num-warps" = 4 : i32} {
    %acc = tilegpu.convert_layout %c : tensor<64x64xf32, #o> -> tensor<64x64xf32, #mma>
    %c1 = arith.constant 1 : i32
    %buf = tilegpu.local_alloc : !tilegpu.memdesc<[2, 32, 64], f16, #nk>
    tilegpu.async_copy %p, %buf[%c1] mask %m {vec = 8 : i32} : tensor<32x64x!tile.ptr<f16>, #bnk>, !tilegpu.memdesc<[2, 32, 64], f16, #nk>, tensor<32x64xi1, #bnk>
    tilegpu.async_commit_group
    tilegpu.async_wait 0
    tile.barrier
    %b = tilegpu.local_load %buf[%c1] : !tilegpu.memdesc<[2, 32, 64], f16, #nk> -> tensor<32x64xf16, #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tile.dot %a, %b, %acc : tensor<64x32xf16, #a> * tensor<32x64xf16, #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %r = tilegpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #o>
    return %r : tensor<64x64xf32, #o>
  }
  func.func @slot_nk4(%p: tensor<32x64x!tile.ptr<f16>, #bnk4>, %m: tensor<32x64xi1, #bnk4>, %a: tensor<64x32xf16, #a>, %c: tensor<64x64xf32, #o>) -> tensor<64x64xf32, #o> attributes {"tilegpu.num-warps" = 4 : i32} {
    %acc = tilegpu.convert_layout %c : tensor<64x64xf32, #o> -> tensor<64x64xf32, #mma>
    %c1 = arith.constant 1 : i32
    %buf = tilegpu.local_alloc : !tilegpu.memdesc<[2, 32, 64], f16, #nk>
    tilegpu.async_copy %p, %buf[%c1] mask %m {vec = 4 : i32} : tensor<32x64x!tile.ptr<f16>, #bnk4>, !tilegpu.memdesc<[2, 32, 64], f16, #nk>, tensor<32x64xi1, #bnk4>
    tilegpu.async_commit_group
    tilegpu.async_wait 0
    tile.barrier
    %b = tilegpu.local_load %buf[%c1] : !tilegpu.memdesc<[2, 32, 64], f16, #nk> -> tensor<32x64xf16, #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tile.dot %a, %b, %acc : tensor<64x32xf16, #a> * tensor<32x64xf16, #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %r = tilegpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #o>
    return %r : tensor<64x64xf32, #o>
  }
  func.func @slot_nk_w8(%p: tensor<32x64x!tile.ptr<f16>, #bnk8>, %m: tensor<32x64xi1, #bnk8>, %a: tensor<64x32xf16, #a8>, %c: tensor<64x64xf32, #o8>) -> tensor<64x64xf32, #o8> attributes {"tilegpu.num-warps" = 8 : i32} {
    %acc = tilegpu.convert_layout %c : tensor<64x64xf32, #o8> -> tensor<64x64xf32, #mma42>
    %c1 = arith.constant 1 : i32
    %buf = tilegpu.local_alloc : !tilegpu.memdesc<[2, 32, 64], f16, #nk>
    tilegpu.async_copy %p, %buf[%c1] mask %m {vec = 8 : i32} : tensor<32x64x!tile.ptr<f16>, #bnk8>, !tilegpu.memdesc<[2, 32, 64], f16, #nk>, tensor<32x64xi1, #bnk8>
    tilegpu.async_commit_group
    tilegpu.async_wait 0
    tile.barrier
    %b = tilegpu.local_load %buf[%c1] : !tilegpu.memdesc<[2, 32, 64], f16, #nk> -> tensor<32x64xf16, #tilegpu.dot_op<{opIdx = 1, parent = #mma42, kWidth = 2}>>
    %d = tile.dot %a, %b, %acc : tensor<64x32xf16, #a8> * tensor<32x64xf16, #tilegpu.dot_op<{opIdx = 1, parent = #mma42, kWidth = 2}>> -> tensor<64x64xf32, #mma42>
    %r = tilegpu.convert_layout %d : tensor<64x64xf32, #mma42> -> tensor<64x64xf32, #o8>
    return %r : tensor<64x64xf32, #o8>
  }
  // b loaded as bt [N, K] (rows along K, as attention loads K) and copied
  // with `transpose` into a slot that holds b [K, N] transposed.
  func.func @slot_trans(%p: tensor<64x32x!tile.ptr<f16>, #a>, %m: tensor<64x32xi1, #a>, %a: tensor<64x32xf16, #a>, %c: tensor<64x64xf32, #o>) -> tensor<64x64xf32, #o> attributes {"tilegpu.num-warps" = 4 : i32} {
    %acc = tilegpu.convert_layout %c : tensor<64x64xf32, #o> -> tensor<64x64xf32, #mma>
    %c1 = arith.constant 1 : i32
    %buf = tilegpu.local_alloc : !tilegpu.memdesc<[2, 32, 64], f16, #nk>
    tilegpu.async_copy %p, %buf[%c1] mask %m {transpose, vec = 8 : i32} : tensor<64x32x!tile.ptr<f16>, #a>, !tilegpu.memdesc<[2, 32, 64], f16, #nk>, tensor<64x32xi1, #a>
    tilegpu.async_commit_group
    tilegpu.async_wait 0
    tile.barrier
    %b = tilegpu.local_load %buf[%c1] : !tilegpu.memdesc<[2, 32, 64], f16, #nk> -> tensor<32x64xf16, #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tile.dot %a, %b, %acc : tensor<64x32xf16, #a> * tensor<32x64xf16, #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %r = tilegpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #o>
    return %r : tensor<64x64xf32, #o>
  }
}

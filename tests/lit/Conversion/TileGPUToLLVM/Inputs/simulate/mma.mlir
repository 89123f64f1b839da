// Tensor-core dots (mma.sync) at the tilegpu level, lowered to LLVM and run
// on the CPU by mma-harness.cpp with emulated ldmatrix, mma.sync and
// cp.async (see simulate-mma.test). b is staged by the dot, or copied into
// a slot with cp.async.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#o = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bkn = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#kn = #tilegpu.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // Staged by the dot.
  func.func @kn(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #bkn>, %c: tensor<64x64xf32, #o>) -> tensor<64x64xf32, #o> attributes {"tilegpu.num-warps" = 4 : i32} {
    %acc = tilegpu.convert_layout %c : tensor<64x64xf32, #o> -> tensor<64x64xf32, #mma>
    %d = tile.dot %a, %b, %acc : tensor<64x32xf16, #a> * tensor<32x64xf16, #bkn> -> tensor<64x64xf32, #mma>
    %r = tilegpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #o>
    return %r : tensor<64x64xf32, #o>
  }
  // b copied into slot 1 of two with cp.async (masked-off elements zero),
  // read by the dot from the slot. The accumulator is converted first: its
  // scratch may reuse the slots' bytes once the local_load has run (in a
  // pipelined loop the slots are live through the loop).
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
}

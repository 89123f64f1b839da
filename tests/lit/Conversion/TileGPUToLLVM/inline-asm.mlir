// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// tl.inline_asm_elementwise: one statement per `pack` elements of a thread,
// values narrower than 32 bits sharing registers of up to 32 bits (a vector
// of them bitcast to one integer, the first element in the low bits);
// several output registers come back as a struct. A thread whose
// elements do not fill its last pack repeats its last one there.

#l = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#s = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"tilegpu.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @bytes
  // CHECK-COUNT-4: llvm.insertelement
  // CHECK: %[[REG:.*]] = llvm.bitcast %{{.*}} : vector<4xi8> to i32
  // CHECK: %[[OUT:.*]] = llvm.inline_asm asm_dialect = att "add.u32 $0, $1, 0x01010101;", "=r,r" %[[REG]] : (i32) -> i32
  // CHECK: llvm.bitcast %[[OUT]] : i32 to vector<4xi8>
  // CHECK-COUNT-4: llvm.extractelement
  // CHECK-NOT: llvm.inline_asm
  func.func @bytes(%x: tensor<128xi8, #l>) -> tensor<128xi8, #l> attributes {"tilegpu.num-warps" = 1 : i32} {
    %y = tile.inline_asm "add.u32 $0, $1, 0x01010101;"(%x) {constraints = "=r,r", pure = true, pack = 4 : i32} : (tensor<128xi8, #l>) -> tensor<128xi8, #l>
    return %y : tensor<128xi8, #l>
  }

  // Two elements per thread, pack 4: one statement, the second element
  // repeated in the pack's last two places.
  // CHECK-LABEL: llvm.func @padded
  // CHECK: llvm.inline_asm
  // CHECK-NOT: llvm.inline_asm
  func.func @padded(%x: tensor<64xi8, #s>) -> tensor<64xi8, #s> attributes {"tilegpu.num-warps" = 1 : i32} {
    %y = tile.inline_asm "add.u32 $0, $1, 0x01010101;"(%x) {constraints = "=r,r", pure = true, pack = 4 : i32} : (tensor<64xi8, #s>) -> tensor<64xi8, #s>
    return %y : tensor<64xi8, #s>
  }

  // Four halves take two 32-bit registers of two each: outputs $0 and $1.
  // CHECK-LABEL: llvm.func @halves
  // CHECK: %[[OUT:.*]] = llvm.inline_asm asm_dialect = att "cvt", "=r,=r,r" %{{.*}} : (i32) -> !llvm.struct<(i32, i32)>
  // CHECK: %[[LOW:.*]] = llvm.extractvalue %[[OUT]][0]
  // CHECK: %[[HIGH:.*]] = llvm.extractvalue %[[OUT]][1]
  // CHECK: llvm.bitcast %[[LOW]] : i32 to vector<2xf16>
  // CHECK: llvm.bitcast %[[HIGH]] : i32 to vector<2xf16>
  func.func @halves(%x: tensor<128xi8, #l>) -> tensor<128xf16, #l> attributes {"tilegpu.num-warps" = 1 : i32} {
    %y = tile.inline_asm "cvt"(%x) {constraints = "=r,=r,r", pure = true, pack = 4 : i32} : (tensor<128xi8, #l>) -> tensor<128xf16, #l>
    return %y : tensor<128xf16, #l>
  }

  // CHECK-LABEL: llvm.func @two_results
  // CHECK-COUNT-2: llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, $2; add.s32 $1, $2, $2;", "=r,=r,r" %{{.*}} : (i32) -> !llvm.struct<(i32, i32)>
  func.func @two_results(%x: tensor<64xi32, #s>) -> (tensor<64xi32, #s>, tensor<64xi32, #s>) attributes {"tilegpu.num-warps" = 1 : i32} {
    %a, %b = tile.inline_asm "mov.b32 $0, $2; add.s32 $1, $2, $2;"(%x) {constraints = "=r,=r,r", pure = false, pack = 1 : i32} : (tensor<64xi32, #s>) -> (tensor<64xi32, #s>, tensor<64xi32, #s>)
    return %a, %b : tensor<64xi32, #s>, tensor<64xi32, #s>
  }

  // A pointer operand (pack 1) is one `l` register as it is.
  // CHECK-LABEL: llvm.func @pointer
  // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "ld.global.b32 $0, [$1];", "=r,l" %{{.*}} : (!llvm.ptr<1>) -> i32
  func.func @pointer(%p: tensor<64x!tile.ptr<i32>, #s>) -> tensor<64xi32, #s> attributes {"tilegpu.num-warps" = 1 : i32} {
    %y = tile.inline_asm "ld.global.b32 $0, [$1];"(%p) {constraints = "=r,l", pure = false, pack = 1 : i32} : (tensor<64x!tile.ptr<i32>, #s>) -> tensor<64xi32, #s>
    return %y : tensor<64xi32, #s>
  }
}

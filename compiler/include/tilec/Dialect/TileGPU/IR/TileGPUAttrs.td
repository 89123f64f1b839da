//===- TileGPUAttrs.td - Layout encodings ------------------*- tablegen -*-===//
//
// Layout encodings attached to ranked tensors in the tilegpu stage.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD
#define TILEC_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD

include "tilec/Dialect/TileGPU/IR/TileGPUDialect.td"
include "mlir/IR/AttrTypeBase.td"

def TileGPU_BlockedEncodingAttr
    : AttrDef<TileGPU_Dialect, "BlockedEncoding"> {
  let mnemonic = "blocked";
  let summary = "Elements spread over threads and warps in blocks";
  let description = [{
    Each thread holds `sizePerThread[d]` consecutive elements along each
    dimension d; `threadsPerWarp[d]` threads and then `warpsPerCTA[d]` warps
    tile the dimension; the pattern repeats over tiles larger than one
    such CTA tile and wraps over smaller ones (replication). `order` lists
    the dimensions from fastest to slowest varying, for threads, warps and
    the elements of one thread alike.

    `#tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32],
    warpsPerCTA = [4], order = [0]}>` gives a 1-D tile of 1024 elements two
    vectors of four elements per thread, 128-bit accesses when contiguous.
  }];
  let parameters = (ins
    ArrayRefParameter<"unsigned">:$sizePerThread,
    ArrayRefParameter<"unsigned">:$threadsPerWarp,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$order
  );
  let assemblyFormat = [{
    `<` `{` `sizePerThread` `=` `[` $sizePerThread `]` `,`
            `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,`
            `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
            `order` `=` `[` $order `]` `}` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Rank of the tensors this layout can describe.
    unsigned getRank() const { return getOrder().size(); }
    /// Elements one CTA tile covers along dimension `dim`.
    int64_t getCTATileSize(unsigned dim) const;
    /// Elements of a tensor of `shape` held by each thread: per dimension,
    /// CTA tiles times min(sizePerThread, shape) (no duplicates in a thread).
    int64_t getElemsPerThread(::llvm::ArrayRef<int64_t> shape) const;
    /// The default layout for a tensor of `shape`: threads and warps spread
    /// along the fastest dimensions first, `vector` consecutive elements per
    /// thread along the fastest dimension. The dimensions go from fastest to
    /// slowest as `order` says (empty: row-major, the last one fastest).
    /// Warps go to the dimensions in `warpsLast` (a bit per dimension: those
    /// a reduction or scan crosses) only when the others have no room left,
    /// so that such a reduction stays within warps.
    static BlockedEncodingAttr getDefault(::mlir::MLIRContext *context,
                                          ::llvm::ArrayRef<int64_t> shape,
                                          unsigned numWarps,
                                          unsigned threadsPerWarp,
                                          unsigned vector = 1,
                                          ::llvm::ArrayRef<unsigned> order = {},
                                          uint64_t warpsLast = 0);
  }];
}


def TileGPU_SliceEncodingAttr
    : AttrDef<TileGPU_Dialect, "SliceEncoding"> {
  let mnemonic = "slice";
  let summary = "A parent layout with one dimension removed";
  let description = [{
    The layout of a reduction's result and of expand_dims' operand: element
    i of a tensor with `#tilegpu.slice<{dim = d, parent = P}>` sits where
    element i-with-0-inserted-at-d sits in P (for the parent tensor's shape
    with size 1 at d). expand_dims from slice(P, d) to P moves no data.
  }];
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let assemblyFormat = "`<` `{` `dim` `=` $dim `,` `parent` `=` $parent `}` `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Rank of the tensors this layout can describe.
    unsigned getRank() const;
    /// `shape` with a 1 inserted at `dim`: the parent tensor's shape.
    ::llvm::SmallVector<int64_t> getParentShape(::llvm::ArrayRef<int64_t> shape) const;
  }];
}

def TileGPU_MmaEncodingAttr : AttrDef<TileGPU_Dialect, "MmaEncoding"> {
  let mnemonic = "mma";
  let summary = "The accumulator layout of warp-level tensor-core products";
  let description = [{
    The registers of `mma.sync.m16n8kK` (version 2, sm_80 and later) for a
    2-D tile: each warp computes 16x8 instruction tiles; warp w sits at
    (w / warpsPerCTA[1], w % warpsPerCTA[1]) of a CTA tile of
    [16 * warpsPerCTA[0], 8 * warpsPerCTA[1]], which repeats over larger
    tiles. In each instruction tile lane l (group g = l / 4, t = l % 4)
    holds (g, 2t), (g, 2t + 1), (g + 8, 2t), (g + 8, 2t + 1), in that
    register order; the instruction tiles follow with N fastest.

    `#tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>`
    gives a 128x128 accumulator 64x64 per warp, 128 fp32 per thread.

    Version 3 is the accumulator of `wgmma.mma_async.m64nNk16` (sm_90a):
    the same registers, with every warp along M (warpsPerCTA = [W, 1], W a
    multiple of 4); the warpgroup of warps 4g .. 4g+3 computes rows
    [64g, 64g + 64) of each CTA tile of 16 * W rows with one instruction
    per K step of 16 across the whole N.
  }];
  let parameters = (ins
    "unsigned":$version,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$instrShape
  );
  let assemblyFormat = [{
    `<` `{` `version` `=` $version `,`
            `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
            `instrShape` `=` `[` $instrShape `]` `}` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Elements one CTA tile covers along dimension `dim`.
    int64_t getCTATileSize(unsigned dim) const {
      return int64_t(getInstrShape()[dim]) * getWarpsPerCTA()[dim];
    }
    /// Instruction tiles each warp computes along each dimension of a tile
    /// of `shape` (at least 1).
    ::llvm::SmallVector<int64_t> getRepetitions(::llvm::ArrayRef<int64_t> shape) const;
  }];
}

def TileGPU_DotOperandEncodingAttr
    : AttrDef<TileGPU_Dialect, "DotOperandEncoding"> {
  let mnemonic = "dot_op";
  let summary = "The register layout of one operand of a tensor-core product";
  let description = [{
    Operand `opIdx` (0: a [M, K], 1: b [K, N]) of a product whose result has
    the `parent` MMA layout, as the instruction reads it: each 32-bit
    register holds `kWidth` elements consecutive along K (2 for fp16 and
    bf16, 1 for tf32, 4 for int8), and one instruction reads K = 8 * kWidth.
    For a, lane (g = l / 4, t = l % 4) holds per instruction tile the
    registers (g, t*kWidth), (g + 8, t*kWidth), (g, 4*kWidth + t*kWidth),
    (g + 8, 4*kWidth + t*kWidth), each with its kWidth elements; for b,
    (t*kWidth, g) and (4*kWidth + t*kWidth, g) along K. Warps of the
    parent that differ only in the other dimension hold the same elements.
  }];
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent,
                        "unsigned":$kWidth);
  let assemblyFormat = [{
    `<` `{` `opIdx` `=` $opIdx `,` `parent` `=` $parent `,`
            `kWidth` `=` $kWidth `}` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The parent layout as an MMA layout.
    MmaEncodingAttr getMmaParent() const {
      return ::llvm::cast<MmaEncodingAttr>(getParent());
    }
    /// K covered by one instruction.
    int64_t getInstrK() const { return 8 * int64_t(getKWidth()); }
    /// Instruction tiles along each dimension of a tile of `shape` that one
    /// warp reads (at least 1).
    ::llvm::SmallVector<int64_t> getRepetitions(::llvm::ArrayRef<int64_t> shape) const;
  }];
}

def TileGPU_SwizzledSharedEncodingAttr
    : AttrDef<TileGPU_Dialect, "SwizzledSharedEncoding"> {
  let mnemonic = "swizzled_shared";
  let summary = "A tile in shared memory with XOR-swizzled vectors";
  let description = [{
    How a 2-D tile sits in shared memory: rows of the dimension order[1],
    each row contiguous along order[0], cut into vectors of `vec` elements
    (16 bytes). order = [1, 0] stores a [R, C] tile row-major; order =
    [0, 1] stores it transposed, as the row-major [C, R] tile (a b operand
    [K, N] kept as [N, K], contiguous along K). Vector c of row r is stored
    at vector position c xor ((r / perPhase) mod maxPhase), so the eight
    16-byte rows an ldmatrix reads (or a warp's vector stores) fall in
    distinct banks.
    `perPhase` rows share a swizzle (128-byte lines hold that many rows).
    Rows longer than 128 bytes are cut into panels of 128-byte rows, stored
    one panel after another; every 8 rows of 128, 64 or 32 bytes then form
    the 1024-, 512- or 256-byte atom of wgmma's 128-, 64- or 32-byte
    swizzle, so that wgmma reads the same bytes through a descriptor.
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order);
  let genVerifyDecl = 1;
  let assemblyFormat = [{
    `<` `{` `vec` `=` $vec `,` `perPhase` `=` $perPhase `,`
            `maxPhase` `=` $maxPhase `,` `order` `=` `[` $order `]` `}` `>`
  }];
  let extraClassDeclaration = [{
    /// The bank-conflict-free layout for a 2-D tile of `shape` stored
    /// with dimension order[0] contiguous (rows of shape[order[0]] elements
    /// of `elementBits` bits) that ldmatrix reads in 8x16-byte blocks.
    static SwizzledSharedEncodingAttr getForLdmatrix(
        ::mlir::MLIRContext *context, ::llvm::ArrayRef<int64_t> shape,
        unsigned elementBits, ::llvm::ArrayRef<unsigned> order);
    /// Whether dimension 0 is the contiguous one (order = [0, 1]): the
    /// tile is stored transposed.
    bool isTransposed() const { return getOrder().front() == 0; }
  }];
}

#endif // TILEC_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD

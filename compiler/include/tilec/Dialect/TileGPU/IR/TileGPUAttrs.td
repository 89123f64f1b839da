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
    /// thread along the fastest dimension.
    static BlockedEncodingAttr getDefault(::mlir::MLIRContext *context,
                                          ::llvm::ArrayRef<int64_t> shape,
                                          unsigned numWarps,
                                          unsigned threadsPerWarp,
                                          unsigned vector = 1);
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

#endif // TILEC_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD

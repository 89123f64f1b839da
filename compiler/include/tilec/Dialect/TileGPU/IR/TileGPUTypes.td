//===- TileGPUTypes.td - Types of the tilegpu dialect ------*- tablegen -*-===//
//
// `!tilegpu.memdesc`: a multi-buffered tile in shared memory.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_IR_TILEGPUTYPES_TD
#define TILEC_DIALECT_TILEGPU_IR_TILEGPUTYPES_TD

include "tilec/Dialect/TileGPU/IR/TileGPUAttrs.td"

def TileGPU_MemDescType : TypeDef<TileGPU_Dialect, "MemDesc"> {
  let mnemonic = "memdesc";
  let summary = "Slots of a tile in shared memory";
  let description = [{
    `!tilegpu.memdesc<[3, 128, 32], f16, #tilegpu.swizzled_shared<...>>`
    is shared memory for 3 tiles of 128x32 f16 elements, one after another
    (a slot each), every slot laid out by the shared encoding. The software
    pipeliner fills slots with asynchronous copies while the dot reads
    another slot. Lowered to a pointer into the kernel's shared memory.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "::mlir::Attribute":$encoding);
  let assemblyFormat = [{
    `<` `[` $shape `]` `,` $elementType `,` $encoding `>`
  }];
  let extraClassDeclaration = [{
    /// Slots (the first dimension).
    int64_t getNumSlots() const { return getShape().front(); }
    /// The shape of one slot (every dimension but the first).
    ::llvm::ArrayRef<int64_t> getSlotShape() const {
      return getShape().drop_front();
    }
    /// Elements in one slot.
    int64_t getSlotElements() const;
  }];
  let genVerifyDecl = 1;
}

#endif // TILEC_DIALECT_TILEGPU_IR_TILEGPUTYPES_TD

//===- ExternalFunctions.cpp - Calls to functions outside the kernel ------===//
//
// Declares external functions and string constants once per module, at the
// module's top, whatever op is being rewritten.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/TileGPUToLLVM/ExternalFunctions.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::tilec;

/// The outermost module around `anchor`.
static ModuleOp enclosingModule(Operation *anchor) {
  ModuleOp module = isa<ModuleOp>(anchor) ? cast<ModuleOp>(anchor)
                                          : anchor->getParentOfType<ModuleOp>();
  while (ModuleOp outer = module->getParentOfType<ModuleOp>())
    module = outer;
  return module;
}

bool mlir::tilec::isExternalFunctionName(StringRef name) {
  return name.starts_with("__nv_") || name == "vprintf" || name == "__assertfail";
}

LLVM::LLVMFuncOp
mlir::tilec::getOrDeclareFunction(RewriterBase &rewriter, Operation *anchor,
                                  StringRef name, LLVM::LLVMFunctionType type) {
  ModuleOp module = enclosingModule(anchor);
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(rewriter, module.getLoc(), name, type);
}

Value mlir::tilec::callExternalFunction(Location loc, RewriterBase &rewriter,
                                        Operation *anchor, StringRef name,
                                        Type result, ValueRange args) {
  MLIRContext *context = rewriter.getContext();
  Type resultType = result ? result : LLVM::LLVMVoidType::get(context);
  auto type =
      LLVM::LLVMFunctionType::get(resultType, llvm::to_vector(args.getTypes()));
  LLVM::LLVMFuncOp func = getOrDeclareFunction(rewriter, anchor, name, type);
  auto call = LLVM::CallOp::create(rewriter, loc, func, args);
  return result ? call.getResult() : Value();
}

Value mlir::tilec::getGlobalString(Location loc, RewriterBase &rewriter,
                                   Operation *anchor, StringRef prefix,
                                   StringRef text) {
  ModuleOp module = enclosingModule(anchor);
  MLIRContext *context = rewriter.getContext();
  std::string contents = text.str();
  contents.push_back('\0');
  auto arrayType =
      LLVM::LLVMArrayType::get(IntegerType::get(context, 8), contents.size());
  // Reuse an identical string; otherwise pick a fresh name.
  std::string name;
  for (unsigned i = 0;; ++i) {
    name = (prefix + "_" + Twine(i)).str();
    auto existing = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!existing)
      break;
    auto value = dyn_cast_or_null<StringAttr>(existing.getValueOrNull());
    if (value && value.getValue() == contents)
      return LLVM::AddressOfOp::create(rewriter, loc, existing);
  }
  LLVM::GlobalOp global;
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    global =
        LLVM::GlobalOp::create(rewriter, module.getLoc(), arrayType,
                               /*isConstant=*/true, LLVM::Linkage::Internal,
                               name, rewriter.getStringAttr(contents));
  }
  return LLVM::AddressOfOp::create(rewriter, loc, global);
}

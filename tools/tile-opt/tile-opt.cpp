//===- tile-opt.cpp - mlir-opt with tilec's dialects and passes -----------===//
//
// Runs any of tilec's passes (and MLIR's) over textual IR: the tool behind
// the lit tests of every pass.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/Pipeline.h"

#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  mlir::LLVM::registerLLVMPasses();
  mlir::tilec::registerTilecPasses();
  mlir::DialectRegistry registry;
  mlir::tilec::registerTilecDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tilec optimizer driver\n", registry));
}

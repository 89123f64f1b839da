//===- tile-lsp-server.cpp - A language server for tilec's IR -------------===//
//
// MLIR's language server with tilec's dialects registered: an editor that
// opens a saved stage (`tilec --dump-stages`, `--emit=tile`/`tilegpu`/
// `llvm-mlir`) gets diagnostics, hover, go-to-definition and references
// for the tile and tilegpu ops, types and layouts (docs/editors.md).
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/Pipeline.h"

#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tilec::registerTilecDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry)) ? 1 : 0;
}

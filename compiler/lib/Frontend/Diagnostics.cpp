//===- Diagnostics.cpp - Error reporting for the tilec frontend -----------===//
//
// Implements DiagnosticEngine on top of llvm::SourceMgr::PrintMessage.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Diagnostics.h"

#include "llvm/Support/WithColor.h"

using namespace tilec;

void DiagnosticEngine::error(SourceLoc loc, const llvm::Twine &message) {
  ++numErrors;
  if (observer)
    observer(true, loc, message.str());
  // Errors about the command line have no location: "error: message".
  if (!loc.isValid()) {
    llvm::WithColor::error(*os) << message << "\n";
    return;
  }
  srcMgr.PrintMessage(*os, loc, llvm::SourceMgr::DK_Error, message);
}

void DiagnosticEngine::note(SourceLoc loc, const llvm::Twine &message) {
  if (observer)
    observer(false, loc, message.str());
  if (!loc.isValid()) {
    llvm::WithColor::note(*os) << message << "\n";
    return;
  }
  srcMgr.PrintMessage(*os, loc, llvm::SourceMgr::DK_Note, message);
}

LineColumn DiagnosticEngine::resolve(SourceLoc loc) const {
  LineColumn result;
  if (!loc.isValid())
    return result;
  unsigned bufferId = srcMgr.FindBufferContainingLoc(loc);
  if (bufferId == 0)
    return result;
  result.file = srcMgr.getMemoryBuffer(bufferId)->getBufferIdentifier();
  std::tie(result.line, result.column) = srcMgr.getLineAndColumn(loc, bufferId);
  return result;
}

//===- Diagnostics.cpp - Error reporting for the tilec frontend -----------===//
//
// Implements DiagnosticEngine on top of llvm::SourceMgr::PrintMessage.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Diagnostics.h"

#include "llvm/Support/WithColor.h"

using namespace tilec;

/// Prints `message` of `kind` at `loc` (without a position when `loc` is
/// invalid: errors about the command line) and tells the observer.
static void report(llvm::SourceMgr &srcMgr, llvm::raw_ostream &os,
                   const DiagnosticEngine::Observer &observer,
                   llvm::SourceMgr::DiagKind kind, SourceLoc loc,
                   const llvm::Twine &message) {
  if (observer)
    observer(kind, loc, message.str());
  if (loc.isValid()) {
    srcMgr.PrintMessage(os, loc, kind, message);
    return;
  }
  switch (kind) {
  case llvm::SourceMgr::DK_Error: llvm::WithColor::error(os); break;
  case llvm::SourceMgr::DK_Warning: llvm::WithColor::warning(os); break;
  default: llvm::WithColor::note(os); break;
  }
  os << message << "\n";
}

void DiagnosticEngine::error(SourceLoc loc, const llvm::Twine &message) {
  ++numErrors;
  report(srcMgr, *os, observer, llvm::SourceMgr::DK_Error, loc, message);
}

void DiagnosticEngine::warning(SourceLoc loc, const llvm::Twine &message) {
  report(srcMgr, *os, observer, llvm::SourceMgr::DK_Warning, loc, message);
}

void DiagnosticEngine::note(SourceLoc loc, const llvm::Twine &message) {
  report(srcMgr, *os, observer, llvm::SourceMgr::DK_Note, loc, message);
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

//===- Diagnostics.h - Error reporting for the tilec frontend ---*- C++ -*-===//
//
// DiagnosticEngine wraps an llvm::SourceMgr: every message is printed as
// `file:line:col: error: message`, followed by the source line and a caret.
// It counts errors and can redirect its output (tests capture it in a string).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_FRONTEND_DIAGNOSTICS_H
#define TILEC_FRONTEND_DIAGNOSTICS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

namespace tilec {

/// A position in a source buffer owned by the SourceMgr. Every AST node has
/// one; resolve it to file/line/column with DiagnosticEngine::resolve.
using SourceLoc = llvm::SMLoc;

/// A SourceLoc resolved to something printable (1-based line and column).
struct LineColumn {
  llvm::StringRef file; ///< The buffer's name (the path the user gave).
  unsigned line = 0;    ///< 0 when the location is invalid.
  unsigned column = 0;
};

/// Reports errors, warnings and notes through a SourceMgr and counts errors.
class DiagnosticEngine {
public:
  /// Messages go to `os` (llvm::errs() by default).
  explicit DiagnosticEngine(llvm::SourceMgr &srcMgr,
                            llvm::raw_ostream &os = llvm::errs())
      : srcMgr(srcMgr), os(&os) {}

  /// Reports an error at `loc` (an invalid loc prints without a position).
  void error(SourceLoc loc, const llvm::Twine &message);
  /// Reports a note (attached to the previous error or warning) at `loc`.
  void note(SourceLoc loc, const llvm::Twine &message);
  /// Reports a warning at `loc`: the source compiles, but something in it
  /// has no effect (an option tilec ignores).
  void warning(SourceLoc loc, const llvm::Twine &message);

  /// Number of errors reported so far.
  unsigned getNumErrors() const { return numErrors; }
  bool hasErrors() const { return numErrors != 0; }

  /// Resolves a location to file, line and column (for mlir::FileLineColLoc).
  LineColumn resolve(SourceLoc loc) const;

  llvm::SourceMgr &getSourceMgr() const { return srcMgr; }

  /// Called with every message besides printing it (the compiler library
  /// returns them as values): its kind (error, warning or note), where, and
  /// the text.
  using Observer = std::function<void(llvm::SourceMgr::DiagKind kind, SourceLoc loc,
                                      llvm::StringRef message)>;
  void setObserver(Observer newObserver) { observer = std::move(newObserver); }

private:
  llvm::SourceMgr &srcMgr;
  llvm::raw_ostream *os;
  Observer observer;
  unsigned numErrors = 0;
};

} // namespace tilec

#endif // TILEC_FRONTEND_DIAGNOSTICS_H

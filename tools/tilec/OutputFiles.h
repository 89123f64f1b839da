//===- OutputFiles.h - Writing outputs atomically ---------------*- C++ -*-===//
//
// tilec never leaves a torn or mixed output: every file is written to a
// temporary file in its own directory and renamed into place, and the files
// of one compilation (the PTX and its metadata) are renamed together under a
// lock on their directory, so that concurrent compilations to one path leave
// one compilation's pair. Devices and pipes (`-o /dev/stdout`) are written
// in place.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_OUTPUTFILES_H
#define TILEC_TOOLS_TILEC_OUTPUTFILES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tilec {

/// One file to write: its path ("-" is stdout) and its whole contents.
struct OutputFile {
  std::string path;
  std::string contents;
};

/// Writes `files` as one group (see the file comment). False with `error`
/// set on any failure (nothing is renamed into place then).
bool writeOutputFiles(llvm::ArrayRef<OutputFile> files, std::string &error);

} // namespace tilec

#endif // TILEC_TOOLS_TILEC_OUTPUTFILES_H

//===- PtxasReport.cpp - Registers and spills from ptxas ------------------===//
//
// Runs `ptxas -v --gpu-name ARCH in.ptx -o /dev/null` on a temporary copy of
// the PTX and reads its "info" lines.
//
//===----------------------------------------------------------------------===//

#include "PtxasReport.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;

std::string tilec::findPtxas() {
  if (const char *path = std::getenv("TILEC_PTXAS"); path && *path)
    return path;
  SmallVector<std::string, 3> candidates;
  if (const char *cuda = std::getenv("CUDA_HOME"); cuda && *cuda)
    candidates.push_back((Twine(cuda) + "/bin/ptxas").str());
  candidates.push_back("/usr/local/cuda/bin/ptxas");
  for (const std::string &candidate : candidates)
    if (sys::fs::can_execute(candidate))
      return candidate;
  if (ErrorOr<std::string> found = sys::findProgramByName("ptxas"))
    return *found;
  return "";
}

std::optional<std::string> tilec::ptxasReport(StringRef ptxas, StringRef ptx,
                                              StringRef arch, std::string &error) {
  SmallString<128> input, log;
  if (std::error_code ec = sys::fs::createTemporaryFile("tilec-report", "ptx", input)) {
    error = "cannot create a temporary file: " + ec.message();
    return std::nullopt;
  }
  FileRemover removeInput(input);
  if (std::error_code ec = sys::fs::createTemporaryFile("tilec-report", "log", log)) {
    error = "cannot create a temporary file: " + ec.message();
    return std::nullopt;
  }
  FileRemover removeLog(log);
  {
    std::error_code ec;
    raw_fd_ostream os(input, ec);
    os << ptx;
    os.close();
    if (ec || os.has_error()) {
      os.clear_error();
      error = "cannot write '" + input.str().str() + "'";
      return std::nullopt;
    }
  }
  std::string gpu = arch.str();
  SmallVector<StringRef, 8> argv{ptxas, "-v", "--gpu-name", gpu, input, "-o", "/dev/null"};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log), StringRef(log)};
  std::string execError;
  int status = sys::ExecuteAndWait(ptxas, argv, std::nullopt, redirects, /*Seconds=*/60,
                                   /*MemoryLimit=*/0, &execError);
  ErrorOr<std::unique_ptr<MemoryBuffer>> output = MemoryBuffer::getFile(log);
  std::string text = output ? (*output)->getBuffer().str() : "";
  if (status != 0) {
    error = "ptxas (" + ptxas.str() + ") failed" +
            (execError.empty() ? "" : ": " + execError) + (text.empty() ? "" : ":\n" + text);
    return std::nullopt;
  }
  // "Function properties for K" is followed by its stack/spill line; "Used N
  // registers, used B barriers" closes the entry's block.
  Regex entry("Compiling entry function '([^']+)'");
  Regex spills("([0-9]+) bytes stack frame, ([0-9]+) bytes spill stores, ([0-9]+) bytes "
               "spill loads");
  Regex used("Used ([0-9]+) registers(, used ([0-9]+) barriers)?");
  std::string report, kernel, stack = "0", stores = "0", loads = "0";
  SmallVector<StringRef, 8> lines;
  StringRef(text).split(lines, '\n');
  for (StringRef line : lines) {
    SmallVector<StringRef, 4> match;
    if (entry.match(line, &match)) {
      kernel = match[1].str();
      stack = stores = loads = "0";
    } else if (spills.match(line, &match)) {
      stack = match[1].str();
      stores = match[2].str();
      loads = match[3].str();
    } else if (!kernel.empty() && used.match(line, &match)) {
      report += kernel + ": " + match[1].str() + " registers, " + stores +
                " bytes spill stores, " + loads + " bytes spill loads, " + stack +
                " bytes stack, " + (match[3].empty() ? "0" : match[3].str()) +
                " barriers\n";
      kernel.clear();
    }
  }
  return report;
}

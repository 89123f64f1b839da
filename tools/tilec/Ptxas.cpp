//===- Ptxas.cpp - Running NVIDIA's ptxas ---------------------------------===//
//
// Writes the PTX to a temporary file, runs ptxas on it with its log in
// another, and reads back what was asked for: the "info" lines of `-v`
// (--report) or the cubin (--emit=cubin).
//
//===----------------------------------------------------------------------===//

#include "Ptxas.h"
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

/// Runs `ptxas ARGS in.ptx -o OUTPUT` on a temporary copy of `ptx`; its
/// log (stdout and stderr), or none with `error` set when it fails.
static std::optional<std::string> runPtxas(StringRef ptxas, StringRef ptx,
                                           ArrayRef<std::string> args,
                                           StringRef output, std::string &error) {
  SmallString<128> input, log;
  if (std::error_code ec = sys::fs::createTemporaryFile("tilec-ptxas", "ptx", input)) {
    error = "cannot create a temporary file: " + ec.message();
    return std::nullopt;
  }
  FileRemover removeInput(input);
  if (std::error_code ec = sys::fs::createTemporaryFile("tilec-ptxas", "log", log)) {
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
  SmallVector<StringRef, 12> argv{ptxas};
  argv.append(args.begin(), args.end());
  argv.append({input, "-o", output});
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log), StringRef(log)};
  std::string execError;
  int status = sys::ExecuteAndWait(ptxas, argv, std::nullopt, redirects, /*Seconds=*/120,
                                   /*MemoryLimit=*/0, &execError);
  ErrorOr<std::unique_ptr<MemoryBuffer>> text = MemoryBuffer::getFile(log);
  std::string logText = text ? (*text)->getBuffer().str() : "";
  if (status != 0) {
    error = "ptxas (" + ptxas.str() + ") failed" +
            (execError.empty() ? "" : ": " + execError) +
            (logText.empty() ? "" : ":\n" + logText);
    return std::nullopt;
  }
  return logText;
}

std::optional<std::string> tilec::ptxasReport(StringRef ptxas, StringRef ptx,
                                              StringRef arch, std::string &error) {
  std::optional<std::string> text =
      runPtxas(ptxas, ptx, {"-v", "--gpu-name", arch.str()}, "/dev/null", error);
  if (!text)
    return std::nullopt;
  // "Function properties for K" is followed by its stack/spill line; "Used N
  // registers, used B barriers" closes the entry's block.
  Regex entry("Compiling entry function '([^']+)'");
  Regex spills("([0-9]+) bytes stack frame, ([0-9]+) bytes spill stores, ([0-9]+) bytes "
               "spill loads");
  Regex used("Used ([0-9]+) registers(, used ([0-9]+) barriers)?");
  std::string report, kernel, stack = "0", stores = "0", loads = "0";
  SmallVector<StringRef, 8> lines;
  StringRef(*text).split(lines, '\n');
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

std::optional<std::string> tilec::assembleCubin(StringRef ptxas, StringRef ptx,
                                                StringRef arch, unsigned optLevel,
                                                bool lineInfo, std::string &error) {
  SmallString<128> output;
  if (std::error_code ec = sys::fs::createTemporaryFile("tilec-ptxas", "cubin", output)) {
    error = "cannot create a temporary file: " + ec.message();
    return std::nullopt;
  }
  FileRemover removeOutput(output);
  SmallVector<std::string, 4> args{"--gpu-name", arch.str(),
                                   "-O" + std::to_string(optLevel)};
  if (lineInfo)
    args.push_back("-lineinfo");
  if (!runPtxas(ptxas, ptx, args, output, error))
    return std::nullopt;
  ErrorOr<std::unique_ptr<MemoryBuffer>> cubin =
      MemoryBuffer::getFile(output, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!cubin) {
    error = "cannot read what ptxas wrote to '" + output.str().str() +
            "': " + cubin.getError().message();
    return std::nullopt;
  }
  return (*cubin)->getBuffer().str();
}

//===- SourceFile.cpp - Reading a .tile source ----------------------------===//
//
// POSIX reads, bounded even when the file grows while it is read.
//
//===----------------------------------------------------------------------===//
#include "SourceFile.h"

#include "llvm/Support/FileSystem.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace llvm;

static std::string describeErrno(StringRef what, StringRef path) {
  return (what + " '" + path + "': " + std::strerror(errno)).str();
}

std::optional<std::string> tilec::readSourceFile(StringRef path, std::string &error) {
  sys::fs::file_status status;
  if (std::error_code ec = sys::fs::status(path, status)) {
    error = "cannot read '" + path.str() + "': " + ec.message();
    return std::nullopt;
  }
  if (status.type() != sys::fs::file_type::regular_file) {
    error = "cannot read '" + path.str() + "': not a regular file";
    return std::nullopt;
  }
  if (status.getSize() > kMaxSourceBytes) {
    error = "'" + path.str() + "' is " + std::to_string(status.getSize()) +
            " bytes; a .tile source may have at most " +
            std::to_string(kMaxSourceBytes) + " bytes";
    return std::nullopt;
  }
  int fd = ::open(path.str().c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = describeErrno("cannot read", path);
    return std::nullopt;
  }
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    ssize_t got = ::read(fd, buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      error = describeErrno("cannot read", path);
      ::close(fd);
      return std::nullopt;
    }
    if (got == 0)
      break;
    text.append(buffer, got);
    if (text.size() > kMaxSourceBytes) { // It grew while being read.
      error = "'" + path.str() + "' has more than " + std::to_string(kMaxSourceBytes) +
              " bytes, the limit for a .tile source";
      ::close(fd);
      return std::nullopt;
    }
  }
  ::close(fd);
  return text;
}

//===- OutputFiles.cpp - Writing outputs atomically ---------------------===//
//
// POSIX files: temporary files created beside their destination, rename(2)
// into place, flock(2) on the destination directory around a group's renames.
//
//===----------------------------------------------------------------------===//

#include "OutputFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

using namespace llvm;

namespace {

std::string describeErrno(StringRef what, StringRef path) {
  return (what + " '" + path + "': " + std::strerror(errno)).str();
}

/// Writes all of `contents` to `fd`; false with errno set on failure.
bool writeAll(int fd, StringRef contents) {
  const char *data = contents.data();
  size_t left = contents.size();
  while (left > 0) {
    ssize_t written = ::write(fd, data, left);
    if (written < 0 && errno == EINTR)
      continue;
    if (written <= 0) {
      if (written == 0)
        errno = EIO;
      return false;
    }
    data += written;
    left -= written;
  }
  return true;
}

/// True if `path` exists and is not a regular file (a device, a pipe):
/// such outputs are written in place, never replaced.
bool isSpecialFile(StringRef path) {
  sys::fs::file_status status;
  return !sys::fs::status(path, status) && sys::fs::exists(status) &&
         status.type() != sys::fs::file_type::regular_file &&
         status.type() != sys::fs::file_type::directory_file;
}

/// Writes `contents` into the existing file or device `path` in place.
bool writeInPlace(StringRef path, StringRef contents, std::string &error) {
  int fd = path == "-" ? STDOUT_FILENO : ::open(path.str().c_str(), O_WRONLY);
  if (fd < 0) {
    error = describeErrno("cannot open", path);
    return false;
  }
  bool ok = writeAll(fd, contents);
  if (!ok)
    error = describeErrno("cannot write", path == "-" ? "<stdout>" : path);
  if (fd != STDOUT_FILENO && ::close(fd) != 0 && ok) {
    error = describeErrno("cannot write", path);
    ok = false;
  }
  return ok;
}

/// The directory that holds `path` ("." for a bare name).
std::string directoryOf(StringRef path) {
  StringRef dir = sys::path::parent_path(path);
  return dir.empty() ? "." : dir.str();
}

/// An exclusive flock(2) on a directory, held while alive.
class DirectoryLock {
public:
  explicit DirectoryLock(const std::string &dir) {
    fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0)
      while (::flock(fd, LOCK_EX) != 0 && errno == EINTR) {
      }
  }
  ~DirectoryLock() {
    if (fd >= 0)
      ::close(fd); // Releases the lock.
  }
  DirectoryLock(const DirectoryLock &) = delete;
  DirectoryLock &operator=(const DirectoryLock &) = delete;

private:
  int fd = -1;
};

} // namespace


bool tilec::writeOutputFiles(ArrayRef<OutputFile> files, std::string &error) {
  // Special files and stdout first, in place; the rest go through
  // temporaries that are renamed together.
  struct Pending {
    std::string temporary, path;
  };
  std::vector<Pending> pending;
  auto removeTemporaries = [&] {
    for (const Pending &p : pending)
      sys::fs::remove(p.temporary);
  };
  for (const OutputFile &file : files) {
    if (file.path == "-" || isSpecialFile(file.path)) {
      if (!writeInPlace(file.path, file.contents, error)) {
        removeTemporaries();
        return false;
      }
      continue;
    }
    SmallString<256> model(directoryOf(file.path));
    sys::path::append(model, "." + sys::path::filename(file.path) + ".tmp-%%%%%%%%");
    int fd;
    SmallString<256> temporary;
    if (std::error_code ec = sys::fs::createUniqueFile(model, fd, temporary)) {
      error = "cannot write '" + file.path + "': " + ec.message();
      removeTemporaries();
      return false;
    }
    pending.push_back({std::string(temporary), file.path});
    bool ok = writeAll(fd, file.contents);
    if (!ok)
      error = describeErrno("cannot write", file.path);
    if (::close(fd) != 0 && ok) {
      error = describeErrno("cannot write", file.path);
      ok = false;
    }
    if (!ok) {
      removeTemporaries();
      return false;
    }
  }
  if (pending.empty())
    return true;
  // One lock per directory would be needed for a group spanning several;
  // tilec's groups (a PTX and its metadata) share one.
  DirectoryLock lock(directoryOf(pending.front().path));
  for (size_t i = 0; i < pending.size(); ++i) {
    if (::rename(pending[i].temporary.c_str(), pending[i].path.c_str()) != 0) {
      error = describeErrno("cannot write", pending[i].path);
      for (size_t j = i; j < pending.size(); ++j)
        sys::fs::remove(pending[j].temporary);
      return false;
    }
  }
  return true;
}

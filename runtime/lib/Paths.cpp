//===- Paths.cpp - Finding and reading files ------------------------------===//
#include "tile/Paths.h"

#include "Files.h"
#include "tile/Error.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace tile {

std::string readFile(const std::string &Path, const char *What) {
  struct stat St;
  if (::stat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode))
    throw Error(std::string("cannot read ") + What + " '" + Path +
                "': it is a directory");
  errno = 0;
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    throw Error(std::string("cannot open ") + What + " '" + Path +
                "': " + std::strerror(errno));
  std::ostringstream Buf;
  Buf << In.rdbuf();
  if (In.bad())
    throw Error(std::string("cannot read ") + What + " '" + Path + "'");
  return Buf.str();
}

std::string executableDir() {
  char Buf[4096];
  ssize_t Len = ::readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
  if (Len <= 0)
    return {};
  std::string Path(Buf, static_cast<std::size_t>(Len));
  std::size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? std::string() : Path.substr(0, Slash);
}

std::string findFile(const std::string &FileName,
                     const std::vector<std::string> &Dirs) {
  std::string Tried;
  for (const std::string &Dir : Dirs) {
    if (Dir.empty())
      continue;
    std::string Path = Dir + "/" + FileName;
    struct stat St;
    if (::stat(Path.c_str(), &St) == 0 && S_ISREG(St.st_mode))
      return Path;
    Tried += "\n  " + Path;
  }
  throw Error(
      "cannot find " + FileName + "; tried:" +
      (Tried.empty() ? std::string(" nothing (no directories given)") : Tried));
}

} // namespace tile

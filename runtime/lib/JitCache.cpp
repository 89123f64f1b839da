//===- JitCache.cpp - The JIT's disk cache --------------------------------===//
//
// Entry format (text header, binary-safe payloads):
//   "tilec-jit-cache 1\n", then for the key and each payload its size in
//   decimal and "\n" followed by its bytes, then "end " and the FNV-1a
//   checksum (tile::ptxHash) of everything before it, and "\n".
//
//===----------------------------------------------------------------------===//
#include "JitCache.h"

#include "tile/Metadata.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace tile {

namespace {

constexpr const char *Magic = "tilec-jit-cache 1\n";

/// Appends \p Field with its size to \p Out.
void appendField(std::string &Out, const std::string &Field) {
  Out += std::to_string(Field.size());
  Out += '\n';
  Out += Field;
}

/// Reads one field at \p Pos of \p Text; false when malformed.
bool readField(const std::string &Text, std::size_t &Pos, std::string &Field) {
  std::size_t Newline = Text.find('\n', Pos);
  if (Newline == std::string::npos || Newline == Pos || Newline - Pos > 12)
    return false;
  std::size_t Size = 0;
  for (std::size_t I = Pos; I < Newline; ++I) {
    if (Text[I] < '0' || Text[I] > '9')
      return false;
    Size = Size * 10 + static_cast<std::size_t>(Text[I] - '0');
  }
  if (Size > Text.size() - Newline - 1)
    return false;
  Field = Text.substr(Newline + 1, Size);
  Pos = Newline + 1 + Size;
  return true;
}

/// Writes all of \p Data to \p Fd.
bool writeAll(int Fd, const std::string &Data) {
  const char *P = Data.data();
  std::size_t Left = Data.size();
  while (Left > 0) {
    ssize_t N = ::write(Fd, P, Left);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    P += N;
    Left -= static_cast<std::size_t>(N);
  }
  return true;
}

/// The process's file-creation mask, read once (umask() sets it too).
mode_t processUmask() {
  static const mode_t Mask = [] {
    mode_t M = ::umask(022);
    ::umask(M);
    return M;
  }();
  return Mask;
}

} // namespace

std::string DiskCache::pathFor(const std::string &Key) const {
  std::string Hash = ptxHash(Key); // "fnv1a64:" + 16 hex digits.
  return Dir + "/" + Hash.substr(Hash.find(':') + 1) + ".entry";
}

std::optional<std::vector<std::string>>
DiskCache::load(const std::string &Key) const {
  std::ifstream In(pathFor(Key), std::ios::binary);
  if (!In)
    return std::nullopt;
  std::ostringstream Buffer;
  Buffer << In.rdbuf();
  std::string Text = Buffer.str();
  std::size_t MagicSize = std::strlen(Magic);
  if (Text.compare(0, MagicSize, Magic) != 0)
    return std::nullopt;
  std::size_t End = Text.rfind("end ");
  if (End == std::string::npos || Text.back() != '\n' ||
      Text.substr(End + 4, Text.size() - End - 5) != ptxHash(Text.substr(0, End)))
    return std::nullopt;
  std::size_t Pos = MagicSize;
  std::string StoredKey;
  if (!readField(Text, Pos, StoredKey) || StoredKey != Key)
    return std::nullopt;
  std::vector<std::string> Payloads;
  while (Pos < End) {
    std::string Field;
    if (!readField(Text, Pos, Field))
      return std::nullopt;
    Payloads.push_back(std::move(Field));
  }
  if (Pos != End)
    return std::nullopt;
  return Payloads;
}

bool DiskCache::store(const std::string &Key, const std::vector<std::string> &Payloads,
                      std::string &Error) const {
  std::error_code EC;
  std::filesystem::create_directories(Dir, EC);
  if (EC) {
    Error = "cannot create the cache directory '" + Dir + "': " + EC.message();
    return false;
  }
  std::string Text = Magic;
  appendField(Text, Key);
  for (const std::string &Payload : Payloads)
    appendField(Text, Payload);
  std::string Checksum = ptxHash(Text);
  Text += "end " + Checksum + "\n";

  std::string Final = pathFor(Key);
  std::string Temp = Final + ".tmp.XXXXXX";
  int Fd = ::mkstemp(Temp.data());
  if (Fd < 0) {
    Error = "cannot create a file in '" + Dir + "': " + std::strerror(errno);
    return false;
  }
  ::fchmod(Fd, 0666 & ~processUmask()); // mkstemp's 0600, widened as the umask allows.
  bool Ok = writeAll(Fd, Text);
  Ok = (::close(Fd) == 0) && Ok;
  if (Ok && ::rename(Temp.c_str(), Final.c_str()) == 0)
    return true;
  Error = "cannot write '" + Final + "': " + std::strerror(errno);
  ::unlink(Temp.c_str());
  return false;
}

} // namespace tile

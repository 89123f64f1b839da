//===- Paths.h - Finding kernel files at run time ----------------*- C++
//-*-===//
//
// Helpers for host programs that look for their PTX in a configured build
// directory and, failing that, relative to the executable, so that a build
// tree copied to another machine still finds its kernels.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_PATHS_H
#define TILE_PATHS_H

#include <string>
#include <vector>

namespace tile {

/// The directory of the running executable (from /proc/self/exe); empty when
/// it cannot be determined.
std::string executableDir();

/// Returns the first existing "Dir/FileName" for Dir in \p Dirs (empty
/// entries are skipped). Throws tile::Error listing every path tried.
std::string findFile(const std::string &FileName,
                     const std::vector<std::string> &Dirs);

} // namespace tile

#endif // TILE_PATHS_H

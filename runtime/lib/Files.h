//===- Files.h - Reading whole files ------------------------------*- C++
//-*-===//
//
// Private helper shared by metadata and module loading.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_FILES_H
#define TILE_LIB_FILES_H

#include <string>

namespace tile {

/// Returns the contents of \p Path. Throws tile::Error "cannot open <What>
/// '<Path>': <reason>" when it cannot be read.
std::string readFile(const std::string &Path, const char *What);

} // namespace tile

#endif // TILE_LIB_FILES_H

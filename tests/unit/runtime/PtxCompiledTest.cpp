//===- PtxCompiledTest.cpp - tilec's own outputs pass the PTX check -------===//
//
// Every PTX + metadata pair the build compiled with tilec (the examples and
// the GPU tests' kernels, TILEC_COMPILED_PTX_DIRS) passes
// ModuleMetadata::checkPtx, as Module::loadFile runs it. Skipped when the
// compiler is not built.
//
//===----------------------------------------------------------------------===//
#include "tile/Error.h"
#include "tile/Metadata.h"
#include "tile/Module.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace {

TEST(PtxCompiled, EveryTilecOutputPassesTheCheck) {
#ifndef TILEC_COMPILED_PTX_DIRS
  GTEST_SKIP() << "tilec is not built (TILEC_BUILD_COMPILER=OFF)";
#else
  std::string Dirs = TILEC_COMPILED_PTX_DIRS;
  unsigned Checked = 0, Reqntid = 0, WithShared = 0;
  for (std::size_t Start = 0; Start <= Dirs.size();) {
    std::size_t End = Dirs.find(':', Start);
    End = End == std::string::npos ? Dirs.size() : End;
    std::filesystem::path Dir = Dirs.substr(Start, End - Start);
    Start = End + 1;
    ASSERT_TRUE(std::filesystem::is_directory(Dir)) << Dir;
    for (const auto &Entry : std::filesystem::directory_iterator(Dir)) {
      if (Entry.path().extension() != ".ptx")
        continue;
      std::string PtxPath = Entry.path().string();
      std::ifstream In(PtxPath, std::ios::binary);
      std::string Ptx{std::istreambuf_iterator<char>(In), {}};
      try {
        tile::ModuleMetadata Meta =
            tile::ModuleMetadata::loadFile(tile::metadataPathFor(PtxPath));
        Meta.checkPtx(Ptx, PtxPath);
        for (const tile::KernelInfo &K : Meta.Kernels)
          WithShared += K.SharedBytes > 0;
      } catch (const tile::Error &E) {
        ADD_FAILURE() << E.what();
      }
      Reqntid += Ptx.find("\n.reqntid ") != std::string::npos;
      ++Checked;
    }
  }
  // The examples alone are seven modules; softmax and matmul use shared
  // memory.
  EXPECT_GE(Checked, 7u);
  EXPECT_EQ(Reqntid, Checked);
  EXPECT_GE(WithShared, 2u);
#endif
}

} // namespace

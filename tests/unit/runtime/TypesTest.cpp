//===- TypesTest.cpp - Types, fp16/bf16 conversions and file helpers ------===//
#include "tile/Types.h"
#include "tile/Error.h"
#include "tile/Half.h"
#include "tile/Module.h"
#include "tile/Paths.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>

namespace {

TEST(Types, ParseAndPrint) {
  for (const char *S :
       {"i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "fp16",
        "bf16", "fp32", "fp64", "*fp32", "*i8", "*bf16"}) {
    std::optional<tile::TileType> T = tile::TileType::parse(S);
    ASSERT_TRUE(T) << S;
    EXPECT_EQ(T->str(), S);
  }
  for (const char *S : {"", "*", "**fp32", "fp31", "float", "I32", " i32"})
    EXPECT_FALSE(tile::TileType::parse(S)) << S;
}

TEST(Types, ParamSizes) {
  EXPECT_EQ(tile::TileType::parse("i1")->paramSize(), 1u);
  EXPECT_EQ(tile::TileType::parse("bf16")->paramSize(), 2u);
  EXPECT_EQ(tile::TileType::parse("u32")->paramSize(), 4u);
  EXPECT_EQ(tile::TileType::parse("fp64")->paramSize(), 8u);
  EXPECT_EQ(tile::TileType::parse("*i8")->paramSize(), 8u);
}

TEST(Types, HostTypeMapping) {
  static_assert(tile::scalarKindOf<int>() == tile::ScalarKind::I32);
  static_assert(tile::scalarKindOf<const float>() == tile::ScalarKind::FP32);
  static_assert(tile::scalarKindOf<unsigned long long>() ==
                tile::ScalarKind::U64);
  static_assert(tile::scalarKindOf<signed char>() == tile::ScalarKind::I8);
  static_assert(tile::scalarKindOf<tile::BFloat16>() == tile::ScalarKind::BF16);
}

TEST(Half, KnownValues) {
  EXPECT_EQ(tile::Half::fromFloat(1.0f).Bits, 0x3C00);
  EXPECT_EQ(tile::Half::fromFloat(-2.0f).Bits, 0xC000);
  EXPECT_EQ(tile::Half::fromFloat(65504.0f).Bits, 0x7BFF);
  EXPECT_EQ(tile::Half::fromFloat(65519.0f).Bits, 0x7BFF);
  EXPECT_EQ(tile::Half::fromFloat(65520.0f).Bits, 0x7C00); // Rounds to inf.
  EXPECT_EQ(tile::Half::fromFloat(std::ldexp(1.0f, -24)).Bits, 0x0001);
  EXPECT_EQ(tile::Half::fromFloat(std::ldexp(1.0f, -25)).Bits, 0x0000); // Tie.
  EXPECT_EQ(tile::Half::fromFloat(std::ldexp(3.0f, -25)).Bits, 0x0002); // Tie.
  EXPECT_EQ(tile::Half::fromFloat(-0.0f).Bits, 0x8000);
  EXPECT_EQ(tile::Half::fromFloat(1.0f + std::ldexp(1.0f, -11)).Bits,
            0x3C00); // Tie to even.
  EXPECT_EQ(tile::Half::fromFloat(1.0f + std::ldexp(3.0f, -11)).Bits, 0x3C02);
  EXPECT_TRUE(
      std::isnan(tile::Half::fromFloat(std::numeric_limits<float>::quiet_NaN())
                     .toFloat()));
  EXPECT_EQ(tile::Half{0x7C00}.toFloat(),
            std::numeric_limits<float>::infinity());
}

TEST(Half, EveryValueRoundTrips) {
  for (unsigned Bits = 0; Bits < 0x10000; ++Bits) {
    tile::Half H{static_cast<std::uint16_t>(Bits)};
    if (std::isnan(H.toFloat()))
      continue;
    ASSERT_EQ(tile::Half::fromFloat(H.toFloat()).Bits, Bits) << Bits;
  }
}

TEST(BFloat16, RoundsToNearestEven) {
  EXPECT_EQ(tile::BFloat16::fromFloat(1.0f).Bits, 0x3F80);
  EXPECT_EQ(tile::BFloat16::fromFloat(1.0f + std::ldexp(1.0f, -8)).Bits,
            0x3F80); // Tie to even.
  EXPECT_EQ(tile::BFloat16::fromFloat(1.0f + std::ldexp(3.0f, -8)).Bits,
            0x3F82);
  EXPECT_EQ(tile::BFloat16{0x4049}.toFloat(), 3.140625f);
  EXPECT_TRUE(std::isnan(
      tile::BFloat16::fromFloat(std::numeric_limits<float>::quiet_NaN())
          .toFloat()));
  for (unsigned Bits = 0; Bits < 0x10000; ++Bits) {
    tile::BFloat16 B{static_cast<std::uint16_t>(Bits)};
    if (!std::isnan(B.toFloat()))
      ASSERT_EQ(tile::BFloat16::fromFloat(B.toFloat()).Bits, Bits) << Bits;
  }
}

TEST(Paths, MetadataPathBesidePtx) {
  EXPECT_EQ(tile::metadataPathFor("a/b/x.ptx"), "a/b/x.json");
  EXPECT_EQ(tile::metadataPathFor("x.ptx"), "x.json");
  EXPECT_EQ(tile::metadataPathFor("dir.ptx/x"), "dir.ptx/x.json");
  EXPECT_EQ(tile::metadataPathFor("a/.ptx"), "a/.ptx.json");
}

TEST(Paths, FindFileTriesEachDirectory) {
  EXPECT_FALSE(tile::executableDir().empty());
  std::string Dir = ::testing::TempDir();
  if (!Dir.empty() && Dir.back() == '/')
    Dir.pop_back();
  std::string Name = "tile_paths_test.ptx";
  std::ofstream(Dir + "/" + Name) << "x";
  EXPECT_EQ(tile::findFile(Name, {"/nonexistent", "", Dir}), Dir + "/" + Name);
  std::remove((Dir + "/" + Name).c_str());
  try {
    tile::findFile(Name, {"/nonexistent", Dir});
    FAIL() << "no error";
  } catch (const tile::Error &E) {
    EXPECT_EQ(std::string(E.what()), "cannot find " + Name +
                                         "; tried:\n  /nonexistent/" + Name +
                                         "\n  " + Dir + "/" + Name);
  }
}

} // namespace

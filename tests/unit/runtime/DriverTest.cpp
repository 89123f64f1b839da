//===- DriverTest.cpp - Loading the CUDA driver and contexts --------------===//
#include "tile/Context.h"
#include "tile/Error.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

TEST(Driver, GpuAvailableAgreesWithReason) {
  bool Available = tile::gpuAvailable();
  EXPECT_EQ(Available, tile::gpuAvailable()); // Stable across calls.
  EXPECT_EQ(Available, tile::gpuUnavailableReason().empty());
}

TEST(Driver, ContextWithoutGpuThrowsTheReason) {
  if (tile::gpuAvailable())
    GTEST_SKIP() << "a GPU is available";
  try {
    tile::Context Ctx(0);
    FAIL() << "Context created without a GPU";
  } catch (const tile::Error &E) {
    EXPECT_NE(std::string(E.what()).find(tile::gpuUnavailableReason()),
              std::string::npos)
        << E.what();
  }
}

TEST(Driver, NoSuchDeviceIsAnError) {
  if (!tile::gpuAvailable())
    GTEST_SKIP() << "no GPU (" << tile::gpuUnavailableReason() << ")";
  int Count = tile::deviceCount();
  EXPECT_GT(Count, 0);
  EXPECT_THROW(tile::Context Ctx(Count), tile::Error);
  EXPECT_THROW(tile::Context Ctx(-1), tile::Error);
}

TEST(Driver, ContextReportsTheDevice) {
  if (!tile::gpuAvailable())
    GTEST_SKIP() << "no GPU (" << tile::gpuUnavailableReason() << ")";
  tile::Context Ctx(0);
  EXPECT_FALSE(Ctx.deviceName().empty());
  EXPECT_GE(Ctx.computeCapability().Major, 5);
  EXPECT_GT(Ctx.smCount(), 0);
  EXPECT_GE(Ctx.maxSharedBytesOptin(), 48u * 1024);
  Ctx.synchronize();
}

// Run by CTest with TILE_LIBCUDA_PATH naming the CUDA toolkit's stub
// libcuda: every entry point must resolve, then cuInit reports the stub.
TEST(StubDriver, ResolvesAllEntryPoints) {
  const char *Path = std::getenv("TILE_LIBCUDA_PATH");
  if (!Path || std::string(Path).find("stubs") == std::string::npos)
    GTEST_SKIP() << "set TILE_LIBCUDA_PATH to the stub libcuda to run this";
  EXPECT_FALSE(tile::gpuAvailable());
  EXPECT_EQ(tile::gpuUnavailableReason(),
            "cuInit failed: CUDA_ERROR_STUB_LIBRARY (libcuda is the toolkit's "
            "stub, not a driver)");
}

} // namespace

//===- AotHeaderTest.cpp - The launcher header of tilec --emit=header -----===//
//
// vector_add.tile compiled into a C++ header at build time: the kernel
// launches with no .ptx or .json at run time, through a typed launcher
// whose parameters are C++ types (a DeviceBuffer<Half> for x_ptr would not
// compile).
//
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include "vector_add_launcher.h"

namespace {

using AotHeaderTest = gputest::GpuTest<>;

TEST_F(AotHeaderTest, LaunchesTheEmbeddedKernel) {
  tilec_kernels::vector_add::add_kernel Add(*Ctx);
  std::int64_t Block = Add.kernel().info().constexprInt("BLOCK_SIZE");
  constexpr std::size_t N = 100003;
  std::vector<float> X = examples::randomFloats(N, -1, 1, 1);
  std::vector<float> Y = examples::randomFloats(N, -1, 1, 2);
  tile::DeviceBuffer<float> DX(*Ctx, N), DY(*Ctx, N), Out(*Ctx, N);
  DX.copyFromHost(X);
  DY.copyFromHost(Y);
  Out.fillBytes(0xFF);
  Add(tile::Grid{gputest::blocks(N, Block)}, tile::Stream(), DX, DY, Out,
      static_cast<std::int32_t>(N));
  Ctx->synchronize();
  gputest::expectEqual(Out.toHost(), [&](std::size_t I) { return X[I] + Y[I]; },
                       "embedded vector_add");
  EXPECT_EQ(tilec_kernels::vector_add::module(*Ctx).metadata().Kernels.size(), 1u);
}

} // namespace

//===- LaunchErrorTest.cpp - Errors from loading and launching ------------===//
//
// Wrong argument lists must throw before anything is launched; bad PTX and
// missing files must say what went wrong.
//
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <fstream>
#include <iterator>

namespace {

using LaunchErrorTest = gputest::GpuTest<>;

using gputest::errorOf;

TEST_F(LaunchErrorTest, WrongArgumentsThrowBeforeLaunch) {
  tile::Kernel K = loadExample("vector_add.ptx").kernel("add_kernel");
  tile::DeviceBuffer<float> X(*Ctx, 1024), Y(*Ctx, 1024), Out(*Ctx, 1024);
  tile::DeviceBuffer<tile::Half> H(*Ctx, 1024);
  Out.fillBytes(0xFF);
  tile::Grid G{1};
  tile::Stream S;
  EXPECT_EQ(errorOf([&] { K.launch(G, S, X, Y, Out); }),
            "add_kernel expects 4 arguments (x_ptr: *fp32, y_ptr: *fp32, "
            "out_ptr: *fp32, n_elements: i32), got 3");
  EXPECT_EQ(errorOf([&] { K.launch(G, S, X, H, Out, 1024); }),
            "argument 2 'y_ptr' of add_kernel: expected *fp32, got *fp16");
  EXPECT_EQ(errorOf([&] { K.launch(G, S, X, Y, Out, std::int64_t(1024)); }),
            "argument 4 'n_elements' of add_kernel: expected i32, got i64");
  EXPECT_EQ(errorOf([&] { K.launch(G, S, X, Y, 1024, 1024); }),
            "argument 3 'out_ptr' of add_kernel: expected *fp32, got i32");
  if (K.info().Params[0].Align > 4) {
    tile::DevicePtr Shifted{X.devicePtr() + 4, "fp32"};
    EXPECT_NE(errorOf([&] {
                K.launch(G, S, Shifted, Y, Out, 1000);
              }).find("argument 1 'x_ptr' of add_kernel: pointer 0x"),
              std::string::npos);
  }
  Ctx->synchronize();
  for (float V : Out.toHost())
    ASSERT_TRUE(std::isnan(V)) << "a rejected launch ran";
}

TEST_F(LaunchErrorTest, BadPtxCarriesTheJitLog) {
  if (onInterpreter())
    GTEST_SKIP() << "the interpreter runs the tile IR and never JIT-compiles PTX";
  std::string Path = examples::findExamplePtx("vector_add.ptx");
  std::ifstream In(Path);
  std::string Ptx{std::istreambuf_iterator<char>(In), {}};
  Ptx += "\nthis is not ptx;\n";
  // Metadata that matches the broken PTX, so that the driver's JIT sees it.
  tile::ModuleMetadata Meta =
      tile::ModuleMetadata::loadFile(tile::metadataPathFor(Path));
  Meta.PtxHash = tile::ptxHash(Ptx);
  std::string Message =
      errorOf([&] { tile::Module::load(*Ctx, Ptx, Meta, "broken.ptx"); });
  EXPECT_EQ(
      Message.rfind("cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX", 0), 0u)
      << Message;
  EXPECT_NE(Message.find("while loading broken.ptx; JIT log:\n"),
            std::string::npos)
      << Message;
}

TEST_F(LaunchErrorTest, MissingFileNamesThePath) {
  EXPECT_EQ(errorOf([&] {
              tile::Module::loadFile(*Ctx, "/nonexistent/vector_add.ptx");
            }),
            "cannot open PTX file '/nonexistent/vector_add.ptx': No such file "
            "or directory");
}

} // namespace

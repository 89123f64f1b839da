//===- ModuleTest.cpp - Loading modules and launching (needs a GPU) -------===//
//
// Uses hand-written PTX, so the runtime can be tested on a GPU without the
// compiler. Every test is skipped, with the reason, when there is no GPU.
//
//===----------------------------------------------------------------------===//
#include "tile/Runtime.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

const char *const TestPtx = R"(.version 7.0
.target sm_80
.address_size 64

.extern .shared .align 16 .b8 smem[];

.visible .entry fill_kernel(.param .u64 out_ptr, .param .u32 value,
                            .param .u32 n)
.reqntid 64, 1, 1
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out_ptr];
  ld.param.u32 %r1, [value];
  ld.param.u32 %r2, [n];
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %tid.x;
  mad.lo.s32 %r6, %r3, %r4, %r5;
  setp.ge.s32 %p1, %r6, %r2;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.s32 %rd3, %r6, 4;
  add.s64 %rd2, %rd2, %rd3;
  add.s32 %r7, %r1, %r6;
  st.global.u32 [%rd2], %r7;
DONE:
  ret;
}

.visible .entry smem_kernel(.param .u64 out_ptr)
.reqntid 32, 1, 1
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out_ptr];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r2, 12345;
  st.shared.u32 [smem+65532], %r2;
  bar.sync 0;
  ld.shared.u32 %r3, [smem+65532];
  st.global.u32 [%rd2], %r3;
  ret;
}
)";

/// The metadata of TestPtx; ptx_hash is that of \p Ptx.
std::string testJson(const std::string &Ptx = TestPtx) {
  return R"({
  "tilec_version": "0.1.0", "source": "hand-written", "source_hash": "0",
  "ptx_hash": ")" +
         tile::ptxHash(Ptx) +
         R"(", "target": "sm_80",
  "kernels": [
    {"name": "fill_kernel", "num_warps": 2, "shared_bytes": 0,
     "params": [{"name": "out_ptr", "type": "*i32", "align": 16},
                {"name": "value", "type": "i32"},
                {"name": "n", "type": "i32"}],
     "constexprs": {}},
    {"name": "smem_kernel", "num_warps": 1, "shared_bytes": 65536,
     "params": [{"name": "out_ptr", "type": "*i32"}],
     "constexprs": {}}
  ]
})";
}

class ModuleTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (!tile::gpuAvailable())
      GTEST_SKIP() << "no GPU (" << tile::gpuUnavailableReason() << ")";
    Ctx = std::make_unique<tile::Context>(0);
  }

  tile::Module loadTestModule() {
    return tile::Module::load(
        *Ctx, TestPtx, tile::ModuleMetadata::parse(testJson()), "test.ptx");
  }

  /// A path of its own for this process (ctest runs tests in parallel).
  static std::string tempPath(const std::string &Name) {
    return ::testing::TempDir() + std::to_string(::getpid()) + "_" + Name;
  }

  std::unique_ptr<tile::Context> Ctx;
};

/// Returns the message of the tile::Error that \p Fn throws.
template <class F> std::string errorOf(F Fn) {
  try {
    Fn();
  } catch (const tile::Error &E) {
    return E.what();
  }
  return "(no error)";
}

TEST_F(ModuleTest, LaunchesAndCopies) {
  tile::Kernel K = loadTestModule().kernel("fill_kernel");
  EXPECT_EQ(K.blockSize(), 64u);
  const int N = 1000;
  tile::DeviceBuffer<std::int32_t> Out(*Ctx, N + 1);
  Out.fillBytes(0xFF);
  tile::Stream S(*Ctx);
  tile::Timer T(*Ctx);
  T.start(S);
  K.launch(tile::Grid{tile::cdiv<unsigned>(N, K.blockSize())}, S, Out, 7, N);
  T.stop(S);
  S.synchronize();
  EXPECT_GE(T.elapsedMs(), 0.0f);
  std::vector<std::int32_t> Host = Out.toHost();
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(Host[I], 7 + I) << I;
  EXPECT_EQ(Host[N], -1); // Past n: untouched.

  std::vector<std::int32_t> Ones(N + 1, 1);
  Out.copyFromHost(Ones);
  EXPECT_EQ(Out.toHost(), Ones);
  EXPECT_THROW(Out.copyFromHost(std::vector<std::int32_t>(N + 2)), tile::Error);
}

TEST_F(ModuleTest, LargeDynamicSharedMemory) {
  tile::Kernel K = loadTestModule().kernel("smem_kernel");
  tile::DeviceBuffer<std::int32_t> Out(*Ctx, 1);
  K.launch(tile::Grid{}, tile::Stream(), Out);
  Ctx->synchronize();
  EXPECT_EQ(Out.toHost()[0], 12345);
}

TEST_F(ModuleTest, ArgumentsAreCheckedBeforeLaunch) {
  tile::Kernel K = loadTestModule().kernel("fill_kernel");
  tile::DeviceBuffer<float> F(*Ctx, 4);
  tile::DeviceBuffer<std::int32_t> I(*Ctx, 4);
  EXPECT_EQ(errorOf([&] { K.launch(tile::Grid{}, tile::Stream(), F, 1, 4); }),
            "argument 1 'out_ptr' of fill_kernel: expected *i32, got *fp32");
  EXPECT_EQ(errorOf([&] { K.launch(tile::Grid{}, tile::Stream(), I, 1); }),
            "fill_kernel expects 3 arguments (out_ptr: *i32, value: i32, "
            "n: i32), got 2");
  EXPECT_EQ(errorOf([&] { K.launch(tile::Grid{0}, tile::Stream(), I, 1, 4); }),
            "launch of fill_kernel: grid (0, 1, 1) is empty");
}

TEST_F(ModuleTest, UnknownKernelListsTheKernels) {
  tile::Module M = loadTestModule();
  EXPECT_EQ(errorOf([&] { M.kernel("add_kernel"); }),
            "test.ptx has no kernel 'add_kernel'; it has: fill_kernel, "
            "smem_kernel");
}

TEST_F(ModuleTest, MismatchIsRefusedBeforeTheDriver) {
  std::string Json = testJson();
  Json.replace(Json.find("smem_kernel"), 11, "gone_kernel");
  EXPECT_EQ(errorOf([&] {
              tile::Module::load(*Ctx, TestPtx,
                                 tile::ModuleMetadata::parse(Json, "t.json"),
                                 "t.ptx");
            }),
            "t.ptx does not match its metadata t.json: the metadata lists "
            "kernel gone_kernel, but the PTX has no .entry gone_kernel (its "
            "entries: fill_kernel, smem_kernel)");
}

TEST_F(ModuleTest, BadPtxCarriesTheJitLog) {
  std::string Ptx = TestPtx;
  Ptx.replace(Ptx.find("mad.lo.s32"), 10, "bogus.op.s32");
  std::string Message = errorOf([&] {
    tile::Module::load(*Ctx, Ptx, tile::ModuleMetadata::parse(testJson(Ptx)),
                       "bad.ptx");
  });
  EXPECT_EQ(
      Message.rfind("cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (", 0),
      0u)
      << Message;
  std::size_t Log = Message.find("while loading bad.ptx; JIT log:\n");
  ASSERT_NE(Log, std::string::npos) << Message;
  EXPECT_NE(Message.find("bogus", Log), std::string::npos) << Message;
}

TEST_F(ModuleTest, NewerTargetThanDeviceIsRejected) {
  std::string Json = testJson();
  Json.replace(Json.find("sm_80"), 5, "sm_999");
  std::string Message = errorOf([&] {
    tile::Module::load(*Ctx, TestPtx, tile::ModuleMetadata::parse(Json),
                       "t.ptx");
  });
  EXPECT_EQ(Message.rfind("t.ptx was compiled for sm_999, but ", 0), 0u)
      << Message;
}

TEST_F(ModuleTest, LoadFileNamesMissingFiles) {
  EXPECT_EQ(
      errorOf([&] { tile::Module::loadFile(*Ctx, "/nonexistent/k.ptx"); }),
      "cannot open PTX file '/nonexistent/k.ptx': No such file or "
      "directory");
  std::string Ptx = tempPath("tile_module_test.ptx");
  std::string Json = tempPath("tile_module_test.json");
  std::ofstream(Ptx) << TestPtx;
  std::remove(Json.c_str());
  EXPECT_EQ(errorOf([&] { tile::Module::loadFile(*Ctx, Ptx); }),
            "cannot open metadata file '" + Json +
                "': No such file or directory");
  std::ofstream(Json) << "{\"kernels\": []";
  EXPECT_EQ(errorOf([&] { tile::Module::loadFile(*Ctx, Ptx); }),
            Json + ":1:15: expected ',' or '}', got end of input");
  std::ofstream(Json) << testJson();
  EXPECT_EQ(tile::Module::loadFile(*Ctx, Ptx).metadata().Kernels.size(), 2u);
  // A PTX changed after its metadata was written.
  std::ofstream(Ptx) << TestPtx << "\n";
  EXPECT_EQ(errorOf([&] { tile::Module::loadFile(*Ctx, Ptx); })
                .rfind(Ptx + " does not match its metadata " + Json +
                           ": the PTX's hash is ",
                       0),
            0u);
  std::remove(Ptx.c_str());
  std::remove(Json.c_str());
}

} // namespace

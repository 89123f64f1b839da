//===- JitCompileTest.cpp - The JIT without a GPU -------------------------===//
//
// JitKernel::compile specializes on the arguments as a launch would, and
// the disk cache serves the second compilation, also to another process;
// a changed source, target or option misses; compile errors and wrong
// argument lists throw with their messages.
//
//===----------------------------------------------------------------------===//
#include "JitCache.h"
#include "tile/Error.h"
#include "tile/Jit.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace {

// Triton tutorial 01's kernel as written there.
constexpr const char *kAdd = R"(
import triton
import triton.language as tl

@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)
)";

/// JIT options with a fresh cache directory.
tile::JitOptions freshOptions(const std::string &Name) {
  tile::JitOptions O;
  O.Arch = "sm_90";
  O.CacheDir = testing::TempDir() + "/tilec-jit-" + Name + "-" + std::to_string(::getpid());
  std::filesystem::remove_all(O.CacheDir);
  return O;
}

std::vector<tile::Arg> addArgs(std::uint64_t Base, std::int32_t N, const char *Elem = "fp32") {
  return {tile::DevicePtr(Base, Elem), tile::DevicePtr(Base + 4096, Elem),
          tile::DevicePtr(Base + 8192, Elem), N};
}

const tile::LaunchOptions Block1024{{{"BLOCK_SIZE", 1024}}, {}, {}};

TEST(JitCompile, SpecializesOnArgumentsAndCaches) {
  tile::JitOptions O = freshOptions("spec");
  tile::JitKernel K = tile::JitModule::fromSource(kAdd, "add.tile", O).kernel("add_kernel");
  tile::JitCompiled First = K.compile(Block1024, addArgs(0x10000, 4096));
  EXPECT_FALSE(First.FromDiskCache);
  EXPECT_NE(First.Ptx.find(".entry add_kernel("), std::string::npos);
  EXPECT_NE(First.Metadata.find("\"type\": \"*fp32\""), std::string::npos);
  EXPECT_NE(First.Metadata.find("\"divisibility\": 16"), std::string::npos);
  EXPECT_NE(First.Metadata.find("\"BLOCK_SIZE\": 1024"), std::string::npos);
  EXPECT_NE(First.Ptx.find("ld.global.v4"), std::string::npos) << "aligned, n % 16 == 0";

  // The same specialization, from a new module: the disk cache serves it.
  tile::JitKernel Again = tile::JitModule::fromSource(kAdd, "add.tile", O).kernel("add_kernel");
  tile::JitCompiled Second = Again.compile(Block1024, addArgs(0x20000, 8192));
  EXPECT_TRUE(Second.FromDiskCache);
  EXPECT_EQ(Second.Ptx, First.Ptx);

  // Other values classes, types, constexprs, options, sources and targets miss.
  tile::JitCompiled Odd = K.compile(Block1024, addArgs(0x10000, 4097));
  EXPECT_FALSE(Odd.FromDiskCache);
  EXPECT_EQ(Odd.Metadata.find("\"divisibility\""), std::string::npos);
  tile::JitCompiled One = K.compile(Block1024, addArgs(0x10000, 1));
  EXPECT_NE(One.Metadata.find("\"equal_to\": 1"), std::string::npos);
  tile::JitCompiled Misaligned = K.compile(Block1024, addArgs(0x10004, 4096));
  EXPECT_NE(Misaligned.Metadata.find("\"align\": 4"), std::string::npos);
  EXPECT_EQ(Misaligned.Ptx.find("ld.global.v4"), std::string::npos);
  tile::JitCompiled Half = K.compile(Block1024, addArgs(0x10000, 4096, "fp16"));
  EXPECT_NE(Half.Metadata.find("\"type\": \"*fp16\""), std::string::npos);
  EXPECT_FALSE(K.compile({{{"BLOCK_SIZE", 512}}, {}, {}}, addArgs(0x10000, 4096)).FromDiskCache);
  EXPECT_FALSE(K.compile({{{"BLOCK_SIZE", 1024}}, 8u, {}}, addArgs(0x10000, 4096)).FromDiskCache);
  EXPECT_FALSE(tile::JitModule::fromSource(std::string(kAdd) + "\n", "add.tile", O)
                   .kernel("add_kernel")
                   .compile(Block1024, addArgs(0x10000, 4096))
                   .FromDiskCache);
  tile::JitOptions O80 = O;
  O80.Arch = "sm_80";
  EXPECT_FALSE(tile::JitModule::fromSource(kAdd, "add.tile", O80)
                   .kernel("add_kernel")
                   .compile(Block1024, addArgs(0x10000, 4096))
                   .FromDiskCache);
}

TEST(JitCompile, AnEditedImportIsRecompiled) {
  tile::JitOptions O = freshOptions("imports");
  std::string Dir = O.CacheDir + "-src";
  std::filesystem::create_directories(Dir);
  auto write = [&](const std::string &Name, const std::string &Text) {
    std::ofstream(Dir + "/" + Name, std::ios::trunc) << Text;
  };
  const std::string Main = "from helpers import f\n"
                           "@kernel\n"
                           "def k(x: *fp32):\n"
                           "    offs = tl.arange(0, 64)\n"
                           "    tl.store(x + offs, f(tl.load(x + offs)))\n";
  write("main.tile", Main);
  write("helpers.tile", "def f(x):\n    return x * 2.5\n");
  std::vector<tile::Arg> Args{tile::DevicePtr(0x10000, "fp32")};
  auto compile = [&] {
    return tile::JitModule::fromSource(Main, Dir + "/main.tile", O).kernel("k").compile({}, Args);
  };
  tile::JitCompiled First = compile();
  EXPECT_FALSE(First.FromDiskCache);
  EXPECT_NE(First.Ptx.find("0f40200000"), std::string::npos) << "2.5 in the PTX";
  EXPECT_TRUE(compile().FromDiskCache);
  // The main source is unchanged; the file it imports is not.
  write("helpers.tile", "def f(x):\n    return x * 3.5\n");
  tile::JitCompiled Edited = compile();
  EXPECT_FALSE(Edited.FromDiskCache);
  EXPECT_NE(Edited.Ptx.find("0f40600000"), std::string::npos) << "3.5 in the PTX";
  EXPECT_TRUE(compile().FromDiskCache);

  // The helper moves to helpers.py (read now, helpers.tile missing); then a
  // helpers.tile appears, which comes first in the search and shadows it.
  std::filesystem::rename(Dir + "/helpers.tile", Dir + "/helpers.py");
  EXPECT_NE(compile().Ptx.find("0f40600000"), std::string::npos) << "3.5 from helpers.py";
  EXPECT_TRUE(compile().FromDiskCache);
  write("helpers.tile", "def f(x):\n    return x * 4.5\n");
  tile::JitCompiled Shadowed = compile();
  EXPECT_FALSE(Shadowed.FromDiskCache);
  EXPECT_NE(Shadowed.Ptx.find("0f40900000"), std::string::npos) << "4.5 in the PTX";

  // The same source in another directory, whose helper differs, is another entry.
  std::string Other = Dir + "-other";
  std::filesystem::create_directories(Other);
  std::ofstream(Other + "/main.tile") << Main;
  std::ofstream(Other + "/helpers.tile") << "def f(x):\n    return x * 5.5\n";
  tile::JitCompiled Elsewhere =
      tile::JitModule::fromSource(Main, Other + "/main.tile", O).kernel("k").compile({}, Args);
  EXPECT_FALSE(Elsewhere.FromDiskCache);
  EXPECT_NE(Elsewhere.Ptx.find("0f40B00000"), std::string::npos) << "5.5 in the PTX";
  std::filesystem::remove_all(Dir);
  std::filesystem::remove_all(Other);
}

TEST(JitCompile, KeysTellConstexprsApart) {
  // Values that would read alike if keys were joined without lengths.
  tile::JitOptions O = freshOptions("keys");
  tile::JitKernel K = tile::JitModule::fromSource(
                          "@jit\ndef k(x: *fp32, A: constexpr = 'a', B: constexpr = 'b'):\n"
                          "    pass\n",
                          "k.tile", O)
                          .kernel("k");
  std::vector<tile::Arg> Args = {tile::DevicePtr(0, "fp32")};
  tile::JitCompiled Two = K.compile({{{"A", "x"}, {"B", "y"}}, {}, {}}, Args);
  tile::JitCompiled One = K.compile({{{"A", "x';B='y"}}, {}, {}}, Args);
  EXPECT_FALSE(One.FromDiskCache);
  EXPECT_NE(One.Metadata.find("\"B\": \"b\""), std::string::npos) << One.Metadata;
  EXPECT_NE(Two.Metadata.find("\"B\": \"y\""), std::string::npos) << Two.Metadata;
}

TEST(JitCompile, HeuristicsReadTheLaunchArguments) {
  // Triton's idiom: constexprs computed from the other arguments.
  tile::JitOptions O = freshOptions("heuristics");
  tile::JitKernel K =
      tile::JitModule::fromSource(
          "import triton\nimport triton.language as tl\n"
          "@triton.heuristics({'EVEN': lambda args: args['n'] % args['BLOCK'] == 0,\n"
          "                    'HAS_Y': lambda args: args['y_ptr'] is not None})\n"
          "@triton.jit\n"
          "def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr,\n"
          "      HAS_Y: tl.constexpr):\n"
          "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
          "    if EVEN:\n"
          "        x = tl.load(x_ptr + offs)\n"
          "    else:\n"
          "        x = tl.load(x_ptr + offs, mask=offs < n)\n"
          "    tl.store(y_ptr + offs, x, mask=offs < n)\n",
          "k.tile", O)
          .kernel("k");
  auto args = [](std::int32_t N) {
    return std::vector<tile::Arg>{tile::DevicePtr(0x10000, "fp32"),
                                  tile::DevicePtr(0x20000, "fp32"), N};
  };
  tile::LaunchOptions Block{{{"BLOCK", 256}}, {}, {}};
  tile::JitCompiled Even = K.compile(Block, args(4096));
  EXPECT_NE(Even.Metadata.find("\"EVEN\": true"), std::string::npos) << Even.Metadata;
  EXPECT_NE(Even.Metadata.find("\"HAS_Y\": true"), std::string::npos) << Even.Metadata;
  tile::JitCompiled Odd = K.compile(Block, args(4000));
  EXPECT_NE(Odd.Metadata.find("\"EVEN\": false"), std::string::npos) << Odd.Metadata;
  // Another value of n is another key, served by the cache when seen before.
  EXPECT_TRUE(K.compile(Block, args(4096)).FromDiskCache);
}

TEST(JitCompile, CorruptEntryIsRebuilt) {
  tile::JitOptions O = freshOptions("corrupt");
  tile::JitKernel K = tile::JitModule::fromSource(kAdd, "add.tile", O).kernel("add_kernel");
  std::string Ptx = K.compile(Block1024, addArgs(0x10000, 4096)).Ptx;
  for (const auto &Entry : std::filesystem::directory_iterator(O.CacheDir))
    std::ofstream(Entry.path(), std::ios::trunc) << "tilec-jit-cache 1\n5\nbroken";
  tile::JitCompiled Rebuilt = K.compile(Block1024, addArgs(0x10000, 4096));
  EXPECT_FALSE(Rebuilt.FromDiskCache);
  EXPECT_EQ(Rebuilt.Ptx, Ptx);
  EXPECT_TRUE(K.compile(Block1024, addArgs(0x10000, 4096)).FromDiskCache);
}

TEST(JitCompile, ConcurrentProcessesShareTheCache) {
  tile::JitOptions O = freshOptions("processes");
  constexpr int Processes = 6;
  std::vector<pid_t> Children;
  for (int P = 0; P < Processes; ++P) {
    pid_t Pid = ::fork();
    ASSERT_GE(Pid, 0);
    if (Pid == 0) {
      int Bad = 0;
      try {
        for (int Round = 0; Round < 3; ++Round) {
          tile::JitCompiled C = tile::JitModule::fromSource(kAdd, "add.tile", O)
                                    .kernel("add_kernel")
                                    .compile(Block1024, addArgs(0x10000, 4096));
          if (C.Ptx.find(".entry add_kernel(") == std::string::npos ||
              tile::ModuleMetadata::parse(C.Metadata).PtxHash != tile::ptxHash(C.Ptx))
            Bad = 1;
        }
      } catch (...) {
        Bad = 2;
      }
      ::_exit(Bad);
    }
    Children.push_back(Pid);
  }
  for (pid_t Pid : Children) {
    int Status = 0;
    ASSERT_EQ(::waitpid(Pid, &Status, 0), Pid);
    EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0) << WEXITSTATUS(Status);
  }
  EXPECT_TRUE(tile::JitModule::fromSource(kAdd, "add.tile", O)
                  .kernel("add_kernel")
                  .compile(Block1024, addArgs(0x10000, 4096))
                  .FromDiskCache);
}

TEST(JitCompile, DumpsIRAlsoOnACacheHit) {
  tile::JitOptions O = freshOptions("dump");
  O.DumpDir = O.CacheDir + "-dumps";
  std::filesystem::remove_all(O.DumpDir);
  tile::JitKernel K = tile::JitModule::fromSource(kAdd, "add.tile", O).kernel("add_kernel");
  K.compile(Block1024, addArgs(0x10000, 4096));
  std::filesystem::remove_all(O.DumpDir);
  tile::JitCompiled Again = K.compile(Block1024, addArgs(0x10000, 4096));
  EXPECT_FALSE(Again.FromDiskCache) << "dumps need a compilation";
  std::size_t Files = 0;
  for (const auto &Entry : std::filesystem::recursive_directory_iterator(O.DumpDir))
    Files += Entry.is_regular_file();
  EXPECT_EQ(Files, 7u) << "six stages and the IR after every pass";
}

/// The message of the tile::Error \p Fn throws.
template <class F> std::string errorOf(F Fn) {
  try {
    Fn();
  } catch (const tile::Error &E) {
    return E.what();
  }
  return "(no error)";
}

TEST(JitCompile, ErrorsSayWhatIsWrong) {
  tile::JitOptions O = freshOptions("errors");
  tile::JitKernel K = tile::JitModule::fromSource(kAdd, "add.tile", O).kernel("add_kernel");
  EXPECT_EQ(errorOf([&] { K.compile(Block1024, {tile::DevicePtr(0, "fp32")}); }),
            "add_kernel expects 4 arguments (x_ptr, y_ptr, output_ptr, n_elements; "
            "constexprs go in LaunchOptions), got 1");
  std::string Missing = errorOf([&] { K.compile({}, addArgs(0x10000, 64)); });
  EXPECT_EQ(Missing.substr(0, Missing.find("value;")),
            "cannot compile kernel 'add_kernel' of add.tile for x_ptr=*fp32, "
            "y_ptr=*fp32, output_ptr=*fp32, n_elements=i32; specialized "
            "n_elements=16:\nadd.tile:6:54: error: constexpr parameter 'BLOCK_SIZE' of "
            "kernel 'add_kernel' has no ")
      << Missing;
  EXPECT_EQ(errorOf([&] {
              tile::JitModule::fromSource(kAdd, "add.tile", O).kernel("mul_kernel");
            }),
            "add.tile has no kernel 'mul_kernel'; it has: add_kernel");
  std::string Syntax =
      errorOf([&] { tile::JitModule::fromSource("@jit\ndef k(:\n", "bad.tile", O); });
  EXPECT_NE(Syntax.find("bad.tile:2:6: error:"), std::string::npos) << Syntax;
  std::string Annotated = errorOf([&] {
    tile::JitModule::fromSource("@jit\ndef k(x: *fp32, n: i32):\n    pass\n", "k.tile", O)
        .kernel("k")
        .compile({}, {tile::DevicePtr(0, "fp16"), 4});
  });
  EXPECT_EQ(Annotated, "argument 1 'x' of k: expected *fp32, got *fp16");
  EXPECT_EQ(errorOf([&] { K.compile({{{"n_elements", 4}}, {}, {}}, addArgs(0x10000, 64)); }),
            "LaunchOptions of add_kernel set 'n_elements', which is not a constexpr "
            "parameter of it");
  tile::AutotuneSpec Spec;
  Spec.Configs = {{{{"n_elements", 4}}, {}, {}}};
  EXPECT_EQ(errorOf([&] { K.setAutotune(Spec); }),
            "setAutotune: a config sets 'n_elements', a runtime parameter of add_kernel; "
            "only constexpr parameters are tuned");
  Spec.Configs = {{{{"BLOCK_SIZE", 4}}, {}, {}}};
  Spec.Key = {"m"};
  EXPECT_EQ(errorOf([&] { K.setAutotune(Spec); }),
            "setAutotune: 'm' is not a parameter of add_kernel");
  EXPECT_EQ(errorOf([&] {
              tile::JitModule::fromSource(kAdd, "add.tile", O)
                  .kernel("add_kernel")
                  .launch(tile::Grid{1}, tile::Stream(), Block1024, addArgs(0, 1));
            }),
            "the JitModule of add.tile was made without a Context: it can compile() "
            "but not launch");
}

} // namespace

//===- MetadataTest.cpp - Parsing and validating metadata JSON ------------===//
#include "tile/Metadata.h"
#include "tile/Error.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace {

const char *const VectorAddJson = R"({
  "tilec_version": "0.1.0",
  "source": "dsl_examples/vector_add.tile",
  "source_hash": "9f2c0123456789ab",
  "target": "sm_90",
  "kernels": [
    {
      "name": "add_kernel",
      "num_warps": 4,
      "shared_bytes": 0,
      "params": [
        {"name": "x_ptr", "type": "*fp32", "align": 16},
        {"name": "y_ptr", "type": "*fp32", "align": 16},
        {"name": "out_ptr", "type": "*fp32", "align": 16},
        {"name": "n_elements", "type": "i32"}
      ],
      "constexprs": {"BLOCK_SIZE": 1024}
    }
  ]
})";

/// Returns the message parse() throws for \p Json.
std::string parseError(const std::string &Json) {
  try {
    tile::ModuleMetadata::parse(Json, "m.json");
  } catch (const tile::Error &E) {
    return E.what();
  }
  return "(no error)";
}

/// A metadata document whose "kernels" array holds \p Kernels.
std::string withKernel(const std::string &Kernels,
                       const std::string &Target = "sm_80") {
  return R"({"tilec_version": "0.1.0", "source": "a.tile",
"source_hash": "0", "target": ")" +
         Target + R"(", "kernels": [)" + Kernels + "]}";
}

TEST(Metadata, ParsesTheVectorAddExample) {
  tile::ModuleMetadata M = tile::ModuleMetadata::parse(VectorAddJson);
  EXPECT_EQ(M.TilecVersion, "0.1.0");
  EXPECT_EQ(M.Source, "dsl_examples/vector_add.tile");
  EXPECT_EQ(M.SourceHash, "9f2c0123456789ab");
  EXPECT_EQ(M.Target, "sm_90");
  EXPECT_EQ(M.targetArch(), 90);
  ASSERT_EQ(M.Kernels.size(), 1u);
  const tile::KernelInfo &K = M.Kernels[0];
  EXPECT_EQ(K.Name, "add_kernel");
  EXPECT_EQ(K.NumWarps, 4u);
  EXPECT_EQ(K.SharedBytes, 0u);
  ASSERT_EQ(K.Params.size(), 4u);
  EXPECT_EQ(K.Params[0].Name, "x_ptr");
  EXPECT_EQ(K.Params[0].Type.str(), "*fp32");
  EXPECT_EQ(K.Params[0].Align, 16u);
  EXPECT_EQ(K.Params[3].Type.str(), "i32");
  EXPECT_EQ(K.Params[3].Align, 0u);
  EXPECT_EQ(K.constexprInt("BLOCK_SIZE"), 1024);
  EXPECT_EQ(K.paramList(),
            "x_ptr: *fp32, y_ptr: *fp32, out_ptr: *fp32, n_elements: i32");
  EXPECT_EQ(M.findKernel("add_kernel"), &K);
  EXPECT_EQ(M.findKernel("nope"), nullptr);
  EXPECT_EQ(M.kernelNames(), "add_kernel");
}

TEST(Metadata, ConstexprValuesOfEveryKind) {
  tile::ModuleMetadata M = tile::ModuleMetadata::parse(withKernel(
      R"({"name": "k", "num_warps": 8, "shared_bytes": 65536, "params": [],
          "constexprs": {"B": 64, "F": -1.5e3, "T": true, "S": "tanh\u00e9\n",
                         "N": null}})"));
  const tile::KernelInfo &K = M.Kernels[0];
  EXPECT_EQ(K.NumWarps, 8u);
  EXPECT_EQ(K.SharedBytes, 65536u);
  ASSERT_EQ(K.Constexprs.size(), 5u);
  EXPECT_EQ(K.Constexprs[0].first, "B");
  EXPECT_EQ(std::get<std::int64_t>(*K.findConstexpr("B")), 64);
  EXPECT_EQ(std::get<double>(*K.findConstexpr("F")), -1500.0);
  EXPECT_EQ(std::get<bool>(*K.findConstexpr("T")), true);
  EXPECT_EQ(std::get<std::string>(*K.findConstexpr("S")), "tanh\xC3\xA9\n");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(*K.findConstexpr("N")));
  EXPECT_EQ(K.findConstexpr("X"), nullptr);
  EXPECT_THROW(K.constexprInt("F"), tile::Error);
  EXPECT_THROW(K.constexprInt("X"), tile::Error);
}

TEST(Metadata, SharedBytesAndTheDeviceLimit) {
  // As tilec writes it for a kernel whose dot needs 196608 bytes.
  tile::ModuleMetadata M = tile::ModuleMetadata::parse(withKernel(
      R"({"name": "mm", "num_warps": 4, "shared_bytes": 196608,
          "params": [], "constexprs": {}})"));
  const tile::KernelInfo &K = M.Kernels[0];
  EXPECT_EQ(K.SharedBytes, 196608u);
  EXPECT_TRUE(K.needsSharedOptIn());
  // Fits an H100's 227 KiB; an A100's 163 KiB is an error before launch.
  EXPECT_NO_THROW(K.checkSharedBytes(232448, "NVIDIA H100"));
  try {
    K.checkSharedBytes(166912, "NVIDIA A100");
    ADD_FAILURE() << "expected tile::Error";
  } catch (const tile::Error &E) {
    EXPECT_STREQ(E.what(), "kernel mm needs 196608 bytes of shared memory, "
                           "but NVIDIA A100 allows at most 166912 per block");
  }
  // Up to 48 KiB needs no opt-in; exactly the limit is fine.
  tile::KernelInfo Small = K;
  Small.SharedBytes = tile::DefaultSharedBytes;
  EXPECT_FALSE(Small.needsSharedOptIn());
  EXPECT_NO_THROW(Small.checkSharedBytes(tile::DefaultSharedBytes, "any"));
  Small.SharedBytes = 0;
  EXPECT_FALSE(Small.needsSharedOptIn());
}

TEST(Metadata, GlobalScratchBytes) {
  tile::ModuleMetadata M = tile::ModuleMetadata::parse(withKernel(
      R"({"name": "mm", "num_warps": 4, "shared_bytes": 0, "global_scratch_bytes": 256,
          "params": [], "constexprs": {}})"));
  EXPECT_EQ(M.Kernels[0].GlobalScratchBytes, 256u);
  EXPECT_EQ(tile::ModuleMetadata::parse(withKernel(R"({"name": "k", "num_warps": 4,
          "shared_bytes": 0, "params": [], "constexprs": {}})"))
                .Kernels[0]
                .GlobalScratchBytes,
            0u);
  EXPECT_EQ(parseError(withKernel(R"({"name": "k", "num_warps": 4, "shared_bytes": 0, )"
                                  R"("global_scratch_bytes": 0, "params": [], "constexprs": {}})")),
            "m.json:2:125: kernels[0].global_scratch_bytes: expected an integer in "
            "[1, 2147483647], got 0");
}

TEST(Metadata, TargetSpellings) {
  auto Arch = [](const std::string &Target) {
    return tile::ModuleMetadata::parse(
               withKernel(R"({"name": "k", "num_warps": 1, "shared_bytes": 0,
                              "params": [], "constexprs": {}})",
                          Target))
        .targetArch();
  };
  EXPECT_EQ(Arch("sm_80"), 80);
  EXPECT_EQ(Arch("sm_90a"), 90);
  EXPECT_EQ(Arch("sm_100f"), 100);
}

TEST(Metadata, IgnoresUnknownKeys) {
  EXPECT_NO_THROW(tile::ModuleMetadata::parse(withKernel(
      R"({"name": "k", "num_warps": 1, "shared_bytes": 0, "num_stages": 3,
          "params": [], "constexprs": {}})")));
}

TEST(Metadata, JsonSyntaxErrorsNamePosition) {
  EXPECT_EQ(parseError(""),
            "m.json:1:1: expected a JSON value, got end of input");
  EXPECT_EQ(parseError("{\"a\": 1,}"),
            "m.json:1:9: expected a string key, got '}'");
  EXPECT_EQ(parseError("{\"a\": 1\n \"b\": 2}"),
            "m.json:2:2: expected ',' or '}', got '\"'");
  EXPECT_EQ(parseError("[1, 2"),
            "m.json:1:6: expected ',' or ']', got end of input");
  EXPECT_EQ(parseError("{\"a\": tru}"), "m.json:1:7: expected 'true', got 't'");
  EXPECT_EQ(parseError("{\"a\": 01}"),
            "m.json:1:8: leading zeros are not allowed in numbers");
  EXPECT_EQ(parseError("{\"a\": 1.}"),
            "m.json:1:9: expected a digit after '.', got '}'");
  EXPECT_EQ(parseError("{\"a\": \"x\ty\"}"),
            "m.json:1:9: unescaped control character byte 0x09 in string");
  EXPECT_EQ(parseError("{\"a\": \"\\q\"}"),
            "m.json:1:8: invalid escape '\\q' in string");
  EXPECT_EQ(parseError("{\"a\": \"\\ud800\"}"),
            "m.json:1:14: unpaired high surrogate in \\u escape");
  EXPECT_EQ(parseError("{\"a\": \"abc"), "m.json:1:11: unterminated string");
  EXPECT_EQ(parseError("{\"a\": 1, \"a\": 2}"),
            "m.json:1:10: duplicate key 'a'");
  EXPECT_EQ(parseError("{} x"),
            "m.json:1:4: unexpected 'x' after the JSON value");
  EXPECT_EQ(parseError("{\"a\": 99999999999999999999}"),
            "m.json:1:7: number 99999999999999999999 is out of range");
  EXPECT_EQ(parseError(std::string(100, '[') + std::string(100, ']')),
            "m.json:1:66: nesting deeper than 64 levels");
}

TEST(Metadata, SchemaErrorsNameTheField) {
  EXPECT_EQ(parseError("[]"), "m.json:1:1: expected an object, got an array");
  EXPECT_EQ(parseError("{}"), "m.json:1:1: missing key 'tilec_version'");
  EXPECT_EQ(
      parseError(
          std::string(VectorAddJson)
              .replace(std::string(VectorAddJson).find("\"sm_90\""), 7, "90")),
      "m.json:5:13: target: expected a string, got an integer");
  EXPECT_EQ(parseError(std::string(VectorAddJson)
                           .replace(std::string(VectorAddJson).find("sm_90"), 5,
                                    "gfx90")),
            "m.json:5:13: target: expected 'sm_<NN>' (e.g. sm_90 or sm_90a), "
            "got 'gfx90'");
  EXPECT_EQ(parseError(withKernel("")),
            "m.json:2:51: kernels: expected at least one kernel");
  EXPECT_EQ(parseError(withKernel(R"({"name": "k"})")),
            "m.json:2:52: kernels[0]: missing key 'num_warps'");
  EXPECT_EQ(
      parseError(withKernel(R"({"name": "k", "num_warps": 3})")),
      "m.json:2:79: kernels[0].num_warps: expected a power of two, got 3");
  EXPECT_EQ(
      parseError(withKernel(R"({"name": "k", "num_warps": 64})")),
      "m.json:2:79: kernels[0].num_warps: expected an integer in [1, 32], "
      "got 64");
  EXPECT_EQ(parseError(withKernel(
                R"({"name": "k", "num_warps": 4, "shared_bytes": -1})")),
            "m.json:2:98: kernels[0].shared_bytes: expected an integer in "
            "[0, 2147483647], got -1");
}

TEST(Metadata, ParamAndConstexprErrors) {
  auto Kernel = [](const std::string &Params,
                   const std::string &Consts = "{}") {
    return parseError(withKernel(
        R"({"name": "k", "num_warps": 4, "shared_bytes": 0, "params": )" +
        Params + R"(, "constexprs": )" + Consts + "}"));
  };
  EXPECT_EQ(Kernel(R"([{"name": "p", "type": "*fp33"}])"),
            "m.json:2:134: kernels[0].params[0].type: unknown type '*fp33' "
            "(expected a scalar such as i32/fp16/fp32 or a pointer such as "
            "*fp32)");
  EXPECT_EQ(Kernel(R"([{"name": "p", "type": "i32", "align": 4}])"),
            "m.json:2:150: kernels[0].params[0].align: 'align' is only allowed "
            "on pointer params");
  EXPECT_EQ(Kernel(R"([{"name": "p", "type": "*i8", "align": 12}])"),
            "m.json:2:150: kernels[0].params[0].align: expected a power of "
            "two, got 12");
  // Host tensor descriptors: parts name their descriptor; the base holds
  // the block shape.
  auto Has = [](const std::string &Text, const std::string &Part) {
    return Text.find(Part) != std::string::npos;
  };
  EXPECT_TRUE(Has(Kernel(R"([{"name": "a.base", "type": "*fp16", "descriptor": "b"}])"),
                  "kernels[0].params[0].descriptor: expected the name of the descriptor "
                  "that 'a.base' is a part of"));
  EXPECT_TRUE(Has(Kernel(R"([{"name": "p", "type": "*fp16", "block_shape": [64]}])"),
                  "kernels[0].params[0].block_shape: 'block_shape' belongs on the base "
                  "of a tensor descriptor, with 1 to 5 dimensions"));
  EXPECT_TRUE(Has(Kernel(R"([{"name": "a.base", "type": "*fp16", "descriptor": "a",
                              "block_shape": [64, 0]}])"),
                  "kernels[0].params[0].block_shape[1]: expected an integer in [1, "));
  const std::string Parts =
      R"({"name": "a.shape0", "type": "i64", "descriptor": "a"},
         {"name": "a.shape1", "type": "i64", "descriptor": "a"},
         {"name": "a.stride0", "type": "i64", "descriptor": "a"},
         {"name": "a.stride1", "type": "i64", "descriptor": "a"})";
  EXPECT_EQ(Kernel(R"([{"name": "a.base", "type": "*fp16", "descriptor": "a",
                       "block_shape": [64, 32]}, )" + Parts + "]"),
            "(no error)");
  // Parts out of order, missing, or before their base.
  EXPECT_TRUE(Has(Kernel(R"([{"name": "a.base", "type": "*fp16", "descriptor": "a",
                              "block_shape": [64, 32]},
                             {"name": "a.stride0", "type": "i64", "descriptor": "a"},
                             {"name": "a.shape0", "type": "i64", "descriptor": "a"},
                             {"name": "a.shape1", "type": "i64", "descriptor": "a"},
                             {"name": "a.stride1", "type": "i64", "descriptor": "a"}])"),
                  "kernels[0].params[0]: descriptor 'a' of rank 2 needs the i64 "
                  "parameter 'a.shape0' at position 2, marked with its descriptor"));
  EXPECT_TRUE(Has(Kernel(R"([{"name": "a.base", "type": "*fp16", "descriptor": "a",
                              "block_shape": [64, 32]},
                             {"name": "a.shape0", "type": "i64", "descriptor": "a"}])"),
                  "needs the i64 parameter 'a.shape1' at position 3"));
  EXPECT_TRUE(Has(Kernel("[" + Parts + R"(, {"name": "a.base", "type": "*fp16",
                              "descriptor": "a", "block_shape": [64, 32]}])"),
                  "'a.shape0' is a part of descriptor 'a' that does not follow its base"));
  // A tensor map follows the strides, with a box of the descriptor's rank
  // and a swizzle of 0, 32, 64 or 128 bytes.
  const std::string Base = R"({"name": "a.base", "type": "*fp16", "descriptor": "a",
                               "block_shape": [64, 32]}, )";
  auto Map = [](const std::string &Fields) {
    return R"(, {"name": "a.tensormap", "type": "tensormap", "descriptor": "a", )" +
           Fields + "}";
  };
  EXPECT_EQ(Kernel("[" + Base + Parts + Map(R"("box": [64, 32], "swizzle": 64)") + "]"),
            "(no error)");
  EXPECT_TRUE(Has(Kernel("[" + Base + Parts + Map(R"("box": [64], "swizzle": 64)") + "]"),
                  "the tensor map of descriptor 'a' must be named 'a.tensormap', follow "
                  "its strides and have a box of 2 dimensions"));
  EXPECT_TRUE(Has(Kernel("[" + Base + Parts + Map(R"("box": [64, 32], "swizzle": 48)") + "]"),
                  "swizzle: expected 0, 32, 64 or 128, got 48"));
  EXPECT_TRUE(Has(Kernel("[" + Base + Parts + Map(R"("swizzle": 64)") + "]"), "box"));
  EXPECT_TRUE(Has(Kernel(R"([{"name": "n", "type": "i32"})" +
                         Map(R"("box": [64, 32], "swizzle": 64)") + "]"),
                  "'a.tensormap' is a part of descriptor 'a' that does not follow its base"));
  EXPECT_EQ(Kernel(R"([{"name": "p", "type": "*i8", "divisibility": 16}])"),
            "m.json:2:157: kernels[0].params[0].divisibility: 'divisibility' "
            "is only allowed on integer params");
  EXPECT_EQ(Kernel(R"([{"name": "p", "type": "i32", "divisibility": 12}])"),
            "m.json:2:157: kernels[0].params[0].divisibility: expected a power "
            "of two, got 12");
  EXPECT_EQ(Kernel(R"([{"name": "p", "type": "i32", "equal_to": 2}])"),
            "m.json:2:153: kernels[0].params[0].equal_to: expected an integer "
            "in [1, 1], got 2");
  EXPECT_EQ(
      Kernel(R"([{"name": "p", "type": "i8"}, {"name": "p", "type": "i8"}])"),
      "m.json:2:141: kernels[0].params[1]: duplicate parameter name 'p'");
  EXPECT_EQ(Kernel(R"([{"name": "", "type": "i8"}])"),
            "m.json:2:121: kernels[0].params[0].name: empty parameter name");
  EXPECT_EQ(Kernel(R"([{"type": "i8"}])"),
            "m.json:2:112: kernels[0].params[0]: missing key 'name'");
  EXPECT_EQ(Kernel("[]", R"({"A": [1]})"),
            "m.json:2:135: kernels[0].constexprs.A: expected an integer, "
            "float, boolean, string or null, got an array");
  EXPECT_EQ(
      Kernel("{}"),
      "m.json:2:111: kernels[0].params: expected an array, got an object");
}

TEST(Metadata, DuplicateKernelNames) {
  std::string K = R"({"name": "k", "num_warps": 1, "shared_bytes": 0,
                      "params": [], "constexprs": {}})";
  EXPECT_EQ(parseError(withKernel(K + ", " + K)),
            "m.json:3:56: kernels[1]: duplicate kernel name 'k'");
}

TEST(Metadata, LoadFileNamesTheFile) {
  try {
    tile::ModuleMetadata::loadFile("/nonexistent/dir/k.json");
    FAIL() << "no error";
  } catch (const tile::Error &E) {
    EXPECT_EQ(std::string(E.what()),
              "cannot open metadata file '/nonexistent/dir/k.json': No such "
              "file or directory");
  }
  std::string Path = ::testing::TempDir() + "tile_metadata_test.json";
  {
    std::ofstream Out(Path);
    Out << "{\n  \"kernels\": 1,\n";
  }
  try {
    tile::ModuleMetadata::loadFile(Path);
    FAIL() << "no error";
  } catch (const tile::Error &E) {
    EXPECT_EQ(std::string(E.what()),
              Path + ":3:1: expected a string key, got end of input");
  }
  {
    std::ofstream Out(Path);
    Out << VectorAddJson;
  }
  EXPECT_EQ(tile::ModuleMetadata::loadFile(Path).Kernels[0].Name, "add_kernel");
  std::remove(Path.c_str());
}

} // namespace

//===- SignatureTest.cpp - Checking kernel arguments without a GPU --------===//
#include "tile/Signature.h"
#include "tile/Args.h"
#include "tile/Error.h"
#include "tile/Metadata.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

const char *const Json = R"({
  "tilec_version": "0.1.0", "source": "v.tile", "source_hash": "0",
  "target": "sm_90",
  "kernels": [
    {"name": "add_kernel", "num_warps": 4, "shared_bytes": 0,
     "params": [
        {"name": "x_ptr", "type": "*fp32", "align": 16},
        {"name": "y_ptr", "type": "*fp32", "align": 16},
        {"name": "out_ptr", "type": "*fp32", "align": 16},
        {"name": "n_elements", "type": "i32"}],
     "constexprs": {"BLOCK_SIZE": 1024}},
    {"name": "mixed", "num_warps": 1, "shared_bytes": 0,
     "params": [
        {"name": "p", "type": "*fp16"},
        {"name": "b", "type": "i1"},
        {"name": "h", "type": "fp16"},
        {"name": "u", "type": "u64"},
        {"name": "d", "type": "fp64"}],
     "constexprs": {}},
    {"name": "specialized", "num_warps": 1, "shared_bytes": 0,
     "params": [
        {"name": "K", "type": "i32", "divisibility": 16},
        {"name": "stride", "type": "i64", "equal_to": 1},
        {"name": "n", "type": "u16", "divisibility": 16}],
     "constexprs": {}},
    {"name": "big", "num_warps": 1, "shared_bytes": 0,
     "params": [{"name": "size", "type": "u64", "divisibility": 16}],
     "constexprs": {}},
    {"name": "described", "num_warps": 1, "shared_bytes": 0,
     "params": [
        {"name": "a.base", "type": "*fp16", "align": 16, "descriptor": "a",
         "block_shape": [64, 32]},
        {"name": "a.shape0", "type": "i64", "descriptor": "a", "divisibility": 16},
        {"name": "a.shape1", "type": "i64", "descriptor": "a", "divisibility": 16},
        {"name": "a.stride0", "type": "i64", "descriptor": "a"},
        {"name": "a.stride1", "type": "i64", "descriptor": "a"},
        {"name": "n", "type": "i32", "divisibility": 16}],
     "constexprs": {}},
    {"name": "mapped", "num_warps": 1, "shared_bytes": 0,
     "params": [
        {"name": "a.base", "type": "*fp16", "align": 16, "descriptor": "a",
         "block_shape": [64, 128]},
        {"name": "a.shape0", "type": "i64", "descriptor": "a"},
        {"name": "a.shape1", "type": "i64", "descriptor": "a"},
        {"name": "a.stride0", "type": "i64", "descriptor": "a"},
        {"name": "a.stride1", "type": "i64", "descriptor": "a"},
        {"name": "a.tensormap", "type": "tensormap", "descriptor": "a",
         "box": [64, 64], "swizzle": 128}],
     "constexprs": {}}
  ]
})";

class SignatureTest : public ::testing::Test {
protected:
  tile::ModuleMetadata Meta = tile::ModuleMetadata::parse(Json);
  tile::Signature Add{Meta.Kernels[0]};
  tile::Signature Mixed{Meta.Kernels[1]};
  tile::Signature Specialized{Meta.Kernels[2]};
  tile::Signature Big{Meta.Kernels[3]};
  tile::Signature Described{Meta.Kernels[4]};
  tile::Signature Mapped{Meta.Kernels[5]};

  /// The message expandDescriptors throws for \p Args, or "(no error)".
  static std::string expandError(const tile::Signature &Sig,
                                 const std::vector<tile::Arg> &Args) {
    try {
      Sig.expandDescriptors(Args.data(), Args.size());
    } catch (const tile::Error &E) {
      return E.what();
    }
    return "(no error)";
  }

  static std::string error(const tile::Signature &Sig,
                           const std::vector<tile::Arg> &Args) {
    try {
      Sig.check(Args.data(), Args.size());
    } catch (const tile::Error &E) {
      return E.what();
    }
    return "(no error)";
  }
};

tile::DevicePtr fp32(std::uint64_t Address) { return {Address, "fp32"}; }

TEST_F(SignatureTest, AcceptsMatchingArguments) {
  EXPECT_EQ(error(Add, {fp32(0x1000), fp32(0x2000), fp32(0x3000), 98432}),
            "(no error)");
  EXPECT_EQ(error(Mixed, {tile::DevicePtr{0x1002, "fp16"}, true,
                          tile::Half::fromFloat(1.5f), std::uint64_t(7), 2.0}),
            "(no error)");
}

TEST_F(SignatureTest, WrongCount) {
  EXPECT_EQ(error(Add, {fp32(0x1000), fp32(0x2000), 5}),
            "add_kernel expects 4 arguments (x_ptr: *fp32, y_ptr: *fp32, "
            "out_ptr: *fp32, n_elements: i32), got 3");
  EXPECT_EQ(error(Add, {}),
            "add_kernel expects 4 arguments (x_ptr: *fp32, y_ptr: *fp32, "
            "out_ptr: *fp32, n_elements: i32), got 0");
}

TEST_F(SignatureTest, WrongTypes) {
  EXPECT_EQ(error(Add, {fp32(0x1000), tile::DevicePtr{0x2000, "fp16"},
                        fp32(0x3000), 5}),
            "argument 2 'y_ptr' of add_kernel: expected *fp32, got *fp16");
  EXPECT_EQ(
      error(Add, {fp32(0x1000), fp32(0x2000), fp32(0x3000), std::int64_t(5)}),
      "argument 4 'n_elements' of add_kernel: expected i32, got i64");
  EXPECT_EQ(error(Add, {7, fp32(0x2000), fp32(0x3000), 5}),
            "argument 1 'x_ptr' of add_kernel: expected *fp32, got i32");
  EXPECT_EQ(error(Add, {fp32(0x1000), fp32(0x2000), fp32(0x3000), 5u}),
            "argument 4 'n_elements' of add_kernel: expected i32, got u32");
  EXPECT_EQ(error(Add, {fp32(0x1000), fp32(0x2000), fp32(0x3000), 5.0f}),
            "argument 4 'n_elements' of add_kernel: expected i32, got fp32");
  EXPECT_EQ(error(Mixed, {tile::DevicePtr{0, "fp16"}, 1,
                          tile::Half::fromFloat(1.5f), std::uint64_t(7), 2.0}),
            "argument 2 'b' of mixed: expected i1, got i32");
}

TEST_F(SignatureTest, MisalignedPointer) {
  EXPECT_EQ(error(Add, {fp32(0x1000), fp32(0x2004), fp32(0x3000), 5}),
            "argument 2 'y_ptr' of add_kernel: pointer 0x2004 is not aligned "
            "to 16 bytes, which the kernel was compiled to assume");
}

TEST_F(SignatureTest, SpecializedIntegers) {
  EXPECT_EQ(error(Specialized, {4096, std::int64_t(1), std::uint16_t(65520)}),
            "(no error)");
  EXPECT_EQ(error(Specialized, {0, std::int64_t(1), std::uint16_t(0)}),
            "(no error)");
  EXPECT_EQ(error(Specialized, {-32, std::int64_t(1), std::uint16_t(16)}),
            "(no error)");
  EXPECT_EQ(error(Specialized, {4097, std::int64_t(1), std::uint16_t(16)}),
            "argument 1 'K' of specialized: 4097 is not a multiple of 16, "
            "which the kernel was compiled to assume (--specialize K=16)");
  EXPECT_EQ(error(Specialized, {16, std::int64_t(4096), std::uint16_t(16)}),
            "argument 2 'stride' of specialized: 4096 is not 1, which the "
            "kernel was compiled to assume (--specialize stride=1)");
  // Unsigned values are read zero-extended (65535 is not -1).
  EXPECT_EQ(error(Specialized, {16, std::int64_t(1), std::uint16_t(65535)}),
            "argument 3 'n' of specialized: 65535 is not a multiple of 16, "
            "which the kernel was compiled to assume (--specialize n=16)");
  // u64 values above 2^63 print unsigned.
  EXPECT_EQ(error(Big, {std::uint64_t(0x8000000000000010ull)}), "(no error)");
  EXPECT_EQ(error(Big, {std::uint64_t(0x8000000000000001ull)}),
            "argument 1 'size' of big: 9223372036854775809 is not a multiple "
            "of 16, which the kernel was compiled to assume (--specialize "
            "size=16)");
}

TEST(Args, HostTypesMapToTileTypes) {
  auto Type = [](const tile::Arg &A) { return A.type().str(); };
  EXPECT_EQ(Type(std::int8_t(1)), "i8");
  EXPECT_EQ(Type(std::int16_t(1)), "i16");
  EXPECT_EQ(Type(std::int32_t(1)), "i32");
  EXPECT_EQ(Type(std::int64_t(1)), "i64");
  EXPECT_EQ(Type(1LL), "i64");
  EXPECT_EQ(Type(std::uint8_t(1)), "u8");
  EXPECT_EQ(Type(std::uint16_t(1)), "u16");
  EXPECT_EQ(Type(std::uint32_t(1)), "u32");
  EXPECT_EQ(Type(std::uint64_t(1)), "u64");
  EXPECT_EQ(Type(1.0f), "fp32");
  EXPECT_EQ(Type(1.0), "fp64");
  EXPECT_EQ(Type(true), "i1");
  EXPECT_EQ(Type(tile::Half{}), "fp16");
  EXPECT_EQ(Type(tile::BFloat16{}), "bf16");
  EXPECT_EQ(Type(tile::DevicePtr{0, "bf16"}), "*bf16");
}

TEST(Args, BytesArePassedByValue) {
  tile::Arg I32(std::int32_t(-2));
  std::int32_t V;
  std::memcpy(&V, I32.data(), sizeof(V));
  EXPECT_EQ(V, -2);
  tile::Arg B(true);
  EXPECT_EQ(*static_cast<const unsigned char *>(B.data()), 1);
  tile::Arg P(tile::DevicePtr{0x123456789abcULL, "i8"});
  EXPECT_EQ(P.address(), 0x123456789abcULL);
}

TEST(Args, DevicePtrRejectsUnknownTypes) {
  try {
    tile::DevicePtr P{0, "float"};
    FAIL() << "no error";
  } catch (const tile::Error &E) {
    EXPECT_EQ(std::string(E.what()),
              "DevicePtr: unknown element type 'float' (expected i1, i8, ..., "
              "u64, fp16, bf16, fp32 or fp64)");
  }
}

TEST_F(SignatureTest, TensorDescriptorsExpandIntoTheirParts) {
  tile::DevicePtr A{0x10000, "fp16"};
  auto Desc = [&](std::vector<std::int64_t> Shape, std::vector<std::int64_t> Strides,
                  tile::DevicePtr Base = {0x10000, "fp16"}) {
    return tile::TensorDescriptor(Base, std::move(Shape), std::move(Strides), {64, 32});
  };
  std::vector<tile::Arg> Args{Desc({128, 96}, {96, 1}), 32};
  std::vector<tile::Arg> Parts = Described.expandDescriptors(Args.data(), Args.size());
  ASSERT_EQ(Parts.size(), 6u);
  EXPECT_EQ(Parts[0].address(), A.Address);
  EXPECT_EQ(Parts[1].intValue(), 128);
  EXPECT_EQ(Parts[2].intValue(), 96);
  EXPECT_EQ(Parts[3].intValue(), 96);
  EXPECT_EQ(Parts[4].intValue(), 1);
  EXPECT_EQ(Parts[5].intValue(), 32);
  EXPECT_NO_THROW(Described.check(Parts.data(), Parts.size()));
  EXPECT_EQ(expandError(Described, {Desc({128, 96}, {96, 2}), 32}),
            "argument 1 'a' of described: strides [96, 2]: the last must be 1");
  EXPECT_EQ(expandError(Described, {Desc({128, 96}, {100, 1}), 32}),
            "argument 1 'a' of described: strides [100, 1]: stride 0 must be a positive "
            "multiple of 16 bytes (8 elements)");
  EXPECT_EQ(expandError(Described, {Desc({100, 96}, {96, 1}), 32}),
            "argument 1 'a' of described: shape [100, 96]: the kernel was compiled for "
            "dimensions that are multiples of 16 (tensordesc<fp16[64, 32]>:16)");
  EXPECT_EQ(expandError(Described, {Desc({128, 96}, {96, 1}, {0x10008, "fp16"}), 32}),
            "argument 1 'a' of described: base 0x10008 is not aligned to 16 bytes");
  EXPECT_EQ(expandError(Described, {Desc({128, 96}, {96, 1}, {0x10000, "fp32"}), 32}),
            "argument 1 'a' of described: expected a descriptor of fp16 elements, got fp32");
  EXPECT_EQ(expandError(Described, {Desc({128, 96, 2}, {96, 1, 1}), 32}),
            "argument 1 'a' of described: expected 2 dimensions, got a shape of 3, 3 strides "
            "and a block shape of 2");
  // Later arguments keep the caller's numbering.
  EXPECT_EQ(expandError(Described, {Desc({128, 96}, {96, 1}), 33}),
            "argument 2 'n' of described: 33 is not a multiple of 16, which the kernel was "
            "compiled to assume (--specialize n=16)");
  EXPECT_EQ(expandError(Described, {A, 32}),
            "argument 1 'a' of described: expected a tensor descriptor "
            "(tensordesc<fp16[64, 32]>), got *fp16");
  EXPECT_EQ(expandError(Add, {Desc({128, 96}, {96, 1}), fp32(0x2000), fp32(0x3000), 5}),
            "argument 1 'x_ptr' of add_kernel: expected *fp32, got a tensor descriptor "
            "(tensordesc<fp16[64, 32]>)");
  EXPECT_TRUE(Add.needsExpansion(Args.data(), 1));
  EXPECT_FALSE(Add.needsExpansion(nullptr, 0));
}

TEST_F(SignatureTest, TensorMapsFollowTheirDescriptorsParts) {
  std::vector<tile::Arg> Args{
      tile::TensorDescriptor({0x10000, "fp16"}, {100, 200}, {200, 1}, {64, 128})};
  std::vector<tile::Arg> Parts = Mapped.expandDescriptors(Args.data(), Args.size());
  ASSERT_EQ(Parts.size(), 6u);
  EXPECT_EQ(Parts[4].intValue(), 1);
  const tile::TensorMapArg *Map = Parts[5].tensorMap();
  ASSERT_NE(Map, nullptr);
  EXPECT_EQ(Parts[5].typeName(), "tensormap");
  EXPECT_EQ(Parts[5].data(), static_cast<const void *>(Map->Map));
  EXPECT_EQ(Map->Desc.Shape, (std::vector<std::int64_t>{100, 200}));
  EXPECT_EQ(Map->Box, (std::vector<std::int64_t>{64, 64}));
  EXPECT_EQ(Map->Swizzle, 128u);
  EXPECT_EQ(Map->Where, "argument 1 'a' of mapped: ");
  EXPECT_EQ(Meta.Kernels[5].paramList(), "a: tensordesc<fp16[64, 128]>");
  EXPECT_EQ(Meta.Kernels[5].Params[5].paramBytes(), 128u);
}

} // namespace

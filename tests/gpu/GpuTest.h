//===- GpuTest.h - Fixture of the GPU tests ----------------------*- C++
//-*-===//
//
// A GoogleTest fixture that skips without a GPU and loads the example PTX
// the way the host programs find it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_TESTS_GPU_GPUTEST_H
#define TILEC_TESTS_GPU_GPUTEST_H

#include "ExampleSupport.h"
#include "tile/Runtime.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace gputest {

/// Holds a context on device 0; skips the test when there is no GPU.
template <class Base = ::testing::Test> class GpuTest : public Base {
protected:
  void SetUp() override {
    if (!tile::gpuAvailable())
      GTEST_SKIP() << "no GPU (" << tile::gpuUnavailableReason() << ")";
    Ctx = std::make_unique<tile::Context>(0);
  }

  /// Loads the example module FileName ("vector_add.ptx").
  tile::Module loadExample(const std::string &FileName) {
    return tile::Module::loadFile(*Ctx, examples::findExamplePtx(FileName));
  }

  std::unique_ptr<tile::Context> Ctx;
};

} // namespace gputest

#endif // TILEC_TESTS_GPU_GPUTEST_H

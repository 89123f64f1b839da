//===- tile_bench.cpp - Time tilec's example kernels ----------------------===//
//
// For each elementwise example at each size: random inputs, a warm-up, then
// many launches each timed with CUDA events; prints one line per case:
//   <kernel> <n> <median_ms> <GB/s>
// counting each input read once and the output written once. Also times the
// host-side cost of one launch call (argument checking included).
//
//===----------------------------------------------------------------------===//

#include "ExampleSupport.h"

#include "tile/Runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace {

/// One elementwise kernel: its PTX, name, inputs and bytes moved per element.
struct Case {
  const char *ptx;
  const char *kernel;
  int inputs;
};

double medianMs(std::vector<float> times) {
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void run(const tile::Context &ctx, const Case &c, size_t n, int iterations) {
  tile::Module module =
      tile::Module::loadFile(ctx, examples::findExamplePtx(c.ptx));
  tile::Kernel kernel = module.kernel(c.kernel);
  int64_t block = kernel.info().constexprInt("BLOCK_SIZE");
  std::vector<tile::DeviceBuffer<float>> buffers;
  for (int i = 0; i <= c.inputs; ++i) {
    buffers.emplace_back(ctx, n);
    buffers.back().copyFromHost(examples::randomFloats(n, -4.f, 4.f, 7 + i));
  }
  std::vector<tile::Arg> args;
  for (auto &buffer : buffers)
    args.emplace_back(buffer);
  args.emplace_back(static_cast<int32_t>(n));
  tile::Grid grid{static_cast<unsigned>(tile::cdiv<int64_t>(n, block))};
  tile::Stream stream;
  tile::Timer timer(ctx);
  for (int i = 0; i < 10; ++i)
    kernel.launch(grid, stream, args);
  std::vector<float> times;
  for (int i = 0; i < iterations; ++i) {
    timer.start(stream);
    kernel.launch(grid, stream, args);
    timer.stop(stream);
    times.push_back(timer.elapsedMs());
  }
  double ms = medianMs(times);
  double bytes = double(n) * sizeof(float) * (c.inputs + 1);
  std::printf("%s %zu %.5f %.1f\n", c.kernel, n, ms, bytes / ms / 1e6);

  // Host cost of one launch call (the driver's enqueue included).
  ctx.synchronize();
  auto start = std::chrono::steady_clock::now();
  constexpr int launches = 2000;
  for (int i = 0; i < launches; ++i)
    kernel.launch(tile::Grid{1}, stream, args);
  auto stop = std::chrono::steady_clock::now();
  ctx.synchronize();
  std::printf("launch_us %s %.3f\n", c.kernel,
              std::chrono::duration<double, std::micro>(stop - start).count() /
                  launches);
}

} // namespace

int main(int argc, char **argv) {
  if (!tile::gpuAvailable()) {
    std::printf("SKIPPED: no GPU (%s)\n", tile::gpuUnavailableReason().c_str());
    return examples::SkipExitCode;
  }
  try {
    tile::Context ctx(0);
    std::printf("device %s\n", ctx.deviceName().c_str());
    std::vector<size_t> sizes;
    for (int i = 1; i < argc; ++i)
      sizes.push_back(std::strtoull(argv[i], nullptr, 0));
    if (sizes.empty())
      sizes = {size_t(1) << 20, size_t(1) << 24, size_t(1) << 28};
    for (const Case &c : {Case{"vector_add.ptx", "add_kernel", 2},
                          Case{"gelu.ptx", "gelu_kernel", 1}})
      for (size_t n : sizes)
        run(ctx, c, n, 100);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "tile_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}

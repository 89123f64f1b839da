// Launches the two kernels through their generated launcher headers (PTX embedded):
// z = 2 * x + x, checked on the CPU. Prints SKIPPED and exits 77 without a GPU.
#include "add.h"
#include "scale.h"

#include "tile/Runtime.h"

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  if (!tile::gpuAvailable()) {
    std::printf("SKIPPED: no GPU (the kernels were compiled and linked)\n");
    return 77;
  }
  tile::Context Ctx;
  const std::int32_t N = 100000;
  std::vector<float> X(N);
  for (std::int32_t I = 0; I < N; ++I)
    X[I] = 0.001f * static_cast<float>(I % 997) - 0.5f;
  tile::DeviceBuffer<float> DX(Ctx, N), DY(Ctx, N), DZ(Ctx, N);
  DX.copyFromHost(X);
  tile::Grid G{static_cast<unsigned>((N + 255) / 256)};
  tilec_kernels::scale::scale Scale(Ctx);
  tilec_kernels::add::add Add(Ctx);
  Scale(G, tile::Stream(), DX, DY, 2.0f, N);
  Add(G, tile::Stream(), DY, DX, DZ, N);
  Ctx.synchronize();
  std::vector<float> Z = DZ.toHost();
  for (std::int32_t I = 0; I < N; ++I)
    if (std::fabs(Z[I] - 3 * X[I]) > 1e-6f) {
      std::printf("FAILED: z[%d] = %g, expected %g\n", I, Z[I], 3 * X[I]);
      return 1;
    }
  std::printf("PASSED: %d elements on %s\n", N, Ctx.deviceName().c_str());
  return 0;
}

// A PyTorch C++ extension that registers a tilec kernel as the custom operator
// tilec::scaled_add(Tensor x, Tensor y, float alpha) -> Tensor (TORCH_LIBRARY):
// the CUDA implementation launches the kernel of scaled_add.tile, embedded by
// its launcher header (tilec --emit=header), on PyTorch's current stream of the
// tensors' device; the Meta implementation gives torch.compile the result's shape.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <torch/library.h>

#include "scaled_add.h" // tilec --emit=header scaled_add.tile
#include "tile/Runtime.h"

#include <map>
#include <memory>
#include <mutex>

namespace {

/// A device's tilec context (it retains the device's primary context, the
/// one PyTorch uses too) and the kernel loaded into it.
struct DeviceKernel {
  explicit DeviceKernel(int device) : ctx(device), kernel(ctx) {}
  tile::Context ctx;
  tilec_kernels::scaled_add::scaled_add_kernel kernel;
};

/// The kernel on `device`, loaded on first use.
const DeviceKernel &kernelFor(int device) {
  static std::mutex lock;
  static std::map<int, std::unique_ptr<DeviceKernel>> kernels;
  std::lock_guard<std::mutex> guard(lock);
  std::unique_ptr<DeviceKernel> &entry = kernels[device];
  if (!entry)
    entry = std::make_unique<DeviceKernel>(device);
  return *entry;
}

/// The checks both implementations make (sizes may be symbolic under
/// torch.compile and opcheck).
void checkInputs(const at::Tensor &x, const at::Tensor &y) {
  TORCH_CHECK(x.scalar_type() == at::kFloat && y.scalar_type() == at::kFloat,
              "tilec::scaled_add takes float32 tensors");
  TORCH_CHECK(x.sym_sizes() == y.sym_sizes(), "tilec::scaled_add: x and y differ in shape");
}

at::Tensor scaledAddCuda(const at::Tensor &x, const at::Tensor &y, double alpha) {
  checkInputs(x, y);
  TORCH_CHECK(x.numel() < (int64_t(1) << 31), "tilec::scaled_add: more than 2^31 elements");
  TORCH_CHECK(x.is_cuda() && y.device() == x.device(),
              "tilec::scaled_add: x and y must be on one CUDA device");
  at::Tensor xc = x.contiguous(), yc = y.contiguous();
  at::Tensor out = at::empty_like(xc);
  auto n = static_cast<std::int32_t>(xc.numel());
  if (n == 0)
    return out;
  int device = x.get_device();
  const DeviceKernel &k = kernelFor(device);
  k.ctx.makeCurrent(); // This thread may not have launched on it yet.
  tile::Stream stream =
      tile::Stream::wrap(k.ctx, at::cuda::getCurrentCUDAStream(device).stream());
  auto address = [](const at::Tensor &t) {
    return tile::TypedPtr<float>(reinterpret_cast<std::uint64_t>(t.data_ptr()));
  };
  std::int64_t block = k.kernel.kernel().info().constexprInt("BLOCK");
  tile::Grid grid{static_cast<unsigned>((n + block - 1) / block)};
  k.kernel(grid, stream, address(xc), address(yc), address(out), static_cast<float>(alpha), n);
  return out;
}

at::Tensor scaledAddMeta(const at::Tensor &x, const at::Tensor &y, double) {
  checkInputs(x, y);
  return at::empty_like(x, at::MemoryFormat::Contiguous);
}

} // namespace

TORCH_LIBRARY(tilec, m) { m.def("scaled_add(Tensor x, Tensor y, float alpha) -> Tensor"); }
TORCH_LIBRARY_IMPL(tilec, CUDA, m) { m.impl("scaled_add", &scaledAddCuda); }
TORCH_LIBRARY_IMPL(tilec, Meta, m) { m.impl("scaled_add", &scaledAddMeta); }

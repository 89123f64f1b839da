"""Checks the tilec::scaled_add operator against PyTorch: eager results, inputs that are
not contiguous, PyTorch's current stream, torch.library.opcheck (schema, fake tensors,
autograd registration), torch.compile(fullgraph=True), and its errors. Prints one line
per check; exits non-zero on the first failure. Needs a GPU."""
import sys

import torch

from tilec_torch import load_tilec_ops


def main():
    if not torch.cuda.is_available():
        print("SKIPPED: no GPU")
        return 77
    scaled_add = load_tilec_ops()
    torch.manual_seed(0)
    x = torch.randn(1_000_003, device="cuda")
    y = torch.randn(1_000_003, device="cuda")

    out = scaled_add(x, y, 0.5)
    torch.testing.assert_close(out, x + 0.5 * y, rtol=1e-6, atol=1e-6)
    print("ok: eager result matches x + 0.5 * y (1000003 elements)")

    a = torch.randn(513, 257, device="cuda")
    torch.testing.assert_close(scaled_add(a.t(), a.t(), -2.0), -a.t(), rtol=1e-6, atol=1e-6)
    print("ok: a transposed (non-contiguous) input")

    # On a side stream the op runs after the work queued there before it.
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        big = torch.randn(4_000_000, device="cuda")
        doubled = big * 2
        out_side = scaled_add(doubled, big, 1.0)
    side.synchronize()
    torch.testing.assert_close(out_side, big * 3, rtol=1e-6, atol=1e-6)
    print("ok: launched on PyTorch's current (side) stream, ordered after its work")

    torch.library.opcheck(torch.ops.tilec.scaled_add.default, (x[:4096], y[:4096], 0.25))
    print("ok: torch.library.opcheck")

    @torch.compile(fullgraph=True)
    def fused(p, q):
        return torch.relu(torch.ops.tilec.scaled_add(p, q, 3.0)) * 2

    torch.testing.assert_close(fused(x, y), torch.relu(x + 3.0 * y) * 2, rtol=1e-5, atol=1e-5)
    print("ok: torch.compile(fullgraph=True) around the op")

    try:
        scaled_add(x.double(), y.double(), 1.0)
        print("FAIL: float64 inputs were accepted")
        return 1
    except RuntimeError as e:
        message = str(e).splitlines()[0]
    assert "float32" in message, message
    print("ok: float64 inputs are refused:", message)
    print("PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())

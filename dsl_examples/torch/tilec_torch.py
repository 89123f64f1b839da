"""Builds and loads the tilec::scaled_add PyTorch operator (tilec_ops.cpp) with
torch.utils.cpp_extension: the extension and tilec's runtime sources are compiled
with the machine's C++ compiler, against PyTorch's headers; the kernel comes
embedded in scaled_add.h, which `tilec scaled_add.tile --emit=header` writes (the
build tree has it as build/dsl_examples/torch/scaled_add.h; TILEC_TORCH_GENERATED
names another directory)."""
import os

import torch
from torch.utils.cpp_extension import load

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
RUNTIME_SOURCES = ["Args", "Buffer", "Context", "Differential", "Driver", "Half", "Json", "Kernel",
                   "Metadata", "Module", "Paths", "PtxCheck", "PtxScan", "Signature", "Stream",
                   "Types"]


def load_tilec_ops(verbose=False):
    """Compiles (once; cached by torch) and loads the extension: torch.ops.tilec.scaled_add."""
    generated = os.environ.get("TILEC_TORCH_GENERATED",
                               os.path.join(ROOT, "build", "dsl_examples", "torch"))
    if not os.path.exists(os.path.join(generated, "scaled_add.h")):
        raise FileNotFoundError(f"no scaled_add.h in {generated}: run tilec "
                                "dsl_examples/torch/scaled_add.tile --emit=header first")
    sources = [os.path.join(HERE, "tilec_ops.cpp")]
    sources += [os.path.join(ROOT, "runtime", "lib", f + ".cpp") for f in RUNTIME_SOURCES]
    load(name="tilec_ops", sources=sources,
         extra_include_paths=[os.path.join(ROOT, "runtime", "include"), generated],
         extra_cflags=["-O2", "-std=c++17"], extra_ldflags=["-ldl"],
         with_cuda=True, is_python_module=False, verbose=verbose)
    return torch.ops.tilec.scaled_add

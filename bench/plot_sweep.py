"""Plots bench.py --sweep's results as Triton's perf_report does: one PNG per
kernel, GB/s against the size, one line each for tilec, Triton and PyTorch.

Usage: python3 bench/plot_sweep.py SWEEP_JSON [OUT_DIR]
(needs matplotlib; bench.py --sweep calls plot() itself when it can import it.)
"""
import json
import os
import sys

# The size each kernel's plot runs along: the shape's last number (elements
# of the vector add, columns of softmax, D of the weighted sum).
X_LABELS = {"add_kernel": "elements", "softmax": "columns (4096 rows)",
            "softmax_fp16": "columns (4096 rows)", "weighted_sum": "D (65536 rows)",
            "layer_norm_fp16": "N (4096 rows)", "row_cumsum": "columns (4096 rows)",
            "row_sum": "columns (8192 rows)", "transpose_fp32": "N (N x N)",
            "transpose_fp16": "N (N x N)"}

# Kernels whose sizes grow linearly (tutorial 05's 512 * i columns).
LINEAR_SIZES = {"layer_norm_fp16"}


def plot(sweep_json, out_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(sweep_json) as f:
        sweep = json.load(f)
    kernels = {}
    for row in sweep["rows"]:
        kernels.setdefault(row["kernel"], []).append(row)
    written = []
    for kernel, rows in kernels.items():
        rows.sort(key=lambda r: int(r["shape"].split("x")[-1]))
        sizes = [int(r["shape"].split("x")[-1]) for r in rows]
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for impl, label in (("tilec", "tilec"), ("triton", "Triton"), ("torch", "PyTorch")):
            points = [(s, r[impl]) for s, r in zip(sizes, rows) if r.get(impl)]
            if points:
                ax.plot(*zip(*points), marker="o", label=label)
        if kernel not in LINEAR_SIZES:
            ax.set_xscale("log", base=2)
        ax.set_xlabel(X_LABELS.get(kernel, "size"))
        ax.set_ylabel("GB/s")
        ax.set_title(f"{kernel}, {sweep['device']}, {sweep['date']}")
        ax.grid(True, alpha=0.3)
        ax.legend()
        path = os.path.join(out_dir, f"sweep_{kernel}.png")
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    print("plots: " + ", ".join(written))
    return written


if __name__ == "__main__":
    plot(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(sys.argv[1]))

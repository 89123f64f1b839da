"""Launches one of bench.py's memory-bound Triton kernels a few times at one
size, with bench.py's inputs and configuration, for ncu to profile beside
tilec's (bench/ncu_memory_bound.sh; sass_memory_bound.sh reads the kernel it
leaves in Triton's cache).

Usage: python3 bench/ncu_memory_bound.py layer_norm_fp16 N | weighted_sum D
"""
import sys

import torch

import bench


def main():
    kernel, size = sys.argv[1], int(sys.argv[2])
    configs = bench.DEFAULT_CONFIGS
    if kernel == "layer_norm_fp16":
        case = next(bench.layer_norm_cases(configs, [(4096, size)]))
    else:
        case = next(bench.weighted_sum_case(configs["weighted_sum_d16.ptx"], 65536, size))
    run, _ = case["impls"]["triton"]
    for _ in range(3):
        run()
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()

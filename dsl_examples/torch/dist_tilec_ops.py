"""The tilec::scaled_add operator under torch.distributed: one process per GPU (NCCL),
each rank launches the tilec kernel on its own device and the results are all-reduced.
Prints PASSED, or SKIPPED with fewer than two GPUs."""
import os
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

from tilec_torch import load_tilec_ops


def run(rank, world):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29531")
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world,
                            device_id=torch.device("cuda", rank))
    scaled_add = load_tilec_ops()
    x = torch.full((1 << 20,), float(rank + 1), device="cuda")
    out = scaled_add(x, torch.ones_like(x), 2.0)  # rank + 3 on every element
    dist.all_reduce(out)
    expected = sum(r + 3 for r in range(world))
    assert torch.all(out == expected), (rank, out[:4].tolist(), expected)
    print(f"rank {rank} on {torch.cuda.get_device_name(rank)}: all-reduced {out[0].item()}"
          f" == {expected}", flush=True)
    dist.destroy_process_group()


def main():
    world = torch.cuda.device_count()
    if world < 2:
        print(f"SKIPPED: {world} GPU(s); this example needs two")
        return 77
    load_tilec_ops()  # Build once here; the ranks load the cached extension.
    mp.spawn(run, args=(world,), nprocs=world, join=True)
    print("PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())

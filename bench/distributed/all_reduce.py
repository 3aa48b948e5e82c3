"""all_reduce bandwidth on Python's torch.distributed (Gloo), as all_reduce.spl measures it."""
import time

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
n = dist.get_world_size()
for numel in (1048576, 16777216):
    t = torch.ones(numel)
    for _ in range(3):
        dist.all_reduce(t)
    best = 1e30
    for _ in range(50):
        dist.barrier()
        start = time.perf_counter()
        dist.all_reduce(t)
        best = min(best, time.perf_counter() - start)
    bus = 2.0 * (n - 1) / n * numel * 4 / best / 1e9
    if dist.get_rank() == 0:
        print(f"python all_reduce {numel}: {best * 1000.0} ms, {bus} GB/s")
dist.destroy_process_group()

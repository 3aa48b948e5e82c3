"""A DDP training step on Python's torch.distributed, as ddp_step.spl measures it."""
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn
from torch.nn.parallel import DistributedDataParallel

dist.init_process_group("gloo")
torch.manual_seed(0)
model = DistributedDataParallel(nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10)))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
torch.manual_seed(1 + dist.get_rank())
x = torch.randn(64, 784)
y = torch.randint(0, 10, (64,))


def step():
    opt.zero_grad()
    F.cross_entropy(model(x), y).backward()
    opt.step()


for _ in range(5):
    step()
best = 1e30
for _ in range(5):
    dist.barrier()
    start = time.perf_counter()
    for _ in range(20):
        step()
    best = min(best, (time.perf_counter() - start) / 20)
if dist.get_rank() == 0:
    print(f"python ddp mlp step: {best * 1000.0} ms")
dist.destroy_process_group()

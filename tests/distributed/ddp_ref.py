"""The reference of ddp.spl: the same models, data, steps and printed lines with PyTorch's
DistributedDataParallel (Gloo). Started by run_ddp.py as the Simple ranks are (RANK,
WORLD_SIZE, MASTER_ADDR, MASTER_PORT); may share one group with Simple ranks."""
import datetime

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DistributedSampler

STEPS = 20
BATCH = 32


def show(name, tensors):
    values = [float(v) for t in tensors for v in t.detach().to(torch.float64).flatten().tolist()]
    print(f"{name}:" + "".join(f" {v}" for v in values), flush=True)


class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 8)
        self.head = nn.Linear(8, 1)
        self.unused = nn.Linear(8, 1)

    def forward(self, x):
        return self.head(torch.tanh(self.body(x)))


def make_model(kind, seed):
    torch.manual_seed(seed)
    if kind == "unused":
        return TwoHeads()
    if kind == "bn":
        return nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.Tanh(), nn.Linear(8, 1))
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))


def batch(step):
    torch.manual_seed(1000 + step)
    x = torch.randn(BATCH, 4)
    y = torch.randn(BATCH, 1)
    return x, y


def train(model, lo, hi, accumulate):
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loss_fn = nn.MSELoss()
    for step in range(STEPS):
        x, y = batch(step)
        opt.zero_grad()
        if accumulate:
            mid = lo + (hi - lo) // 2
            with model.no_sync():
                (loss_fn(model(x[lo:mid]), y[lo:mid]) * 0.5).backward()
            (loss_fn(model(x[mid:hi]), y[mid:hi]) * 0.5).backward()
        else:
            loss_fn(model(x[lo:hi]), y[lo:hi]).backward()
        opt.step()


single = make_model("plain", 0)
train(single, 0, BATCH, False)
show("single", single.parameters())

dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=60))
rank = dist.get_rank()
n = dist.get_world_size()
share = BATCH // n
for kind in ["ddp", "nosync", "unused", "bn", "static"]:
    model_kind = kind if kind in ("unused", "bn") else "plain"
    ddp = DistributedDataParallel(make_model(model_kind, rank), find_unused_parameters=kind == "unused",
                                  static_graph=kind == "static")
    show(f"{kind} init", ddp.parameters())
    train(ddp, rank * share, (rank + 1) * share, kind == "nosync")
    show(kind, ddp.parameters())
    if kind == "bn":
        show("bn buffers", ddp.buffers())
    if kind == "unused":
        show("unused grad is none", [torch.ones(1) * (1.0 if ddp.module.unused.weight.grad is None else 0.0)])

keys = DistributedDataParallel(make_model("plain", 3)).state_dict().keys()
print("state_dict keys: " + " ".join(keys), flush=True)

for seed in [0, 5]:
    sampler = DistributedSampler(list(range(11)), seed=seed)
    sampler.set_epoch(2)
    print(f"sampler seed {seed}: " + " ".join(str(i) for i in sampler), flush=True)
print("done: ok", flush=True)
dist.destroy_process_group()

"""Writes ddp_fixtures.spl: PyTorch's DistributedDataParallel on a 1-rank Gloo group (a
HashStore): its repr, state_dict keys and error texts, for ddp_spec.spl."""
import os
import sys

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text as error, write  # noqa: E402

out = {}
dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
torch.manual_seed(0)
ddp = DistributedDataParallel(nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2)))
out["repr"] = repr(ddp)
out["keys"] = " ".join(ddp.state_dict().keys())
out["names"] = " ".join(n for n, _ in ddp.named_parameters())


frozen = nn.Linear(2, 2).requires_grad_(False)
out["no_grad_params"] = error(lambda: DistributedDataParallel(frozen))
out["device_ids_cpu"] = error(lambda: DistributedDataParallel(nn.Linear(2, 2), device_ids=[0]))
out["output_device_cpu"] = error(lambda: DistributedDataParallel(nn.Linear(2, 2), output_device=1))
out["two_device_ids"] = error(lambda: DistributedDataParallel(nn.Linear(2, 2), device_ids=[0, 1]))
dist.destroy_process_group()

write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "ddp_fixtures.spl"), __file__, out)

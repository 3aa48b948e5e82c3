"""torch.distributed's NCCL backend with one rank on the GPU (nccl_fixtures.spl): what
all_reduce (SUM, MAX), broadcast, all_gather_into_tensor and reduce_scatter_tensor give there,
and the async work's completion. CUDA only (and NCCL)."""
import torch
import torch.distributed as dist

from device_setup import DEVICE, main


def make():
    if DEVICE != "cuda" or not dist.is_nccl_available():
        return {"cuda": False}
    dist.init_process_group("nccl", store=dist.HashStore(), rank=0, world_size=1)
    x = torch.arange(6, dtype=torch.float32, device="cuda") * 0.5
    dist.all_reduce(x)
    summed = x.cpu().tolist()
    dist.all_reduce(x, op=dist.ReduceOp.MAX)
    dist.broadcast(x, src=0)
    out = torch.zeros(6, device="cuda")
    dist.all_gather_into_tensor(out, x)
    rs = torch.zeros(6, device="cuda")
    dist.reduce_scatter_tensor(rs, x * 2)
    work = dist.all_reduce(x, async_op=True)
    work.wait()
    backend = dist.get_backend()
    dist.barrier()
    dist.destroy_process_group()
    return {"cuda": True, "summed": summed, "gathered": out.cpu().tolist(), "scattered": rs.cpu().tolist(),
            "after_async": x.cpu().tolist(), "backend": backend}


if __name__ == "__main__":
    main("tests/cuda/make_nccl_fixtures.py", "nccl", make)

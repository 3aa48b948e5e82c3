"""torch.cuda's runtime on the GPU (runtime_fixtures.spl): the device's name, capability and
properties, the bytes the caching allocator counts for a known allocation, and the numbers
the CUDA generator gives after manual_seed_all; in the dry run on a machine without a GPU, what
torch.cuda answers there (its errors, its zeros)."""
import torch

from device_setup import DEVICE, error_text, main


def without_gpu():
    """What torch.cuda answers where no GPU can run (the dry run on a machine without one)."""
    return {"is_available": torch.cuda.is_available(), "device_count": torch.cuda.device_count(),
            "memory_allocated": torch.cuda.memory_allocated(), "max_memory_reserved": torch.cuda.max_memory_reserved(),
            "current_device": error_text(torch.cuda.current_device),
            "get_device_name": error_text(torch.cuda.get_device_name),
            "mem_get_info": error_text(torch.cuda.mem_get_info),
            "synchronize": error_text(torch.cuda.synchronize),
            "set_device": error_text(lambda: torch.cuda.set_device(0)),
            "get_device_capability": error_text(torch.cuda.get_device_capability)}


def device_indices():
    """torch.cuda's reading of a device argument (_get_device_index), on any machine."""
    from torch.cuda._utils import _get_device_index
    return {"cuda:3": _get_device_index("cuda:3"), "3": _get_device_index(3),
            "cpu": error_text(lambda: _get_device_index("cpu"))}


def make():
    if DEVICE != "cuda":
        return {"cuda": False, "device_indices": device_indices(),
                "no_gpu": without_gpu() if not torch.cuda.is_available() else None}
    props = torch.cuda.get_device_properties(0)
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    x = torch.zeros(1 << 20, device="cuda")
    grown = torch.cuda.memory_allocated() - before
    del x
    torch.cuda.manual_seed_all(7)
    seeded = torch.randn(5, device="cuda").cpu().tolist()
    return {"cuda": True, "device_count": torch.cuda.device_count(), "name": torch.cuda.get_device_name(),
            "capability": list(torch.cuda.get_device_capability()), "total_memory": props.total_memory,
            "multi_processor_count": props.multi_processor_count, "zeros_1m_bytes": grown,
            "total_from_mem_get_info": torch.cuda.mem_get_info()[1], "seeded_randn": seeded}


if __name__ == "__main__":
    main("tests/cuda/make_runtime_fixtures.py", "runtime", make)

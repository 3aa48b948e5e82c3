"""torch.cuda's runtime on the GPU (runtime_fixtures.spl): the device's name, capability and
properties, the bytes the caching allocator counts for a known allocation, and the numbers
the CUDA generator gives after manual_seed_all. CUDA only: on the CPU the file says so and the
specs skip."""
import torch

from device_setup import DEVICE, main


def make():
    if DEVICE != "cuda":
        return {"cuda": False}
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

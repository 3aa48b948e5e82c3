"""torch.cuda's runtime on the GPU (runtime_fixtures.spl): the device's name, capability and
properties, the bytes the caching allocator counts for a known allocation, and the numbers
the CUDA generator gives after manual_seed_all, memory_stats' aggregate byte counts, bfloat16 and
TF32 support; in the dry run on a machine without a GPU, what torch.cuda answers there (its
errors, its zeros, its empty statistics), and the device scopes that change nothing (a negative
index, a CPU tensor) with cuDNN's is_acceptable of CPU tensors."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text  # noqa: E402
from device_setup import DEVICE, main  # noqa: E402


def without_gpu():
    """What torch.cuda answers where no GPU can run (the dry run on a machine without one)."""
    return {"is_available": torch.cuda.is_available(), "device_count": torch.cuda.device_count(),
            "memory_allocated": torch.cuda.memory_allocated(), "max_memory_reserved": torch.cuda.max_memory_reserved(),
            "current_device": error_text(torch.cuda.current_device),
            "get_device_name": error_text(torch.cuda.get_device_name),
            "mem_get_info": error_text(torch.cuda.mem_get_info),
            "synchronize": error_text(torch.cuda.synchronize),
            "set_device": error_text(lambda: torch.cuda.set_device(0)),
            "get_device_capability": error_text(torch.cuda.get_device_capability),
            "is_initialized": torch.cuda.is_initialized(), "init": error_text(torch.cuda.init),
            "memory_stats": dict(torch.cuda.memory_stats()), "memory_stats_0": dict(torch.cuda.memory_stats(0)),
            "is_bf16_supported": torch.cuda.is_bf16_supported(),
            "is_bf16_supported_native": torch.cuda.is_bf16_supported(including_emulation=False),
            "is_tf32_supported": torch.cuda.is_tf32_supported(),
            "device_0": error_text(lambda: torch.cuda.device(0).__enter__()),
            "reset_peak_memory_stats": error_text(torch.cuda.reset_peak_memory_stats),
            "reset_peak_memory_stats_0": error_text(lambda: torch.cuda.reset_peak_memory_stats(0))}


def device_scopes():
    """torch.cuda.device and device_of where they change nothing (a negative index, a CPU
    tensor), device's refusal of another device, and cuDNN's is_acceptable on CPU tensors: the
    same on any machine."""
    minus = torch.cuda.device(-1)
    minus.__enter__()
    entered = minus.prev_idx
    minus.__exit__(None, None, None)
    of_cpu = torch.cuda.device_of(torch.zeros(1))
    of_cpu.__enter__()
    of_cpu.__exit__(None, None, None)
    cudnn = torch.backends.cudnn
    with cudnn.flags(enabled=False):
        disabled = cudnn.is_acceptable(torch.zeros(1))
    return {"minus_prev_idx": entered, "minus_idx_after": minus.idx, "of_cpu_idx": of_cpu.idx,
            "cpu_device": error_text(lambda: torch.cuda.device("cpu")), "has_half": torch.cuda.has_half,
            "acceptable_cpu_float": cudnn.is_acceptable(torch.zeros(1)),
            "acceptable_cpu_long": cudnn.is_acceptable(torch.zeros(1, dtype=torch.int64)),
            "acceptable_disabled": disabled,
            "cudnn_dtypes": sorted(str(d).replace("torch.", "") for d in cudnn.CUDNN_TENSOR_DTYPES)}


def device_indices():
    """torch.cuda's reading of a device argument (_get_device_index), on any machine."""
    from torch.cuda._utils import _get_device_index
    return {"cuda:3": _get_device_index("cuda:3"), "3": _get_device_index(3),
            "cpu": error_text(lambda: _get_device_index("cpu"))}


def make():
    if DEVICE != "cuda":
        return {"cuda": False, "device_indices": device_indices(), "device_scopes": device_scopes(),
                "no_gpu": without_gpu() if not torch.cuda.is_available() else None}
    props = torch.cuda.get_device_properties(0)
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    x = torch.zeros(1 << 20, device="cuda")
    grown = torch.cuda.memory_allocated() - before
    del x
    torch.cuda.manual_seed_all(7)
    seeded = torch.randn(5, device="cuda").cpu().tolist()
    stats = torch.cuda.memory_stats()
    aggregate = {k: stats[k] for k in ("allocated_bytes.all.current", "allocated_bytes.all.peak",
                                       "reserved_bytes.all.current", "reserved_bytes.all.peak")}
    return {"cuda": True, "is_initialized": torch.cuda.is_initialized(), "memory_stats": aggregate,
            "is_bf16_supported": torch.cuda.is_bf16_supported(),
            "is_bf16_supported_native": torch.cuda.is_bf16_supported(including_emulation=False),
            "is_tf32_supported": torch.cuda.is_tf32_supported(), "device_count": torch.cuda.device_count(), "name": torch.cuda.get_device_name(),
            "capability": list(torch.cuda.get_device_capability()), "total_memory": props.total_memory,
            "multi_processor_count": props.multi_processor_count, "zeros_1m_bytes": grown,
            "total_from_mem_get_info": torch.cuda.mem_get_info()[1], "seeded_randn": seeded}


if __name__ == "__main__":
    main("tests/cuda/make_runtime_fixtures.py", "runtime", make)

"""What the tests/cuda fixture scripts share: the device they run on, read from SPL_TEST_DEVICE
("cuda" unless set; "cpu" for a dry run on a machine without a GPU), as the specs read it
(device.spl); cuDNN's deterministic switches, set in both; and `main`, which writes the
fixture file: `ref_<key>` for each value and `ref_all`, every value by key, which the specs read
(`ref_all["key"]`), since what a file holds depends on the device; when CUDA is asked for and
absent it holds only `ref_available = false` (the specs then skip every example)."""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
sys.path.insert(0, os.path.join(HERE, "..", "optim"))
from fixtures import write  # noqa: E402

DEVICE = os.environ.get("SPL_TEST_DEVICE", "cuda")


def available():
    return DEVICE != "cuda" or torch.cuda.is_available()


def main(script, name, make):
    values = {"available": available()}
    if values["available"]:
        # cuDNN picks deterministic algorithms and does not time candidates (benchmark), so
        # that Python and Simple, two processes, run the same convolution and RNN kernels; and
        # no TF32, so that a kernel chosen differently could differ in rounding only.
        torch.backends.cudnn.deterministic = True
        torch.backends.cudnn.benchmark = False
        torch.backends.cudnn.allow_tf32 = False
        values["device"] = DEVICE
        values.update(make())
    write(os.path.join(HERE, name + "_fixtures.spl"), script, values, index=True)

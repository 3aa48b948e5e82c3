#!/usr/bin/env python3
"""The CNN+LSTM defined in Simple (tests/jit/traced_net.spl), traced by lib.torch.jit.trace and
saved, run by Python's torch.jit.load: its outputs on Simple's input (and on a second input of
the same shape) equal Simple's eager outputs bit for bit (the same LibTorch runs both), its
state_dict equals Simple's, and its submodules carry the Simple class names.

usage: check_python_runs_traced.py SPLRUN        (SIMPLE_SFFI_PATH and SIMPLE_LIB as for the specs)"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "data"))
from python_side import ensure_modules  # noqa: E402

ensure_modules("torch")

import torch  # noqa: E402

# traced_net.spl's text, then this program (its own `use` lines stay valid at the top).
PROGRAM = """
use lib.torch.{save}
use lib.torch.jit

val out_dir = args()[0]
val net = cnn_lstm()
net.eval()
val x = net_input()
val x2 = (x * 3.0).sin()
jit.trace(net, [x]).save(out_dir + "/traced.pt")
val (logits, h) = net(x)
val (logits2, h2) = net(x2)
save({"x": x, "x2": x2, "out": [logits.detach(), h.detach()], "out2": [logits2.detach(), h2.detach()], "state": net.state_dict()}, out_dir + "/simple.pt")
print "written"
"""


def main():
    splrun = os.path.abspath(sys.argv[1])
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        program = os.path.join(tmp, "trace.spl")
        with open(os.path.join(HERE, "traced_net.spl")) as f:
            net_source = f.read().replace("\nexport ", "\n# export ")
        with open(program, "w") as f:
            f.write(net_source + PROGRAM)
        done = subprocess.run([splrun, program, tmp], capture_output=True, text=True, timeout=300)
        if done.returncode != 0 or "written" not in done.stdout:
            print(f"FAIL: splrun: exit {done.returncode}\n{done.stdout}\n{done.stderr}")
            sys.exit(1)
        simple = torch.load(os.path.join(tmp, "simple.pt"), weights_only=True)
        m = torch.jit.load(os.path.join(tmp, "traced.pt"))
        if m.original_name != "CnnLstm" or [c.original_name for c in m.children()] != ["Conv2d", "BatchNorm2d", "LSTM", "Linear"]:
            failures.append(f"names: {m.original_name}, {[c.original_name for c in m.children()]}")
        state = m.state_dict()
        if list(state) != list(simple["state"]):
            failures.append(f"state_dict keys {list(state)} != Simple's {list(simple['state'])}")
        failures += [f"state_dict[{k!r}] differs" for k, t in simple["state"].items() if k in state and not torch.equal(state[k], t)]
        for x, want in ((simple["x"], simple["out"]), (simple["x2"], simple["out2"])):
            got = m(x)
            if len(got) != len(want):
                failures.append(f"{len(got)} outputs, Simple's eager forward gave {len(want)}")
            for i, (g, w) in enumerate(zip(got, want)):
                if not torch.equal(g, w):
                    failures.append(f"output {i} differs from Simple's eager one: {g} != {w}")
    for f in failures:
        print("FAIL: " + f)
    print("ok: Python runs the module Simple traced, bit for bit" if not failures else f"{len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

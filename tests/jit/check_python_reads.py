#!/usr/bin/env python3
"""A ScriptModule that Simple loaded, fine-tuned and saved (ScriptModule.save), read back by
Python's torch.jit.load: its state_dict equals the one Simple had, and its eval output on
Simple's inputs equals Simple's bit for bit (the same LibTorch runs both).

usage: check_python_reads.py SPLRUN        (SIMPLE_SFFI_PATH and SIMPLE_LIB as for the specs)
Run from the repository root, or anywhere: it finds tests/jit/files/net.pt beside itself
(make_jit_fixtures.py writes it)."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "data"))
from python_side import ensure_modules  # noqa: E402

ensure_modules("torch")

import torch  # noqa: E402

PROGRAM = """\
use lib.torch.{Tensor, save}
use lib.torch.jit
use lib.torch.optim.{Adam}

val (net, out_dir) = (args()[0], args()[1])
val m = jit.load(net)
val x = (Tensor.arange(20, dtype: "float32") * 0.29).sin().reshape([5, 4])
val extras = [(Tensor.arange(15, dtype: "float32") * 0.13).sin().reshape([5, 3]), Tensor.ones([3])]
val opt = Adam(m.parameters(), lr: 0.01)
m.train()
for _ in 0..3:
    opt.zero_grad()
    m(x, extras).pow(2).mean().backward()
    opt.step()
m.eval()
m.save(out_dir + "/tuned.pt")
save({"x": x, "extras": extras, "out": m(x, extras).detach(), "state": m.state_dict()}, out_dir + "/simple.pt")
print "written"
"""


def main():
    splrun = os.path.abspath(sys.argv[1])
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        program = os.path.join(tmp, "tune.spl")
        with open(program, "w") as f:
            f.write(PROGRAM)
        done = subprocess.run([splrun, program, os.path.join(HERE, "files", "net.pt"), tmp], capture_output=True,
                              text=True, timeout=300)
        if done.returncode != 0 or "written" not in done.stdout:
            print(f"FAIL: splrun: exit {done.returncode}\n{done.stdout}\n{done.stderr}")
            sys.exit(1)
        simple = torch.load(os.path.join(tmp, "simple.pt"), weights_only=True)
        m = torch.jit.load(os.path.join(tmp, "tuned.pt"))
        m.eval()
        state = m.state_dict()
        if list(state.keys()) != list(simple["state"].keys()):
            print(f"FAIL: state_dict keys {list(state.keys())} != Simple's {list(simple['state'].keys())}")
            failures += 1
        for k, t in simple["state"].items():
            if k in state and not torch.equal(state[k], t):
                print(f"FAIL: state_dict[{k!r}] differs from Simple's")
                failures += 1
        out = m(simple["x"], simple["extras"])
        if not torch.equal(out, simple["out"]):
            print(f"FAIL: forward differs from Simple's: {out} != {simple['out']}")
            failures += 1
    print("ok: torch.jit.load reads the module Simple saved" if failures == 0 else f"{failures} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

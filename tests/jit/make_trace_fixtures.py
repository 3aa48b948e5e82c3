"""What Python's torch.jit.trace gives for the models trace_spec.spl traces in Simple
(tests/jit/traced_net.spl): the CNN+LSTM's graph (its aten:: operators in order, its
attribute names), the TracerWarnings (a value read back, a tensor's truth, dropout in
training), check_trace's error for control flow that changes between traces, and the error
for a forward that returns a number. Deterministic: fixed inputs, nothing random is compared."""
import os
import re
import sys
import warnings

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, write  # noqa: E402


class Net(torch.nn.Module):
    """traced_net.spl's CnnLstm, in torch.nn."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(1, 4, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(4)
        self.lstm = torch.nn.LSTM(12, 5, batch_first=True)
        self.fc = torch.nn.Linear(5, 3)

    def forward(self, x):
        y = F.max_pool2d(self.bn(self.conv(x)).relu(), 2)
        seq = y.permute(0, 3, 1, 2).reshape(2, 4, -1)
        out, (h, c) = self.lstm(seq)
        return self.fc(out.select(1, -1)), h


class Flip(torch.nn.Module):
    """A forward whose branch changes on every call (state the trace cannot see)."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        return self.fc(x).relu() if self.calls % 2 == 0 else self.fc(x).sigmoid()


class Drop(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)
        self.drop = torch.nn.Dropout(0.5)

    def forward(self, x):
        return self.drop(self.fc(x))


def caught(fn):
    """The TracerWarnings' messages fn() raises, in order."""
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        fn()
    return [str(w.message) for w in ws if w.category is torch.jit.TracerWarning]


def main():
    v = {}
    x = torch.linspace(-1.0, 1.0, 96).reshape(2, 1, 6, 8)
    traced = torch.jit.trace(Net().eval(), (x,))
    # Simple's graph is flat (no prim::CallMethod per submodule): Python's inlined graph
    v["graph_ops"] = [n.kind() for n in traced.inlined_graph.nodes() if n.kind().startswith("aten::")]
    # the top-level graph: each submodule's forward a prim::CallMethod
    v["top_graph_kinds"] = [n.kind() for n in traced.graph.nodes() if n.kind() not in ("prim::Constant", "prim::ListConstruct")]
    v["state_keys"] = list(traced.state_dict().keys())
    v["child_names"] = [name for name, _ in traced.named_children()]
    small = torch.linspace(-1.0, 1.0, 12).reshape(3, 4)
    v["item_warnings"] = caught(lambda: torch.jit.trace(lambda a: a * a.sum().item(), (small,), check_trace=False))
    v["bool_warnings"] = caught(lambda: torch.jit.trace(lambda a: a.relu() if a.sum() > 0 else a.sigmoid(), (small,),
                                                        check_trace=False))
    # a function, so that the dropout node is in the graph checked for nondeterministic nodes
    # (a module's graph in Python calls the Dropout submodule's method instead)
    drop = caught(lambda: torch.jit.trace(lambda a: F.dropout(a * 2.0, 0.5, True), (small,)))
    # the first line of each (the detail after it names the node and the values)
    v["dropout_warnings"] = [w.split("\n")[0] for w in drop]
    v["dropout_node"] = re.search(r"aten::\w+", drop[0]).group(0)
    # a module's Dropout is a submodule's method: only the output mismatch
    v["dropout_module_warnings"] = [w.split("\n")[0] for w in caught(lambda: torch.jit.trace(Drop().train(), (small,)))]
    flip = error_text(lambda: torch.jit.trace(Flip(), (small,)))
    v["flip_error_head"] = "\n".join(flip.split("\n")[:3])
    # the graph diff's changed operator lines, as "- aten::sigmoid" (value numbers and the source
    # comments are Python's own)
    v["flip_diff_ops"] = [line.strip()[0] + " " + re.search(r"aten::\w+", line).group(0)
                          for line in flip.split("\n") if line.strip().startswith(("- ", "+ ")) and "aten::" in line]
    v["number_output_error"] = error_text(lambda: torch.jit.trace(lambda a: 3, (small,), check_trace=False))
    write(os.path.join(HERE, "trace_fixtures.spl"), __file__, v)


if __name__ == "__main__":
    main()

"""Reference lines for tests/data/progress_spec.spl (writes tests/data/progress_fixtures.spl).

The lines are tqdm's own (the version pinned in torch-requirements.txt): `tqdm.format_meter`,
`format_interval`, `format_num`, `format_sizeof`, and what `tqdm.tqdm` writes over whole loops.
Each loop's bar is a `Clocked` tqdm: the real class, with its clock replaced by a fake one
(tqdm reads the time through `self._time`, which `__init__` sets from the module's `time`;
`Clocked` patches that name while the bar is made, so every read, the first included, is the
fake clock's) and its monitor thread off (it would refresh by the wall clock).

A terminal's bar is what tqdm writes to its file, in order, less the empty writes tqdm's
close() makes to see whether the file is still open (they write nothing). Non-terminal output
(lib.torch's plain lines for a log file) has no tqdm counterpart: there the reference is each
line tqdm's status printer draws, followed by "\\n", and none of the cursor moves ("\\r", the
final "\\n", the cleared line of leave=False) that only a terminal needs.

Early stopping: `RefEarlyStopping` is PyTorch Lightning's EarlyStopping rule
(`_evaluate_stopping_criteria`, lightning/pytorch/callbacks/early_stopping.py), transcribed
with torch tensors, in float64: Lightning is not a dependency that can be pinned cheaply
(it pulls its own torch and a dozen packages), so this one reference stays a transcription.
"""
import os
import sys
from unittest import mock

import torch
import tqdm
import tqdm.std
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import write  # noqa: E402


class Capture:
    """tqdm's `file`: keeps what is written. UTF-8, as a terminal is (tqdm draws the unicode
    blocks only for a file whose encoding can write them)."""
    encoding = "utf-8"

    def __init__(self):
        self.writes = []

    def write(self, s):
        if s:
            self.writes.append(s)

    def flush(self):
        pass


class Clocked(tqdm.tqdm):
    """The real tqdm.tqdm reading a fake `clock`; `writes` is what it wrote: to a terminal
    (`tty`), or, for a log file, one line per status line drawn."""
    monitor_interval = 0

    def __init__(self, *args, clock, tty=True, **kwargs):
        self.tty = tty
        self.lines = []
        self.capture = Capture()
        with mock.patch.object(tqdm.std, "time", clock):
            super().__init__(*args, file=self.capture, **kwargs)
        assert self._time is clock

    def status_printer(self, file):
        if self.tty:
            return tqdm.tqdm.status_printer(file)

        def line(s):
            if s:
                self.lines.append(s + "\n")
        return line

    @property
    def writes(self):
        return self.capture.writes if self.tty else self.lines


class Ticking:
    """A clock that advances `step` seconds every time it is read."""

    def __init__(self, step):
        self.t, self.step = 0.0, step

    def __call__(self):
        self.t += self.step
        return self.t


class Manual:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def timed(clock, times):
    """An iterable whose i-th item arrives at times[i] (the clock is set as it is fetched)."""
    class Steps:
        def __len__(self):
            return len(times)

        def __iter__(self):
            for i, t in enumerate(times):
                clock.t = t
                yield i
    return Steps()


# --- format_meter cases: (n, total, elapsed, kwargs) --------------------------------------
METER = [
    (0, 10, 0.0, {}),
    (4, 10, 2.02, {"prefix": "epoch 1", "rate": 1.98, "postfix": "loss=0.123"}),
    (4, 10, 2.02, {"prefix": "epoch 1"}),
    (10, 10, 5.5, {}),
    (3, 7, 100.0, {"prefix": "slow"}),
    (1, 8, 0.8, {}),
    (7, None, 12.3, {"prefix": "x"}),
    (0, None, 0.0, {}),
    (5, 10, 3725.0, {}),
    (6, 9, 3.0, {"ascii": True}),
    (6, 9, 3.0, {"ncols": 60, "prefix": "wide"}),
    (6, 9, 3.0, {"ncols": 30, "prefix": "narrow"}),
    (6, 9, 3.0, {"ncols": 0}),
    (37, 64, 3.0, {"unit": "batch", "rate": 0.5}),
    (12345, 100000, 4.0, {"unit_scale": True, "unit": "B"}),
    (12345, 100000, 4.0, {"unit_scale": True, "unit": "B", "unit_divisor": 1024}),
    (3, 10, 2.0, {"unit_scale": 2}),
    (3, 10, 2.0, {"prefix": "done: "}),
    (12, 10, 2.0, {}),
    (5, 10, 2.0, {"initial": 2}),
    (999, 1000, 0.37, {"postfix": "acc=0.981, loss=0.0734"}),
]


def sequences():
    out = {}
    # 1. a terminal, an array of 10, a clock ticking 0.37 s per read, the postfix set each step
    clock = Ticking(0.37)
    bar = Clocked(list(range(10)), desc="epoch 1", clock=clock)
    for i in bar:
        bar.set_postfix({"loss": 1.0 / (i + 1), "step": i}, refresh=False)
    out["ticking"] = bar.writes
    # 2. not a terminal, items arriving at given times: some closer than mininterval
    clock = Manual()
    times = [0.05, 0.08, 0.3, 0.32, 0.34, 0.9, 1.7, 1.75, 2.6, 2.61, 2.62, 4.0]
    bar = Clocked(timed(clock, times), desc="train", tty=False, clock=clock)
    for _ in bar:
        pass
    out["plain"] = bar.writes
    # 3. the same on a terminal, with leave=False (the line is cleared)
    clock = Manual()
    bar = Clocked(timed(clock, times), tty=True, leave=False, clock=clock)
    for _ in bar:
        pass
    out["cleared"] = bar.writes
    # 4. manual updates with a total, and set_postfix redrawing
    clock = Manual()
    bar = Clocked(total=100, desc="download", unit="B", clock=clock)
    for k in range(1, 8):
        clock.t = 0.4 * k
        bar.update(7 * k)
        if k == 4:
            bar.set_postfix({"speed": "fast"})
    bar.close()
    out["manual"] = bar.writes
    # 5. no length known (total inf), a fast ticking clock: dynamic miniters thin the updates
    clock = Ticking(0.013)
    bar = Clocked(list(range(40)), total=float("inf"), clock=clock, tty=False)
    for _ in bar:
        pass
    out["unknown"] = bar.writes
    # 6. a range with ascii, a fixed width and a description set midway
    clock = Ticking(0.21)
    bar = Clocked(range(3, 15), ascii=True, ncols=50, clock=clock)
    for i in bar:
        if i == 8:
            bar.set_description("half")
    out["range"] = bar.writes
    # 7. a loop left with break: the bar closes at the count reached
    clock = Ticking(0.25)
    bar = Clocked(list(range(100)), desc="brk", clock=clock)
    for i in bar:
        if i == 5:
            break
    out["break"] = bar.writes
    # 8. delay: nothing is drawn until `delay` seconds have passed since the start
    clock = Manual()
    bar = Clocked(timed(clock, times), delay=0.5, desc="late", clock=clock)
    for _ in bar:
        pass
    out["delay"] = bar.writes
    # 9. reset() for a second pass: a new total, then an unknown one (inf)
    clock = Ticking(0.3)
    bar = Clocked(total=5, desc="epoch", clock=clock)
    for _ in range(5):
        bar.update()
    bar.reset(total=3)
    bar.update(3)
    bar.reset(total=float("inf"))
    bar.update(2)
    bar.close()
    out["reset"] = bar.writes
    # 10. a slow loop off a terminal: steps past maxinterval set miniters from the last step,
    #     rates under 1/s are shown inverted (s/it)
    clock = Ticking(6.5)
    bar = Clocked(list(range(8)), clock=clock, tty=False)
    for _ in bar:
        pass
    out["slow"] = bar.writes
    # 11. fixed miniters and no mininterval, no smoothing (the overall rate), unit_scale with
    #     binary prefixes, an initial count
    clock = Manual()
    bar = Clocked(total=4 * 1024 * 1024, initial=1000, unit="B", unit_scale=True, unit_divisor=1024, miniters=3,
                  mininterval=0, smoothing=0, clock=clock)
    for k in range(1, 10):
        clock.t = 0.7 * k
        bar.update(150000 * k)
    bar.close()
    out["scaled"] = bar.writes
    # 12. text description and postfix as given, a step back (negative update), leave=False
    clock = Ticking(0.2)
    bar = Clocked(total=20, leave=False, clock=clock)
    bar.set_description_str("[raw] ")
    bar.update(6)
    bar.set_postfix_str("  lr=0.1 ")
    bar.update(-2)
    bar.update(5)
    bar.close()
    out["str_back"] = bar.writes
    return out


class RefEarlyStopping:
    """Lightning's EarlyStopping._evaluate_stopping_criteria, in float64."""

    def __init__(self, patience=3, min_delta=0.0, mode="min", check_finite=True, stopping_threshold=None, divergence_threshold=None):
        self.patience, self.mode, self.check_finite = patience, mode, check_finite
        self.stopping_threshold, self.divergence_threshold = stopping_threshold, divergence_threshold
        self.monitor_op = torch.lt if mode == "min" else torch.gt
        self.min_delta = min_delta * (1 if self.monitor_op == torch.gt else -1)
        self.wait_count = 0
        inf = torch.tensor(torch.inf, dtype=torch.float64)
        self.best_score = inf if self.monitor_op == torch.lt else -inf

    def step(self, value):
        current = torch.tensor(value, dtype=torch.float64)
        should_stop = False
        if self.check_finite and not torch.isfinite(current):
            should_stop = True
        elif self.stopping_threshold is not None and self.monitor_op(current, self.stopping_threshold):
            should_stop = True
        elif self.divergence_threshold is not None and self.monitor_op(-current, -self.divergence_threshold):
            should_stop = True
        elif self.monitor_op(current - self.min_delta, self.best_score):
            self.best_score = current
            self.wait_count = 0
        else:
            self.wait_count += 1
            if self.wait_count >= self.patience:
                should_stop = True
        return [bool(should_stop), float(self.best_score), self.wait_count]


NAN = float("nan")
EARLY = [
    ({"patience": 3}, [1.0, 0.9, 0.95, 0.93, 0.91, 0.92]),
    ({"patience": 2, "min_delta": 0.05}, [1.0, 0.96, 0.9, 0.87, 0.86, 0.7, 0.69, 0.68]),
    ({"patience": 2, "mode": "max"}, [0.5, 0.6, 0.6, 0.7, 0.65, 0.65]),
    ({"patience": 3, "mode": "max", "min_delta": 0.01}, [0.5, 0.505, 0.52, 0.525, 0.529, 0.6]),
    ({"patience": 5}, [1.0, NAN, 0.5]),
    ({"patience": 5, "check_finite": False}, [1.0, NAN, 0.5, float("inf")]),
    ({"patience": 5, "stopping_threshold": 0.2}, [1.0, 0.5, 0.25, 0.19, 0.1]),
    ({"patience": 5, "divergence_threshold": 3.0}, [1.0, 2.0, 2.9, 3.1]),
    ({"patience": 1}, [2.0, 2.0, 1.0]),
]


def main():
    values = {
        "meter_args": [[n, total, elapsed, kw] for n, total, elapsed, kw in METER],
        "meter": [tqdm.tqdm.format_meter(n, total, elapsed, **kw) for n, total, elapsed, kw in METER],
        "intervals": [tqdm.tqdm.format_interval(t) for t in [0, 59.9, 60, 3599, 3600, 86399, 90061.5]],
        "nums": [tqdm.tqdm.format_num(x) for x in [0.1234567, 12345678, 0.5, 1e-05, 3, 100.0, 2.5e-07, 1234.5]],
        "sizes": [tqdm.tqdm.format_sizeof(x) for x in [1.0, 9.999, 99.96, 999.4, 999.6, 12345.0, 1.5e9, 2.5e25]],
        "early_args": [cfg for cfg, _ in EARLY],
        "early_values": [vals for _, vals in EARLY],
    }
    for name, writes in sequences().items():
        values["seq_" + name] = writes
    early = []
    for cfg, vals in EARLY:
        es = RefEarlyStopping(**cfg)
        early.append([es.step(v) for v in vals])
    values["early"] = early
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "progress_fixtures.spl")
    write(path, __file__, values,
          header="Reference lines written by tqdm {} and PyTorch Lightning's early stopping rule\n"
                 "(transcribed; torch {}). ".format(tqdm.__version__, torch.__version__))


if __name__ == "__main__":
    main()

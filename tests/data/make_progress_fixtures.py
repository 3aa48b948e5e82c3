"""Reference lines for tests/data/progress_spec.spl (writes tests/data/progress_fixtures.spl).

tqdm is not installed in the project's .venv (`.venv/bin/python -c "import tqdm"` fails), so
the expected lines come from `RefTqdm` below: tqdm 4.x's own `format_meter`, `Bar`, `EMA`,
`format_interval`, `format_num`, `format_sizeof`, and the parts of `tqdm.__init__`,
`__iter__`, `update`, `refresh`, `close`, `set_postfix` and the status printer that decide
what is written and when — transcribed from tqdm's source (tqdm/std.py), without the
locks, nested positions, bar_format, colour and terminal-size probing that lib.torch's bar
does not have. With tqdm installed, `check_against_tqdm()` compares every format_meter
case with the real one.

Non-terminal output (lib.torch's plain lines) has no tqdm counterpart: the reference writes
each line tqdm would draw as `line + "\\n"`, and nothing to clear.

Early stopping: `RefEarlyStopping` is PyTorch Lightning's EarlyStopping rule
(`_evaluate_stopping_criteria`, lightning/pytorch/callbacks/early_stopping.py), transcribed
with torch tensors (Lightning is not installed either), in float64.
"""
import math
import os
import sys

import torch
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "nn"))
from fixture_writer import lit  # noqa: E402  (the one Python -> Simple literal writer)

UTF = " " + "".join(map(chr, range(0x258F, 0x2587, -1)))
ASCII = " 123456789#"


def format_sizeof(num, suffix="", divisor=1000):
    for unit in ["", "k", "M", "G", "T", "P", "E", "Z"]:
        if abs(num) < 999.5:
            if abs(num) < 99.95:
                if abs(num) < 9.995:
                    return "{0:1.2f}".format(num) + unit + suffix
                return "{0:2.1f}".format(num) + unit + suffix
            return "{0:3.0f}".format(num) + unit + suffix
        num /= divisor
    return "{0:3.1f}Y".format(num) + suffix


def format_interval(t):
    mins, s = divmod(int(t), 60)
    h, m = divmod(mins, 60)
    return "{0:d}:{1:02d}:{2:02d}".format(h, m, s) if h else "{0:02d}:{1:02d}".format(m, s)


def format_num(n):
    f = "{0:.3g}".format(n).replace("e+0", "e+").replace("e-0", "e-")
    n = str(n)
    return f if len(f) < len(n) else n


def bar(frac, n_bars, charset):
    frac = max(0, min(1, frac))
    nsyms = len(charset) - 1
    bar_length, frac_bar_length = divmod(int(frac * n_bars * nsyms), nsyms)
    res = charset[-1] * bar_length
    if bar_length < n_bars:
        res = res + charset[frac_bar_length] + charset[0] * (n_bars - bar_length - 1)
    return res


def format_meter(n, total, elapsed, ncols=None, prefix="", ascii=False, unit="it", unit_scale=False,
                 rate=None, postfix=None, unit_divisor=1000, initial=0):
    if total and n >= (total + 0.5):
        total = None
    if unit_scale and unit_scale not in (True, 1):
        if total:
            total *= unit_scale
        n *= unit_scale
        if rate:
            rate *= unit_scale
        unit_scale = False
    elapsed_str = format_interval(elapsed)
    if rate is None and elapsed:
        rate = (n - initial) / elapsed
    inv_rate = 1 / rate if rate else None
    rate_noinv_fmt = ((format_sizeof(rate) if unit_scale else "{0:5.2f}".format(rate)) if rate else "?") + unit + "/s"
    rate_inv_fmt = ((format_sizeof(inv_rate) if unit_scale else "{0:5.2f}".format(inv_rate)) if inv_rate else "?") + "s/" + unit
    rate_fmt = rate_inv_fmt if inv_rate and inv_rate > 1 else rate_noinv_fmt
    if unit_scale:
        n_fmt = format_sizeof(n, divisor=unit_divisor)
        total_fmt = format_sizeof(total, divisor=unit_divisor) if total is not None else "?"
    else:
        n_fmt = str(n)
        total_fmt = str(total) if total is not None else "?"
    postfix = ", " + postfix if postfix else ""
    remaining = (total - n) / rate if rate and total else 0
    remaining_str = format_interval(remaining) if rate else "?"
    if prefix:
        l_bar = prefix if prefix[-2:] == ": " else prefix + ": "
    else:
        l_bar = ""
    r_bar = "| {0}/{1} [{2}<{3}, {4}{5}]".format(n_fmt, total_fmt, elapsed_str, remaining_str, rate_fmt, postfix)
    if total:
        frac = n / total
        percentage = frac * 100
        l_bar += "{0:3.0f}%|".format(percentage)
        if ncols == 0:
            return l_bar[:-1] + r_bar[1:]
        nobar = l_bar + r_bar
        charset = ASCII if ascii is True else ascii or UTF
        res = l_bar + bar(frac, max(1, ncols - len(nobar)) if ncols else 10, charset) + r_bar
        return res[:ncols] if ncols else res
    return "{0}{1}{2} [{3}, {4}{5}]".format((prefix + ": ") if prefix else "", n_fmt, unit, elapsed_str, rate_fmt, postfix)


class EMA:
    def __init__(self, smoothing=0.3):
        self.alpha = smoothing
        self.last = 0
        self.calls = 0

    def __call__(self, x=None):
        beta = 1 - self.alpha
        if x is not None:
            self.last = self.alpha * x + beta * self.last
            self.calls += 1
        return self.last / (1 - beta ** self.calls) if self.calls else self.last


class RefTqdm:
    """tqdm.tqdm's display logic; `writes` collects what it writes."""

    def __init__(self, iterable=None, desc=None, total=None, leave=True, tty=True, ncols=None, mininterval=0.1,
                 maxinterval=10.0, miniters=None, ascii=False, unit="it", unit_scale=False, smoothing=0.3,
                 initial=0, postfix=None, unit_divisor=1000, delay=0, clock=None):
        self.writes = []
        self.tty = tty
        if total is None and iterable is not None:
            total = len(iterable)
        if total == float("inf"):
            total = None
        if miniters is None:
            miniters = 0
            dynamic_miniters = True
        else:
            dynamic_miniters = False
        self.iterable, self.desc, self.total, self.leave = iterable, desc or "", total, leave
        self.ncols, self.mininterval, self.maxinterval = ncols, mininterval, maxinterval
        self.miniters, self.dynamic_miniters, self.ascii = miniters, dynamic_miniters, ascii
        self.disable, self.unit, self.unit_scale, self.unit_divisor = False, unit, unit_scale, unit_divisor
        self.initial, self.delay, self.smoothing = initial, delay, smoothing
        self._ema_dn, self._ema_dt, self._ema_miniters = EMA(smoothing), EMA(smoothing), EMA(smoothing)
        self.postfix = None
        self._time = clock
        self.last_len = 0
        if postfix:
            self.set_postfix(postfix, refresh=False)
        self.last_print_n = initial
        self.n = initial
        if delay <= 0:
            self.refresh()
        self.last_print_t = self._time()
        self.start_t = self.last_print_t

    def sp(self, s):
        if self.tty:
            self.writes.append("\r" + s + " " * max(self.last_len - len(s), 0))
            self.last_len = len(s)
        else:
            self.writes.append(s + "\n")

    def __str__(self):
        return format_meter(self.n, self.total, self._time() - self.start_t if hasattr(self, "start_t") else 0,
                            ncols=self.ncols, prefix=self.desc, ascii=self.ascii, unit=self.unit, unit_scale=self.unit_scale,
                            rate=self._ema_dn() / self._ema_dt() if self._ema_dt() else None, postfix=self.postfix,
                            unit_divisor=self.unit_divisor, initial=self.initial)

    def __iter__(self):
        iterable = self.iterable
        mininterval = self.mininterval
        last_print_t = self.last_print_t
        last_print_n = self.last_print_n
        min_start_t = self.start_t + self.delay
        n = self.n
        time = self._time
        try:
            for obj in iterable:
                yield obj
                n += 1
                if n - last_print_n >= self.miniters:
                    cur_t = time()
                    dt = cur_t - last_print_t
                    if dt >= mininterval and cur_t >= min_start_t:
                        self.update(n - last_print_n)
                        last_print_n = self.last_print_n
                        last_print_t = self.last_print_t
        finally:
            self.n = n
            self.close()

    def update(self, n=1):
        if self.disable:
            return
        if n < 0:
            self.last_print_n += n
        self.n += n
        if self.n - self.last_print_n >= self.miniters:
            cur_t = self._time()
            dt = cur_t - self.last_print_t
            if dt >= self.mininterval and cur_t >= self.start_t + self.delay:
                cur_t = self._time()
                dn = self.n - self.last_print_n
                if self.smoothing and dt and dn:
                    self._ema_dn(dn)
                    self._ema_dt(dt)
                self.refresh()
                if self.dynamic_miniters:
                    if self.maxinterval and dt >= self.maxinterval:
                        self.miniters = dn * (self.mininterval or self.maxinterval) / dt
                    elif self.smoothing:
                        self.miniters = self._ema_miniters(dn * (self.mininterval / dt if self.mininterval and dt else 1))
                    else:
                        self.miniters = max(self.miniters, dn)
                self.last_print_n = self.n
                self.last_print_t = cur_t
                return True

    def refresh(self):
        if self.disable:
            return
        self.sp(self.__str__())

    def close(self):
        if self.disable:
            return
        self.disable = True
        if self.last_print_t < self.start_t + self.delay:
            return
        if self.leave:
            self._ema_dt = lambda: None
            self.sp(self.__str__())
            if self.tty:
                self.writes.append("\n")
        elif self.tty:
            self.sp("")
            self.writes.append("\r")

    def set_postfix(self, ordered_dict=None, refresh=True):
        postfix = dict(ordered_dict or {})
        for key in postfix:
            if isinstance(postfix[key], (int, float)):
                postfix[key] = format_num(postfix[key])
            elif not isinstance(postfix[key], str):
                postfix[key] = str(postfix[key])
        self.postfix = ", ".join(key + "=" + postfix[key].strip() for key in postfix)
        if refresh:
            self.refresh()

    def set_description(self, desc=None, refresh=True):
        self.desc = desc + ": " if desc else ""
        if refresh:
            self.refresh()


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
    bar = RefTqdm(list(range(10)), desc="epoch 1", clock=clock)
    for i in bar:
        bar.set_postfix({"loss": 1.0 / (i + 1), "step": i}, refresh=False)
    out["ticking"] = bar.writes
    # 2. not a terminal, items arriving at given times: some closer than mininterval
    clock = Manual()
    times = [0.05, 0.08, 0.3, 0.32, 0.34, 0.9, 1.7, 1.75, 2.6, 2.61, 2.62, 4.0]
    bar = RefTqdm(timed(clock, times), desc="train", tty=False, clock=clock)
    for _ in bar:
        pass
    out["plain"] = bar.writes
    # 3. the same on a terminal, with leave=False (the line is cleared)
    clock = Manual()
    bar = RefTqdm(timed(clock, times), tty=True, leave=False, clock=clock)
    for _ in bar:
        pass
    out["cleared"] = bar.writes
    # 4. manual updates with a total, and set_postfix redrawing
    clock = Manual()
    bar = RefTqdm(total=100, desc="download", unit="B", clock=clock)
    for k in range(1, 8):
        clock.t = 0.4 * k
        bar.update(7 * k)
        if k == 4:
            bar.set_postfix({"speed": "fast"})
    bar.close()
    out["manual"] = bar.writes
    # 5. no length known (total inf), a fast ticking clock: dynamic miniters thin the updates
    clock = Ticking(0.013)
    bar = RefTqdm(list(range(40)), total=float("inf"), clock=clock, tty=False)
    for _ in bar:
        pass
    out["unknown"] = bar.writes
    # 6. a range with ascii, a fixed width and a description set midway
    clock = Ticking(0.21)
    bar = RefTqdm(range(3, 15), ascii=True, ncols=50, clock=clock)
    for i in bar:
        if i == 8:
            bar.set_description("half")
    out["range"] = bar.writes
    # 7. a loop left with break: the bar closes at the count reached
    clock = Ticking(0.25)
    bar = RefTqdm(list(range(100)), desc="brk", clock=clock)
    for i in bar:
        if i == 5:
            break
    out["break"] = bar.writes
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


def check_against_tqdm():
    try:
        import tqdm
    except ImportError:
        return "tqdm is not installed: the lines follow tqdm's format as transcribed here"
    for n, total, elapsed, kw in METER:
        assert tqdm.tqdm.format_meter(n, total, elapsed, **kw) == format_meter(n, total, elapsed, **kw)
    return "checked against tqdm " + tqdm.__version__


def main():
    values = {
        "meter_args": [[n, total, elapsed, kw] for n, total, elapsed, kw in METER],
        "meter": [format_meter(n, total, elapsed, **kw) for n, total, elapsed, kw in METER],
        "intervals": [format_interval(t) for t in [0, 59.9, 60, 3599, 3600, 86399, 90061.5]],
        "nums": [format_num(x) for x in [0.1234567, 12345678, 0.5, 1e-05, 3, 100.0, 2.5e-07, 1234.5]],
        "sizes": [format_sizeof(x) for x in [1.0, 9.999, 99.96, 999.4, 999.6, 12345.0, 1.5e9, 2.5e25]],
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
    note = check_against_tqdm()
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "progress_fixtures.spl")
    with open(path, "w") as f:
        f.write('"""Reference lines of tqdm\'s format ({}) and PyTorch Lightning\'s early stopping rule\n'.format(note))
        f.write('(torch {}). Generated by tests/data/make_progress_fixtures.py; do not edit by hand."""\n\n'.format(torch.__version__))
        for k, v in values.items():
            f.write("val ref_{} = {}\n".format(k, lit(v)))


if __name__ == "__main__":
    main()

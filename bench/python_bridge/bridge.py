#!/usr/bin/env python3
"""Python's side of bench/python_bridge/compare.sh: the same calls as bridge.spl made from Python
itself (`def f(x): return x` with an int and a torch.Tensor, `lambda t: t` on a 1-element and a
100,000,000-element float32 tensor, and a Python `lambda x: x` called by Python on its main
thread and on another thread, where the Simple side calls a Simple function), timed the same way (the best of 5 loops, after a warm-up).
    .venv/bin/python bench/python_bridge/bridge.py            # every row
    .venv/bin/python bench/python_bridge/bridge.py WHAT N     # N calls of one row, for callgrind
Prints `python <what>: <ns> ns per call`."""
import sys
import time


def f(x):
    return x


same = lambda t: t  # noqa: E731  (the lambda the Simple side calls)


def call_n(g, n):
    for i in range(n):
        g(i)


def call_n_thread(g, n):
    import threading
    t = threading.Thread(target=call_n, args=(g, n))
    t.start()
    t.join()


def callback_ns(run, n):
    """The best of 5 runs of run(g, n) with g a Python `lambda x: x`, in ns per call."""
    g = lambda x: x  # noqa: E731
    run(g, n)
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        run(g, n)
        best = min(best, (time.perf_counter() - start) * 1e9 / n)
    return best


def loop_ns(g, x, n):
    start = time.perf_counter()
    for _ in range(n):
        r = g(x)  # noqa: F841
    return (time.perf_counter() - start) * 1e9 / n


def best_ns(g, x, n):
    loop_ns(g, x, n)
    return min(loop_ns(g, x, n) for _ in range(5))


if __name__ == "__main__":
    if len(sys.argv) == 3:
        what, n = sys.argv[1], int(sys.argv[2])
        if what == "int":
            x = 3
        else:
            import torch
            x = torch.ones(1)
        f(x)
        print(f"python {what}: {loop_ns(f, x, n)} ns per call")
        sys.exit(0)
    import torch
    small, big = torch.ones(1), torch.zeros(100000000)
    print(f"python f(int): {best_ns(f, 3, 100000)} ns per call")
    print(f"python f(Tensor): {best_ns(f, small, 100000)} ns per call")
    print(f"python lambda t: t, 1 element: {best_ns(same, small, 10000)} ns per call")
    print(f"python lambda t: t, 100M elements: {best_ns(same, big, 10000)} ns per call")
    print(f"python callback, interpreter thread: {callback_ns(call_n, 20000)} ns per call")
    print(f"python callback, another thread: {callback_ns(call_n_thread, 2000)} ns per call")

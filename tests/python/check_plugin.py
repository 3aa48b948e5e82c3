#!/usr/bin/env python3
"""libspl_python.so as a whole, beyond the specs:
  - it never links LibTorch (nothing of libtorch or libc10 in its dependency closure), and the
    torch plugin never links Python (its threads, the DataLoader's among them, cannot take the GIL);
  - `use lib.python` with SPL_PYTHON=/nonexistent is an error that names /nonexistent;
  - without lib.python, Tensor.numpy() says to `use lib.python`, and lib.torch.onnx / hub name
    the missing libspl_python.so;
  - what Python prints comes in order with what the program prints, on a pipe too;
  - Ctrl-C in Python is a KeyboardInterrupt that stops the program; in Simple code, SIGINT as before;
  - its word adapters refuse with an error that says there are none; a foreign ABI is refused.

usage: check_plugin.py SPLRUN LIBSPL_PYTHON LIBSPL_TORCH   (SIMPLE_LIB set by the caller)
"""
import ctypes
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def run(splrun, plugin, source, extra_env=None):
    with tempfile.NamedTemporaryFile("w", suffix=".spl", delete=False) as f:
        f.write(source)
    env = dict(os.environ, SIMPLE_SFFI_PATH=os.path.dirname(plugin))
    env.update(extra_env or {})
    try:
        return subprocess.run([splrun, f.name], capture_output=True, text=True, env=env, timeout=120)
    finally:
        os.unlink(f.name)


def interrupt(splrun, plugin, source, ignored=False):
    """Runs SOURCE, sends SIGINT once it prints "ready", and gives its exit status, output and
    the seconds it took to stop (killed after 30 s: a hang fails the check, never the suite)."""
    with tempfile.NamedTemporaryFile("w", suffix=".spl", delete=False) as f:
        f.write(source)
    env = dict(os.environ, SIMPLE_SFFI_PATH=os.path.dirname(plugin))
    try:
        # SIGINT at its default in the child, as a terminal's foreground program has it (a
        # background job inherits it ignored), or ignored where the case asks for that.
        disposition = signal.SIG_IGN if ignored else signal.SIG_DFL
        child = subprocess.Popen([splrun, f.name], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                                 preexec_fn=lambda: signal.signal(signal.SIGINT, disposition))
        first = child.stdout.readline()
        time.sleep(0.3)  # into the wait
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        try:
            out, err = child.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            child.kill()
            out, err = child.communicate()
        return {"returncode": child.returncode, "stdout": first + out, "stderr": err,
                "seconds": time.monotonic() - sent}
    finally:
        os.unlink(f.name)


def main():
    splrun, plugin, torch_plugin = sys.argv[1:4]

    closure = subprocess.run(["ldd", plugin], capture_output=True, text=True).stdout
    check("libpython3" in closure, "libspl_python links libpython")
    check(not any(n in closure for n in ("libtorch", "libc10")), "libspl_python links nothing of LibTorch")
    torch_closure = subprocess.run(["ldd", torch_plugin], capture_output=True, text=True).stdout
    check("libtorch_cpu" in torch_closure and "libpython" not in torch_closure,
          "libspl_torch links no libpython: its threads (the DataLoader's) never hold the GIL")

    done = run(splrun, plugin, 'use lib.python\nprint "not reached"\n', {"SPL_PYTHON": "/nonexistent"})
    check(done.returncode != 0, "SPL_PYTHON=/nonexistent: `use lib.python` fails")
    check("/nonexistent" in done.stderr and "no such file" in done.stderr,
          "the error names /nonexistent and why: " + done.stderr.strip().splitlines()[0] if done.stderr else "(none)")
    check("not reached" not in done.stdout, "nothing after the failed `use` runs")

    # Without lib.python: Tensor.numpy() says what it needs; lib.torch.onnx and lib.torch.hub, which
    # use lib.python, name the missing plugin.
    done = run(splrun, plugin, 'use lib.torch.{Tensor}\nprint Tensor.ones([2]).numpy()\n')
    check(done.returncode != 0 and "Tensor.numpy() needs lib.python" in done.stderr and
          "add `use lib.python`" in done.stderr and "libspl_python.so" in done.stderr,
          "Tensor.numpy() without lib.python loaded: an error that says to `use lib.python`: " +
          (done.stderr.strip().splitlines() or ["(none)"])[0])
    with tempfile.TemporaryDirectory() as elsewhere:
        # splrun looks beside itself (<exe>/../runtime_plugin/python): a copy elsewhere, given only
        # the torch plugin's folder, finds no libspl_python.so.
        lone = os.path.join(elsewhere, "bin", "splrun")
        os.makedirs(os.path.dirname(lone))
        shutil.copy(splrun, lone)
        for module in ("onnx", "hub"):
            done = run(lone, plugin, f'use lib.torch.{module}\nprint "not reached"\n',
                       {"SIMPLE_SFFI_PATH": os.path.dirname(torch_plugin), "LD_LIBRARY_PATH": ""})  # meson's names it
            check(done.returncode != 0 and "cannot find plugin libspl_python.so" in done.stderr and
                  "not reached" not in done.stdout,
                  f"lib.torch.{module} without libspl_python.so: an error naming it: " +
                  (done.stderr.strip().splitlines() or ["(none)"])[0])

    done = run(splrun, plugin, 'use lib.python.{py_exec}\nprint "a"\npy_exec("print(\'b\')")\nprint "c"\n'
               'py_exec("import sys; sys.stdout.write(\'d\\\\n\')")\nprint "e"\n')
    check(done.returncode == 0 and done.stdout == "a\nb\nc\nd\ne\n", "Python's output in order on a pipe: " +
          repr(done.stdout) + done.stderr)

    # Ctrl-C from outside, as a terminal sends it, once the program says where it is.
    for where, source, want in [
            ("in Python's time.sleep", 'use lib.python.{py_exec}\nprint "ready"\npy_exec("import time; time.sleep(60)")\n'
             'print "not reached"\n', "python"),
            ("in Python's Event.wait", 'use lib.python.{py_exec}\nprint "ready"\n'
             'py_exec("import threading; threading.Event().wait()")\nprint "not reached"\n', "python"),
            ("in a Simple loop after Python ran", 'use lib.python.{py_exec}\npy_exec("x = 1")\nprint "ready"\n'
             'var n = 0\nwhile true:\n    n = n + 1\n', "simple")]:
        stopped = interrupt(splrun, plugin, source)
        if want == "python":
            check(stopped["returncode"] == 1 and "KeyboardInterrupt" in stopped["stderr"] and
                  ":3:1" in stopped["stderr"] and "not reached" not in stopped["stdout"],
                  f"Ctrl-C {where}: Python's KeyboardInterrupt, a Simple error at line 3, the program stopped "
                  f"(exit {stopped['returncode']}, {stopped['seconds']:.1f} s): " + stopped["stderr"][:300])
        else:
            check(stopped["returncode"] == -signal.SIGINT,
                  f"Ctrl-C {where}: the process ends by SIGINT, as without lib.python "
                  f"(exit {stopped['returncode']}, {stopped['seconds']:.1f} s)")

    stopped = interrupt(splrun, plugin, 'use lib.python.{py_exec}\nprint "ready"\npy_exec("import time; time.sleep(1)")\n'
                        'print "slept"\n', ignored=True)
    check(stopped["returncode"] == 0 and "slept" in stopped["stdout"],
          "Ctrl-C with SIGINT ignored by the host (a background job): ignored in Python too, as Python does "
          f"(exit {stopped['returncode']})")

    lib = ctypes.CDLL(plugin)
    word = lib.spl_w_rt_python_len
    word.restype = ctypes.c_int64
    word.argtypes = [ctypes.c_int64] * 8
    check(word(0, 0, 0, 0, 0, 0, 0, 0) == 0, "a word adapter returns 0")
    lib.spl_w_error_pending.restype = ctypes.c_int64
    lib.spl_w_last_error.restype = ctypes.c_void_p
    check(lib.spl_w_error_pending() == 1, "a word adapter leaves an error pending")
    message = ctypes.string_at(lib.spl_w_last_error()).decode()
    check("no word adapters in libspl_python" in message, "its message says so: " + message)

    class Request(ctypes.Structure):
        _fields_ = [("abi_version", ctypes.c_uint32), ("expected_library_version", ctypes.c_char_p),
                    ("callbacks", ctypes.c_void_p)]
    open_fn = lib.spl_plugin_open
    open_fn.restype = ctypes.c_void_p
    error = ctypes.c_char_p()
    check(open_fn(ctypes.byref(Request(999, None, None)), ctypes.byref(error)) is None and
          b"ABI version 999" in error.value, "a foreign ABI version is refused: " + (error.value or b"").decode())

    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)


if __name__ == "__main__":
    main()

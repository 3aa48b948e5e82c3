#!/usr/bin/env python3
"""libspl_python.so as a whole, beyond the specs:
  - it never links LibTorch (nothing of libtorch or libc10 in its dependency closure);
  - `use lib.python` with SPL_PYTHON=/nonexistent is an error that names /nonexistent;
  - what Python prints comes in order with what the program prints, on a pipe too;
  - its word adapters refuse with an error that says there are none; a foreign ABI is refused.

usage: check_plugin.py SPLRUN LIBSPL_PYTHON   (SIMPLE_LIB set by the caller)
"""
import ctypes
import os
import subprocess
import sys
import tempfile

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


def main():
    splrun, plugin = sys.argv[1:3]

    closure = subprocess.run(["ldd", plugin], capture_output=True, text=True).stdout
    check("libpython3" in closure, "libspl_python links libpython")
    check(not any(n in closure for n in ("libtorch", "libc10")), "libspl_python links nothing of LibTorch")

    done = run(splrun, plugin, 'use lib.python\nprint "not reached"\n', {"SPL_PYTHON": "/nonexistent"})
    check(done.returncode != 0, "SPL_PYTHON=/nonexistent: `use lib.python` fails")
    check("/nonexistent" in done.stderr and "no such file" in done.stderr,
          "the error names /nonexistent and why: " + done.stderr.strip().splitlines()[0] if done.stderr else "(none)")
    check("not reached" not in done.stdout, "nothing after the failed `use` runs")

    done = run(splrun, plugin, 'use lib.python.{py_exec}\nprint "a"\npy_exec("print(\'b\')")\nprint "c"\n'
               'py_exec("import sys; sys.stdout.write(\'d\\\\n\')")\nprint "e"\n')
    check(done.returncode == 0 and done.stdout == "a\nb\nc\nd\ne\n", "Python's output in order on a pipe: " +
          repr(done.stdout) + done.stderr)

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

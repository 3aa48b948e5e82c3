#!/usr/bin/env python3
"""The word flavour against the boxed path: each example runs twice through splrun, once as
usual (boxed calls through spl_plugin.h) and once with --simple-runtime-ffi (lib.torch's word
flavour: every call through spl_dlopen / spl_dlsym / spl_wffi_call_i64, as the real Simple
runtime makes them). Both runs make the same ATen calls in the same order, so their output
must be the same, line for line; each must also have learned its task (check_examples.py).

usage: check_word_examples.py SPLRUN PLUGIN_DIR WORD_LIB EXAMPLES_DIR NAME...
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import check_examples  # noqa: E402  (its checks of what each example learned, and check_all)


def run(cmd, env):
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} exited with {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def main():
    splrun, plugin_dir, word_lib, examples, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
    base = {k: v for k, v in os.environ.items() if k not in ("SIMPLE_LIB", "SIMPLE_SFFI_PATH")}

    def check_one(name):
        path = os.path.join(examples, name + ".spl")
        boxed = run([splrun, path], dict(base, SIMPLE_SFFI_PATH=plugin_dir))
        words = run([splrun, "--simple-runtime-ffi", path], dict(base, SIMPLE_SFFI_PATH=plugin_dir, SIMPLE_LIB=word_lib))
        check_examples.CHECKS[name](words)
        if boxed != words:
            diff = [f"  boxed: {a}\n  words: {b}" for a, b in zip(boxed.splitlines(), words.splitlines()) if a != b]
            raise AssertionError("the outputs differ:\n" + "\n".join(diff[:5] or ["  (in length)"]))
        return f"the same {len(words.splitlines())} lines through word calls as boxed"

    check_examples.check_all(names, check_one)


if __name__ == "__main__":
    main()

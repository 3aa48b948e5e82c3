#!/usr/bin/env python3
"""A build's own lib.torch tree (<build>/share/spl-torch/lib/torch, and the word flavour's
<build>/share/spl-torch/word-lib/torch), made of links.

The hand-written files and folders link to spl_stubs/lib/torch (edits show at once, with no
rebuild); each NAME=FILE argument links NAME to FILE instead, or adds it: the ffi.spl and
ops.spl generated for this build's LibTorch (and the word flavour's own files), so that
splrun in <build>/host runs lib.torch against the plugin built beside it (splrun finds the
tree relative to itself: host/ffi/search_paths.h). Run by Meson on every build; it changes only
links that are wrong or missing, and removes links to files that are gone.

    lib_tree.py SOURCE_TORCH_DIR OUT_TORCH_DIR STAMP NAME=FILE...
"""
import os
import sys


def want(source, overrides):
    """name -> absolute target of each entry of the tree."""
    out = {name: os.path.join(source, name) for name in os.listdir(source)}
    out.update(overrides)
    return out


def main():
    source, out_dir, stamp = (os.path.abspath(a) for a in sys.argv[1:4])
    overrides = dict(arg.split("=", 1) for arg in sys.argv[4:])
    overrides = {name: os.path.abspath(path) for name, path in overrides.items()}
    os.makedirs(out_dir, exist_ok=True)
    entries = want(source, overrides)
    for name in os.listdir(out_dir):
        path = os.path.join(out_dir, name)
        if name not in entries and os.path.islink(path):
            os.unlink(path)
    for name, target in sorted(entries.items()):
        path = os.path.join(out_dir, name)
        link = os.path.relpath(target, out_dir)
        if os.path.islink(path) and os.readlink(path) == link:
            continue
        if os.path.lexists(path):
            os.unlink(path)
        os.symlink(link, path)
    with open(stamp, "w") as f:
        f.write("".join(f"{name} -> {target}\n" for name, target in sorted(entries.items())))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Which lib.torch files the specs cover, by their `# covers:` lines.

Each spec (tests/**/*_spec.spl) names, at its top, the library files it tests:

    # covers: lib/torch/nn/linear.spl, lib/torch/nn/functional/linear.spl

(paths under spl_stubs/; several lines allowed).

    scripts/spec_coverage.py            the hand-written lib.torch files no spec covers, and their
                                        count (exit 0: a list to work from, not a gate)
    scripts/spec_coverage.py --check    exit 1 when a `# covers:` line names a file that does not
                                        exist (so that a renamed or removed file cannot leave stale
                                        lines behind); the `spec coverage` test runs this
    scripts/spec_coverage.py --derive SPEC...
                                        the `# covers:` lines a spec's `use` lines and calls suggest:
                                        each imported name (and each `alias.name` a spec calls) traced
                                        through `export use` to the file that defines it

Generated files (a first line with `@generated`: ops.spl, ffi.spl, ...) are not listed as
uncovered; a spec that uses them may still name them.
"""
import glob
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUBS = os.path.join(REPO, "spl_stubs")
LIB = os.path.join(STUBS, "lib", "torch")
COVERS = re.compile(r"^#\s*covers:\s*(.*)$")
USE = re.compile(r"^(export\s+)?use\s+lib\.torch((?:\.\w+)*)(?:\.(\{[^}]*\}|\*)|\s+as\s+(\w+))?", re.M)
DEFINES = re.compile(r"^(?:pub\s+)?(?:extern\s+)?(?:fn|class|struct|enum|trait|val|var|type)\s+(\w+)", re.M)


def specs():
    return sorted(glob.glob(os.path.join(REPO, "tests", "**", "*_spec.spl"), recursive=True))


def covers_of(spec):
    """The paths a spec's `# covers:` lines name, in order."""
    named = []
    with open(spec) as f:
        for line in f:
            m = COVERS.match(line.strip())
            if m:
                named += [p.strip() for p in m.group(1).split(",") if p.strip()]
    return named


def library_files():
    """Hand-written lib.torch files, as paths under spl_stubs/."""
    found = []
    for path in sorted(glob.glob(os.path.join(LIB, "**", "*.spl"), recursive=True)):
        with open(path) as f:
            if "@generated" in f.readline():
                continue
        found.append(os.path.relpath(path, STUBS))
    return found


def module_file(dotted):
    """lib.torch.<dotted> -> its file (X.spl or X/__init__.spl) under spl_stubs/, or None."""
    rel = dotted.strip(".").replace(".", "/")
    for candidate in (os.path.join(LIB, rel + ".spl"), os.path.join(LIB, rel, "__init__.spl")):
        if rel and os.path.isfile(candidate):
            return candidate
    return os.path.join(LIB, "__init__.spl") if not rel else None


def uses(text):
    """(export, module file, names or '*' or None, alias) for each `use lib.torch...` line."""
    found = []
    for m in USE.finditer(text):
        target = module_file(m.group(2))
        if target is None:
            continue
        names = m.group(3)
        if names and names.startswith("{"):
            names = [re.split(r"\s+as\s+", n.strip()) for n in names[1:-1].split(",") if n.strip()]
        found.append((bool(m.group(1)), target, names, m.group(4)))
    return found


_texts = {}


def text_of(path):
    if path not in _texts:
        with open(path) as f:
            _texts[path] = f.read()
    return _texts[path]


def defining_file(module, name, seen=None):
    """The file that defines `name` as lib.torch module `module` exports it, or None."""
    seen = seen or set()
    if module in seen:
        return None
    seen.add(module)
    text = text_of(module)
    if name in DEFINES.findall(text):
        return module
    for export, target, names, _ in uses(text):
        if not export:
            continue
        if names == "*":
            found = defining_file(target, name, seen)
            if found:
                return found
        elif isinstance(names, list):
            for parts in names:
                if parts[-1] == name:
                    return defining_file(target, parts[0], seen) or target
    return None


def derive(spec):
    """The lib.torch files (under spl_stubs/) a spec's use lines and calls reach."""
    text = text_of(spec)
    words = set(re.findall(r"\b\w+\b", text))
    files = []

    def add(path):
        rel = os.path.relpath(path, STUBS)
        if rel not in files:
            files.append(rel)

    for _, module, names, alias in uses(text):
        if isinstance(names, list):
            for parts in names:
                add(defining_file(module, parts[0]) or module)
        elif names == "*":
            for word in sorted(words):
                found = defining_file(module, word)
                if found:
                    add(found)
        else:
            called = set(re.findall(r"\b%s\.(\w+)" % re.escape(alias), text)) if alias else set()
            hits = [defining_file(module, word) for word in sorted(called)]
            for found in hits:
                if found:
                    add(found)
            if not any(hits):
                add(module)
    return files


def main(argv):
    if argv[:1] == ["--derive"]:
        for spec in argv[1:]:
            print(os.path.relpath(spec, REPO) + ": " + ", ".join(derive(os.path.abspath(spec))))
        return 0
    missing = []
    covered = set()
    for spec in specs():
        for path in covers_of(spec):
            if os.path.isfile(os.path.join(STUBS, path)):
                covered.add(path)
            else:
                missing.append("{}: covers {}, which does not exist".format(os.path.relpath(spec, REPO), path))
    if argv[:1] == ["--check"]:
        for line in missing:
            print(line)
        print("{} `# covers:` lines name files that do not exist".format(len(missing)))
        return 1 if missing else 0
    uncovered = [path for path in library_files() if path not in covered]
    for path in uncovered:
        print(path)
    print("{} of {} hand-written lib.torch files are named by no spec's `# covers:` line".format(
        len(uncovered), len(library_files())))
    for line in missing:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""The mutation list (mutations.txt) for scripts/mutation_check.sh: reads it, picks entries,
applies one to a file, and runs the tests an entry names.

usage:
  mutations.py LIST check                       every entry complete, its find text once in its file
  mutations.py LIST ids [--sample N] [--seed S] [--only IDS]   IDS: ids or patterns (data-*), commas
  mutations.py LIST get ID KEY                  one field of an entry
  mutations.py LIST tokens ID...                the test tokens of the entries, one a line
  mutations.py LIST apply ID SRC DST            SRC with the entry's find replaced, written to DST
  mutations.py run-test TOKEN ROOT LIB LOG WORK runs one test token; its exit status is the test's

A test token is spec:PATH (`splrun test PATH`, from the repository root, SIMPLE_LIB=LIB),
meson:NAME (that test's command, environment and folder from build/meson-info, run directly, SIMPLE_LIB=LIB where it names the source tree's lib:
`meson test` would rewrite build/meson-logs, which scripts/test.sh reads for its totals) or
plugin:CASES (the plugin suite's binary with -tc=CASES; plugin:!CASES: all but those, -tce).
A spec of tests/spl, nn, optim, data, distributions, amp or vision runs in a copy of its folder
under WORK with its fixtures made on this machine (fresh_spec); data's from above a `tests` folder holding the copy (its
specs read tests/data/files/...).
"""
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys

KEYS = ("id", "file", "find", "replace", "tests", "what")
TEST_TIMEOUT_S = 600
LIST_BROKEN = 86  # run-test's status for a token that names no test (a failing test gives another)
FRESH_FOLDERS = ("spl", "nn", "optim", "data", "distributions", "amp", "vision")  # tests/meson.build: run by fresh_fixtures.py


def parse(path):
    entries, current = [], {}
    for number, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if line.startswith("#"):
            continue
        if not line.strip():
            if current:
                entries.append(current)
            current = {}
            continue
        key, sep, value = line.partition(": ")
        if not sep or key not in KEYS:
            sys.exit(f"{path}:{number}: expected 'key: value' with key one of {', '.join(KEYS)}: {line!r}")
        if key in current:
            sys.exit(f"{path}:{number}: {key} given twice in entry {current.get('id', '?')}")
        current[key] = value
    if current:
        entries.append(current)
    seen = set()
    for e in entries:
        missing = [k for k in KEYS if k not in e]
        if missing:
            sys.exit(f"{path}: entry {e.get('id', '?')} lacks {', '.join(missing)}")
        if e["id"] in seen:
            sys.exit(f"{path}: id {e['id']} is used twice")
        if e["find"] == e["replace"]:
            sys.exit(f"{path}: entry {e['id']}: replace is the same as find")
        seen.add(e["id"])
    return entries


def find(entries, ident):
    for e in entries:
        if e["id"] == ident:
            return e
    sys.exit(f"no mutation with id {ident!r} (ids: {', '.join(e['id'] for e in entries)})")


def mutated(entry, text, where):
    count = text.count(entry["find"])
    if count != 1:
        sys.exit(f"mutation {entry['id']}: the text to replace occurs {count} times in {where} (exactly 1 needed): "
                 f"{entry['find']!r}")
    return text.replace(entry["find"], entry["replace"])


def pick(entries, sample, seed):
    """`sample` entries spread evenly over the list (which is grouped by area), shifted by `seed`."""
    n = len(entries)
    if sample >= n:
        return entries
    step = n / sample
    chosen = sorted({(int((i + 0.5) * step) + seed) % n for i in range(sample)})
    return [entries[i] for i in chosen]


def meson_test(root, name):
    for t in json.load(open(os.path.join(root, "build", "meson-info", "intro-tests.json"))):
        if t["name"] == name:
            return t
    print(f"no meson test named {name!r} in build/ (meson test -C build --list)", file=sys.stderr)
    sys.exit(LIST_BROKEN)


def fresh_spec(root, work, spec, log):
    """The spec's path, and where to run it, in a copy of its folder (made once per run, under `work`) whose fixtures
    the spec reads were made again here, as the meson suite does for tests/spl, nn and optim
    (tests/fresh_fixtures.py: float32 results differ between CPUs in the last bits). Only the
    fixture scripts the spec uses are run: all of nn's take minutes."""
    folder = os.path.basename(os.path.dirname(os.path.abspath(spec)))
    if folder not in FRESH_FOLDERS or not spec.endswith("_spec.spl"):
        return spec, root
    # data/'s specs read tests/data/files/... from where they run: its copy lies in a `tests`
    # folder, run from the folder above (as the meson suite runs it).
    top = os.path.join(work, "fresh", folder)
    parent = os.path.join(top, "tests") if folder == "data" else top
    copy = os.path.join(parent, folder)
    if not os.path.isdir(copy):
        os.makedirs(parent)
        shutil.copytree(os.path.join(root, "tests", folder), copy,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        for sibling in os.listdir(os.path.join(root, "tests")):
            if sibling != folder and os.path.isdir(os.path.join(root, "tests", sibling)):
                os.symlink(os.path.join(root, "tests", sibling), os.path.join(parent, sibling))
    uses = re.findall(r"^use (\w*fixtures)\b", open(os.path.join(copy, os.path.basename(spec))).read(), re.M)
    for module in uses:
        script = os.path.join(copy, "make_" + module + ".py")
        made = os.path.join(copy, ".made_" + module)
        if os.path.exists(script) and not os.path.exists(made):
            with open(log, "a") as out:
                out.write(f"$ {os.path.basename(script)} (fixtures made on this machine)\n")
                out.flush()
                if subprocess.run([os.path.join(root, ".venv", "bin", "python"), script], cwd=copy,
                                  stdout=out, stderr=subprocess.STDOUT).returncode != 0:
                    return spec, root  # the committed fixtures, then; the log says why
            open(made, "w").close()
    return os.path.join(copy, os.path.basename(spec)), top if folder == "data" else root


def run_test(token, root, lib, log, work):
    kind, _, arg = token.partition(":")
    env = dict(os.environ)
    cwd = root
    if kind == "spec":
        env.update(SIMPLE_SFFI_PATH=os.path.join(root, "build", "runtime_plugin"), SIMPLE_LIB=lib)
        path, cwd = fresh_spec(root, work, arg, log)
        cmd = [os.path.join(root, "build", "host", "splrun"), "test", path]
    elif kind in ("meson", "plugin"):
        t = meson_test(root, arg if kind == "meson" else "plugin")
        env.update(t.get("env") or {})
        # A test that reads the source tree's lib.torch reads the mutated private copy instead.
        if env.get("SIMPLE_LIB") == os.path.join(root, "spl_stubs", "lib"):
            env["SIMPLE_LIB"] = lib
        # plugin:!CASES leaves those cases out (-tce): a timing case that fails under load
        # says nothing about a mutant.
        cases = [] if kind == "meson" else [f"-tce={arg[1:]}"] if arg.startswith("!") else [f"-tc={arg}"]
        cmd = list(t["cmd"]) + cases
        cwd = t.get("workdir") or os.path.join(root, "build")
    else:
        print(f"unknown test token {token!r} (spec:PATH, meson:NAME or plugin:CASES)", file=sys.stderr)
        sys.exit(LIST_BROKEN)
    with open(log, "a") as out:
        out.write(f"$ {token}\n")
        out.flush()
        try:
            return subprocess.run(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                  timeout=TEST_TIMEOUT_S).returncode
        except subprocess.TimeoutExpired:
            out.write(f"timed out after {TEST_TIMEOUT_S} s\n")
            return 124


def main(argv):
    if len(argv) == 6 and argv[0] == "run-test":
        return run_test(*argv[1:])
    if len(argv) < 2:
        sys.exit(__doc__)
    entries = parse(argv[0])
    command, rest = argv[1], argv[2:]
    if command == "check":
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        bad = 0
        for e in entries:
            path = os.path.join(root, e["file"])
            count = open(path, encoding="utf-8").read().count(e["find"]) if os.path.exists(path) else 0
            if count != 1:
                bad += 1
                print(f"{e['id']}: found {count} times in {e['file']}: {e['find']!r}")
        if bad:
            sys.exit(f"{bad} of {len(entries)} mutations not found exactly once")
        print(f"{len(entries)} mutations, each found exactly once")
    elif command == "ids":
        sample, seed, only = None, 0, None
        while rest:
            flag, value, rest = rest[0], rest[1], rest[2:]
            if flag == "--sample":
                sample = int(value)
            elif flag == "--seed":
                seed = int(value)
            elif flag == "--only":
                only = value
            else:
                sys.exit(f"unknown option {flag}")
        chosen = entries
        if only:  # ids or fnmatch patterns, comma-separated
            patterns = only.split(",")
            for p in patterns:
                if not any(fnmatch.fnmatchcase(e["id"], p) for e in entries):
                    find(entries, p)  # names the ids
            chosen = []  # in the order of the patterns
            for p in patterns:
                chosen += [e for e in entries if fnmatch.fnmatchcase(e["id"], p) and e not in chosen]
        if sample is not None:
            chosen = pick(chosen, sample, seed)
        print("\n".join(e["id"] for e in chosen))
    elif command == "tokens":
        for ident in rest:
            print("\n".join(t.strip() for t in find(entries, ident)["tests"].split(";") if t.strip()))
    elif command == "get" and len(rest) == 2:
        print(find(entries, rest[0])[rest[1]])
    elif command == "apply" and len(rest) == 3:
        entry = find(entries, rest[0])
        text = mutated(entry, open(rest[1], encoding="utf-8").read(), entry["file"])
        with open(rest[2], "w", encoding="utf-8") as out:
            out.write(text)
    else:
        sys.exit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

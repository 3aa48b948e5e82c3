#!/usr/bin/env python3
"""Checks the shape-bug corpus (tests/shapes/corpus, see README.md) against splrun.

    SIMPLE_SFFI_PATH=build/runtime_plugin SIMPLE_LIB=spl_stubs/lib \\
        python3 tests/shapes/check_corpus.py build/host/splrun tests/shapes/corpus
    python3 tests/shapes/check_corpus.py --self-test

The corpus holds pairs NN_name_bug.spl / NN_name_fixed.spl. A bug file opens with

    # shape bug: ONE-LINE DESCRIPTION
    # line: N                the statement that is wrong, or where the error shows
    # run: error | silent
    # error: TEXT            (run: error only) a fragment of the message splrun prints
    # cause: M               (optional) the wrong statement, when the error shows at another line
    # check: K | none: WHY   (optional for run: error, where K is N) the line `splrun check` reports,
                             or why a shape checker cannot see this bug
    # note: TEXT             (optional)

and its twin with `# fixed twin of NN_name_bug.spl`. Checked here:
  the corpus: at least MIN_PAIRS pairs, each bug has its twin and each twin its bug, the header
    lines are there and well formed, N (and M) name a line of code inside the file;
  each fixed twin: exits 0, prints `ok` as its last line, writes nothing on stderr;
  each `run: error` bug: exits non-zero, the error's location (splrun's `--> FILE:LINE:COL`)
    is the bug file at line N, and stderr contains the `# error:` fragment;
  each `run: silent` bug: exits 0 and prints `ok` as its last line;
  `splrun check` on each fixed twin: exits 0, prints nothing;
  `splrun check` on each bug: with `check: K`, exits 1 and its first `FILE:LINE:COL: shape error:`
    line is the bug file at line K; with `check: none: ...`, exits 0 and prints nothing.
One line per check (`ok   ...` / `FAIL ...`); the exit status is 1 when any check fails.
The environment is inherited: the caller sets SIMPLE_SFFI_PATH and SIMPLE_LIB. Python 3
standard library only.
"""
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field

MIN_PAIRS = 30
TIMEOUT_S = 60

BUG_RE = re.compile(r"^(\d\d)_([a-z0-9_]+)_bug\.spl$")
FIXED_RE = re.compile(r"^(\d\d)_([a-z0-9_]+)_fixed\.spl$")
# splrun's error location: "  --> /path/to/NN_name_bug.spl:LINE:COL"
LOCATION_RE = re.compile(r"^\s*-->\s*(.+?):(\d+):(\d+)\s*$")
KEYS = ("shape bug", "line", "run", "error", "cause", "check", "note")
# splrun check's report: "/path/to/NN_name_bug.spl:LINE:COL: shape error: ..."
FINDING_RE = re.compile(r"^(.+?):(\d+):(\d+): shape error: ")


@dataclass
class Header:
    fields: dict = field(default_factory=dict)
    problems: list = field(default_factory=list)


@dataclass
class Result:
    """What one splrun run gave: exit status (None when it timed out), stdout, stderr."""
    rc: object
    stdout: str
    stderr: str


class Report:
    def __init__(self, out=sys.stdout):
        self.out = out
        self.failed = 0
        self.passed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        if self.out is not None:
            print(("ok   " if ok else "FAIL ") + what, file=self.out, flush=True)
        return ok


def parse_header(text):
    """The leading `# key: value` lines of a bug file (up to the first other line)."""
    h = Header()
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        m = re.match(r"^# ([a-z ]+): (.*)$", line)
        if not m or m.group(1) not in KEYS:
            break
        key, value = m.group(1), m.group(2).strip()
        if key in h.fields:
            h.problems.append(f"'{key}' given twice")
        h.fields[key] = value
    f = h.fields
    lines = text.splitlines()
    if not lines or not lines[0].startswith("# shape bug: ") or not f.get("shape bug"):
        h.problems.append("first line is not '# shape bug: DESCRIPTION'")
    if f.get("run") not in ("error", "silent"):
        h.problems.append(f"'# run:' is {f.get('run')!r}, not error or silent")
    if f.get("run") == "error" and not f.get("error"):
        h.problems.append("'# run: error' without an '# error:' fragment")
    if f.get("run") == "silent" and "error" in f:
        h.problems.append("'# error:' on a silent bug")
    check = f.get("check", f.get("line") if f.get("run") == "error" else None)
    if check is None:
        h.problems.append("'# run: silent' without '# check: K' or '# check: none: WHY'")
    elif check.startswith("none"):
        if not re.fullmatch(r"none: \S.*", check):
            h.problems.append("'# check: none' without ': WHY'")
    else:
        f["check"] = check
    for key in ("line", "cause", "check"):
        if key not in f:
            if key == "line":
                h.problems.append("no '# line:'")
            continue
        if key == "check" and f[key].startswith("none"):
            continue
        if not re.fullmatch(r"[1-9]\d*", f[key]):
            h.problems.append(f"'# {key}: {f[key]}' is not a line number")
            continue
        n = int(f[key])
        if n > len(lines):
            h.problems.append(f"'# {key}: {n}' is past the end of the file ({len(lines)} lines)")
        else:
            code = lines[n - 1].strip()
            if not code or code.startswith("#"):
                h.problems.append(f"'# {key}: {n}' names a blank or comment line")
    return h


def check_files(files, rep, min_pairs=MIN_PAIRS):
    """The corpus itself. `files` maps file names to their text. Returns the pairs to run:
    [(stem, header)] for every bug file whose header is sound and whose twin is there."""
    bugs, fixed, pairs = {}, {}, []
    for name in sorted(files):
        if BUG_RE.match(name):
            bugs[name[:-len("_bug.spl")]] = name
        elif FIXED_RE.match(name):
            fixed[name[:-len("_fixed.spl")]] = name
        elif name.endswith(".spl"):
            rep.check(False, f"{name}: named neither NN_name_bug.spl nor NN_name_fixed.spl")
    rep.check(len(bugs) >= min_pairs, f"corpus: {len(bugs)} bug files (at least {min_pairs})")
    numbers = {}
    for stem in sorted(set(bugs) | set(fixed)):
        numbers.setdefault(stem[:2], []).append(stem)
    for nn, stems in sorted(numbers.items()):
        if len(stems) > 1:
            rep.check(False, f"corpus: number {nn} used by {', '.join(stems)}")
    for stem in sorted(set(fixed) - set(bugs)):
        rep.check(False, f"{fixed[stem]}: no {stem}_bug.spl")
    for stem in sorted(bugs):
        bug = bugs[stem]
        if not rep.check(stem in fixed, f"{bug}: has its twin {stem}_fixed.spl"):
            continue
        first = (files[fixed[stem]].splitlines() or [""])[0]
        rep.check(first == f"# fixed twin of {bug}", f"{fixed[stem]}: first line '# fixed twin of {bug}'")
        h = parse_header(files[bug])
        if not rep.check(not h.problems, f"{bug}: header" + (": " + "; ".join(h.problems) if h.problems else
                                                              f" (line {h.fields['line']}, {h.fields['run']})")):
            continue
        pairs.append((stem, h))
    return pairs


def last_line(stdout):
    lines = stdout.rstrip("\n").splitlines()
    return lines[-1] if lines else ""


def check_fixed(stem, res, rep):
    name = f"{stem}_fixed.spl"
    if res.rc is None:
        return rep.check(False, f"{name}: timed out after {TIMEOUT_S} s")
    ok = rep.check(res.rc == 0 and last_line(res.stdout) == "ok" and res.stderr == "",
                   f"{name}: exits 0, prints ok last, nothing on stderr")
    if not ok:
        detail(res, rep)
    return ok


def error_location(stderr):
    """(file name, line) of splrun's first `--> FILE:LINE:COL`, or None."""
    for line in stderr.splitlines():
        m = LOCATION_RE.match(line)
        if m:
            return os.path.basename(m.group(1)), int(m.group(2))
    return None


def check_bug(stem, h, res, rep):
    name = f"{stem}_bug.spl"
    n = int(h.fields["line"])
    if res.rc is None:
        return rep.check(False, f"{name}: timed out after {TIMEOUT_S} s")
    if h.fields["run"] == "silent":
        ok = rep.check(res.rc == 0 and last_line(res.stdout) == "ok",
                       f"{name}: silent, exits 0 and prints ok last")
        if not ok:
            detail(res, rep)
        return ok
    ok = rep.check(res.rc != 0, f"{name}: stops with an error (exit {res.rc})")
    loc = error_location(res.stderr)
    where = f"{loc[0]}:{loc[1]}:" if loc else "no '--> FILE:LINE:COL' on stderr"
    ok &= rep.check(loc == (name, n), f"{name}: error reported at {name}:{n}: (splrun says {where})")
    frag = h.fields["error"]
    ok &= rep.check(frag in res.stderr, f"{name}: stderr contains {frag!r}")
    if not ok:
        detail(res, rep)
    return ok


def check_checked_fixed(stem, res, rep):
    name = f"{stem}_fixed.spl"
    if res.rc is None:
        return rep.check(False, f"splrun check {name}: timed out after {TIMEOUT_S} s")
    ok = rep.check(res.rc == 0 and res.stdout == "" and res.stderr == "",
                   f"splrun check {name}: exits 0, prints nothing")
    if not ok:
        detail(res, rep)
    return ok


def first_finding(stdout):
    """(file name, line) of splrun check's first shape error, or None."""
    for line in stdout.splitlines():
        m = FINDING_RE.match(line)
        if m:
            return os.path.basename(m.group(1)), int(m.group(2))
    return None


def check_checked_bug(stem, h, res, rep):
    name = f"{stem}_bug.spl"
    if res.rc is None:
        return rep.check(False, f"splrun check {name}: timed out after {TIMEOUT_S} s")
    want = h.fields["check"]
    if want.startswith("none"):
        ok = rep.check(res.rc == 0 and res.stdout == "", f"splrun check {name}: not seen ({want[6:]}), prints nothing")
    else:
        k = int(want)
        found = first_finding(res.stdout)
        where = f"{found[0]}:{found[1]}:" if found else "no 'FILE:LINE:COL: shape error:' on stdout"
        ok = rep.check(res.rc == 1 and found == (name, k),
                       f"splrun check {name}: exit 1, shape error at {name}:{k}: (exit {res.rc}, says {where})")
    if not ok:
        detail(res, rep)
    return ok


def detail(res, rep):
    if rep.out is None:
        return
    for label, text in (("stdout", res.stdout), ("stderr", res.stderr)):
        tail = text.rstrip("\n").splitlines()[-8:]
        for line in tail:
            print(f"       {label}| {line}", file=rep.out)


def run(splrun, path, check=False):
    try:
        p = subprocess.run([splrun, "check", path] if check else [splrun, path], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           errors="replace", timeout=TIMEOUT_S)
        return Result(p.returncode, p.stdout, p.stderr)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
        return Result(None, out, err)


def main_run(splrun, corpus):
    start = time.monotonic()
    rep = Report()
    if not os.path.isdir(corpus):
        rep.check(False, f"{corpus}: not a folder")
        return 1
    files = {}
    for name in os.listdir(corpus):
        if name.endswith(".spl"):
            with open(os.path.join(corpus, name), encoding="utf-8") as f:
                files[name] = f.read()
    pairs = check_files(files, rep)
    counts = {"error": 0, "silent": 0, "checked": 0}
    for stem, h in pairs:
        counts[h.fields["run"]] += 1
        t0 = time.monotonic()
        check_fixed(stem, run(splrun, os.path.abspath(os.path.join(corpus, f"{stem}_fixed.spl"))), rep)
        check_bug(stem, h, run(splrun, os.path.abspath(os.path.join(corpus, f"{stem}_bug.spl"))), rep)
        check_checked_fixed(stem, run(splrun, os.path.abspath(os.path.join(corpus, f"{stem}_fixed.spl")), True), rep)
        check_checked_bug(stem, h, run(splrun, os.path.abspath(os.path.join(corpus, f"{stem}_bug.spl")), True), rep)
        if not h.fields["check"].startswith("none"):
            counts["checked"] += 1
        if time.monotonic() - t0 > 2 * TIMEOUT_S:
            break
    took = time.monotonic() - start
    print(f"# {len(pairs)} pairs run ({counts['error']} error, {counts['silent']} silent; "
          f"{counts['checked']} reported by splrun check): "
          f"{rep.passed} checks ok, {rep.failed} failed, {took:.1f} s")
    return 1 if rep.failed else 0


# --- self-test: made-up corpora and results, no splrun --------------------------------------

GOOD_BUG = """# shape bug: x @ w without the transpose
# line: 7
# run: error
# error: mat1 and mat2 shapes cannot be multiplied

use lib.torch.{Tensor}
val y = Tensor.randn([5, 4]) @ Tensor.randn([3, 4])
print "ok"
"""
GOOD_FIXED = """# fixed twin of 01_mm_bug.spl
#
#
#

use lib.torch.{Tensor}
val y = Tensor.randn([5, 4]) @ Tensor.randn([3, 4]).t()
print "ok"
"""
SILENT_BUG = """# shape bug: pred [B, 1] minus y [B]
# line: 5
# run: silent
# check: none: same shapes either way
val d = ((pred - y) ** 2).mean()
print "ok"
"""
SILENT_FIXED = """# fixed twin of 02_loss_bug.spl
val d = ((pred.squeeze(1) - y) ** 2).mean()
print "ok"
"""
ERR = ("error: mat1 and mat2 shapes cannot be multiplied (5x4 and 3x4)\n"
       "  --> /somewhere/01_mm_bug.spl:7:9\n  |\n7 | val y = ...\n")
FOUND = "/somewhere/01_mm_bug.spl:7:9: shape error: mat1 and mat2 shapes cannot be multiplied (5x4 and 3x4)\n"
GOOD_RUNS = {"01_mm_fixed.spl": Result(0, "ok\n", ""), "01_mm_bug.spl": Result(1, "", ERR),
             "02_loss_fixed.spl": Result(0, "ok\n", ""), "02_loss_bug.spl": Result(0, "ok\n", ""),
             "check 01_mm_fixed.spl": Result(0, "", ""), "check 01_mm_bug.spl": Result(1, FOUND, ""),
             "check 02_loss_fixed.spl": Result(0, "", ""), "check 02_loss_bug.spl": Result(0, "", "")}


def scenario(files, runs, min_pairs=2):
    """Runs the checks on a made-up corpus and made-up results; returns the failing lines."""
    lines = []

    class Sink:
        def write(self, s):
            lines.append(s)

        def flush(self):
            pass

    rep = Report(Sink())
    pairs = check_files(files, rep, min_pairs=min_pairs)
    for stem, h in pairs:
        check_fixed(stem, runs[f"{stem}_fixed.spl"], rep)
        check_bug(stem, h, runs[f"{stem}_bug.spl"], rep)
        check_checked_fixed(stem, runs[f"check {stem}_fixed.spl"], rep)
        check_checked_bug(stem, h, runs[f"check {stem}_bug.spl"], rep)
    return [l for l in "".join(lines).splitlines() if l.startswith("FAIL")]


def self_test():
    good_files = {"01_mm_bug.spl": GOOD_BUG, "01_mm_fixed.spl": GOOD_FIXED,
                  "02_loss_bug.spl": SILENT_BUG, "02_loss_fixed.spl": SILENT_FIXED}

    def with_files(drop=(), **changes):
        files = {k: v for k, v in good_files.items() if k not in drop}
        files.update(changes)
        return files

    cases = [
        ("the good corpus passes", good_files, GOOD_RUNS, None),
        ("a fixed twin that fails", good_files,
         dict(GOOD_RUNS, **{"01_mm_fixed.spl": Result(1, "", "error: boom\n  --> /x/01_mm_fixed.spl:7:9\n")}),
         "01_mm_fixed.spl: exits 0"),
        ("a fixed twin that does not print ok last", good_files,
         dict(GOOD_RUNS, **{"01_mm_fixed.spl": Result(0, "ok\n[5, 3]\n", "")}), "01_mm_fixed.spl: exits 0"),
        ("a fixed twin that writes on stderr", good_files,
         dict(GOOD_RUNS, **{"02_loss_fixed.spl": Result(0, "ok\n", "warning: broadcast\n")}),
         "02_loss_fixed.spl: exits 0"),
        ("a bug reported at the wrong line", good_files,
         dict(GOOD_RUNS, **{"01_mm_bug.spl": Result(1, "", ERR.replace(":7:9", ":6:9"))}),
         "01_mm_bug.spl: error reported at 01_mm_bug.spl:7:"),
        ("a bug reported in another file", good_files,
         dict(GOOD_RUNS, **{"01_mm_bug.spl": Result(1, "", ERR.replace("01_mm_bug.spl:7", "ops.spl:7"))}),
         "01_mm_bug.spl: error reported at"),
        ("a missing error fragment", good_files,
         dict(GOOD_RUNS, **{"01_mm_bug.spl": Result(1, "", ERR.replace("mat1 and mat2", "self and mat2"))}),
         "01_mm_bug.spl: stderr contains"),
        ("an error bug that runs", good_files,
         dict(GOOD_RUNS, **{"01_mm_bug.spl": Result(0, "ok\n", "")}), "01_mm_bug.spl: stops with an error"),
        ("a silent bug that errors", good_files,
         dict(GOOD_RUNS, **{"02_loss_bug.spl": Result(1, "", "error: x\n  --> /x/02_loss_bug.spl:5:9\n")}),
         "02_loss_bug.spl: silent"),
        ("a run that timed out", good_files,
         dict(GOOD_RUNS, **{"02_loss_fixed.spl": Result(None, "", "")}), "02_loss_fixed.spl: timed out"),
        ("a missing twin", with_files(drop=("02_loss_fixed.spl",)), GOOD_RUNS,
         "02_loss_bug.spl: has its twin"),
        ("a twin without its bug", with_files(drop=("02_loss_bug.spl",)), GOOD_RUNS,
         "02_loss_fixed.spl: no 02_loss_bug.spl"),
        ("a twin naming another bug", with_files(**{"02_loss_fixed.spl": SILENT_FIXED.replace("02_loss", "03_x")}),
         GOOD_RUNS, "02_loss_fixed.spl: first line"),
        ("a missing '# line:'", with_files(**{"02_loss_bug.spl": SILENT_BUG.replace("# line: 5\n", "")}),
         GOOD_RUNS, "02_loss_bug.spl: header: no '# line:'"),
        ("a line past the end", with_files(**{"02_loss_bug.spl": SILENT_BUG.replace("# line: 5", "# line: 40")}),
         GOOD_RUNS, "past the end"),
        ("a line naming a comment", with_files(**{"02_loss_bug.spl": SILENT_BUG.replace("# line: 5", "# line: 2")}),
         GOOD_RUNS, "blank or comment line"),
        ("an error bug without '# error:'",
         with_files(**{"01_mm_bug.spl": re.sub(r"# error: .*\n", "", GOOD_BUG).replace("# line: 7", "# line: 6")}),
         GOOD_RUNS, "without an '# error:' fragment"),
        ("a '# run:' that is neither", with_files(**{"02_loss_bug.spl": SILENT_BUG.replace("silent", "quiet")}),
         GOOD_RUNS, "not error or silent"),
        ("too few pairs", good_files, GOOD_RUNS, "corpus: 2 bug files (at least 3)"),
        ("splrun check reporting on a twin", good_files,
         dict(GOOD_RUNS, **{"check 01_mm_fixed.spl": Result(1, FOUND.replace("bug", "fixed"), "")}),
         "splrun check 01_mm_fixed.spl: exits 0"),
        ("splrun check missing a bug", good_files,
         dict(GOOD_RUNS, **{"check 01_mm_bug.spl": Result(0, "", "")}), "splrun check 01_mm_bug.spl: exit 1"),
        ("splrun check at the wrong line", good_files,
         dict(GOOD_RUNS, **{"check 01_mm_bug.spl": Result(1, FOUND.replace(":7:9", ":6:9"), "")}),
         "splrun check 01_mm_bug.spl: exit 1, shape error at 01_mm_bug.spl:7:"),
        ("splrun check reporting a bug it says it cannot see", good_files,
         dict(GOOD_RUNS, **{"check 02_loss_bug.spl": Result(1, FOUND.replace("01_mm", "02_loss"), "")}),
         "splrun check 02_loss_bug.spl: not seen"),
        ("a silent bug without '# check:'",
         with_files(**{"02_loss_bug.spl": SILENT_BUG.replace("# check: none: same shapes either way\n", "")}),
         GOOD_RUNS, "without '# check: K'"),
    ]
    failures = 0
    for what, files, runs, expect in cases:
        fails = scenario(files, runs, min_pairs=3 if what == "too few pairs" else 2)
        if expect is None:
            caught = not fails
            print(("ok   " if caught else "FAIL ") + f"self-test: {what}" +
                  ("" if caught else f" (but: {fails})"))
        else:
            caught = any(expect in f for f in fails)
            print(("ok   " if caught else "FAIL ") + f"self-test: {what} is caught" +
                  (f" ({[f for f in fails if expect in f][0][5:]})" if caught else f" (failures: {fails})"))
        failures += not caught
    print(f"# self-test: {len(cases) - failures} of {len(cases)} cases as expected")
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 3 or argv[1].startswith("-"):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        print("usage: check_corpus.py SPLRUN CORPUS_DIR | check_corpus.py --self-test", file=sys.stderr)
        return 2
    return main_run(argv[1], argv[2])


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""The layout rules of hand-written .spl files, which clang-format cannot check: lines of at most
120 characters, statements indented in steps of 4 spaces, no tabs, no trailing whitespace, and
one newline at the end of the file.

    scripts/spl_style.py [PATH...]    (default: spl_stubs/lib under the repository)

Each fault is printed as `file:line: what`; the exit status is 1 when there is any. Generated
files (first line `# @generated ...`) are skipped: their generator owns their layout.

Only lines that start a statement have their indentation checked: a line inside brackets, after
a backslash, inside a \"\"\"docstring\"\"\", or starting with `.name` (a method chain) continues the
line before it (host/syntax/lexer.cpp), and may be aligned with whatever it continues.
"""
import pathlib
import sys

MAX_LINE = 120
INDENT_STEP = 4
DEFAULT_ROOTS = ["spl_stubs/lib"]
OPEN, CLOSE = "([{", ")]}"


def is_generated(text):
    return text.startswith("# @generated")


class Scanner:
    """What the lexer knows at the start of each line: the bracket depth, whether a \"\"\"text
    literal is open, and whether the line before ended in a continuing backslash."""

    def __init__(self):
        self.depth = 0
        self.in_triple = False
        self.backslash = False

    def continues(self, line):
        """Whether `line` continues the statement before it rather than starting one."""
        if self.in_triple or self.depth > 0 or self.backslash:
            return True
        stripped = line.lstrip(" \t")
        return len(stripped) > 1 and stripped[0] == "." and (stripped[1].isalpha() or stripped[1] == "_")

    def advance(self, line):
        """Updates the state past `line` (without its newline)."""
        self.backslash = False
        i, n = 0, len(line)
        while i < n:
            if self.in_triple:
                end = line.find('"""', i)
                if end < 0:
                    return
                self.in_triple = False
                i = end + 3
                continue
            c = line[i]
            if c == "#":
                return
            if line.startswith('"""', i):
                self.in_triple = True
                i += 3
                continue
            if c == '"':
                i = skip_text(line, i + 1)
                continue
            if c == "'":
                end = line.find("'", i + 1)
                i = n if end < 0 else end + 1
                continue
            if c in OPEN:
                self.depth += 1
            elif c in CLOSE and self.depth > 0:
                self.depth -= 1
            elif c == "\\" and line[i + 1:].strip(" \t") == "":
                self.backslash = True
                return
            i += 1


def skip_text(line, i):
    """The index just past the "..." literal whose body starts at `i` (escapes and `{...}`
    interpolations, which may hold literals of their own, included)."""
    n = len(line)
    while i < n:
        c = line[i]
        if c == "\\":
            i += 2
        elif c == '"':
            return i + 1
        elif c == "{":
            i = skip_interpolation(line, i + 1)
        else:
            i += 1
    return n


def skip_interpolation(line, i):
    depth, n = 1, len(line)
    while i < n:
        c = line[i]
        if c in "\"'":
            i += 1
            while i < n and line[i] != c:
                i += 2 if line[i] == "\\" and c == '"' else 1
            i += 1
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def check_text(text):
    """The faults of one file's text, as (line number, what) pairs."""
    faults = []
    lines = text.split("\n")
    # split leaves "" after the final newline; anything else there is a missing newline.
    body, last = lines[:-1], lines[-1]
    if last != "":
        faults.append((len(lines), "no newline at the end of the file"))
        body = lines
    elif len(body) > 0 and body[-1].strip() == "":
        faults.append((len(body), "blank lines at the end of the file"))
    scanner = Scanner()
    for number, line in enumerate(body, start=1):
        if len(line) > MAX_LINE:
            faults.append((number, f"{len(line)} characters (at most {MAX_LINE})"))
        if "\t" in line:
            faults.append((number, "a tab (indent with spaces; write \\t inside text)"))
        if line != line.rstrip(" \t\r"):
            faults.append((number, "trailing whitespace"))
        if line.strip() and not scanner.continues(line):
            indent = len(line) - len(line.lstrip(" "))
            if indent % INDENT_STEP:
                faults.append((number, f"indented {indent} spaces (a multiple of {INDENT_STEP} expected)"))
        scanner.advance(line)
    return faults


def spl_files(paths):
    for path in paths:
        if path.is_dir():
            yield from sorted(path.rglob("*.spl"))
        else:
            yield path


def main(argv):
    root = pathlib.Path(__file__).resolve().parent.parent
    paths = [pathlib.Path(a) for a in argv] or [root / r for r in DEFAULT_ROOTS]
    count = 0
    for path in spl_files(paths):
        text = path.read_text(encoding="utf-8")
        if is_generated(text):
            continue
        shown = path.relative_to(root) if path.is_relative_to(root) else path
        for number, what in check_text(text):
            print(f"{shown}:{number}: {what}")
            count += 1
    if count:
        print(f"{count} style faults in .spl files", file=sys.stderr)
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

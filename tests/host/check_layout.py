#!/usr/bin/env python3
"""host/'s folders follow its pipeline: no file depends on a later stage.

The stages, in order (host/README.md, "Layout"):

    base -> syntax -> resolve -> ffi -> eval -> tools

A file may use its own folder and earlier folders only. Two kinds of edge break that:

- an include: every `#include "..."` of a host header names its folder, from host/ as the
  include root (`#include "syntax/ast.h"`), and that folder must not come later; a bare name
  of a host header (`#include "ast.h"`) is refused too, as is a source file outside the stage
  folders. Includes of other trees (`spl_plugin.h`, from runtime_plugin/) are not looked at.
- a declaration the linker resolves from a later stage, which no include shows:
  - a function declared (a prototype) in one stage and defined only in later stages' files;
  - a class whose member functions are declared in one stage and defined in a later one's
    file, or a class declared ahead (`struct X;`) in one stage and defined only in a later
    stage's .cpp.
  A class declared ahead whose definition is in a later stage's *header* is an opaque slot the
  later stage fills (ast.h's `SiteCache*`): nothing of the later stage is linked, and the
  earlier stage can do nothing with it but hold the pointer.

Declarations are found by a small reader of C++ (comments and literals removed, braces
followed), enough for host/'s style: namespace-scope prototypes `T name(...);`, forward
declarations `struct X;`, class bodies, and definitions `T name(...) {` / `T X::name(...) {`.

Prints every offending edge as `FILE:LINE: FROM -> TO (...)` and exits 1 when there is one.

usage: check_layout.py [HOST_DIR]     (default: the host/ next to tests/)
"""
import os
import re
import sys

STAGES = ["base", "syntax", "resolve", "ffi", "eval", "tools"]
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".c")
CPP_SUFFIXES = (".cpp", ".cc", ".c")

CLASS_HEAD = re.compile(r"\b(?:class|struct|union)\s+(?:\[\[[^\]]*\]\]\s*)?(\w+)")
FORWARD = re.compile(r"^(?:template\s*<[^;{}]*>\s*)?(?:class|struct)\s+(\w+)$")
# The name a declaration or definition is of: the (qualified) identifier before its parameter list.
CALLEE = re.compile(r"((?:\w+\s*::\s*)*)(~?\w+|operator\s*[^\s(]+)\s*$")
NOT_FUNCTIONS = ("typedef", "using", "friend", "return", "static_assert", "namespace", "extern \"C\"", "#")


def strip_code(text):
    """The text with comments, string and character literals and preprocessor lines blanked
    (newlines kept, so offsets still give line numbers)."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#":
            j = i
            while j < n and text[j] != "\n":  # a directive, with its continuation lines
                j += 2 if text[j] == "\\" and j + 1 < n else 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        if not c.isspace():
            at_line_start = False
        if c == "\n":
            at_line_start = True
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def callee_of(head):
    """(class, name) of a function declared or defined by `head` (the text before `;` or
    `{`), else None: the identifier before the first parenthesis at depth 0."""
    head = re.sub(r"\[\[.*?\]\]", " ", head).strip()
    head = re.sub(r"\btemplate\s*<[^(){};]*>", " ", head).strip()
    if not head or head.startswith(NOT_FUNCTIONS) or "(" not in head:
        return None
    before = head[: head.index("(")]
    if "=" in before or "<<" in before or before.rstrip().endswith((">", ",")):
        return None  # a variable initialised by a call, or an expression
    m = CALLEE.search(before)
    if not m:
        return None
    words = before[: m.start()].split()
    if not words and not m.group(1):
        return None  # `f(x);` alone: a call, not a declaration (a constructor needs its class)
    qualifier = [q.strip() for q in m.group(1).split("::") if q.strip()]
    cls = qualifier[-1] if qualifier else None
    name = m.group(2)
    if name in ("if", "for", "while", "switch", "return", "sizeof", "decltype", "alignof"):
        return None
    return cls, name


class Declarations:
    """What each file declares and defines, with its line."""

    def __init__(self):
        self.fn_decls = []       # (file, line, name): namespace-scope prototypes
        self.fn_defs = {}        # name -> set of files defining a free function of that name
        self.class_bodies = {}   # class -> list of (file, line): where its body (member declarations) is
        self.forwards = []       # (file, line, class): `struct X;`
        self.member_defs = {}    # class -> list of (file, line, name): `T X::f(...) {` outside X's body

    def read(self, src, text):
        code = strip_code(text)
        scopes = []  # "namespace", ("class", name), "function", "other"
        head_start = 0
        depth_paren = 0

        def line_of(pos):
            return code.count("\n", 0, pos) + 1

        def at_namespace_scope():
            return all(s == "namespace" for s in scopes)

        for pos, c in enumerate(code):
            if c in "([":
                depth_paren += 1
            elif c in ")]":
                depth_paren -= 1
            if depth_paren > 0 and c not in "{}":
                continue
            if c == ";" or c == "}" or c == "{":
                head = code[head_start:pos]
                stripped = " ".join(head.split())
                where = line_of(head_start + len(head) - len(head.lstrip()))
                if c == ";" and at_namespace_scope() and depth_paren == 0:
                    fwd = FORWARD.match(stripped)
                    if fwd:
                        self.forwards.append((src, where, fwd.group(1)))
                    else:
                        got = callee_of(stripped)
                        if got and got[0] is None and not stripped.startswith(("inline ", "static ")):
                            if not re.search(r"\)\s*(const\s*)?=\s*(delete|default|0)\s*$", stripped):
                                self.fn_decls.append((src, where, got[1]))
                elif c == "{":
                    kind = "other"
                    if scopes and scopes[-1] not in ("namespace",) and not isinstance(scopes[-1], tuple):
                        kind = "other"  # inside a function: nothing here declares anything
                    elif re.match(r"^(inline\s+)?namespace\b", stripped) or stripped.startswith('extern "C"'):
                        kind = "namespace"
                    elif re.match(r"^(template\s*<.*>\s*)?(class|struct|union)\b", stripped) and \
                            CLASS_HEAD.search(stripped) and "(" not in stripped.split(":")[0]:
                        name = CLASS_HEAD.search(stripped).group(1)
                        kind = ("class", name)
                        self.class_bodies.setdefault(name, []).append((src, where))
                    elif at_namespace_scope():
                        got = callee_of(stripped)
                        if got:
                            kind = "function"
                            cls, name = got
                            if cls is None:
                                self.fn_defs.setdefault(name, set()).add(src)
                            else:
                                self.member_defs.setdefault(cls, []).append((src, where, name))
                    elif isinstance(scopes[-1], tuple):
                        kind = "function" if callee_of(stripped) else "other"
                    scopes.append(kind)
                elif c == "}":
                    if scopes:
                        scopes.pop()
                head_start = pos + 1


def stage_of(src):
    return STAGES.index(src.split("/")[0])


def declaration_edges(host, sources):
    """The declarations of one stage that a later stage defines, as problem lines."""
    d = Declarations()
    for src in sources:
        with open(os.path.join(host, src), encoding="utf-8") as f:
            d.read(src, f.read())
    problems = []
    order = " -> ".join(STAGES)

    for src, line, name in d.fn_decls:
        defs = d.fn_defs.get(name, set())
        if defs and all(stage_of(x) > stage_of(src) for x in defs):
            later = sorted(defs)[0]
            problems.append(f"host/{src}:{line}: {src.split('/')[0]} -> {later.split('/')[0]} "
                            f"({src} declares `{name}`, defined only in {later}: "
                            f"{later.split('/')[0]} comes after {src.split('/')[0]} in {order})")

    for cls, defs in sorted(d.member_defs.items()):
        bodies = d.class_bodies.get(cls, [])
        if not bodies:
            continue
        home = min(bodies, key=lambda b: stage_of(b[0]))
        for src, line, name in defs:
            if stage_of(src) > stage_of(home[0]):
                problems.append(f"host/{home[0]}:{home[1]}: {home[0].split('/')[0]} -> {src.split('/')[0]} "
                                f"(class `{cls}`, declared in {home[0]}, has `{cls}::{name}` defined in "
                                f"{src}:{line}: {src.split('/')[0]} comes after {home[0].split('/')[0]} in {order})")

    for src, line, cls in d.forwards:
        bodies = d.class_bodies.get(cls, [])
        if bodies and all(stage_of(b[0]) > stage_of(src) and b[0].endswith(CPP_SUFFIXES) for b in bodies):
            later = bodies[0][0]
            problems.append(f"host/{src}:{line}: {src.split('/')[0]} -> {later.split('/')[0]} "
                            f"({src} declares class `{cls}`, defined only in {later}: "
                            f"{later.split('/')[0]} comes after {src.split('/')[0]} in {order})")
    return problems, len(d.fn_decls) + len(d.forwards) + len(d.class_bodies)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    host = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "host")
    host = os.path.normpath(host)

    sources = []
    for root, _, files in os.walk(host):
        for name in files:
            if name.endswith(SOURCE_SUFFIXES):
                sources.append(os.path.relpath(os.path.join(root, name), host).replace(os.sep, "/"))
    sources.sort()
    headers = {s for s in sources if not s.endswith(CPP_SUFFIXES)}
    by_name = {}
    for h in headers:
        by_name.setdefault(os.path.basename(h), []).append(h)

    problems = []
    staged = []
    edges = 0
    for src in sources:
        stage = src.split("/")[0]
        if "/" not in src or stage not in STAGES:
            problems.append(f"host/{src}: not in a stage folder ({', '.join(STAGES)})")
            continue
        staged.append(src)
        with open(os.path.join(host, src), encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = m.group(1)
                where = f"host/{src}:{lineno}"
                if target in headers:
                    to = target.split("/")[0]
                    edges += 1
                    if STAGES.index(to) > STAGES.index(stage):
                        problems.append(f"{where}: {stage} -> {to} ({src} includes {target}: "
                                        f"{to} comes after {stage} in {' -> '.join(STAGES)})")
                elif os.path.basename(target) in by_name and "/" not in target:
                    problems.append(f"{where}: #include \"{target}\" names no folder "
                                    f"(write #include \"{by_name[target][0]}\")")
                elif target.split("/")[0] in STAGES:
                    problems.append(f"{where}: #include \"{target}\": no such host header")

    declared, ndeclarations = declaration_edges(host, staged)
    problems += declared

    if problems:
        print("\n".join(problems))
        print(f"host layout: {len(problems)} problem(s); stages in order: {' -> '.join(STAGES)}")
        return 1
    print(f"host layout: {len(sources)} files, {edges} includes of host headers and {ndeclarations} "
          f"declarations, none of a later stage ({' -> '.join(STAGES)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

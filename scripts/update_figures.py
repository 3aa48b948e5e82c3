#!/usr/bin/env python3
"""The counts the README and the docs state about the tree (mutations listed, fuzz targets,
operators bound, PyTorch's public names offered, ...), each computed from the file that decides
it and written between markers, so that no count is copied by hand:

    <!-- figure:mutations -->247<!-- /figure -->

    scripts/update_figures.py            rewrite every marked figure of the docs from its source
    scripts/update_figures.py --check    exit 1 naming each figure whose text differs from its source
    scripts/update_figures.py --list     every figure's name, value and source

A figure's name may carry an argument after a colon (`api-offered:torch.distributed`,
`lines:host/ffi/extern_call.cpp`). Only what the committed files tell is a figure here: reading
files, never building or running anything. A time, a size in memory or a ratio needs a run; it
belongs to the README's Measured table, written by whoever measured it.
"""
import argparse
import functools
import glob
import importlib.util
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = ["README.md", "host/README.md", "docs/*.md"]
MARKER = re.compile(r"<!-- figure:(?P<name>[^ ]+) -->(?P<text>.*?)<!-- /figure -->")


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def number(n):
    return f"{n:,}"


def percent(part, whole, digits):
    return f"{100 * part / whole:.{digits}f}%"


def two_significant_digits(n):
    """How the docs give a size they mean only roughly ('the 9,300 lines of ops.spl')."""
    step = 10 ** max(len(str(n)) - 2, 0)
    return round(n / step) * step


# --- the sources ---------------------------------------------------------------------------

COVERAGE = "generated/coverage.txt"


@functools.cache
def operator_coverage():
    """generated/coverage.txt's counts, as torch-codegen wrote them for the pinned LibTorch."""
    text = read(COVERAGE)
    bound = re.search(r"^coverage: (\d+) of (\d+) operator overloads bound", text, re.M)
    words = re.search(r"^word adapters .*?: (\d+) of (\d+) bound overloads .*?, (\d+) of them over 8 words", text, re.M)
    if not bound or not words:
        sys.exit(f"update_figures: {COVERAGE} no longer has the coverage and word adapter lines this script reads")
    return {"bound": int(bound[1]), "operators": int(bound[2]), "word adapters": int(words[1]),
            "argument blocks": int(words[3])}


@functools.cache
def upgrade_report():
    paths = glob.glob(os.path.join(ROOT, "generated", "upgrade-*.json"))
    if len(paths) != 1:
        sys.exit(f"update_figures: expected one generated/upgrade-*.json, found {len(paths)}")
    with open(paths[0], encoding="utf-8") as f:
        return os.path.relpath(paths[0], ROOT), json.load(f)["summary"]


API_COVERAGE = "generated/api-coverage.md"
API_COLUMNS = ("public names", "offered", "excluded (reason given)", "missing", "offered of public",
               "offered of not excluded")


@functools.cache
def api_coverage():
    """The summary table of generated/api-coverage.md: namespace (or "all") -> its columns."""
    rows = {}
    for line in read(API_COVERAGE).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == len(API_COLUMNS) + 1 and cells[1] and cells[1][0].isdigit():
            rows[cells[0].strip("`")] = dict(zip(API_COLUMNS, cells[1:]))
    if "all" not in rows:
        sys.exit(f"update_figures: {API_COVERAGE} has no summary row 'all'")
    return rows


def api_column(column, namespace):
    rows = api_coverage()
    if namespace not in rows:
        raise FigureError(f"{API_COVERAGE} has no namespace {namespace!r}")
    value = rows[namespace][column]
    return value if value.endswith("%") else number(int(value))


MUTATIONS = "tests/mutations/mutations.txt"


@functools.cache
def mutation_entries():
    """Read by mutations.py's own parser, so an entry counts here as mutation_check.sh counts it."""
    spec = importlib.util.spec_from_file_location("mutations", os.path.join(ROOT, "tests", "mutations", "mutations.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.parse(os.path.join(ROOT, MUTATIONS))


FUZZ_MAKEFILE = "tests/fuzz/Makefile"


@functools.cache
def fuzz_targets():
    """The Makefile's TARGETS, its $(VAR) references expanded."""
    variables = dict(re.findall(r"^([A-Z_]+) :?= (.*)$", read(FUZZ_MAKEFILE), re.M))

    def expand(value):
        return re.sub(r"\$\((\w+)\)", lambda m: expand(variables.get(m[1], "")), value)

    if "TARGETS" not in variables:
        sys.exit(f"update_figures: {FUZZ_MAKEFILE} defines no TARGETS")
    return expand(variables["TARGETS"]).split()


OPS_SPL = "spl_stubs/lib/torch/ops.spl"


@functools.cache
def generated_api():
    """ops.spl's functions (top level) and Tensor methods (`impl Tensor:`), counted per scope
    as the host forms overload sets: one name declared more than once in a scope is a set."""
    functions, methods = {}, {}
    in_tensor = False
    for line in read(OPS_SPL).splitlines():
        if line[:1].strip():
            in_tensor = line.startswith("impl Tensor")
        top = re.match(r"fn (\w+)\(", line)
        if top:
            functions[top[1]] = functions.get(top[1], 0) + 1
        method = re.match(r"    fn (\w+)\(", line)
        if method and in_tensor:
            methods[method[1]] = methods.get(method[1], 0) + 1
    counts = list(functions.values()) + list(methods.values())
    return {"declarations": sum(counts), "names": len(counts), "overload sets": sum(1 for c in counts if c > 1)}


LIB_TORCH = "spl_stubs/lib/torch"


@functools.cache
def lib_torch_code():
    lines = []
    for path in sorted(glob.glob(os.path.join(ROOT, LIB_TORCH, "**", "*.spl"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            lines += [line for line in f.read().splitlines() if not line.lstrip().startswith("#")]
    return "\n".join(lines)


def lib_torch_calls(names):
    """Calls of the host built-ins NAMES (joined by +) in lib.torch's code, comments left out."""
    return number(sum(len(re.findall(rf"(?<![\w.]){re.escape(n)}\(", lib_torch_code())) for n in names.split("+")))


def cpp_constant(path, declaration):
    """The integer a C++ declaration (`kMaxNesting = `, `max_depth = `) is initialised with."""
    found = re.search(rf"\b{re.escape(declaration)}\s*=\s*(\d+)\s*;", read(path))
    if not found:
        raise FigureError(f"{path} no longer declares {declaration} = <integer>;")
    return number(int(found[1]))


def line_count(path):
    if not os.path.isfile(os.path.join(ROOT, path)):
        raise FigureError(f"{path} does not exist")
    return number(two_significant_digits(len(read(path).splitlines())))


# --- the figures -----------------------------------------------------------------------------

class FigureError(Exception):
    pass


def coverage_figure(key):
    return lambda: number(operator_coverage()[key])


def upgrade_figure(key):
    return lambda: number(upgrade_report()[1][key])


# name -> (where its value comes from, for the reader of --check and --list; its value).
FIGURES = {
    "operators": (COVERAGE, coverage_figure("operators")),
    "operators-bound": (COVERAGE, coverage_figure("bound")),
    "operators-bound-percent": (COVERAGE, lambda: percent(operator_coverage()["bound"], operator_coverage()["operators"], 2)),
    "word-adapters": (COVERAGE, coverage_figure("word adapters")),
    "word-argument-blocks": (COVERAGE, coverage_figure("argument blocks")),
    "upgrade-added": ("generated/upgrade-*.json", upgrade_figure("added")),
    "upgrade-removed": ("generated/upgrade-*.json", upgrade_figure("removed")),
    "upgrade-changed": ("generated/upgrade-*.json", upgrade_figure("changed")),
    "real-runtime-builtins": ("schema/real_runtime_builtins.json",
                              lambda: number(len(json.loads(read("schema/real_runtime_builtins.json"))["builtins"]))),
    "mutations": (MUTATIONS, lambda: number(len(mutation_entries()))),
    "fuzz-targets": (FUZZ_MAKEFILE, lambda: number(len(fuzz_targets()))),
    "ops-spl-declarations": (OPS_SPL, lambda: number(generated_api()["declarations"])),
    "ops-spl-names": (OPS_SPL, lambda: number(generated_api()["names"])),
    "ops-spl-overload-sets": (OPS_SPL, lambda: number(generated_api()["overload sets"])),
    "ffi-externs": ("spl_stubs/lib/torch/ffi.spl",
                    lambda: number(len(re.findall(r"^extern fn ", read("spl_stubs/lib/torch/ffi.spl"), re.M)))),
    "max-nesting": ("host/syntax/nesting.h", lambda: cpp_constant("host/syntax/nesting.h", "kMaxNesting")),
    "max-depth": ("host/eval/interpreter.h", lambda: cpp_constant("host/eval/interpreter.h", "max_depth")),
}

# name:ARGUMENT -> (source, value of ARGUMENT).
FIGURE_FAMILIES = {
    "api-public": (API_COVERAGE, lambda ns: api_column("public names", ns)),
    "api-offered": (API_COVERAGE, lambda ns: api_column("offered", ns)),
    "api-excluded": (API_COVERAGE, lambda ns: api_column("excluded (reason given)", ns)),
    "api-offered-percent": (API_COVERAGE, lambda ns: api_column("offered of public", ns)),
    "api-offered-of-not-excluded-percent": (API_COVERAGE, lambda ns: api_column("offered of not excluded", ns)),
    "lib-calls": (LIB_TORCH, lib_torch_calls),
    "lines": (None, line_count),
}


def figure(name):
    """(source, value) of a marker's figure name."""
    if name in FIGURES:
        source, value = FIGURES[name]
        return source, value()
    family, _, argument = name.partition(":")
    if family in FIGURE_FAMILIES and argument:
        source, value = FIGURE_FAMILIES[family]
        return source or argument, value(argument)
    raise FigureError(f"no figure named {name!r} (scripts/update_figures.py --list names them)")


def doc_paths():
    paths = []
    for pattern in DOCS:
        paths += sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, pattern)))
    return paths


def update(path):
    """The doc's text with every figure rewritten, and one line per figure that differed."""
    drifted = []
    lines = read(path).split("\n")
    for index, line in enumerate(lines):
        if line.count("<!-- figure:") != len(MARKER.findall(line)):
            raise FigureError(f"{path}:{index + 1}: a figure marker without its <!-- /figure --> on the same line")

        def replace(m):
            try:
                source, value = figure(m["name"])
            except FigureError as e:
                raise FigureError(f"{path}:{index + 1}: {e}") from None
            if m["text"] != value:
                drifted.append(f"{path}:{index + 1}: {m['name']}: the text says {m['text']!r}, "
                               f"{source} says {value!r}")
            return f"<!-- figure:{m['name']} -->{value}<!-- /figure -->"

        lines[index] = MARKER.sub(replace, line)
    return "\n".join(lines), drifted


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 when a figure drifted")
    parser.add_argument("--list", action="store_true", help="print the figures the docs use, with values and sources")
    args = parser.parse_args()
    try:
        if args.list:
            used = sorted({m["name"] for p in doc_paths() for m in MARKER.finditer(read(p))})
            for name in used:
                source, value = figure(name)
                print(f"{name}: {value}  ({source})")
            return 0
        all_drifted = []
        for path in doc_paths():
            text, drifted = update(path)
            all_drifted += drifted
            if drifted and not args.check:
                with open(os.path.join(ROOT, path), "w", encoding="utf-8") as f:
                    f.write(text)
    except FigureError as e:
        print(f"update_figures: {e}", file=sys.stderr)
        return 2
    for line in all_drifted:
        print(line)
    if args.check and all_drifted:
        print(f"{len(all_drifted)} figure(s) differ from their sources: run scripts/update_figures.py")
        return 1
    if not args.check and all_drifted:
        print(f"rewrote {len(all_drifted)} figure(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The Python-level API coverage report: PyTorch's public names, namespace by namespace, next
to what lib.torch offers, and for every name not offered the reason from
schema/api_exclusions.json. Writes generated/api-coverage.md, and the same reasons as lib.torch's
table spl_stubs/lib/torch/not_offered_names.spl (what lib.torch.not_offered's messages say when a
program asks lib.torch for such a name), with lib.torch's modules that stand for PyTorch's
(`torch.linalg` read on lib.torch is `use lib.torch.linalg` in Simple).

    .venv/bin/python scripts/api_coverage.py            # write the report and the table
    .venv/bin/python scripts/api_coverage.py --check    # exit 1 when either committed file is stale

PyTorch's side is the pinned wheel (`__all__` where a module has one, else its public dir()
without submodules; for a module that replaces itself with an object, as torch.backends.cudnn
does, the module's names and the object's); lib.torch's side is what `splrun` sees: dir() of
each lib module, of the Tensor class, and of an object ("lib.torch.backends.cudnn.{cudnn}": the
module's names and the object's members). A name counts as offered when lib.torch has it under PyTorch's name or under
the spelling the exclusions file gives for it ("spelled").
"""
import argparse
import importlib
import json
import os
import subprocess
import sys
import tempfile
import types
import warnings

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPORT = os.path.join(ROOT, "generated", "api-coverage.md")
TABLE = os.path.join(ROOT, "spl_stubs", "lib", "torch", "not_offered_names.spl")
EXCLUSIONS = os.path.join(ROOT, "schema", "api_exclusions.json")

# PyTorch namespace -> the lib.torch module that offers it (None: the Tensor class).
NAMESPACES = [
    ("torch", "lib.torch"),
    ("torch.Tensor", None),
    ("torch.nn", "lib.torch.nn"),
    ("torch.nn.functional", "lib.torch.nn.functional"),
    ("torch.nn.init", "lib.torch.nn.init"),
    ("torch.nn.utils", "lib.torch.nn.utils"),
    ("torch.optim", "lib.torch.optim"),
    ("torch.optim.lr_scheduler", "lib.torch.optim.lr_scheduler"),
    ("torch.utils.data", "lib.torch.data"),
    ("torch.autograd", "lib.torch.autograd"),
    ("torch.linalg", "lib.torch.linalg"),
    ("torch.fft", "lib.torch.fft"),
    ("torch.special", "lib.torch.special"),
    ("torch.distributions", "lib.torch.distributions"),
    ("torch.random", "lib.torch.random"),
    ("torch.distributed", "lib.torch.distributed"),
    ("torch.amp", "lib.torch.amp"),
    ("torch.cuda", "lib.torch.cuda"),
    # Objects in lib.torch (a module's names cannot be assigned): the module's names and the
    # object's members, as PyTorch's modules that replace themselves with an object.
    ("torch.backends.cudnn", "lib.torch.backends.cudnn.{cudnn}"),
    ("torch.backends.cuda", "lib.torch.backends.cuda.{cuda}"),
]


def python_names(ns):
    """The public names of a PyTorch namespace: __all__ when it has one, else dir() without
    underscored names; submodules are namespaces of their own, never names."""
    if ns == "torch.Tensor":
        obj, names = torch.Tensor, None
    else:
        obj = importlib.import_module(ns)
        names = getattr(obj, "__all__", None)
    if names is None and isinstance(getattr(obj, "m", None), types.ModuleType):
        # torch.backends' PropModule: the module replaced by an object whose class holds the
        # switches (torch.backends.cudnn.benchmark ...) and whose `m` is the module itself.
        names = [n for n in dir(obj.m) + dir(type(obj)) if not n.startswith("_")]
    if names is None:
        names = [n for n in dir(obj) if not n.startswith("_")]
    with warnings.catch_warnings():   # reading a deprecated name (torch.distributed.reduce_op) warns
        warnings.simplefilter("ignore")
        return sorted({n for n in names if not isinstance(getattr(obj, n, None), types.ModuleType)})


def lib_names(module, splrun, env):
    """dir() of a lib.torch module (or of Tensor, or a module and an object of it) as splrun
    loads it; None when the module does not exist."""
    if module is None:
        program = "use lib.torch.{Tensor}\nfor n in dir(Tensor): print n\n"
    elif module.endswith("}"):
        # "lib.torch.backends.cudnn.{cudnn}": the module's names and the object's members.
        module, member = module[:-1].split(".{")
        program = ("use " + module + " as m\nuse " + module + ".{" + member + "}\n"
                   "for n in dir(m): print n\nfor n in dir(" + member + "): print n\n")
    else:
        program = "use " + module + " as m\nfor n in dir(m): print n\n"
    with tempfile.NamedTemporaryFile("w", suffix=".spl", delete=False) as f:
        f.write(program)
    try:
        r = subprocess.run([splrun, f.name], env=env, capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if r.returncode != 0:
        if module is not None and ("cannot find module" in r.stderr or
                                   ("has no `" + module.rsplit(".", 1)[-1] + "`") in r.stderr):
            return None
        sys.exit("api_coverage.py: splrun failed on " + (module or "Tensor") + ":\n" + r.stderr)
    return set(r.stdout.split())


def classify(ns, offered, rules, reasons):
    """(name, status, note) for each PyTorch name: offered, spelled (offered under another
    name), excluded (with its reason) or missing."""
    excluded = rules.get("excluded", {})
    spelled = rules.get("spelled", {})
    rows = []
    for name in python_names(ns):
        if offered is not None and name in offered:
            rows.append((name, "offered", ""))
        elif offered is not None and name in spelled and spelled[name] in offered:
            rows.append((name, "spelled", "as `" + spelled[name] + "`"))
        elif name in excluded:
            reason = excluded[name]
            rows.append((name, "excluded", reasons.get(reason, reason)))
        else:
            rows.append((name, "missing", ""))
    return rows


def stale_rules(ns, rows, rules):
    """Exclusions or spellings that name no public PyTorch name, or exclude an offered one:
    the file must describe the wheel it sits next to."""
    names = {r[0] for r in rows}
    status = {r[0]: r[1] for r in rows}
    out = []
    for name in rules.get("excluded", {}):
        if name not in names:
            out.append(ns + "." + name + " is excluded but not a public PyTorch name")
        elif status[name] in ("offered", "spelled"):
            out.append(ns + "." + name + " is excluded but lib.torch offers it")
    for name in rules.get("spelled", {}):
        if name not in names:
            out.append(ns + "." + name + " has a spelling but is not a public PyTorch name")
    return out


def lib_submodules(lib_dir):
    """lib.torch's modules that stand for a PyTorch module of the same path (lib.torch.linalg for
    torch.linalg, lib.torch.nn.functional ...), by the PyTorch name of the module holding them:
    `torch.linalg` on a module value is a module of its own in Simple (`use lib.torch.linalg`)."""
    out = {}
    for folder, dirs, files in os.walk(lib_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("_"))   # private ones (_inductor) stay unnamed
        rel = os.path.relpath(folder, lib_dir)
        parent = "torch" if rel == "." else "torch." + rel.replace(os.sep, ".")
        names = [f[:-4] for f in files if f.endswith(".spl") and f != "__init__.spl"]
        names += [d for d in dirs if os.path.isfile(os.path.join(folder, d, "__init__.spl"))]
        found = sorted(n for n in names if not n.startswith("_") and is_torch_module(parent + "." + n))
        if found:
            out[parent] = found
    return out


def is_torch_module(name):
    """Whether `import name` works on the pin (torch.linalg: yes; torch.tensor, a function: no)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return isinstance(importlib.import_module(name), types.ModuleType)
        except Exception:   # ModuleNotFoundError, or a submodule that refuses to import here
            return False


def spl_text(s):
    """A Simple text literal: quotes, backslashes, newlines and braces (interpolation) escaped."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("{", "\\{").replace("}", "\\}") + '"'


MAX_LINE = 120  # scripts/spl_style.py's limit, kept by the table too


def spl_text_lines(s, column):
    """A text literal starting at `column`, split at spaces into literals joined with `+` (one per
    line, aligned with the first) where it would run past MAX_LINE; the text is the same."""
    whole = spl_text(s)
    if column + len(whole) <= MAX_LINE:
        return whole
    pieces, current = [], None
    for word in s.split(" "):
        candidate = word if current is None else current + " " + word
        # +1 for the space that ends a piece, +2 for " +" after its literal
        if current and column + len(spl_text(candidate)) + 3 > MAX_LINE:
            pieces.append(current + " ")
            current = word
        else:
            current = candidate
    pieces.append(current)
    return (" +\n" + " " * column).join(spl_text(p) for p in pieces)


def spl_dict(entries, indent):
    """A multi-line Simple dict literal of (key, value) pairs, in the order given: a value is a
    literal's text, or a function of the column it starts at that gives one."""
    if not entries:
        return "{}"
    pad = " " * (indent + 4)
    lines = []
    for k, v in entries:
        head = pad + spl_text(k) + ": "
        lines.append(head + (v(len(head)) if callable(v) else v))
    return "{\n" + ",\n".join(lines) + "\n" + " " * indent + "}"


def spl_list(names, column):
    """A list literal of texts whose items start at `column`, wrapped before MAX_LINE."""
    lines, current = [], ""
    for item in (spl_text(n) for n in names):
        candidate = item if not current else current + ", " + item
        if current and column + len(candidate) + 2 > MAX_LINE:
            lines.append(current + ",")
            current = item
        else:
            current = candidate
    lines.append(current)
    return "[" + ("\n" + " " * column).join(lines) + "]"


def render_table(exclusions, submodules):
    """lib.torch's copy of the reasons (not_offered_names.spl): per PyTorch namespace, the names
    excluded (each with a reason key of REASONS or a text of its own) and the names spelled
    differently (with lib.torch's spelling); and lib.torch's modules of PyTorch's names
    (lib_submodules)."""
    version = torch.__version__.split("+")[0]
    namespaces = [ns for ns, _ in NAMESPACES if ns in exclusions]

    def table(kind):
        return spl_dict([(ns, spl_dict([(n, lambda col, v=v: spl_text_lines(v, col))
                                        for n, v in sorted(exclusions[ns][kind].items())], 4))
                         for ns in namespaces if exclusions[ns].get(kind)], 0)

    modules = spl_dict([(ns, lambda col, names=names: spl_list(names, col + 1))
                        for ns, names in sorted(submodules.items())], 0)

    return "\n".join([
        "# @generated by scripts/api_coverage.py from schema/api_exclusions.json and lib.torch's files for LibTorch "
        + version + ".",
        "# Do not edit: change schema/api_exclusions.json and regenerate.",
        '"""Why lib.torch does not offer a public PyTorch name, per PyTorch namespace: read by',
        "lib.torch.not_offered, whose messages answer a program that asks for such a name.",
        "EXCLUDED: name -> a key of REASONS, or a reason of its own; SPELLED: name -> lib.torch's",
        "spelling of it; SUBMODULES: lib.torch's modules for PyTorch's (`use lib.torch.linalg`), by",
        'the PyTorch module that holds them."""',
        "",
        "val REASONS: {text: text} = " + spl_dict([(k, lambda col, v=v: spl_text_lines(v, col))
                                                   for k, v in sorted(exclusions.get("reasons", {}).items())], 0),
        "",
        "val EXCLUDED: {text: {text: text}} = " + table("excluded"),
        "",
        "val SPELLED: {text: {text: text}} = " + table("spelled"),
        "",
        "val SUBMODULES: {text: [text]} = " + modules,
        "",
        "export REASONS, EXCLUDED, SPELLED, SUBMODULES",
        "",
    ])


def render(results):
    lines = [
        "# Python-API coverage: PyTorch " + torch.__version__.split("+")[0] + " public names in lib.torch",
        "",
        "Generated by scripts/api_coverage.py from the pinned wheel and lib.torch as splrun loads it;",
        "do not edit. Reasons for names not offered: schema/api_exclusions.json.",
        "",
        "| namespace | public names | offered | excluded (reason given) | missing | offered of public | offered of not excluded |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    totals = [0, 0, 0, 0]
    for ns, module, rows in results:
        n = len(rows)
        off = sum(1 for r in rows if r[1] in ("offered", "spelled"))
        exc = sum(1 for r in rows if r[1] == "excluded")
        mis = n - off - exc
        totals = [totals[0] + n, totals[1] + off, totals[2] + exc, totals[3] + mis]
        lines.append("| `%s` | %d | %d | %d | %d | %s | %s |" % (ns, n, off, exc, mis, pct(off, n), pct(off, n - exc)))
    n, off, exc, mis = totals
    lines.append("| all | %d | %d | %d | %d | %s | %s |" % (n, off, exc, mis, pct(off, n), pct(off, n - exc)))
    for ns, module, rows in results:
        lines += ["", "## `" + ns + "` — " + ("`" + module + "`" if module else "lib.torch's `Tensor`"), ""]
        missing = [r[0] for r in rows if r[1] == "missing"]
        if missing:
            lines += ["Missing (" + str(len(missing)) + "): " + ", ".join("`" + m + "`" for m in missing), ""]
        excluded = [r for r in rows if r[1] == "excluded"]
        if excluded:
            lines += ["| not offered | why |", "|---|---|"]
            lines += ["| `%s` | %s |" % (r[0], r[2]) for r in excluded]
            lines.append("")
        spelled = [r for r in rows if r[1] == "spelled"]
        if spelled:
            lines += ["Spelled differently: " + ", ".join("`%s` %s" % (r[0], r[2]) for r in spelled), ""]
        offered = [r[0] for r in rows if r[1] == "offered"]
        lines.append("Offered (" + str(len(offered)) + "): " + ", ".join("`" + o + "`" for o in offered))
    return "\n".join(lines) + "\n"


def pct(a, b):
    return "%.1f%%" % (100.0 * a / b) if b else "—"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="fail when generated/api-coverage.md is stale")
    ap.add_argument("--splrun", default=os.path.join(ROOT, "build", "host", "splrun"))
    ap.add_argument("--plugin-dir", default=os.path.join(ROOT, "build", "runtime_plugin"))
    ap.add_argument("--lib", default=os.path.join(ROOT, "spl_stubs", "lib"))
    args = ap.parse_args()
    env = dict(os.environ, SIMPLE_SFFI_PATH=args.plugin_dir, SIMPLE_LIB=args.lib)
    with open(EXCLUSIONS) as f:
        exclusions = json.load(f)
    reasons = exclusions.get("reasons", {})
    results, problems = [], []
    for ns, module in NAMESPACES:
        rules = exclusions.get(ns, {})
        rows = classify(ns, lib_names(module, args.splrun, env), rules, reasons)
        problems += stale_rules(ns, rows, rules)
        results.append((ns, module, rows))
    unknown = set(exclusions) - {ns for ns, _ in NAMESPACES} - {"reasons", "about"}
    problems += ["schema/api_exclusions.json names an unknown namespace " + u for u in sorted(unknown)]
    text = render(results)
    table = render_table(exclusions, lib_submodules(os.path.join(args.lib, "torch")))
    if problems:
        sys.exit("api_coverage.py: schema/api_exclusions.json is out of date:\n  " + "\n  ".join(problems))
    if args.check:
        for path, want in ((REPORT, text), (TABLE, table)):
            with open(path) as f:
                if f.read() != want:
                    sys.exit("api_coverage.py: " + os.path.relpath(path, ROOT) + " is stale: run .venv/bin/python scripts/api_coverage.py")
        print("api-coverage.md and not_offered_names.spl are up to date")
        return
    with open(REPORT, "w") as f:
        f.write(text)
    with open(TABLE, "w") as f:
        f.write(table)
    print(text.split("\n## ")[0])


if __name__ == "__main__":
    main()

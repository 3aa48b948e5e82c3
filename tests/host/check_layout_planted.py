#!/usr/bin/env python3
"""check_layout.py must catch a planted back-edge of each kind, and pass a tree without one.

Each case is a small fake host tree written into a temporary folder: a clean tree (which also
holds what the check must allow: an include of an earlier stage, a function declared and defined
in one stage, a class declared ahead whose body is a later stage's header, an opaque slot), and
one tree per kind of back-edge: an include of a later stage's header, a function declared in
ffi/ and defined only in eval/, a class whose member functions resolve/ declares and eval/
defines, and a class declared ahead in ffi/ and defined only in an eval/ .cpp. The check's
output must name the edge's file, line and stages.

usage: check_layout_planted.py [CHECK_LAYOUT]   (default: check_layout.py next to this file)
"""
import os
import subprocess
import sys
import tempfile

CLEAN = {
    "base/value.h": """#pragma once
namespace spl {
struct Value {
    long bits = 0;
    bool is_nil() const;
};
int hash_of(const Value& v);
} // namespace spl
""",
    "base/value.cpp": """#include "base/value.h"
namespace spl {
bool Value::is_nil() const { return bits == 0; }
int hash_of(const Value& v) { return static_cast<int>(v.bits); }
} // namespace spl
""",
    "syntax/ast.h": """#pragma once
#include "base/value.h"
namespace spl {
struct SiteCache; // eval/site_cache.h: a slot the interpreter fills
struct Call {
    SiteCache* cache = nullptr;
};
} // namespace spl
""",
    "eval/site_cache.h": """#pragma once
namespace spl {
struct SiteCache {
    int hits = 0;
};
} // namespace spl
""",
    "eval/interpreter.cpp": """#include "eval/site_cache.h"
#include "syntax/ast.h"
namespace spl {
namespace {
int count(const Call& c) { return c.cache ? c.cache->hits : 0; }
} // namespace
int run(const Call& c) {
    auto twice = [](int x) { return x * 2; };
    return twice(count(c));
}
} // namespace spl
""",
}

# Each case: the files it adds to (or replaces in) the clean tree, and the lines the check must print.
CASES = {
    "an include of a later stage": (
        {"resolve/names.h": """#pragma once
#include "syntax/ast.h"
#include "eval/site_cache.h"
"""},
        ["host/resolve/names.h:3: resolve -> eval (resolve/names.h includes eval/site_cache.h"]),
    "a function declared in ffi/ and defined only in eval/": (
        {"ffi/extern_call.h": """#pragma once
#include "base/value.h"
namespace spl {
class Interpreter;
// The interpreter as the caller it is.
Value& plugin_caller(Interpreter& in);
} // namespace spl
""",
         "eval/plugin_caller.cpp": """#include "ffi/extern_call.h"
namespace spl {
Value& plugin_caller(Interpreter& in) { return *reinterpret_cast<Value*>(&in); }
} // namespace spl
"""},
        ["host/ffi/extern_call.h:6: ffi -> eval (ffi/extern_call.h declares `plugin_caller`, defined only in "
         "eval/plugin_caller.cpp"]),
    "a class declared in resolve/ whose members eval/ defines": (
        {"resolve/objects.h": """#pragma once
namespace spl {
struct ClassObj {
    int methods = 0;
    void add_method(int m);
};
} // namespace spl
""",
         "eval/calls.cpp": """#include "resolve/objects.h"
namespace spl {
void ClassObj::add_method(int m) { methods += m; }
} // namespace spl
"""},
        ["host/resolve/objects.h:3: resolve -> eval (class `ClassObj`, declared in resolve/objects.h, has "
         "`ClassObj::add_method` defined in eval/calls.cpp:3"]),
    "a class declared ahead in ffi/ and defined only in an eval/ .cpp": (
        {"ffi/typed_call.h": """#pragma once
namespace spl {
struct Plan;
Plan* make_plan();
} // namespace spl
""",
         "ffi/typed_call.cpp": """#include "ffi/typed_call.h"
namespace spl {
Plan* make_plan() { return nullptr; }
} // namespace spl
""",
         "eval/plan.cpp": """#include "ffi/typed_call.h"
namespace spl {
struct Plan {
    int steps = 0;
};
} // namespace spl
"""},
        ["host/ffi/typed_call.h:3: ffi -> eval (ffi/typed_call.h declares class `Plan`, defined only in "
         "eval/plan.cpp"]),
}


def write_tree(root, files):
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)


def run_check(check, host):
    r = subprocess.run([sys.executable, check, host], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    check = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "check_layout.py")
    failures = []
    with tempfile.TemporaryDirectory(prefix="layout_planted_") as tmp:
        clean = os.path.join(tmp, "clean", "host")
        write_tree(clean, CLEAN)
        status, out = run_check(check, clean)
        if status != 0:
            failures.append(f"the clean tree: exit {status}, expected 0\n{out}")
        else:
            print(f"ok: the clean tree passes ({out.strip()})")
        for i, (name, (files, expected)) in enumerate(CASES.items()):
            host = os.path.join(tmp, f"case{i}", "host")
            write_tree(host, {**CLEAN, **files})
            status, out = run_check(check, host)
            missing = [line for line in expected if line not in out]
            problems = [line for line in out.splitlines() if line.startswith("host/")]
            if status != 1 or missing or len(problems) != len(expected):
                failures.append(f"{name}: exit {status} (expected 1); expected lines missing: {missing}; "
                                f"{len(problems)} problem(s) reported, {len(expected)} expected\n{out}")
            else:
                print(f"ok: {name}: {problems[0]}")
    if failures:
        print("\n".join(failures))
        print(f"layout check planted edges: {len(failures)} failure(s)")
        return 1
    print(f"layout check planted edges: the clean tree passes, {len(CASES)} planted back-edges caught")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Runs each tests/host/errors/*.spl through splrun and checks what it prints.

Each case states its expectations in leading comments:
  # ARGS: ...      arguments before the file ("test" runs it as a spec)
  # EXIT: n        the exit status
  # EXPECT: line   a whole line of stdout+stderr
  # CONTAINS: txt  a substring of stdout+stderr
  # STDOUT: line   a whole line of stdout
  # STDOUT-EMPTY   nothing on stdout
  # LAST: line     the last line of stdout
  # STDERR: line   one line of stderr; when given, stderr must be exactly these lines, in order
{file} is the case's path, {here} its directory, {plugin_dir} the plugin directory.

usage: check_errors.py SPLRUN CASES_DIR PLUGIN_DIR
"""
import os
import subprocess
import sys


def check(splrun, path, plugin_dir):
    here = os.path.dirname(path)
    subst = lambda s: s.replace("{file}", path).replace("{here}", here).replace("{plugin_dir}", plugin_dir)
    args, exit_code, lines, contains, stdout_lines, last, stdout_empty = [], 0, [], [], [], None, False
    stderr_lines = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                break
            body = line[1:].rstrip("\n")
            body = body[1:] if body.startswith(" ") else body
            key, _, value = body.partition(": ")
            if key == "ARGS":
                args = subst(value).split()
            elif key == "EXIT":
                exit_code = int(value)
            elif key == "EXPECT":
                lines.append(subst(value))
            elif key == "CONTAINS":
                contains.append(subst(value))
            elif key == "STDOUT":
                stdout_lines.append(subst(value))
            elif key == "LAST":
                last = subst(value)
            elif key == "STDERR":
                stderr_lines.append(subst(value))
            elif body.strip() == "STDOUT-EMPTY":
                stdout_empty = True
    env = dict(os.environ, SIMPLE_SFFI_PATH=plugin_dir)
    env.pop("SIMPLE_LIB", None)
    cmd = [splrun] + args + [path]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    both = proc.stdout + proc.stderr
    problems = []
    if proc.returncode != exit_code:
        problems.append(f"exit status {proc.returncode}, expected {exit_code}")
    all_lines = both.splitlines()
    out_lines = proc.stdout.splitlines()
    problems += [f"missing line: {l!r}" for l in lines if l not in all_lines]
    problems += [f"missing text: {c!r}" for c in contains if c not in both]
    problems += [f"missing stdout line: {l!r}" for l in stdout_lines if l not in out_lines]
    if last is not None and (not out_lines or out_lines[-1] != last):
        problems.append(f"last stdout line {out_lines[-1] if out_lines else None!r}, expected {last!r}")
    if stderr_lines and proc.stderr.splitlines() != stderr_lines:
        problems.append(f"stderr is not exactly (in order): {stderr_lines!r}")
    if stdout_empty and proc.stdout:
        problems.append(f"stdout should be empty: {proc.stdout!r}")
    if problems:
        print(f"FAIL {path}: {' '.join(cmd)}")
        for p in problems:
            print(f"  {p}")
        print("  --- output ---")
        print("  " + both.replace("\n", "\n  "))
        return False
    print(f"ok   {path}")
    return True


def main():
    splrun, cases_dir, plugin_dir = sys.argv[1:4]
    cases = sorted(os.path.join(cases_dir, n) for n in os.listdir(cases_dir) if n.endswith(".spl"))
    results = [check(os.path.abspath(splrun), c, os.path.abspath(plugin_dir)) for c in cases]
    failed = results.count(False)
    print(f"{len(results) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

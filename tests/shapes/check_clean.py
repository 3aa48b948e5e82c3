#!/usr/bin/env python3
"""`splrun check` on correct programs reports nothing: each PROGRAM given (the examples, the
check benchmark's models) must exit 0 with nothing on stdout (no false alarm). Where its
shapes-only run stopped for want of data is printed (`--unknown`), for the log, not checked.

    check_clean.py SPLRUN PROGRAM...

The caller sets SIMPLE_SFFI_PATH and SIMPLE_LIB. Python 3 standard library only.
"""
import subprocess
import sys


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    failed = 0
    for program in argv[2:]:
        p = subprocess.run([argv[1], "check", "--unknown", program], stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, timeout=300)
        ok = p.returncode == 0 and p.stdout == ""
        failed += not ok
        print(("ok   " if ok else "FAIL ") + f"splrun check {program}: exit {p.returncode}, "
              f"{len(p.stdout.splitlines())} findings")
        for line in (p.stdout + p.stderr).splitlines()[:6]:
            print(f"       {line[:300]}")
    print(f"# {len(argv) - 2} programs checked, {failed} with findings")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

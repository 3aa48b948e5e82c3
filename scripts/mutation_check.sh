#!/usr/bin/env bash
# A mutation score: applies, one at a time, the small committed bugs listed in
# tests/mutations/mutations.txt, runs the tests each names, and counts the mutants the tests
# kill. Ends with "killed N of M" and the survivors; exits 1 when one survived, 2 when the list
# or a build is broken, 3 when a covering test already fails without any mutation.
#
#   scripts/mutation_check.sh                 every mutation
#   scripts/mutation_check.sh --sample 3      3 spread evenly over the list (--seed S shifts them)
#   scripts/mutation_check.sh --only ID       one mutation (or several: ids or patterns, commas: 'nn-*,host-*')
#   --list FILE                               another list (tests/mutations/mutations.py: the format)
#
# Others work in this tree at the same time, so: a lib.torch (.spl) mutation is made in a
# private copy of spl_stubs/lib that only its specs read (SIMPLE_LIB); a C++ mutation is made
# in place while this script holds /tmp/spl-ninja.lock (no one else builds meanwhile), and the
# file is put back with its saved content and rebuilt before the lock is let go. A trap puts it
# back on any exit (an error, Ctrl-C, a kill), and the build is brought up to date at the end.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
list=tests/mutations/mutations.txt
sample="" seed=0 only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --sample) sample=${2:?--sample needs a number}; shift 2 ;;
    --seed) seed=${2:?--seed needs a number}; shift 2 ;;
    --only) only=${2:?--only needs an id}; shift 2 ;;
    --list) list=${2:?--list needs a file}; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "mutation_check.sh: unknown option $1 (--sample N, --seed S, --only ID, --list FILE)" >&2; exit 2 ;;
  esac
done
helper() { python3 "$root/tests/mutations/mutations.py" "$@"; }
field() { helper "$list" get "$1" "$2"; }

work=$(mktemp -d /tmp/spl-mutations.XXXXXX) || exit 2
lock=/tmp/spl-ninja.lock
exec 9>>"$lock"
# Run under `flock /tmp/spl-ninja.lock scripts/test.sh` (which calls this script), the lock is
# a caller's already: taking it again would wait for ever.
caller_holds_lock() {
  local pid=$PPID cmd
  while [ "$pid" -gt 1 ] 2>/dev/null; do
    cmd=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || return 1
    case "$cmd" in flock*"$lock"*) return 0 ;; esac
    pid=$(awk '{print $4}' "/proc/$pid/stat" 2>/dev/null) || return 1
  done
  return 1
}
if caller_holds_lock; then
  take_lock() { :; }
  let_go() { :; }
else
  take_lock() { flock 9 || exit 2; }
  let_go() { flock -u 9; }
fi
pending="" # the repository file that holds a mutation now, if any
pending_id=""

build() { # the lock is held: ninja itself, not flock ninja (that would wait on this very lock)
  ninja -C build >"$work/build.log" 2>&1
}

# Puts the pending file back: its saved content, unless someone changed the file meanwhile,
# in which case only the replacement is undone in what is there now.
restore() {
  [ -n "$pending" ] || return 0
  if cmp -s "$pending" "$work/mutated"; then
    cat "$work/original" >"$pending"
  elif ! python3 - "$pending" "$(field "$pending_id" replace)" "$(field "$pending_id" find)" <<'PY'; then
import sys
path, replaced, original = sys.argv[1:]
text = open(path, encoding="utf-8").read()
if text.count(replaced) != 1:
    sys.exit(f"mutation_check.sh: {path} changed while mutated; put back the line by hand: {original!r}")
open(path, "w", encoding="utf-8").write(text.replace(replaced, original))
PY
    echo "mutation_check.sh: could not restore $pending" >&2
  fi
  pending="" pending_id=""
}

on_exit() {
  local status=$?
  if [ -n "$pending" ]; then
    echo "mutation_check.sh: putting back $pending and rebuilding" >&2
    restore
    build || echo "mutation_check.sh: the rebuild after restoring failed (build/meson-logs, $work/build.log)" >&2
  fi
  let_go
  rm -rf "$work"
  exit $status
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

helper "$list" check >/dev/null || exit 2
select=()
[ -n "$sample" ] && select+=(--sample "$sample" --seed "$seed")
[ -n "$only" ] && select+=(--only "$only")
mapfile -t ids < <(helper "$list" ids "${select[@]}")
[ ${#ids[@]} -gt 0 ] || exit 2

# A C++ mutation is measured against an up-to-date build (lib.torch mutations use build/ as it
# is: waiting for the lock behind others' builds is spared where no C++ file is mutated).
in_place_count=0
for id in "${ids[@]}"; do
  case "$(field "$id" file)" in spl_stubs/lib/*) ;; *) in_place_count=$((in_place_count + 1)) ;; esac
done
if [ $in_place_count -gt 0 ]; then
  take_lock
  if ! build; then
    echo "mutation_check.sh: build/ does not build before any mutation:" >&2
    tail -20 "$work/build.log" >&2
    exit 2
  fi
  let_go
fi

# The covering tests must pass before anything is mutated: a test that already fails would
# "kill" every mutant.
declare -A broken=()
mapfile -t tokens < <(helper "$list" tokens "${ids[@]}" | sort -u)
for token in "${tokens[@]}"; do
  helper run-test "$token" "$root" "$root/spl_stubs/lib" "$work/baseline.log" "$work"
  result=$?
  [ $result = 86 ] && exit 2 # a token that names no test: the list is wrong
  if [ $result != 0 ]; then
    broken[$token]=1
    echo "baseline: $token fails without any mutation (its mutations are not counted):" >&2
    tail -15 "$work/baseline.log" >&2
  fi
done

killed=0 counted=0 survivors=() skipped=() n=0
for id in "${ids[@]}"; do
  n=$((n + 1))
  file=$(field "$id" file)
  tests=$(field "$id" tests)
  mapfile -t id_tokens < <(helper "$list" tokens "$id")
  start=$SECONDS
  skip=""
  for token in "${id_tokens[@]}"; do [ -n "${broken[$token]:-}" ] && skip=$token; done
  if [ -n "$skip" ]; then
    skipped+=("$id (baseline of $skip fails)")
    printf '[%2d/%d] skipped   %s (its test %s fails unmutated)\n' "$n" "${#ids[@]}" "$id" "$skip"
    continue
  fi
  lib=$root/spl_stubs/lib
  in_place=1
  case "$file" in spl_stubs/lib/*) in_place=0 ;; esac
  if [ $in_place = 0 ]; then
    rm -rf "$work/lib" && cp -r spl_stubs/lib "$work/lib" || exit 2
    lib=$work/lib
    target=$lib/${file#spl_stubs/lib/}
    helper "$list" apply "$id" "$target" "$target" || exit 2
  else
    take_lock
    cp "$file" "$work/original" || exit 2
    helper "$list" apply "$id" "$file" "$work/mutated" || exit 2
    pending=$file pending_id=$id
    cat "$work/mutated" >"$file"
    if ! build; then
      echo "mutation_check.sh: $id does not build (a mutation must compile):" >&2
      grep -m5 -E "error|FAILED" "$work/build.log" >&2
      exit 2
    fi
  fi
  killer=""
  : >"$work/run.log"
  for token in "${id_tokens[@]}"; do
    helper run-test "$token" "$root" "$lib" "$work/run.log" "$work"
    result=$?
    [ $result = 86 ] && exit 2 # a token that names no test: the list is wrong (the trap restores)
    if [ $result != 0 ]; then
      killer=$token
      break
    fi
  done
  if [ $in_place = 1 ]; then
    restore
    if ! build; then
      echo "mutation_check.sh: build/ does not build after restoring $file:" >&2
      tail -20 "$work/build.log" >&2
      exit 2
    fi
    let_go
  fi
  counted=$((counted + 1))
  if [ -n "$killer" ]; then
    killed=$((killed + 1))
    printf '[%2d/%d] killed    %s (by %s, %d s)\n' "$n" "${#ids[@]}" "$id" "$killer" $((SECONDS - start))
  else
    survivors+=("$id: $(field "$id" what) [$file; $tests]")
    printf '[%2d/%d] SURVIVED  %s (%s passed, %d s)\n' "$n" "${#ids[@]}" "$id" "$tests" $((SECONDS - start))
  fi
done

# Every file is back already, and rebuilt after each C++ mutation; the build is brought up to
# date once more at the end (a no-op unless someone changed a source meanwhile).
if [ $in_place_count -gt 0 ]; then
  take_lock
  build || echo "mutation_check.sh: build/ did not build at the end (someone else's change?)" >&2
  let_go
fi
echo "killed $killed of $counted"
for s in "${survivors[@]}"; do echo "survived: $s"; done
for s in "${skipped[@]}"; do echo "not counted: $s"; done
[ ${#survivors[@]} -eq 0 ] || exit 1
[ ${#skipped[@]} -eq 0 ] || exit 3
exit 0

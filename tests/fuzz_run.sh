#!/usr/bin/env bash
# tests/fuzz_run.sh [OQ]: bad input never crashes the interpreter. Every complete program of
# tests/seeds_run and tests/lang is cut at 8 random offsets (fixed seeds) and run with
# `oq run --target interp`: the exit status must be 0 or 1 (1 only with "error:" on stderr),
# or the run may hit the time limit (a cut program can loop forever); never a signal.
# Ends with "N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
oq=${1:-build/oq}
case $oq in /*) ;; *) oq=$PWD/$oq ;; esac
cd "$root" || exit 2
passed=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OQ_SHOW_DIR=$tmp
n=0
for f in tests/seeds_run/*.q tests/lang/*.q; do
  n=$((n + 1))
  size=$(wc -c <"$f")
  for cut in $(awk -v seed=$n -v size="$size" 'BEGIN { srand(seed); for (i = 0; i < 8; i++) print int(rand() * size) }'); do
    head -c "$cut" "$f" >"$tmp/cut.q"
    (cd "$(dirname "$f")" && timeout -k 2 5 "$oq" run --target interp "$tmp/cut.q" >/dev/null 2>"$tmp/err" </dev/null)
    rc=$?
    if [ $rc -eq 0 ] || [ $rc -eq 124 ] || { [ $rc -eq 1 ] && grep -q "error:" "$tmp/err"; }; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
      echo "FAIL: $f cut at byte $cut: exit status $rc"
      head -3 "$tmp/err" | sed 's/^/    | /'
    fi
  done
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]

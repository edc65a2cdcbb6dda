#!/usr/bin/env bash
# tests/parse/run.sh [OQ]: parser tests. Builds nothing; OQ defaults to build/oq.
#   seeds/*.q    every Quasar program of the seed documents: `oq check` must succeed (fragments:
#                `oq parse`), and
#                with an error appended, report it (the parse reached the end)
#   errors/*.q   broken programs: `oq check` exits 1 and prints exactly the .err file
#   dump/*.q     `oq parse --dump` prints exactly the .dump file (the tree others rely on)
#   fuzz         each seed truncated at 20 random offsets and line-shuffled 10 times: exit 0
#                or 1 (never a signal or a hang), and exit 1 only with "error:" on stderr
# Prints one line per failure and ends with "N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
oq=${1:-build/oq}
case $oq in /*) ;; *) oq=$PWD/$oq ;; esac
cd "$root" || exit 2
if [ ! -x "$oq" ]; then echo "run.sh: no executable $oq (run make first)" >&2; exit 2; fi

passed=0 failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
# The number of the first line where two files differ.
first_diff() {
  awk 'NR == FNR { want[FNR] = $0; n = FNR; next }
       !done && (FNR > n || want[FNR] != $0) { print FNR; done = 1 }
       END { if (!done) print (FNR < n ? FNR : n) + 1 }' "$1" "$2"
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A seed that is a fragment of a program (it uses names the document defines elsewhere, or
# built-ins OpenQuasar lacks) says so in a `% CHECK: parse-only (reason)` line: it must
# parse; `oq check` would rightly report its unknown names.
for f in tests/parse/seeds/*.q; do
  mode=check
  grep -q '^% CHECK: parse-only' "$f" && mode=parse
  if "$oq" $mode "$f" 2>"$tmp/err"; then pass; else fail "$f: $(head -1 "$tmp/err")"; fi
done

# The same programs with an error added at the end: it must be found, so the parser read
# all the way to the end (a valid program must not stop the parse early).
for f in tests/parse/seeds/*.q; do
  last=$(($(wc -l <"$f") + 1))
  { cat "$f"; echo "reached = *"; } >"$tmp/canary.q"
  "$oq" check "$tmp/canary.q" 2>"$tmp/err"
  if grep -q "canary.q:$last:11: error:" "$tmp/err"; then pass
  else fail "$f: an error added at line $last was not reported"; fi
done

for f in tests/parse/errors/*.q; do
  "$oq" check "$f" 2>"$tmp/err"
  rc=$?
  if [ $rc -ne 1 ]; then fail "$f: exit status $rc, expected 1"
  elif ! cmp -s "$tmp/err" "${f%.q}.err"; then
    fail "$f: stderr differs from ${f%.q}.err at line $(first_diff "${f%.q}.err" "$tmp/err")"
  else pass; fi
done

for f in tests/parse/dump/*.q; do
  if ! "$oq" parse --dump "$f" >"$tmp/out" 2>"$tmp/err"; then fail "$f: $(head -1 "$tmp/err")"
  elif ! cmp -s "$tmp/out" "${f%.q}.dump"; then
    fail "$f: dump differs from ${f%.q}.dump at line $(first_diff "${f%.q}.dump" "$tmp/out")"
  else pass; fi
done

# One fuzz input: the parser must answer 0, or 1 with an error message.
fuzz_check() {
  local input=$1 what=$2 rc stderr=
  timeout 10 "$oq" check "$input" >/dev/null 2>"$tmp/ferr"
  rc=$?
  IFS= read -r -d '' stderr <"$tmp/ferr"
  if [ $rc -eq 0 ] || { [ $rc -eq 1 ] && [[ $stderr == *"error:"* ]]; }; then pass
  elif [ $rc -eq 124 ]; then fail "$what: timed out"
  elif [ $rc -gt 128 ]; then fail "$what: killed by signal $((rc - 128))"
  else fail "$what: exit status $rc without an error message"; fi
}

n=0
for f in tests/parse/seeds/*.q; do
  n=$((n + 1))
  size=$(wc -c <"$f")
  # 20 offsets and 10 shuffles from a fixed seed per file: the same inputs every run
  for cut in $(awk -v seed=$n -v size="$size" 'BEGIN { srand(seed); for (i = 0; i < 20; i++) print int(rand() * size) }'); do
    head -c "$cut" "$f" >"$tmp/cut.q"
    fuzz_check "$tmp/cut.q" "$f truncated at byte $cut"
  done
  for k in $(seq 1 10); do
    awk -v seed=$((n * 100 + k)) '{ line[NR] = $0 }
      END { srand(seed)
            for (i = NR; i > 1; i--) { j = int(rand() * i) + 1; t = line[i]; line[i] = line[j]; line[j] = t }
            for (i = 1; i <= NR; i++) print line[i] }' "$f" >"$tmp/shuf.q"
    fuzz_check "$tmp/shuf.q" "$f shuffled (seed $((n * 100 + k)))"
  done
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

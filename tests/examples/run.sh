#!/usr/bin/env bash
# tests/examples/run.sh: the examples gallery (examples/*.q), each run with --target cpu at
# a small size and checked by tests/examples/ref.c, an independent C reference that reads
# the written PNGs with libpng (not oq's imread) or the printed results. Every output path
# is first poisoned with a copy of the input photograph, so an example that writes nothing
# fails (wrong size, or "equals the input"); negative controls check that the checker can
# fail. Last line: `N passed, N failed`.
# Environment: OQ (default build/oq), OQ_EXAMPLES_SIZE (default 64: crop of the photograph),
# OQ_EXAMPLES_TARGET (default cpu). `run.sh profile` runs only the --profile part (no
# libpng needed: the GPU machine, tests/examples/gpu.sh).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
OQ=${OQ:-build/oq}
SIZE=${OQ_EXAMPLES_SIZE:-64}
TARGET=${OQ_EXAMPLES_TARGET:-cpu}
IN=examples/data/chelsea.png
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oq-examples.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
PART=${1:-all}

ok() { pass=$((pass + 1)); }
bad() {   # bad NAME REASON [FILE]: one failure, with the first lines of FILE
  echo "FAIL examples: $1: $2"
  [ -n "${3:-}" ] && [ -s "$3" ] && head -n 8 "$3" | cut -c1-200 | sed 's/^/    | /'
  fail=$((fail + 1))
}

if [ "$PART" = all ]; then
if ! ${CC:-cc} -O2 -std=c11 -Wall -Wextra -D_GNU_SOURCE -o "$tmp/ref" tests/examples/ref.c -lpng -lm 2>"$tmp/cc.err"; then
  echo "FAIL examples: tests/examples/ref.c does not build:"
  head -n 10 "$tmp/cc.err" | sed 's/^/    | /'
  echo "0 passed, 1 failed"
  exit 1
fi

# example NAME "OQ ARGS" "REF ARGS" [OUTPUT...]: runs examples/NAME.q with OQ ARGS (its
# stdout to $tmp/NAME.txt), then `ref NAME REF ARGS`; the verdict goes to $tmp/NAME.result.
# OUTPUT files are poisoned first. Up to $JOBS examples run at once.
JOBS=${OQ_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
example() {
  local name=$1 args=$2 refargs=$3 f
  shift 3
  for f in "$@"; do cp "$IN" "$f"; done
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
  (
    # shellcheck disable=SC2086
    timeout -k 5 120 "$OQ" run --target "$TARGET" "examples/$name.q" $args >"$tmp/$name.txt" 2>"$tmp/$name.err" </dev/null
    rc=$?
    if [ "$rc" -ne 0 ]; then
      echo "oq run exited with status $rc" >"$tmp/$name.result"
    # shellcheck disable=SC2086
    elif "$tmp/ref" "$name" $refargs >"$tmp/$name.ref" 2>&1; then
      echo PASS >"$tmp/$name.result"
    else
      { grep -m1 FAIL "$tmp/$name.ref" || echo "the reference failed"; } | sed 's/^FAIL //' >"$tmp/$name.result"
    fi
  ) &
}

t=$tmp
example gamma "$IN $t/gamma.png $SIZE" "$IN $SIZE $t/gamma.png" "$t/gamma.png"
example mandelbrot "$t/mandelbrot.png $SIZE 256" "$SIZE 256 $t/mandelbrot.png" "$t/mandelbrot.png"
example rotate "$IN $t/rotate.png $SIZE 30 -0.25 10 5" "$IN $SIZE 30 -0.25 10 5 $t/rotate.png" "$t/rotate.png"
example haar "$IN $t/haar.png $t/haar_back.png $SIZE 3" "$IN $SIZE 3 $t/haar.png $t/haar_back.png" \
  "$t/haar.png" "$t/haar_back.png"
example filter3x3 "$IN $t/f1.png $t/f2.png $t/f3.png $SIZE" "$IN $SIZE $t/f1.png $t/f2.png $t/f3.png" \
  "$t/f1.png" "$t/f2.png" "$t/f3.png"
example gaussian "$IN $t/gaussian.png $SIZE" "$IN $SIZE $t/gaussian.png" "$t/gaussian.png"
example morph "$IN $t/morph.png $SIZE" "$IN $SIZE $t/morph.png" "$t/morph.png"
example bitonic "$IN $t/bitonic.png $SIZE" "$IN $SIZE $t/bitonic.png" "$t/bitonic.png"
example matmul "$IN $t/matmul.png $SIZE" "$IN $SIZE $t/matmul.png" "$t/matmul.png"
example transpose "$IN $t/transpose.png $SIZE" "$IN $SIZE $t/transpose.png" "$t/transpose.png"
example sums "$IN $SIZE" "$IN $SIZE $t/sums.txt"
example dot "$IN $SIZE" "$IN $SIZE $t/dot.txt"
example hist_000 "$IN $t/hist_000.png $SIZE 1" "$IN $SIZE $t/hist_000.txt $t/hist_000.png" "$t/hist_000.png"
example hist_002 "$IN $t/hist_002.png $SIZE" "$IN $SIZE $t/hist_002.txt $t/hist_002.png" "$t/hist_002.png"
# a cap of 5 saturates most bins of a small crop (2048 bins)
example hist_004 "$IN $t/hist_004.png $SIZE 5" "$IN $SIZE 5 $t/hist_004.txt $t/hist_004.png" "$t/hist_004.png"

wait
# one verdict per example; every example of the gallery has a case above
for f in examples/*.q; do
  n=$(basename "$f" .q)
  if [ ! -f "$tmp/$n.result" ]; then bad "$n" "examples/$n.q has no test in tests/examples/run.sh"
  elif [ "$(cat "$tmp/$n.result")" = PASS ]; then ok
  else bad "$n" "$(cat "$tmp/$n.result")" "$tmp/$n.err"; fi
done

# negative controls: the checks reject a poisoned output, another example's output, a
# changed count, a reconstruction that is not the input
control() {   # control DESCRIPTION REF ARGS...: ref must fail
  local what=$1
  shift
  if "$tmp/ref" "$@" >"$tmp/control.out" 2>&1; then bad "control" "$what: the check passed" "$tmp/control.out"; else ok; fi
}
cp "$IN" "$tmp/poison.png"
control "the input as gamma's output" gamma "$IN" "$SIZE" "$tmp/poison.png"
control "gamma's output as the 3x3 filters' output" filter3x3 "$IN" "$SIZE" "$t/gamma.png" "$t/gamma.png" "$t/gamma.png"
control "the gaussian output as the 3x3 filter's" filter3x3 "$IN" "$SIZE" "$t/gaussian.png" "$t/f2.png" "$t/f3.png"
sed 's/^red: \[\([0-9]*\),/red: [\1,1/' "$tmp/hist_002.txt" >"$tmp/hist_bad.txt"
control "a changed histogram count" hist_002 "$IN" "$SIZE" "$tmp/hist_bad.txt" "$t/hist_002.png"
control "a histogram plot of other counts" hist_002 "$IN" "$SIZE" "$tmp/hist_002.txt" "$t/hist_000.png"
control "the forward transform as the reconstruction" haar "$IN" "$SIZE" 3 "$t/haar.png" "$t/haar.png"
fi   # PART all

# ---- oq run --profile: the table's shape and numbers ----
# prof_check FILE KERNEL BACKEND LAUNCHES NOTES-REGEX [UP DOWN]: the row of KERNEL@profile.q
# on BACKEND has LAUNCHES launches, mean = total / launches, notes matching the regex, and
# (on the GPU) UP and DOWN bytes.
prof_check() {
  local file=$1 k=$2 be=$3 n=$4 notes=$5 up=${6:--} down=${7:--} row
  row=$(grep -E "^$k@profile\.q:[0-9]+ +$be " "$file")
  if [ "$(printf '%s\n' "$row" | grep -c .)" != 1 ]; then
    echo "no single row for $k on $be"
    return
  fi
  printf '%s\n' "$row" | awk -v n="$n" -v up="$up" -v down="$down" -v re="$notes" '{
    notes = $0
    for (i = 0; i < 8; i++) sub(/^[^ ]+ +/, "", notes)
    if ($3 != n) { print "launches " $3 ", expected " n; exit }
    tol = 0.0005 / ($3 > 0 ? $3 : 1) + 0.00006   # total has 3 decimals, mean 4
    if ($3 > 0 && ($5 - $4 / $3 > tol || $4 / $3 - $5 > tol)) { print "mean " $5 " is not total/launches"; exit }
    if ($4 < 0 || $6 < 0) { print "negative time"; exit }
    if ($7 != up || $8 != down) { print "bytes " $7 "/" $8 ", expected " up "/" down; exit }
    if (notes !~ re) { print "notes \"" notes "\" do not match /" re "/"; exit }
  }'
}
profile_run() {   # profile_run NAME TARGET CHECK...: runs profile.q with --profile; each CHECK is
  local name=$1 target=$2 why        # "KERNEL BACKEND LAUNCHES NOTES-REGEX [UP DOWN]"
  shift 2
  # OQ_CPU_TIERS=0: the C compiler's builds are in the cache when the first run ends
  if ! OQ_CACHE_DIR=$tmp/pcache OQ_CPU_TIERS=0 timeout -k 5 120 "$OQ" run --target "$target" --profile=wide tests/examples/profile.q \
      >"$tmp/prof.out" 2>"$tmp/prof.err" </dev/null; then
    bad "profile ($name)" "oq run failed" "$tmp/prof.err"
    return
  fi
  if ! head -n 1 "$tmp/prof.err" | grep -Eq '^kernel +backend +launches +total ms +mean ms +compile ms +bytes up +bytes down +notes$'; then
    bad "profile ($name)" "unexpected header" "$tmp/prof.err"
    return
  fi
  for c in "$@"; do
    # shellcheck disable=SC2086
    why=$(prof_check "$tmp/prof.err" $c)
    if [ -n "$why" ]; then bad "profile ($name)" "$c: $why" "$tmp/prof.err"; return; fi
  done
  ok
}
profile_run "first run" cpu "fill cpu 3 ^1.compiled,.0.from.cache(;.transforms:.*)?$" "twice cpu 5 ^1.compiled,.0.from.cache(;.transforms:.*)?$" \
  "cond_sync cpu 2 ^1.compiled,.0.from.cache;.transforms:.fibers$" "long_row interp 1 ^':'.slices.longer.than.16"
profile_run "second run, from the cache" cpu "fill cpu 3 ^0.compiled,.1.from.cache(;.transforms:.*)?$" \
  "twice cpu 5 ^0.compiled,.1.from.cache(;.transforms:.*)?$" "cond_sync cpu 2 ^0.compiled,.1.from.cache" \
  "long_row interp 1 slices"
if [ "$(grep -c '^[^ ].*@profile' "$tmp/prof.err")" != 4 ]; then bad "profile" "expected 4 rows" "$tmp/prof.err"; else ok; fi
# the short table (--profile): rows of at most 100 columns, the same launches and cache
# counts, a total line whose parts add up to the wall time; the host operations most
# time first
OQ_CACHE_DIR=$tmp/pcache OQ_CPU_TIERS=0 timeout -k 5 120 "$OQ" run --target cpu --profile tests/examples/profile.q \
  >"$tmp/prof.out" 2>"$tmp/prof.err" </dev/null
why=$(awk 'length($0) > 100 { print "line " NR " has " length($0) " columns"; exit }
  NR == 1 && !/^kernel +backend +launches +total ms +mean ms +compile ms +notes$/ { print "header"; exit }
  /^fill@profile\.q:[0-9]+ +cpu / && ($3 != 3 || $NF != "cached") { print "fill row"; exit }
  /^long_row@profile\.q:[0-9]+ +interp / { lr = /slices longer/ }
  /^  [a-z]+@profile/ { if (seen && $3 > last + 0.0005) { print "host operations not sorted"; exit } last = $3; seen = 1 }
  /^total: wall / { t = $0; gsub(/[|]/, "", t); split(t, f, " +")
    if (f[5] != "host" || f[7] != "kernels" || f[9] != "compile") { print "total line"; exit }
    d = f[3] - (f[6] + f[8] + f[10])
    if (d > 0.2 || d < -0.2) { print "parts do not add up"; exit }
    tot = 1 }
  END { if (!tot) print "no total line"; else if (!lr) print "long_row note" }' "$tmp/prof.err")
if [ -n "$why" ]; then bad "profile (short)" "$why" "$tmp/prof.err"; else ok; fi
# --profile=json: one JSON object (python3 parses it) with the same rows
if command -v python3 >/dev/null; then
  OQ_CACHE_DIR=$tmp/pcache OQ_CPU_TIERS=0 timeout -k 5 120 "$OQ" run --target cpu --profile=json tests/examples/profile.q \
    >"$tmp/prof.out" 2>"$tmp/prof.err" </dev/null
  why=$(python3 -m json.tool "$tmp/prof.err" >/dev/null 2>&1 || echo "not valid JSON")
  [ -z "$why" ] && why=$(python3 - "$tmp/prof.err" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
k = {(r["function"], r["backend"]): r for r in p["kernels"]}
if k[("fill", "cpu")]["launches"] != 3 or k[("twice", "cpu")]["launches"] != 5: print("launches")
elif k[("fill", "cpu")]["cached"] != 1 or "slices" not in k[("long_row", "interp")]["note"]: print("cache or note")
elif abs(k[("twice", "cpu")]["mean_ms"] * 5 - k[("twice", "cpu")]["total_ms"]) > 0.001: print("mean")
elif [h["ms"] for h in p["host_ops"]] != sorted([h["ms"] for h in p["host_ops"]], reverse=True): print("host_ops order")
elif p["total"]["wall_ms"] < p["total"]["kernels_ms"] + p["total"]["compile_ms"]: print("total")
PY
)
  if [ -n "$why" ]; then bad "profile (json)" "$why" "$tmp/prof.err"; else ok; fi
fi
if timeout 60 "$OQ" run --target cuda tests/print/ints.q >/dev/null 2>&1; then
  # each array of 1000 floats crosses once up, y once down (charged to the last launch);
  # cond_sync runs on the GPU (its barrier is released as the oracle does): z (4 floats)
  # goes up at its first launch and down for the assert
  profile_run "cuda" cuda "fill cuda 3 compiled 4000 0" "twice cuda 5 compiled 4000 4000" \
    "cond_sync cuda 2 compiled 16 16"
  if ! grep -q '^host<->device: 8016 bytes up in 3 transfers, 4016 bytes down in 2 transfers$' "$tmp/prof.err"; then
    bad "profile (cuda)" "transfer totals" "$tmp/prof.err"
  else ok; fi
else
  echo "examples: the GPU part of the profile test skipped (no usable GPU)"
fi

if [ "$PART" = all ]; then
# ---- compile progress: only on a terminal (`script` gives the program one) ----
if command -v script >/dev/null; then
  OQ_CACHE_DIR=$tmp/pcache2 OQ_CPU_TIERS=0 timeout 120 script -qec "$OQ run --target cpu tests/examples/profile.q" /dev/null \
    >"$tmp/tty.out" 2>&1 </dev/null
  rc=$?
  if [ "$rc" -ne 0 ] || ! grep -q 'compiling kernel fill (cpu)\.\.\.' "$tmp/tty.out" || ! grep -q $'\r\033\[K' "$tmp/tty.out"; then
    bad "progress" "no 'compiling kernel fill (cpu)...' erased on a terminal (status $rc)" "$tmp/tty.out"
  else ok; fi
  OQ_CACHE_DIR=$tmp/pcache3 timeout 120 "$OQ" run --target cpu tests/examples/profile.q >"$tmp/notty.out" 2>&1 </dev/null
  if grep -q 'compiling kernel' "$tmp/notty.out"; then bad "progress" "printed without a terminal" "$tmp/notty.out"; else ok; fi
else
  echo "examples: the progress message test skipped (no 'script' command)"
fi

# ---- netpbm (rt_pnm.c): round trips, and broken files are errors naming file and reason ----
mkdir -p "$tmp/pnm"
if timeout 60 "$OQ" run tests/examples/pnm.q "$tmp/pnm" >"$tmp/pnm.out" 2>&1 </dev/null; then ok
else bad "pnm" "round trips" "$tmp/pnm.out"; fi
pnm_bad() {   # pnm_bad DESCRIPTION REGEX CONTENT (printf format)
  local f=$tmp/pnm/bad.ppm
  # shellcheck disable=SC2059
  printf "$3" >"$f"
  timeout 30 "$OQ" run tests/examples/pnm_read.q "$f" >"$tmp/pnm.out" 2>"$tmp/pnm.err" </dev/null
  local rc=$?
  if [ "$rc" -eq 1 ] && head -n 1 "$tmp/pnm.err" | grep -Eq "runtime error: imread: .*bad\.ppm.*$2"; then ok
  else bad "pnm ($1)" "exit status $rc, expected 1 and /$2/" "$tmp/pnm.err"; fi
}
pnm_bad "truncated" "unexpected end of file" 'P6\n5 7\n255\nabc'
pnm_bad "huge, short" "unexpected end of file" 'P5\n40000 40000\n255\nabc'
pnm_bad "no size" "bad header" 'P6\n\n'
pnm_bad "negative width" "bad header" 'P6\n-5 7\n255\n'
pnm_bad "maxval too large" "bad header" 'P5\n1 1\n70000\nab'
pnm_bad "too many pixels" "too large" 'P5\n70000 70000\n255\n'
pnm_bad "ASCII netpbm" "not a PNG, JPEG, TIFF or netpbm image" 'P3\n1 1\n255\n1 2 3\n'
pnm_bad "empty" "is empty" ''

# ---- imshow without a display: PNG files (--show-dir, $OQ_SHOW_DIR, next to the program) ----
show_files() {   # show_files DESCRIPTION DIR OQ-ARGS...: runs show.q headless, checks DIR's files
  local what=$1 dir=$2
  shift 2
  if ! env -u DISPLAY -u WAYLAND_DISPLAY timeout -k 5 60 "$@" >"$tmp/show.out" 2>"$tmp/show.err" </dev/null; then
    bad "imshow ($what)" "oq run failed" "$tmp/show.err"
  elif [ "$(grep -c "^imshow: wrote $dir/show_imshow[1-5]\.png\$" "$tmp/show.out")" != 6 ]; then
    bad "imshow ($what)" "expected 6 lines 'imshow: wrote $dir/show_imshowN.png'" "$tmp/show.out"
  elif ! "$tmp/ref" show "$dir" >"$tmp/show.ref" 2>&1; then
    bad "imshow ($what)" "$(grep -m1 FAIL "$tmp/show.ref")"
  else ok; fi
}
mkdir -p "$tmp/show1" "$tmp/show2" "$tmp/prog"
show_files "--show-dir" "$tmp/show1" "$OQ" run --show-dir "$tmp/show1" tests/examples/show.q
show_files "OQ_SHOW_DIR" "$tmp/show2" env OQ_SHOW_DIR="$tmp/show2" "$OQ" run tests/examples/show.q
cp tests/examples/show.q "$tmp/prog/show.q"
show_files "next to the program" "$tmp/prog" "$OQ" run "$tmp/prog/show.q"

# ---- imshow with a display: a window (SDL2), where Xvfb and SDL2 are installed ----
if command -v Xvfb >/dev/null && { ldconfig -p 2>/dev/null | grep -q 'libSDL2-2\.0\.so\.0'; }; then
  disp=:$((200 + $$ % 500))
  Xvfb "$disp" -screen 0 640x480x24 -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
  xvfb=$!
  sleep 1
  mkdir -p "$tmp/win"
  cp tests/examples/show.q "$tmp/win/show.q"
  DISPLAY=$disp OQ_SHOW_WAIT=0 timeout -k 5 60 "$OQ" run "$tmp/win/show.q" >"$tmp/win.out" 2>"$tmp/win.err" </dev/null
  rc=$?
  if [ "$rc" -ne 0 ] || [ -s "$tmp/win.out" ] || ls "$tmp/win" | grep -q png; then
    bad "imshow (window)" "exit status $rc, expected 0, no output and no files" "$tmp/win.err"
  else ok; fi
  # without OQ_SHOW_WAIT=0 the program waits for its windows to be closed
  DISPLAY=$disp timeout -k 5 3 "$OQ" run "$tmp/win/show.q" >"$tmp/win.out" 2>"$tmp/win.err" </dev/null
  rc=$?
  if [ "$rc" -ne 124 ] || ! grep -q 'close the windows' "$tmp/win.err"; then
    bad "imshow (window)" "expected to wait for the windows (status 124), got $rc" "$tmp/win.err"
  else ok; fi
  kill "$xvfb" 2>/dev/null
  wait "$xvfb" 2>/dev/null
else
  echo "examples: imshow window test skipped (needs Xvfb and libSDL2-2.0.so.0: apt-get install xvfb libsdl2-2.0-0)"
fi
fi   # PART all

echo "examples: $pass passed, $fail failed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

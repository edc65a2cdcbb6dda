#!/usr/bin/env bash
# tests/examples/gpu.sh: on a GPU machine (built with make NO_IMAGES=1 there: no libpng),
# every example of the gallery runs with --target cpu and --target cuda on the photograph
# as a netpbm file (IN, made from chelsea.png where libpng exists), at SIZE; images are
# compared with tests/examples/compare.q, printed lines with diff (timings left out); then
# the --profile test including its GPU part. Prints one line per example.
# Usage: bash tests/examples/gpu.sh [--dry-run] IN.ppm [SIZE]. Make IN.ppm where libpng is,
# e.g. with a one-line program: imwrite("chelsea.ppm", imread("examples/data/chelsea.png")).
# --dry-run prints the examples' invocations (tests/examples/gpu_list.sh) and runs nothing.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
. tests/examples/gpu_list.sh
dry=
if [ "${1:-}" = --dry-run ]; then dry=1; shift; fi
OQ=${OQ:-build/oq}
IN=${1:?usage: tests/examples/gpu.sh [--dry-run] IN.ppm [SIZE]}
S=${2:-0}
if [ -n "$dry" ]; then gallery_each gallery_print "$IN" "$S"; exit 0; fi
out=${OUT:-/tmp}/gallery
mkdir -p "$out/cpu" "$out/cuda"
run() {   # run NAME ARGS... (OUT/ in ARGS is the target's folder)
  local name=$1 t
  shift
  for t in cpu cuda; do
    local args=("${@//OUT/$out/$t}")
    local t0
    t0=$(date +%s%N)
    timeout 300 "$OQ" run --target "$t" --verbose "examples/$name.q" "${args[@]}" >"$out/$t/$name.txt" 2>"$out/$t/$name.err"
    echo "$?" >"$out/$t/$name.rc"
    echo "$(( ($(date +%s%N) - t0) / 1000000 )) ms" >"$out/$t/$name.time"
  done
  local line
  line="$name: cpu rc $(cat "$out/cpu/$name.rc") ($(cat "$out/cpu/$name.time")), cuda rc $(cat "$out/cuda/$name.rc") ($(cat "$out/cuda/$name.time"))"
  local f
  for f in "$out/cpu/"*.ppm "$out/cpu/"*.pgm; do
    [ -e "$f" ] || continue
    local g
    g=$out/cuda/$(basename "$f")
    line="$line; $(basename "$f"): $("$OQ" run tests/examples/compare.q "$f" "$g" 1 2>&1 | sed 's/^compare: //')"
    mv "$f" "$f.done"
  done
  printed() { grep -v ' ms$' "$out/$1/$name.txt" | sed "s|$out/$1/|OUT/|g"; }   # timings and paths aside
  if ! diff <(printed cpu) <(printed cuda) >/dev/null; then
    line="$line; printed lines differ: $(diff <(printed cpu) <(printed cuda) | head -4 | cut -c1-160 | tr '\n' '|')"
  fi
  local fb
  fb=$(grep -c 'does not run on the GPU' "$out/cuda/$name.err")
  [ "$fb" -gt 0 ] && line="$line; $fb kernel(s) not on the GPU: $(grep 'does not run on the GPU' "$out/cuda/$name.err" | sed "s/.*kernel '\\([^']*\\)'.*: /\\1: /" | tr '\n' '|' | cut -c1-300)"
  [ "$(cat "$out/cuda/$name.rc")" != 0 ] && line="$line; cuda stderr: $(grep -v '^oq: kernel' "$out/cuda/$name.err" | head -3 | tr '\n' '|' | cut -c1-300)"
  echo "$line"
}
gallery_each run "$IN" "$S"
echo "== profile test (cpu and cuda)"
bash tests/examples/run.sh profile

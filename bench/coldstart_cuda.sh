#!/usr/bin/env bash
# bench/coldstart_cuda.sh [--dry-run] [IN.ppm [SIZE]]: the start of every example of examples/ on
# --target cuda (tests/gpu.sh's step cold-cuda), cold (an empty kernel cache: NVRTC compiles
# every kernel) and warm (the same cache again), and each CUDA kernel's compile ms on the
# cold run (--profile=wide: specialization, code generation and NVRTC, or the cache's image;
# with tiers, the first build's: the optimized one compiles in the background). "cold0": the
# cold start with OQ_CUDA_TIERS=0 (every optimized build waited for at its first launch),
# measured in the same run as the baseline. The cold run with tiers ends without waiting
# for the optimized builds (child processes, `oq __cuda-build`, which write the entries);
# the warm run starts once they are done (no temporary file left in the cache).
# IN: the input image as netpbm (the GPU machine reads no PNG); without it, a 512 x 512
# test image is made. Prints one line per example, then the slowest compile and the sums.
# --dry-run (first): prints the examples' invocations (tests/examples/gpu_list.sh, the list
# tests/examples/gpu.sh runs) and runs nothing.
set -u
cd "$(dirname "$0")/.." || exit 1
. tests/examples/gpu_list.sh
if [ "${1:-}" = --dry-run ]; then
  gallery_each gallery_print "${2:-IN.ppm}" "${3:-0}"
  exit 0
fi
OQ=${OQ:-build/oq}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oq-coldcuda.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
IN=${1:-}
S=${2:-0}
if [ -z "$IN" ]; then
  IN=$tmp/in.ppm
  printf '%s\n' 'x = zeros(512, 512, 3)' \
    'for m = 0..511' '  for n = 0..511' \
    '    x[m, n, 0] = mod(m + n, 256)' '    x[m, n, 1] = mod(3 * m, 256)' '    x[m, n, 2] = mod(m * n, 256)' \
    '  endfor' 'endfor' "imwrite(\"$IN\", x)" >"$tmp/mk.q"
  "$OQ" run --target cpu "$tmp/mk.q" >/dev/null 2>&1 || { echo "cannot make $IN"; exit 1; }
fi
if ! printf 'x = 1\n' | "$OQ" run --target cuda - >/dev/null 2>&1; then
  echo "cold-cuda: no usable GPU"
  exit 1
fi
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# once CACHE LOG NAME ARGS...: one run; prints its wall ms. The CUDA driver's own cache of
# compiled code (CUDA_CACHE_PATH, else ~/.nv/ComputeCache) is CACHE.nv, empty for a cold
# run: with the machine's cache warm from an earlier run of the same kernels, hist_000's
# hist_naive "compiled" in 57 ms, with it disabled in 628 (session 17, H100), so a "cold"
# start after tests/gpu.sh's other steps was nearly warm.
once() {
  local cache=$1 log=$2 name=$3 t0
  shift 3
  t0=$(now_ms)
  CUDA_CACHE_PATH=$cache.nv OQ_CACHE_DIR=$cache OQ_CUDA_TIERS=${tiers:-1} timeout 300 "$OQ" run --target cuda --profile=wide "examples/$name.q" "$@" >/dev/null 2>"$log" </dev/null ||
    echo "FAIL $name (see below)" >&2
  echo $(( $(now_ms) - t0 ))
}

# settle CACHE: waits (60 s at most) until the cold run's optimized builds are in the cache
settle() {
  local i
  for ((i = 0; i < 600; i++)); do
    find "$1" -name '*.tmp*' 2>/dev/null | grep -q . || return 0
    sleep 0.1
  done
}

printf '%-11s %9s %9s %9s %5s %9s  %s\n' example "cold0 ms" "cold ms" "warm ms" kern "max ms" "NVRTC compile ms per CUDA kernel (cold)"
run() {   # run NAME ARGS... (OUT/ in ARGS: a temporary folder)
  local name=$1 cache=$tmp/cache-$1
  shift
  local args=("${@//OUT/$tmp}")
  mkdir -p "$cache"
  local cold0 cold warm
  # a first cold run, not counted, puts the example's files and libraries in the page
  # cache, so that neither cold0 nor cold pays for reading them (session 17's call 3 ran
  # cold0 first of all: gamma 566 ms against 328 with tiers, where gamma has one kernel)
  mkdir -p "$cache.x"
  tiers=0 once "$cache.x" /dev/null "$name" "${args[@]}" >/dev/null
  rm -rf "$cache.x" "$cache.x.nv"
  mkdir -p "$cache.0"
  cold0=$(tiers=0 once "$cache.0" "$tmp/$name.cold0" "$name" "${args[@]}")
  rm -rf "$cache.0" "$cache.0.nv"
  cold=$(once "$cache" "$tmp/$name.cold" "$name" "${args[@]}")
  settle "$cache"
  warm=$(once "$cache" "$tmp/$name.warm" "$name" "${args[@]}")
  # the cuda rows of the wide table: name, compile ms ($6)
  local per
  per=$(awk '$2 == "cuda" && $6 + 0 > 0 { sub(/@.*/, "", $1); printf "%s=%.0f ", $1, $6 }' "$tmp/$name.cold")
  local n max
  n=$(awk '$2 == "cuda" && $6 + 0 > 0' "$tmp/$name.cold" | wc -l)
  max=$(awk '$2 == "cuda" && $6 + 0 > m { m = $6 + 0 } END { printf "%.0f", m }' "$tmp/$name.cold")
  printf '%-11s %9s %9s %9s %5s %9s  %s\n' "$name" "$cold0" "$cold" "$warm" "$n" "$max" "$per"
  grep -q 'error' "$tmp/$name.cold" && grep 'error' "$tmp/$name.cold" | head -n 2 | sed 's/^/    | /'
  echo "$name $cold $warm $n $max $cold0" >>"$tmp/rows"
}
gallery_each run "$IN" "$S"
awk '{ c += $2; w += $3; k += $4; c0 += $6; if ($5 > m) { m = $5; mk = $1 }
       if ($2 <= 2 * $3 + 300) ok++ }
  END { printf "cold-cuda: %d examples, cold %d ms (without tiers %d), warm %d ms in all; %d CUDA kernels compiled; slowest compile %d ms (%s); %d of %d cold within 2 x warm + 300 ms\n",
        NR, c, c0, w, k, m, mk, ok, NR }' "$tmp/rows"

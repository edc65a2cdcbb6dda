#!/usr/bin/env bash
# bench/nvrtc_warm_ab.sh [N]: whether OQ_DEV_CUDA_NVRTC_WARM=1 (NVRTC's start in a thread
# while the CUDA context is created, docs/cuda.md "Cold start: tiers") helps: N rounds
# (default 5), each a cold start of examples/hist_000.q (empty kernel and driver caches)
# and of a program that launches nothing, without and with it, alternating. Prints each
# run's wall ms and hist_000's first compile ms (its first kernel, NVRTC's start included),
# then the medians. With OQ_LIBCUDA=tools/cuda_stub.c's library and STUB_CTX_MS it runs
# without a GPU.
set -u
cd "$(dirname "$0")/.." || exit 1
OQ=${OQ:-build/oq}
N=${1:-5}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oq-warm.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' 'x = zeros(512, 512, 3)' 'x[3, 4, 1] = 7' "imwrite(\"$tmp/in.ppm\", x)" >"$tmp/mk.q"
"$OQ" run --target cpu "$tmp/mk.q" >/dev/null 2>&1 || { echo "cannot make the input"; exit 1; }
printf 'x = 1\nprint x\n' >"$tmp/none.q"
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
one() {   # one WARM PROG ARGS...: wall ms, then the first compile ms
  local warm=$1 c=$tmp/cache t0 ms
  shift
  rm -rf "$c" "$c.nv"; mkdir -p "$c"
  t0=$(now_ms)
  OQ_DEV_CUDA_NVRTC_WARM=$warm OQ_CUDA_TIERS=1 CUDA_CACHE_PATH=$c.nv OQ_CACHE_DIR=$c timeout 300 \
    "$OQ" run --target cuda --profile=wide "$@" >/dev/null 2>"$tmp/prof" </dev/null || echo "FAIL $*" >&2
  ms=$(( $(now_ms) - t0 ))
  while find "$c" -name '*.tmp*' 2>/dev/null | grep -q .; do sleep 0.05; done   # its builds, before the next run
  echo "$ms $(awk '$2 == "cuda" && $6 + 0 > 0 { printf "%.0f", $6; exit }' "$tmp/prof")"
}
for ((i = 1; i <= N; i++)); do
  for w in 0 1; do
    echo "hist $w $(one $w examples/hist_000.q "$tmp/in.ppm" "$tmp/out.pgm" 0 1)"
    echo "none $w $(one $w "$tmp/none.q")"
  done
done | tee "$tmp/rows"
med() { sort -n | awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : "-") }'; }
for p in hist none; do
  for w in 0 1; do
    printf 'nvrtc-warm: %s OQ_DEV_CUDA_NVRTC_WARM=%s: median wall %s ms' "$p" "$w" "$(awk -v p=$p -v w=$w '$1 == p && $2 == w { print $3 }' "$tmp/rows" | med)"
    [ $p = hist ] && printf ', first compile %s ms' "$(awk -v w=$w '$1 == "hist" && $2 == w { print $4 }' "$tmp/rows" | med)"
    echo
  done
done

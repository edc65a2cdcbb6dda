#!/usr/bin/env bash
# bench/imfilter.sh: lib/imfilter.q's imfilter (5 x 5 mask, one pass) and gaussian_filter
# (sigma 1, 7 x 7 taps, one pass) on a 2048 x 2048 x 3 image: the library's kernels (on the
# GPU the tiled ones), the fixed-size kernels and the general ones for comparison, on
# --target cpu and, when a GPU is usable, --target cuda. Each kernel's mean time comes from
# `oq run --profile` (on CUDA the launcher's events: device time), over REPS launches
# (default 20), the first included; "loop" rows are the wall time per launch of a loop of
# REPS launches of one kernel without --profile (tic/toc, batched into CUDA graphs). GB/s
# counts one read and one write of the image (2 x 50.3 MB), the traffic of a copy; "% of
# copy" compares with the copy kernel (y[pos] = x[pos]) timed in the same process. On CUDA,
# when python3 has CuPy, bench/imfilter_peers.py adds the device's own copy
# (cuMemcpyDtoD) and cupyx.scipy.ndimage's filters on the same image: the honest reference
# for the bandwidth (the copy kernel above is not the device's fastest copy).
# Usage: bash bench/imfilter.sh [TARGETS]   (default: "cpu cuda"; cuda skipped without a GPU)
set -u
cd "$(dirname "$0")/.." || exit 1
# the optimized builds, each waited for at its first launch: with tiers on, a short run from
# a cold kernel cache times the quick first builds (docs/cuda.md, "Cold start: tiers")
export OQ_CUDA_TIERS=${OQ_CUDA_TIERS:-0} OQ_CPU_TIERS=${OQ_CPU_TIERS:-0}
OQ=${OQ:-build/oq}
REPS=${REPS:-20}
targets=${1:-cpu cuda}
bytes=$((2 * 2048 * 2048 * 3 * 4))
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oq-imfilter.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# mean LOG KERNEL: the "mean ms" column of the profile row whose name starts with KERNEL@
mean() { awk -v k="$2@" 'index($1, k) == 1 { print $5; exit }' "$1"; }
row() {   # row TARGET NAME MS COPY_MS
  awk -v t="$1" -v n="$2" -v ms="$3" -v c="$4" -v b="$bytes" \
    'BEGIN { printf "%-7s %-46s %10.4f %9.1f %9.1f%%\n", t, n, ms, b / (ms * 1e6), 100 * c / ms }'
}

printf '%-7s %-46s %10s %9s %10s\n' target kernel "mean ms" "GB/s" "% of copy"
for t in $targets; do
  if [ "$t" = cuda ] && ! printf 'x = 1\n' | "$OQ" run --target cuda - >/dev/null 2>&1; then
    echo "cuda: skipped (no usable GPU)"
    continue
  fi
  if ! "$OQ" run --target "$t" --profile bench/imfilter_bench.q "$REPS" >"$tmp/$t.log" 2>&1; then
    echo "FAIL $t:"; head -n 5 "$tmp/$t.log"; continue
  fi
  copy=$(mean "$tmp/$t.log" bench_copy)
  rows="bench_copy:copy y[pos] = x[pos] (read+write)
bench_copy_flat:copy, flat 2-D mapping"
  if [ "$t" = cuda ]; then
    rows="$rows
imfilter_tiled_5x5:imfilter 5x5, clamped (tiled)
separable_tiled_7:gaussian_filter sigma 1 (7x7), clamped (tiled)"
  fi
  rows="$rows
imfilter_5x5:fixed 5x5, clamped
separable_7:fixed separable 7, clamped
imfilter_kernel:general kernel: 5x5, clamped
separable_kernel:general separable: 7x7, clamped"
  while IFS= read -r r; do
    k=${r%%:*}
    ms=$(mean "$tmp/$t.log" "$k")
    if [ -z "$ms" ] || [ -z "$copy" ]; then echo "FAIL $t: no time for $k"; continue; fi
    row "$t" "${r#*:}" "$ms" "$copy"
  done <<<"$rows"
  grep '^checksum' "$tmp/$t.log" | sed "s/^/$t: /"
  # the loops' wall time per launch, without the profile's events
  if "$OQ" run --target "$t" bench/imfilter_bench.q "$REPS" >"$tmp/$t.loop" 2>&1; then
    lc=$(awk '/^loop copy:/ { print $3 }' "$tmp/$t.loop")
    while read -r name ms; do
      row "$t" "loop: $name" "$(awk -v m="$ms" -v r="$REPS" 'BEGIN { print m / r }')" \
        "$(awk -v m="$lc" -v r="$REPS" 'BEGIN { print m / r }')"
    done < <(sed -n 's/^loop \(.*\): \([0-9.]*\) ms$/\1 \2/p' "$tmp/$t.loop" | tr ' ' '_' | sed 's/_\([0-9.]*\)$/ \1/')
  else
    echo "FAIL $t (loops):"; head -n 5 "$tmp/$t.loop"
  fi
  if [ "$t" = cuda ] && python3 -c 'import cupy' >/dev/null 2>&1; then
    python3 bench/imfilter_peers.py
  fi
done

#!/usr/bin/env bash
# bench/imfilter.sh: lib/imfilter.q's imfilter (5 x 5 mask, one pass) and gaussian_filter
# (sigma 1, 7 x 7 taps, one pass) on a 2048 x 2048 x 3 image (their fixed-size kernels,
# and the general ones for comparison), on --target cpu and, when a
# GPU is usable, --target cuda. Each kernel's mean time comes from `oq run --profile` (on
# CUDA the launcher's events: device time), over REPS launches (default 20), the first
# included. GB/s counts one read and one write of the image (2 x 50.3 MB), the
# traffic of a copy; "% of copy" compares with a copy kernel (y[pos] = x[pos]) timed in the
# same process, so 100 % means the filter runs at the speed of a read+write pass.
# Usage: bash bench/imfilter.sh [TARGETS]   (default: "cpu cuda"; cuda skipped without a GPU)
set -u
cd "$(dirname "$0")/.." || exit 1
OQ=${OQ:-build/oq}
REPS=${REPS:-20}
targets=${1:-cpu cuda}
bytes=$((2 * 2048 * 2048 * 3 * 4))
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oq-imfilter.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# mean LOG KERNEL: the "mean ms" column of the profile row whose name starts with KERNEL@
mean() { awk -v k="$2@" 'index($1, k) == 1 { print $5; exit }' "$1"; }

printf '%-7s %-40s %10s %9s %10s\n' target kernel "mean ms" "GB/s" "% of copy"
for t in $targets; do
  if [ "$t" = cuda ] && ! printf 'x = 1\n' | "$OQ" run --target cuda - >/dev/null 2>&1; then
    echo "cuda: skipped (no usable GPU)"
    continue
  fi
  if ! "$OQ" run --target "$t" --profile bench/imfilter_bench.q "$REPS" >"$tmp/$t.log" 2>&1; then
    echo "FAIL $t:"; head -n 5 "$tmp/$t.log"; continue
  fi
  copy=$(mean "$tmp/$t.log" bench_copy)
  for row in "bench_copy:copy y[pos] = x[pos] (read+write)" \
             "bench_copy_flat:copy, flat 2-D mapping" \
             "imfilter_5x5:imfilter 5x5, clamped" \
             "separable_7:gaussian_filter sigma 1 (7x7), clamped" \
             "imfilter_kernel:general kernel: 5x5, clamped" \
             "separable_kernel:general separable: 7x7, clamped"; do
    k=${row%%:*}
    ms=$(mean "$tmp/$t.log" "$k")
    if [ -z "$ms" ] || [ -z "$copy" ]; then echo "FAIL $t: no time for $k"; continue; fi
    awk -v t="$t" -v n="${row#*:}" -v ms="$ms" -v c="$copy" -v b="$bytes" \
      'BEGIN { printf "%-7s %-40s %10.3f %9.1f %9.1f%%\n", t, n, ms, b / (ms * 1e6), 100 * c / ms }'
  done
  grep '^checksum' "$tmp/$t.log" | sed "s/^/$t: /"
done

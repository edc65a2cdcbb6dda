#!/usr/bin/env bash
# bench/run.sh: `make bench`. Times kernels compiled by oq (--target cpu) against
# hand-written threaded C (bench/baseline.c, built here with the same compiler) on the same
# data, on this machine, in the same run: each program runs $ROUNDS times, alternating,
# and every timing keeps its fastest repetition. Prints the ratio oq / C (below 1: oq
# is faster). hist_loop and hist_auto are seed 000's host loops, run as generated kernels
# (parallel loops). OQ_THREADS sets the thread count of both (default: all cores). Last,
# bench/interp_loop.q times the interpreter itself (--no-parloop: its loops stay serial).
set -u
cd "$(dirname "$0")/.." || exit 1
OQ=${OQ:-build/oq}
ROUNDS=${ROUNDS:-3}
CC=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oq-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
$CC -O3 -march=native -std=c11 -D_GNU_SOURCE -pthread -o "$tmp/baseline" bench/baseline.c || exit 1

# program  baseline-argument  pairs "oq-label=C-label"
benches=(
  "bench/hist.q hist hist_naive 1920x1080x3=hist 1920x1080x3;hist_shared 1920x1080x3=hist 1920x1080x3;hist_loop 1920x1080x3=hist 1920x1080x3;hist_auto 1920x1080x3=hist 1920x1080x3;hist_naive 8192x4096x3=hist 8192x4096x3;hist_shared 8192x4096x3=hist 8192x4096x3;hist_loop 8192x4096x3=hist 8192x4096x3;hist_auto 8192x4096x3=hist 8192x4096x3"
  "bench/filter.q filter filter3x3 1920x1080x3=filter3x3 1920x1080x3"
  "bench/sum.q sum sum 2^26=sum 2^26"
  "bench/matmul.q matmul matmul 1024=matmul 1024"
)

# best LOGFILE LABEL: the smallest time printed as "LABEL: T ms"
best() {
  grep -F "$2: " "$1" | sed 's/.*: \([0-9.]*\) ms.*/\1/' | sort -g | head -n 1
}

printf '%-28s %12s %12s %8s\n' "kernel" "oq ms" "C ms" "oq/C"
for b in "${benches[@]}"; do
  prog=${b%% *}
  rest=${b#* }
  arg=${rest%% *}
  pairs=${rest#* }
  : >"$tmp/oq.log"
  : >"$tmp/c.log"
  for ((r = 0; r < ROUNDS; r++)); do
    if ! "$OQ" run --target cpu "$prog" >>"$tmp/oq.log" 2>"$tmp/oq.err"; then
      echo "FAIL $prog:"; head -n 5 "$tmp/oq.err"; continue 2
    fi
    "$tmp/baseline" "$arg" >>"$tmp/c.log" || { echo "FAIL baseline $arg"; continue 2; }
  done
  IFS=';' read -ra list <<<"$pairs"
  for p in "${list[@]}"; do
    ol=${p%%=*}
    cl=${p#*=}
    o=$(best "$tmp/oq.log" "$ol")
    c=$(best "$tmp/c.log" "$cl")
    if [ -z "$o" ] || [ -z "$c" ]; then echo "FAIL no timing for $ol / $cl"; continue; fi
    printf '%-28s %12.3f %12.3f %8.2f\n' "$ol" "$o" "$c" "$(echo "$o $c" | awk '{print $1 / $2}')"
  done
  # the checksums must agree
  oc=$(grep '^checksum' "$tmp/oq.log" | sort -u | tr '\n' ' ')
  cc_=$(grep '^checksum' "$tmp/c.log" | sort -u | tr '\n' ' ')
  [ "$oc" = "$cc_" ] || echo "  (checksums differ: oq: $oc / C: $cc_)"
done

# the interpreter: no C counterpart, the fastest of $ROUNDS runs
: >"$tmp/interp.log"
for ((r = 0; r < ROUNDS; r++)); do
  "$OQ" run --no-parloop bench/interp_loop.q >>"$tmp/interp.log" 2>&1 || { echo "FAIL bench/interp_loop.q"; break; }
done
for l in "10M scalar iterations" "10M int while iterations"; do
  t=$(best "$tmp/interp.log" "$l")
  [ -n "$t" ] && printf '%-28s %12.3f %12s %8s\n' "interp: $l" "$t" "-" "-"
done

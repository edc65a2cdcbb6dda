#!/usr/bin/env bash
# bench/coldstart.sh [OLD_OQ]: `make bench-cold`. The start of every program of examples/ and
# tests/seeds_run/ on the CPU back end, cold (an empty kernel cache: OQ_CACHE_DIR a fresh
# folder) and warm (the same cache again, once the background builds of the first run have
# put their objects there), for build/oq and, given OLD_OQ (another build, e.g. the main
# checkout's), for it too. PROGS (a shell pattern) replaces the list of programs. Each time
# is the best of $ROUNDS runs (default 1; STAT=median: their median, for a loaded machine;
# the two builds take turns, round by round, program by program): wall seconds,
# and CPU seconds (user + system of oq and the compilers it waited for; a background build
# that the program did not wait for is not in it). Then the compile time of each kernel:
# from --profile (wall ms: specialization, code generation and the first build), and, for the
# objects of the cold runs, TinyCC's and the C compiler's CPU time on the cached source.
# The targets (issue 24): every kernel ready in <= 0.15 s; cold <= 2 x warm + 0.3 s.
# The machine's load shows in wall times: compare CPU times where it is busy (uptime).
set -u
cd "$(dirname "$0")/.." || exit 1
NEW=${OQ:-build/oq}
OLD=${1:-}
ROUNDS=${ROUNDS:-1}
STAT=${STAT:-best}
CC=${CC:-cc}
KFLAGS="-O3 -march=native -fPIC -shared -fno-strict-aliasing -ffp-contract=off -fwrapv -fno-tree-slp-vectorize -std=gnu11 -w"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oq-cold.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p build/examples
# shellcheck disable=SC2206 # PROGS is a pattern on purpose
progs=(${PROGS:-examples/*.q tests/seeds_run/*.q})

# profile_flag OQ: --profile=wide, or --profile for a build that has only the wide table
profile_flag() {
  if printf 'x = 1\n' | "$1" run --target cpu --profile=wide - >/dev/null 2>&1; then echo --profile=wide
  else echo --profile; fi
}

# timed CACHE OUT OQ PROG: runs PROG once; OUT gets "wall cpu" and OUT.prof the profile
timed() {
  OQ_CACHE_DIR=$1 /usr/bin/time -o "$2" -f "%e %U %S" "$3" run --target cpu "$(profile_flag "$3")" "$4" \
    >/dev/null 2>"$2.prof" </dev/null
  awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$2" >"$2.t" && mv "$2.t" "$2"
}

# pick FILE: of the "wall cpu" lines in FILE, per field, the smallest (STAT=best) or the median
pick() {
  local f
  for f in 1 2; do
    cut -d' ' -f$f "$1" | sort -g | awk -v stat="$STAT" '{ v[NR] = $1 }
      END { printf "%.3f ", stat == "median" ? (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) : v[1] }'
  done
}

# max_compile PROFILE: the largest "compile ms" of a kernel the run compiled
max_compile() {
  awk 'f && NF >= 6 && /compiled/ && $6 + 0 > m { m = $6 + 0 } /compile ms/ { f = 1 } END { printf "%.0f", m }' "$1"
}

# measure_round LABEL OQ N PROG: PROG cold, then warm, once; the times go to
# $tmp/LABEL.N.cold and .warm, the slowest first build to .ms; the cold cache stays in $tmp/LABEL/N
measure_round() {
  local label=$1 oq=$2 n=$3 p=$4 d=$tmp/$1/$3
  # a fresh folder each round: a background build of the last round may still write to its own
  rm -rf "$d"
  mv "$d" "$d.old.$RANDOM" 2>/dev/null
  mkdir -p "$d"
  timed "$d" "$tmp/c" "$oq" "$p"
  cat "$tmp/c" >>"$tmp/$label.$n.cold"
  max_compile "$tmp/c.prof" >>"$tmp/$label.$n.ms"
  echo >>"$tmp/$label.$n.ms"
  # the warm cache: what the background builds have not finished yet is built now, at
  # normal priority (waiting for niced builds on a busy machine takes long)
  OQ_CPU_TIERS=0 OQ_CACHE_DIR=$d "$oq" run --target cpu "$p" >/dev/null 2>&1 </dev/null
  timed "$d" "$tmp/w" "$oq" "$p"
  cat "$tmp/w" >>"$tmp/$label.$n.warm"
}

echo "machine: $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg); rounds: $ROUNDS ($STAT)"
n=0
for p in "${progs[@]}"; do
  n=$((n + 1))
  for ((r = 0; r < ROUNDS; r++)); do
    measure_round new "$NEW" $n "$p"
    [ -n "$OLD" ] && measure_round old "$OLD" $n "$p"
  done
  for label in new ${OLD:+old}; do
    nk=$(ls "$tmp/$label/$n"/oqk_*.so 2>/dev/null | wc -l)
    echo "$p $(pick "$tmp/$label.$n.cold") $(pick "$tmp/$label.$n.warm") $nk $(sort -n "$tmp/$label.$n.ms" | tail -1)" \
      >>"$tmp/$label.rows"
  done
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"

echo
echo "start in seconds (wall / cpu); kernels: objects cached; compile: the slowest kernel's"
echo "first build, ms (--profile); ok: cold wall <= 2 x warm wall + 0.3 s"
if [ -n "$OLD" ]; then
  printf '%-40s %17s %17s %5s | %17s %17s %5s %8s %3s\n' program "old cold" "old warm" "ms" \
    "new cold" "new warm" kern "ms" ok
  paste -d' ' "$tmp/old.rows" "$tmp/new.rows" | awk '{
    ok = ($9 <= 2 * $11 + 0.3) ? "yes" : "NO"
    printf "%-40s %8s %8s %8s %8s %5s | %8s %8s %8s %8s %5s %8s %3s\n", $1, $2, $3, $4, $5, $7,
      $9, $10, $11, $12, $13, $14, ok }'
else
  printf '%-40s %17s %17s %5s %8s %3s\n' program "cold" "warm" kern "ms" ok
  awk '{ ok = ($2 <= 2 * $4 + 0.3) ? "yes" : "NO"
    printf "%-40s %8s %8s %8s %8s %5s %8s %3s\n", $1, $2, $3, $4, $5, $6, $7, ok }' "$tmp/new.rows"
fi

# per kernel: CPU seconds of TinyCC (in memory, as oq does, approximated by tcc -c) and of
# the C compiler with oq's flags, on each source the new cold runs cached. A kernel with
# complex numbers caches the C compiler's source only (TinyCC builds a variant of it with
# structs, emit_c.c): tcc -c fails on it; its TinyCC build is in the profile's ms above.
if command -v tcc >/dev/null 2>&1; then
  echo
  echo "per kernel (distinct sources of the cold runs), cpu seconds: tcc -c | $CC $KFLAGS"
  for c in "$tmp"/new/*/oqk_*.c; do
    [ -e "$c" ] || continue
    /usr/bin/time -o "$tmp/kt" -f "%U %S" tcc -c -std=c11 -w -o "$tmp/k.o" "$c" 2>/dev/null || echo "x x" >"$tmp/kt"
    grep -q '^#define OQ_TC_DP' "$c" && echo "c x" >"$tmp/kt"
    /usr/bin/time -o "$tmp/kc" -f "%U %S" $CC $KFLAGS -o "$tmp/k.so" "$c" -lm 2>/dev/null
    echo "$(awk '{ print ($1 == "x") ? "fails" : ($1 == "c") ? "complex" : $1 + $2 }' "$tmp/kt") $(awk '{ print $1 + $2 }' "$tmp/kc")"
  done | awk '{ n++; if ($1 == "complex") nc++; else if ($1 != "fails") { t += $1; if ($1 > tm) tm = $1; nt++ } else nf++
      c += $2; if ($2 > cm) cm = $2 }
    END { printf "kernels %d: tcc mean %.3f max %.3f (%d TinyCC cannot build: the C compiler waits; %d complex: not cached)" \
      "; cc mean %.3f max %.3f\n", n, nt ? t / nt : 0, tm, nf, nc, n ? c / n : 0, cm }'
fi

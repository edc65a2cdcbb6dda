#!/usr/bin/env bash
# bench/arrayexpr/rowsum.sh [N] [REPS] [ROUNDS]: bench/arrayexpr/rowsum.q (sums, means, max and min
# along the contiguous dimension, two sums along dimension 0) on --target cpu with
# OQ_THREADS=1 and 2 (THREADS="1 2 16" picks others), float and double (--precision),
# next to NumPy on one core (x.sum(axis=1), ...) in the same run, and the floor of one thread
# reading the array once in C. Prints one table: ms per evaluation (fastest of ROUNDS, default
# 3, rounds of REPS), and NumPy's time over oq's per thread count.
set -u
cd "$(dirname "$0")/../.." || exit 1
# the optimized builds, each waited for at its first launch: with tiers on, a short run from
# a cold kernel cache times the quick first builds (docs/cuda.md, "Cold start: tiers")
export OQ_CUDA_TIERS=${OQ_CUDA_TIERS:-0} OQ_CPU_TIERS=${OQ_CPU_TIERS:-0}
OQ=${OQ:-build/oq}
N=${1:-2048}
REPS=${2:-20}
ROUNDS=${3:-3}
THREADS=${THREADS:-"1 2"}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oq-rowsum.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
for p in single double; do
  for t in $THREADS; do
    OQ_THREADS=$t "$OQ" run --target cpu --precision $p bench/arrayexpr/rowsum.q "$N" "$REPS" "$ROUNDS" >"$tmp/oq-$p-$t.log" 2>&1 ||
      { echo "oq --precision $p ($t threads) failed:"; tail -5 "$tmp/oq-$p-$t.log"; }
  done
done
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 ${PYTHON:-python3} - "$N" "$REPS" "$ROUNDS" >"$tmp/numpy.log" 2>&1 <<'PY' || tail -3 "$tmp/numpy.log"
import sys, time
import numpy as np
n, reps, rounds = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(1)
for p, dt in (("single", np.float32), ("double", np.float64)):
    x = rng.random((n, n)).astype(dt); h = rng.random((n, n)).astype(dt)
    cases = [lambda: x.sum(axis=1), lambda: x.mean(axis=1), lambda: x.max(axis=1), lambda: x.min(axis=1),
             lambda: (x * h).sum(axis=1), lambda: x.sum(axis=0), lambda: (x * h).sum(axis=0)]
    for c, f in enumerate(cases):
        f()
        t = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            for _ in range(reps): f()
            t.append((time.perf_counter() - t0) * 1e3 / reps)
        print(f"numpy {p} case{c}: {min(t):.4f} ms")
PY
# the floor: one thread reading the n x n array once (sums in any order, -ffast-math), in C
cat >"$tmp/floor.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec * 1e-6; }
#define READ(T) static double read_##T(const T *x, long n) { T a[64] = {0}; for (long i = 0; i + 64 <= n; i += 64) \
  for (int l = 0; l < 64; l++) a[l] += x[i + l]; double s = 0; for (int l = 0; l < 64; l++) s += a[l]; return s; }
READ(float)
READ(double)
int main(int argc, char **argv) {
  long n = atol(argv[1]), reps = atol(argv[2]), rounds = atol(argv[3]), N = n * n;
  float *f = malloc(N * sizeof *f); double *d = malloc(N * sizeof *d); volatile double sink = 0;
  for (long i = 0; i < N; i++) f[i] = d[i] = (double)rand() / RAND_MAX;
  for (int p = 0; p < 2; p++) {
    double best = 1e30;
    for (int r = 0; r <= rounds; r++) {
      double t0 = now();
      for (long k = 0; k < reps; k++) sink += p ? read_double(d, N) : read_float(f, N);
      double t = (now() - t0) / reps;
      if (r && t < best) best = t;
    }
    printf("floor %s: %.4f ms\n", p ? "double" : "single", best);
  }
  return 0;
}
C
${CC:-cc} -O3 -march=native -ffast-math -o "$tmp/floor" "$tmp/floor.c" && "$tmp/floor" "$N" "$REPS" "$ROUNDS" >>"$tmp/numpy.log"
python3 - "$tmp" "$N" "$REPS" $THREADS <<'PY'
import sys, re, os
tmp, n, reps, threads = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
names = ["sum(x, 1)", "mean(x, 1)", "max(x, [], 1)", "min(x, [], 1)", "sum(x .* h, 1)", "sum(x, 0)", "sum(x .* h, 0)"]
res = {}
for p in ("single", "double"):
    for t in threads:
        f = f"{tmp}/oq-{p}-{t}.log"
        for line in open(f) if os.path.exists(f) else []:
            m = re.match(r"oq case(\d+): ([0-9.e+-]+) ms", line)
            if m: res[(p, t, int(m.group(1)))] = float(m.group(2))
floor = {}
for line in open(f"{tmp}/numpy.log"):
    m = re.match(r"numpy (\w+) case(\d+): ([0-9.]+) ms", line)
    if m: res[(m.group(1), "numpy", int(m.group(2)))] = float(m.group(3))
    m = re.match(r"floor (\w+): ([0-9.]+) ms", line)
    if m: floor[m.group(1)] = float(m.group(2))
print(f"n = {n}, {reps} repetitions; ms per evaluation; numpy on one core; xT: numpy / oq")
fmt = lambda v: f"{v:.4g}" if v is not None else "-"
print("one thread reading the array once (C, the memory floor of a case with one operand): " +
      ", ".join(f"{'float' if p == 'single' else 'double'} {fmt(v)} ms" for p, v in floor.items()))

print("| case | type | " + " | ".join(f"oq cpu {t}T" for t in threads) + " | numpy | " +
      " | ".join(f"{t}T vs numpy" for t in threads) + " |")
print("|---" * (3 + 2 * len(threads)) + "|")
fmt = lambda v: f"{v:.4g}" if v is not None else "-"
for p in ("single", "double"):
    for c, name in enumerate(names):
        oq = [res.get((p, t, c)) for t in threads]
        npv = res.get((p, "numpy", c))
        ratio = [f"{npv / v:.1f}x" if v and npv else "-" for v in oq]
        print(f"| {name} | {'float' if p == 'single' else 'double'} | " + " | ".join(fmt(v) for v in oq) +
              f" | {fmt(npv)} | " + " | ".join(ratio) + " |")
PY

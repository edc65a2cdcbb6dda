#!/usr/bin/env bash
# bench/arrayexpr/rowsum.sh [N] [REPS]: bench/arrayexpr/rowsum.q (sums, means, max and min
# along the contiguous dimension, two sums along dimension 0) on --target cpu with
# OQ_THREADS=1 and 2 (THREADS="1 2 16" picks others), float and double (--precision),
# next to NumPy on one core (x.sum(axis=1), ...) in the same run. Prints one table: ms per
# evaluation (fastest of 3 rounds of REPS), and NumPy's time over oq's per thread count.
set -u
cd "$(dirname "$0")/../.." || exit 1
OQ=${OQ:-build/oq}
N=${1:-2048}
REPS=${2:-20}
THREADS=${THREADS:-"1 2"}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oq-rowsum.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
for p in single double; do
  for t in $THREADS; do
    OQ_THREADS=$t "$OQ" run --target cpu --precision $p bench/arrayexpr/rowsum.q "$N" "$REPS" >"$tmp/oq-$p-$t.log" 2>&1 ||
      { echo "oq --precision $p ($t threads) failed:"; tail -5 "$tmp/oq-$p-$t.log"; }
  done
done
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 ${PYTHON:-python3} - "$N" "$REPS" >"$tmp/numpy.log" 2>&1 <<'PY' || tail -3 "$tmp/numpy.log"
import sys, time
import numpy as np
n, reps = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(1)
for p, dt in (("single", np.float32), ("double", np.float64)):
    x = rng.random((n, n)).astype(dt); h = rng.random((n, n)).astype(dt)
    cases = [lambda: x.sum(axis=1), lambda: x.mean(axis=1), lambda: x.max(axis=1), lambda: x.min(axis=1),
             lambda: (x * h).sum(axis=1), lambda: x.sum(axis=0), lambda: (x * h).sum(axis=0)]
    for c, f in enumerate(cases):
        f()
        t = []
        for _ in range(3):
            t0 = time.perf_counter()
            for _ in range(reps): f()
            t.append((time.perf_counter() - t0) * 1e3 / reps)
        print(f"numpy {p} case{c}: {min(t):.4f} ms")
PY
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
for line in open(f"{tmp}/numpy.log"):
    m = re.match(r"numpy (\w+) case(\d+): ([0-9.]+) ms", line)
    if m: res[(m.group(1), "numpy", int(m.group(2)))] = float(m.group(3))
print(f"n = {n}, {reps} repetitions; ms per evaluation; numpy on one core; xT: numpy / oq")
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

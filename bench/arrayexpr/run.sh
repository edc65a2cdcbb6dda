#!/usr/bin/env bash
# bench/arrayexpr/run.sh [N] [REPS]: issue 20's host array expressions (and sums along
# dimension 0, sumcol = sum(x .* h, 0), and 1, sumrow = sum(x, 1)), oq on each target
# it can use (cuda when a GPU is there, cpu) next to hand-written threaded C (baseline.c), JAX,
# PyTorch, CuPy and NumPy in the same run (PEERS=jax,numpy picks Python peers; "copy": CuPy's
# device copy alone; AX_TARGETS="cuda cuda0" adds the launch shapes of session 14). Prints one table: ms per evaluation (fastest of 3 rounds), and for the GPU the bytes
# each evaluation must move per ms as a percentage of a 256 MiB device copy (CuPy).
set -u
cd "$(dirname "$0")/../.." || exit 1
# the optimized builds, each waited for at its first launch: with tiers on, a short run from
# a cold kernel cache times the quick first builds (docs/cuda.md, "Cold start: tiers")
export OQ_CUDA_TIERS=${OQ_CUDA_TIERS:-0} OQ_CPU_TIERS=${OQ_CPU_TIERS:-0}
OQ=${OQ:-build/oq}
N=${1:-2048}
REPS=${2:-20}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oq-ax.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
targets=${AX_TARGETS:-"cuda cpu"}
for t in $targets; do
  # cuda0: the CUDA launch shapes before session 15 (one GPU thread per position, blocks of
  # up to 1024 threads), for a before/after in the same run
  if [ "$t" = cuda0 ]; then knobs="OQ_DEV_CUDA_STREAM=0 OQ_DEV_CUDA_BLOCK_MOST=1024 OQ_DEV_CUDA_ROWS=1" tt=cuda; else knobs= tt=$t; fi
  env $knobs "$OQ" run --target "$tt" bench/arrayexpr/exprs.q "$N" "$REPS" >"$tmp/oq-$t.log" 2>&1 ||
    { echo "oq --target $t failed:"; tail -5 "$tmp/oq-$t.log"; }
done
${PYTHON:-python3} bench/arrayexpr/peers.py "$N" "$REPS" ${PEERS:-} >"$tmp/peers.log" 2>&1 || tail -5 "$tmp/peers.log"
${CC:-cc} -O3 -march=native -std=c11 -D_GNU_SOURCE -pthread -o "$tmp/baseline" bench/arrayexpr/baseline.c -lm &&
  "$tmp/baseline" "$N" "$REPS" >>"$tmp/peers.log" 2>&1
python3 - "$tmp" "$N" "$REPS" $targets <<'PY'
import sys, re, glob
tmp, n, reps, targets = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
res = {}
for t in targets:
    for line in open(f"{tmp}/oq-{t}.log"):
        m = re.match(r"oq (\w+) total: ([0-9.]+) ms", line)
        if m:
            per = float(m.group(2)) / (1 if m.group(1) == "tv100" else reps)
            res.setdefault((f"oq {t}", m.group(1)), []).append(per)
        if line.startswith("tv psnr"): print(f"oq {t}: {line.strip()}")
for line in open(f"{tmp}/peers.log"):
    m = re.match(r"(\w+) (\w+): ([0-9.]+) ms", line)
    if m: res.setdefault((m.group(1), m.group(2)), []).append(float(m.group(3)))
    elif "unavailable" in line or "psnr" in line: print(line.strip())
cols = [f"oq {t}" for t in targets] + ["C", "jax", "torch", "cupy", "numpy"]
cases = ["map", "maxsqrt", "sumsq", "slice", "sumcol", "sumrow", "tv100"]
gb = {"map": 3, "maxsqrt": 3, "sumsq": 1, "slice": 3, "sumcol": 2, "sumrow": 1, "tv100": 100 * 6}   # arrays of n*n floats moved
copy = min(res.get(("cupy", "copy256"), [0]))
bw = 2 * (64 << 20) * 4 / copy if copy else 0   # bytes per ms of a device copy
print(f"n = {n}, {reps} repetitions; ms per evaluation (tv100: 100 iterations)")
cpu_col = cols.index("oq cpu") if "oq cpu" in cols else None
gpu_cols = [k for k in cols if k.startswith("oq cuda")] if bw else []
print("| case | " + " | ".join(cols) + " | oq cuda / jax | oq cpu / C | oq cpu vs numpy |" +
      "".join(f" {k} % of copy bandwidth |" for k in gpu_cols))
print("|---" * (len(cols) + 4 + len(gpu_cols)) + "|")
for c in cases:
    row = [min(res[(k, c)]) if (k, c) in res else None for k in cols]
    cells = [f"{v:.4g}" if v is not None else "-" for v in row]
    ratio = "-"
    if "oq cuda" in cols and row[0] is not None and res.get(("jax", c)): ratio = f"{row[0] / min(res[('jax', c)]):.2f}"
    cpu_c = cpu_np = "-"
    if cpu_col is not None and row[cpu_col] is not None:
        if res.get(("C", c)): cpu_c = f"{row[cpu_col] / min(res[('C', c)]):.2f}"
        if res.get(("numpy", c)): cpu_np = f"{min(res[('numpy', c)]) / row[cpu_col]:.1f}x faster"
    ratio += f" | {cpu_c} | {cpu_np}"
    extra = ""   # (tv100: 6 arrays an iteration, the gradient kernel's 2 and the update's 4)
    for k in gpu_cols:
        v = row[cols.index(k)]
        extra += f" {100 * gb[c] * n * n * 4 / v / bw:.0f}% |" if v is not None else " - |"
    print(f"| {c} | " + " | ".join(cells) + f" | {ratio} |" + extra)
PY

#!/usr/bin/env bash
# bench/xform/run.sh [OUTDIR]: the GPU benchmark of the kernel transforms (issue 5), on a
# machine with nvcc and a GPU. Builds ref.cu (CUB and hand-written references) with nvcc, runs
# it and gpu.q (--target cuda, OQ_DEV_CUDA_KTIME=1: each kernel's own time from CUDA events), and
# prints per benchmark the best kernel time, the best wall time per call (toc: launch and
# argument upload included), the reference's best time and the ratios (PROG: another
# program with the same labels; OQ_DEV_CUDA_UNROLL=U: positions per step of the tiled loop;
# REF_LOG=FILE: take the references' times from an earlier run's ref.log instead; ARGS: the
# program's arguments, for gpu.q "shared": hist_shared alone):
#   read/oq  throughput of oq's kernel as a fraction of a read-only pass over the same image
#   oq/cub   oq's kernel time over CUB's (HistogramEven, DeviceReduce::Sum)
set -u
cd "$(dirname "$0")/../.." || exit 1
OQ=${OQ:-build/oq}
PROG=${PROG:-bench/xform/gpu.q}
out=${1:-/tmp/oq-xform}
mkdir -p "$out"
bin=$(mktemp -d "${TMPDIR:-/tmp}/oq-xform.XXXXXX") || exit 1
trap 'rm -rf "$bin"' EXIT
if [ -n "${REF_LOG:-}" ]; then   # the references of an earlier run (tuning oq alone)
  cp "$REF_LOG" "$out/ref.log" || exit 1
else
  nvcc -O3 -arch=sm_90 -o "$bin/ref" bench/xform/ref.cu || exit 1
  "$bin/ref" >"$out/ref.log" || { cat "$out/ref.log"; exit 1; }
fi
OQ_DEV_CUDA_KTIME=1 stdbuf -oL -eL "$OQ" run --target cuda --verbose --profile "$PROG" ${ARGS:-} >"$out/oq.log" 2>&1 ||
  { tail -n 20 "$out/oq.log"; exit 1; }
awk '
  function keep(a, k, v) { if (!(k in a) || v < a[k]) a[k] = v }
  FNR == NR { if ($0 ~ /: [0-9.]+ ms$/) { split($0, p, ": "); keep(ref, p[1], p[2] + 0) } next }
  /^ktime / { kt = $3 + 0; next }
  /: [0-9.]+ ms$/ { split($0, p, ": "); keep(wall, p[1], p[2] + 0); keep(kern, p[1], kt); order[++n] = p[1] }
  END {
    printf "%-32s %10s %10s %10s %8s %10s %8s\n", "benchmark", "oq kernel", "oq wall", "read ms", "read/oq", "cub ms", "oq/cub"
    for (i = 1; i <= n; i++) {
      l = order[i]
      if (l in done) continue
      done[l] = 1
      rest = l; sub(/^[^ ]+ /, "", rest)
      rd = "readpass " rest; cb = (l ~ /^hist/) ? "cub_hist " rest : (l ~ /^sum1sum2/) ? "cub_sum " rest : "cub_" l
      r1 = (rd in ref) ? sprintf("%10.4f %8.3f", ref[rd], ref[rd] / kern[l]) : sprintf("%10s %8s", "-", "-")
      r2 = (cb in ref) ? sprintf("%10.4f %8.3f", ref[cb], kern[l] / ref[cb]) : sprintf("%10s %8s", "-", "-")
      printf "%-32s %10.4f %10.4f %s %s\n", l, kern[l], wall[l], r1, r2
    }
  }' "$out/ref.log" "$out/oq.log"
grep -h '^checksum' "$out/ref.log" "$out/oq.log"
grep -A20 '^kernel  ' "$out/oq.log"

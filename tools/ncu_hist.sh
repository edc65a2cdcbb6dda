#!/usr/bin/env bash
# tools/ncu_hist.sh [OUTDIR]: Nsight Compute counters of seed 000's histogram kernels as oq
# generates them (bench/xform/gpu.q at 8192x8192x3, uniform image, 2 launches each) next to
# tools/hist_variants.cu's hand-written equivalent and its read pass, on a machine with a
# GPU, nvcc and ncu. Needs build/oq. One CSV row per profiled launch, the kernels in the
# program's order (fill, hist_naive, hist_auto, hist_autogrid, hist_shared).
set -u
cd "$(dirname "$0")/.." || exit 1
out=${1:-/tmp/oq-ncu}
mkdir -p "$out"
metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,launch__grid_size,launch__block_size,launch__shared_mem_per_block_dynamic,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
prog="$out/probe.q"
sed '/^function \[\] = main/,$d' bench/xform/gpu.q >"$prog"
cat >>"$prog" <<'Q'
function [] = main()
    hists(8192, 8192, 1, 2, "all")
endfunction
Q
ncu --csv --metrics "$metrics" -k regex:oqk_entry build/oq run --target cuda "$prog" >"$out/oq.csv" 2>"$out/oq.err" || tail "$out/oq.err"
nvcc -O3 -arch=sm_90 -o "$out/hv" tools/hist_variants.cu || exit 1
ncu --csv --metrics "$metrics" -k regex:'readpass|_Z2hvILi5ELi4ELi1ELi2E' -c 4 "$out/hv" >"$out/hv.csv" 2>"$out/hv.err" || tail "$out/hv.err"
for f in oq hv; do
  echo "== $f"
  awk -F'","' '$1 ~ /^"[0-9]/ { k = $5; sub(/\(.*/, "", k); v = $NF; sub(/"$/, "", v); printf "%s %-24s %-60s %s\n", substr($1, 2), substr(k, 1, 24), $(NF - 2), v }' "$out/$f.csv" | head -150
done

#!/usr/bin/env bash
# bench/arrayexpr/bw.sh [N] [OUTDIR]: what limits the element-wise and TV kernels on the GPU
# (session 15): bw.cu's hand-written variants compiled with oq's NVRTC flags (-fmad=false) and
# with others, oq's own kernel times (OQ_DEV_CUDA_KTIME=1) at N^2, and, when ncu is there,
# its SpeedOfLight/Occupancy/LaunchStats sections for ncu.q's kernels.
set -u
cd "$(dirname "$0")/../.." || exit 1
N=${1:-4096}
out=${2:-/tmp/oq-bw}
mkdir -p "$out"
OQ=${OQ:-build/oq}
# BW_FLAGS: the nvcc flag sets, separated by ";" ("" for none)
IFS=';' read -r -a flagsets <<<"${BW_FLAGS--fmad=false;-fmad=false -prec-div=false -prec-sqrt=false;-use_fast_math}"
for fl in "${flagsets[@]}"; do
  echo "==== nvcc $fl"
  nvcc -O3 -arch=sm_90 -std=c++17 $fl -o "$out/bw" bench/arrayexpr/bw.cu && "$out/bw" "$N"
done
echo "==== oq kernels (ktime: device ms of each launch; min and median per kernel)"
OQ_DEV_CUDA_KTIME=1 "$OQ" run --target cuda bench/arrayexpr/exprs.q "$N" 5 >"$out/ktime.log" 2>&1
grep -v '^ktime' "$out/ktime.log" | tail -n 12
grep '^ktime' "$out/ktime.log" | awk '{k[$2] = k[$2] " " $3} END {for (n in k) print n, k[n]}' |
  python3 -c '
import sys
for line in sys.stdin:
    f = line.split(); v = sorted(map(float, f[1:]))
    print(f"{f[0]:24s} launches {len(v):4d} min {v[0]:.4f} median {v[len(v)//2]:.4f} ms")'
echo "==== tvparts"
"$OQ" run --target cuda bench/arrayexpr/tvparts.q "$N"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
if [ -x "$ncu" ]; then
  echo "==== ncu"
  timeout 240 "$ncu" -k oqk_entry --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section MemoryWorkloadAnalysis "$OQ" run --target cuda bench/arrayexpr/ncu.q "$N" >"$out/ncu.txt" 2>&1
  grep -E 'oqk_entry|Duration|Memory Throughput|DRAM Throughput|Compute \(SM\)|Registers|Block Size|Grid Size|Achieved Occupancy|Theoretical Occupancy|L2 Hit|L1/TEX Hit' "$out/ncu.txt"
fi

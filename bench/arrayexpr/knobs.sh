#!/usr/bin/env bash
# bench/arrayexpr/knobs.sh [N]: oq's own kernel times (OQ_DEV_CUDA_KTIME=1, CUDA events) for
# exprs.q at N^2 under each launch-shape knob of session 15 (docs/config.md): the median ms
# per kernel that ran at least 5 times (expr_main_32 map, _37 maxsqrt, _42 sumsq, _47 slice,
# tv_grad and _61 the TV update; their numbers depend on exprs.q's lines).
set -u
cd "$(dirname "$0")/../.." || exit 1
N=${1:-4096}
OQ=${OQ:-build/oq}
summary() {
  grep '^ktime' | awk '{k[$2] = k[$2] " " $3} END {for (n in k) print n, k[n]}' | sort | python3 -c '
import sys
for line in sys.stdin:
    f = line.split(); v = sorted(map(float, f[1:]))
    if len(v) >= 5: print(f"  {f[0]:16s} {len(v):4d} launches, min {v[0]:.4f} median {v[len(v)//2]:.4f} ms")'
}
SETTINGS=${SETTINGS:-"-;OQ_DEV_CUDA_STREAM=0 OQ_DEV_CUDA_BLOCK_MOST=1024 OQ_DEV_CUDA_ROWS=1;OQ_DEV_CUDA_UNROLL=8;OQ_DEV_CUDA_ROWS=1;OQ_DEV_CUDA_ROWS=2;OQ_DEV_CUDA_BLOCK_MOST=512"}
IFS=';' read -r -a settings <<<"$SETTINGS"   # ";"-separated; "-": the defaults
for knobs in "${settings[@]}"; do
  [ "$knobs" = - ] && knobs=
  echo "== ${knobs:-defaults}"
  env $knobs OQ_DEV_CUDA_KTIME=1 "$OQ" run --target cuda bench/arrayexpr/exprs.q "$N" 5 2>&1 | summary
done

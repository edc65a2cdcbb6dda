#!/usr/bin/env bash
# bench/first_builds.sh OUTDIR [PROGRAM.q...]: NVRTC's compile time of each kernel's first
# build (tiers, issue 24) in each program (the 15 examples by default), without a GPU: the
# program runs over tools/cuda_stub.c with OQ_DEV_CUDA_TIER_FAST=1 and --emit-c, which prints
# every first build's source (rt_gpu.c, first_build); bench/nvrtc_time.py compiles each 3
# times (the least counts; RUNS=N: N times, 0: none). OQ=... picks the binary; OUTDIR/NAME.emit
# holds each program's sources and NAME.txt its table; bench/nvrtc_time.py --compare compares two
# binaries' NAME.emit, alternating their compiles.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
out=${1:?usage: bench/first_builds.sh OUTDIR [PROGRAM.q...]}
shift
OQ=${OQ:-build/oq}
mkdir -p "$out"
stub=$out/libcuda_stub.so
${CC:-cc} -O2 -shared -fPIC -o "$stub" tools/cuda_stub.c || exit 1
progs=("$@")
[ ${#progs[@]} -gt 0 ] || progs=(examples/*.q)
for f in "${progs[@]}"; do
  n=$(basename "$f" .q)
  rm -rf "$out/cache"
  OQ_LIBCUDA=$stub OQ_CACHE_DIR=$out/cache OQ_CUDA_TIERS=1 OQ_DEV_CUDA_TIER_FAST=1 OQ_DEV_CUDA_GRAPHS=0 \
    timeout 600 "$OQ" run --target cuda --emit-c "$f" >"$out/$n.emit" 2>"$out/$n.err" </dev/null ||
    echo "note: $f exited $? (the stub runs no kernel: results are not checked here)"
  [ "${RUNS:-3}" = 0 ] && continue
  python3 bench/nvrtc_time.py "$out/$n.emit" "${RUNS:-3}" >"$out/$n.txt" || continue
  echo "== $n"; cat "$out/$n.txt"
done
rm -rf "$out/cache"

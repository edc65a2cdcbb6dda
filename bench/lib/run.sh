#!/usr/bin/env bash
# bench/lib/run.sh [cpu|gpu|all]: oq's FFT and matrix product against the libraries they
# call, called directly by bench/lib/peer.c in the same run (same sizes, planner flags and
# thread counts; the peer keeps its arrays, oq allocates each result):
#   cpu: fft2 of 2048x2048 complex against FFTW (target: within 1.2x), 2048^2 SGEMM against
#        OpenBLAS's sgemm_ (CPU_GEMM_N, default 2048); oq --target cpu
#   gpu: the same on --target cuda against cuFFT (target: within 1.1x) and cuBLAS (within
#        1.1x), and CuPy / PyTorch when the machine's python3 has them (bench/lib/peers.py)
# Rounds alternate between oq and the peer ($ROUNDS, default 3); each keeps its fastest.
# Prints one line per timing, then a table of ratios oq / peer. OQ_THREADS sets the CPU
# thread count of both (default: all cores). FFT_N and GEMM_N change the sizes.
set -u
cd "$(dirname "$0")/../.." || exit 1
# the optimized builds, each waited for at its first launch: with tiers on, a short run from
# a cold kernel cache times the quick first builds (docs/cuda.md, "Cold start: tiers")
export OQ_CUDA_TIERS=${OQ_CUDA_TIERS:-0} OQ_CPU_TIERS=${OQ_CPU_TIERS:-0}
OQ=${OQ:-build/oq}
ROUNDS=${ROUNDS:-3}
FFT_N=${FFT_N:-2048}
GEMM_N=${GEMM_N:-4096}
CPU_GEMM_N=${CPU_GEMM_N:-2048}
THREADS=${OQ_THREADS:-$(nproc)}
export OQ_THREADS=$THREADS
mode=${1:-cpu}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oq-benchlib.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -std=c11 -o "$tmp/peer" bench/lib/peer.c -ldl || exit 1
log=$tmp/log
: >"$log"

best() {   # best LABEL-PREFIX: the smallest "...: T ms" of lines starting with it
  grep -E "^$1" "$log" | sed 's/.*: \([0-9.]*\) ms$/\1/' | sort -g | head -n 1
}

ratio() {   # ratio NAME OQ-PREFIX PEER-PREFIX TARGET
  local a b
  a=$(best "$2")
  b=$(best "$3")
  if [ -z "$a" ] || [ -z "$b" ]; then
    printf '%-34s %10s %10s %8s  %s\n' "$1" "${a:--}" "${b:--}" "-" "(not measured)"
  else
    printf '%-34s %10s %10s %8s  target %s\n' "$1" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')" "$4"
  fi
}

if [ "$mode" = cpu ] || [ "$mode" = all ]; then
  for ((r = 0; r < ROUNDS; r++)); do
    "$OQ" run --target cpu bench/lib/lib.q fft2 "$FFT_N" 1 | grep '^oq' | sed 's/^oq/oq-cpu/' | tee -a "$log"
    "$tmp/peer" fftw "$FFT_N" "$THREADS" 1 | tee -a "$log"
    "$OQ" run --target cpu bench/lib/lib.q sgemm "$CPU_GEMM_N" 1 | grep '^oq' | sed 's/^oq/oq-cpu/' | tee -a "$log"
    "$tmp/peer" sgemm "$CPU_GEMM_N" "$THREADS" 1 | tee -a "$log"
  done
  [ "${PEER_MEASURE:-0}" = 1 ] && "$tmp/peer" fftw "$FFT_N" "$THREADS" 1 measure | tee -a "$log"
fi
if [ "$mode" = gpu ] || [ "$mode" = all ]; then
  for ((r = 0; r < ROUNDS; r++)); do
    "$OQ" run --target cuda bench/lib/lib.q fft2 "$FFT_N" 3 | grep '^oq' | sed 's/^oq/oq-cuda/' | tee -a "$log"
    "$tmp/peer" cufft "$FFT_N" 3 | tee -a "$log"
    "$OQ" run --target cuda bench/lib/lib.q sgemm "$GEMM_N" 3 | grep '^oq' | sed 's/^oq/oq-cuda/' | tee -a "$log"
    "$tmp/peer" cublas "$GEMM_N" 3 | tee -a "$log"
  done
  python3 bench/lib/peers.py "$FFT_N" "$GEMM_N" 2>&1 | tee -a "$log"
fi

echo
printf '%-34s %10s %10s %8s\n' "benchmark" "oq ms" "peer ms" "oq/peer"
if [ "$mode" = cpu ] || [ "$mode" = all ]; then
  ratio "fft2 ${FFT_N}^2 complex, CPU" "oq-cpu fft2" "fftw fft2" "<= 1.2"
  ratio "sgemm ${CPU_GEMM_N}^2, CPU" "oq-cpu sgemm" "openblas sgemm" "-"
fi
if [ "$mode" = gpu ] || [ "$mode" = all ]; then
  ratio "fft2 ${FFT_N}^2 complex, GPU" "oq-cuda fft2" "cufft fft2" "<= 1.1"
  ratio "sgemm ${GEMM_N}^2, GPU" "oq-cuda sgemm" "cublas sgemm" "<= 1.1"
  ratio "fft2 ${FFT_N}^2, GPU vs CuPy" "oq-cuda fft2" "cupy fft2" "-"
  ratio "sgemm ${GEMM_N}^2, GPU vs CuPy" "oq-cuda sgemm" "cupy sgemm" "-"
  ratio "fft2 ${FFT_N}^2, GPU vs PyTorch" "oq-cuda fft2" "torch fft2" "-"
  ratio "sgemm ${GEMM_N}^2, GPU vs PyTorch" "oq-cuda sgemm" "torch sgemm" "-"
fi

#!/usr/bin/env bash
# `make examples`: every program of the gallery on the whole photograph, writing its images
# to build/examples/ (examples/README.md lists them). OQ_TARGET (default auto) picks the
# back end, OQ_EXAMPLES_SIZE (default 0: the whole image) the crop.
set -eu
cd "$(dirname "$0")/.."
OUT=build/examples
IN=examples/data/chelsea.png
S=${OQ_EXAMPLES_SIZE:-0}
T=${OQ_TARGET:-auto}
mkdir -p "$OUT"
run() {   # run NAME ARGS...
  echo "== oq run --target $T examples/$1.q ${*:2}"
  build/oq run --target "$T" "examples/$1.q" "${@:2}"
}
run gamma "$IN" "$OUT/gamma.png" "$S"
run mandelbrot "$OUT/mandelbrot.png" "${S/#0/768}"
run rotate "$IN" "$OUT/rotate.png" "$S"
run haar "$IN" "$OUT/haar.png" "$OUT/haar_back.png" "$S"
run filter3x3 "$IN" "$OUT/filter_nonsep.png" "$OUT/filter_sep.png" "$OUT/filter_shared.png" "$S"
run gaussian "$IN" "$OUT/gaussian.png" "$S"
run morph "$IN" "$OUT/morph.png" "$S"
run bitonic "$IN" "$OUT/bitonic.png" "$S"
run matmul "$IN" "$OUT/matmul.png" "$S"
run transpose "$IN" "$OUT/transpose.png" "$S"
run sums "$IN" "$S"
run dot "$IN" "$S"
run hist_000 "$IN" "$OUT/hist_000.png" "$S" | cut -c1-120
run hist_002 "$IN" "$OUT/hist_002.png" "$S" | cut -c1-120
run hist_004 "$IN" "$OUT/hist_004.png" "$S" | cut -c1-120
echo "images in $OUT/"

# shellcheck shell=bash
# tests/examples/gpu_list.sh: the gallery's example invocations on the GPU machine, one list
# sourced by tests/examples/gpu.sh and bench/coldstart_cuda.sh.
# gallery_each FN IN SIZE: calls FN NAME ARGS... for each example of examples/ (IN: the
# input image as netpbm; SIZE: the examples' size argument, 0 their default; OUT/ in ARGS:
# the caller's output folder).
gallery_each() {
  local fn=$1 in=$2 s=$3
  local m=${s/#0/768}   # mandelbrot's size (its default, 768, for 0)
  "$fn" gamma "$in" OUT/gamma.ppm "$s"
  "$fn" mandelbrot OUT/mandelbrot.pgm "$m"
  "$fn" rotate "$in" OUT/rotate.ppm "$s"
  "$fn" haar "$in" OUT/haar.ppm OUT/haar_back.ppm "$s"
  "$fn" filter3x3 "$in" OUT/f1.ppm OUT/f2.ppm OUT/f3.ppm "$s"
  "$fn" gaussian "$in" OUT/gaussian.ppm "$s"
  "$fn" morph "$in" OUT/morph.ppm "$s"
  "$fn" bitonic "$in" OUT/bitonic.pgm "$s"
  "$fn" matmul "$in" OUT/matmul.pgm "$s"
  "$fn" transpose "$in" OUT/transpose.ppm "$s"
  "$fn" sums "$in" "$s"
  "$fn" dot "$in" "$s"
  "$fn" hist_000 "$in" OUT/hist_000.pgm "$s" 1
  "$fn" hist_002 "$in" OUT/hist_002.ppm "$s"
  "$fn" hist_004 "$in" OUT/hist_004.pgm "$s"
}

# gallery_print NAME ARGS...: one invocation as a line (the scripts' --dry-run)
gallery_print() { echo "$*"; }

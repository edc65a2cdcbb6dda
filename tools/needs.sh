#!/bin/sh
# tools/needs.sh FILE...: the run-time libraries that the tests FILE... need and this
# machine lacks, one "FILE: LIB" line each (nothing when all are there). A test names what it
# needs in one of its first lines: `% NEEDS: libfftw3f.so.3 libopenblas.so.0|liblapack.so.3`
# (a|b: either one). tests/run.sh and tests/gpu.sh skip such tests, saying so, on a machine
# without the library (the GPU machine has no package registry to install FFTW or OpenBLAS).
known=$(ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null)
for f in "$@"; do
  need=$(head -n 4 "$f" | sed -n 's/^% NEEDS: *//p' | head -n 1)
  [ -z "$need" ] && continue
  for alts in $need; do
    ok=0
    for lib in $(printf '%s\n' "$alts" | tr '|' ' '); do
      printf '%s\n' "$known" | grep -q "[[:space:]/]$lib\( \|\$\)" && ok=1
    done
    [ $ok = 0 ] && echo "$f: $alts"
  done
done
exit 0

#!/usr/bin/env bash
# tools/longest_functions.sh [N] [DIR]: the N (default 10) longest function bodies of the C
# files under DIR (default src): lines from a definition's first line to its closing brace
# in column 0.
n=${1:-10}; dir=${2:-src}
find "$dir" -name '*.c' | sort | xargs awk '
  FNR == 1 { infn = 0 }
  !infn && /^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ { start = FNR; name = $0; infn = 1 }
  infn && /^}/ { printf "%5d %s:%d %s\n", FNR - start + 1, FILENAME, start, substr(name, 1, 70); infn = 0 }
' | sort -rn | head -n "$n"

#!/usr/bin/env bash
# tools/longest_functions.sh [N] [DIR]: the N (default 10) longest function bodies of the C
# files under DIR (default src): lines from a definition's first line to its closing brace
# in column 0. A definition on one line counts 1; a declaration that spans lines (its `;`
# before any `{`) is none.
n=${1:-10}; dir=${2:-src}
find "$dir" -name '*.c' | sort | xargs awk '
  function report(len) { printf "%5d %s:%d %s\n", len, FILENAME, start, substr(name, 1, 70); infn = 0 }
  FNR == 1 { infn = 0 }
  !infn && /^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ { start = FNR; name = $0; infn = 1; body = 0 }
  infn && !body && /\{/ { body = 1; if (FNR == start && /\}[[:space:]]*$/) { report(1); next } }
  infn && !body && /;[[:space:]]*$/ { infn = 0; next }
  infn && /^}/ { report(FNR - start + 1) }
' | sort -rn | head -n "$n"

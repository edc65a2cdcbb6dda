#!/usr/bin/env bash
# tools/check_layers.sh: fails when a file of src/ includes a header of a higher layer, of a
# sibling folder, or another folder's private header (*_priv.h). The order is src/LAYERS.
# Prints one line per violation and `layers: N passed, N failed`; then runs
# tools/check_walk.sh (docs/design.md's walk names functions that exist).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
declare -A rank
r=0
while read -r line; do
  line=${line%%#*}
  [ -z "${line// }" ] && continue
  for d in $line; do rank[$d]=$r; done
  r=$((r + 1))
done < src/LAYERS
pass=0 fail=0
while IFS= read -r f; do
  dir=$(dirname "${f#src/}")
  [ "$dir" = runtime/noimage ] && dir=runtime
  if [ -z "${rank[$dir]+x}" ]; then echo "layers: $f: folder '$dir' is not in src/LAYERS"; fail=$((fail + 1)); continue; fi
  ok=1
  while IFS= read -r inc; do
    h=${inc#*\"}; h=${h%\"*}
    hdir=$(dirname "$h")
    if [ "$hdir" = . ]; then
      echo "layers: $f includes \"$h\": write includes from src/ (\"folder/$h\")"; ok=0; continue
    fi
    if [ ! -f "src/$h" ]; then echo "layers: $f includes \"$h\", which is not in src/"; ok=0; continue; fi
    [ "$hdir" = "$dir" ] && continue
    case $h in *_priv.h) echo "layers: $f includes $h, private to $hdir/"; ok=0; continue ;; esac
    if [ -z "${rank[$hdir]+x}" ]; then echo "layers: $f includes $h of unlisted folder $hdir"; ok=0
    elif [ "${rank[$hdir]}" -ge "${rank[$dir]}" ]; then
      echo "layers: $f ($dir) includes $h of a layer not below it ($hdir)"; ok=0
    fi
  done < <(grep -h '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f")
  if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done < <(find src -name '*.[ch]' | sort)
echo "layers: $pass passed, $fail failed"
# the architecture's map names real functions (docs/design.md's walk of one parallel_do)
walk=0
bash tools/check_walk.sh || walk=1
[ $fail = 0 ] && [ $walk = 0 ]

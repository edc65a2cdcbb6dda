#!/usr/bin/env bash
# tools/emit_snapshot.sh DIR: the generated C and CUDA (`oq emit --target c|cuda`) of every
# .q program of tests/ and examples/, one file per program and dialect under DIR, for
# comparing a refactoring's output before and after (diff -r BEFORE AFTER). Addresses in
# specialization keys (hex of 10 digits or more) and printed timings are masked, so that two
# runs of the same build compare equal.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
out=${1:?usage: tools/emit_snapshot.sh DIR}
mkdir -p "$out"
OQ=${OQ:-build/oq}
export OQ out
find tests examples -name '*.q' | sort | xargs -P "$(nproc)" -I{} bash -c '
  f={}; n=$(echo "$f" | tr / _)
  for t in c cuda; do
    OQ_CUDA_DISABLE=1 timeout 60 "$OQ" emit --target $t "$f" </dev/null 2>/dev/null |
      grep -v "^[[:space:]]*$" |
      sed -E "s/[0-9a-f]{10,}/PTR/g; s/[0-9]+\.[0-9]+ ?(ms|s|us)\b/T/g" > "$out/$n.$t" || true
  done'

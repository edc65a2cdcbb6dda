#!/usr/bin/env bash
# `make demo`: the histogram tutorial of seed 000 on a photograph, on the best back end.
set -eu
cd "$(dirname "$0")/.."
mkdir -p build/examples
echo "== oq run examples/hist_000.q"
build/oq run --verbose examples/hist_000.q examples/data/chelsea.png build/examples/hist_000.png

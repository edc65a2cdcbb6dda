#!/usr/bin/env bash
# `make demo`: the histogram tutorial of seed 000 on a photograph, on the best back end.
set -eu
cd "$(dirname "$0")/.."
echo "== oq run examples/histogram.q"
build/oq run --verbose examples/histogram.q

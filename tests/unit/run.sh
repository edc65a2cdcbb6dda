#!/usr/bin/env bash
# Builds and runs the runtime unit tests (tests/unit/test_rt.c) with the address and
# undefined-behaviour sanitizers. The last line printed is "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
CC=${CC:-cc}
mkdir -p build/unit
srcs="src/base/config.c src/runtime/rt_value.c src/runtime/rt_ops.c src/runtime/rt_index.c src/runtime/rt_print.c src/runtime/rt_builtins.c src/runtime/rt_object.c src/runtime/rt_stats.c src/runtime/rt_cache.c src/runtime/cache_admin.c src/base/diag.c src/base/arena.c src/front/ast.c src/front/funcinfo.c"
if ! $CC -std=c11 -O1 -g -Wall -Wextra -D_GNU_SOURCE -fsanitize=address,undefined \
     -fno-sanitize-recover=all -fno-omit-frame-pointer -Isrc \
     -o build/unit/test_rt tests/unit/test_rt.c $srcs -lm; then
  echo "0 passed, 1 failed (build)"
  exit 1
fi
out=$(UBSAN_OPTIONS=print_stacktrace=1 ./build/unit/test_rt)
rc=$?
last=$(printf '%s\n' "$out" | tail -n 1)
if [[ $last =~ ^[0-9]+\ passed,\ [0-9]+\ failed$ ]]; then
  printf '%s\n' "$out"
else
  printf '%s\n' "$out"
  echo "test binary died (status $rc)"
  echo "0 passed, 1 failed"
  exit 1
fi
exit $rc

#!/usr/bin/env bash
# Builds tests/unit/test_image.c with rt_image.c under AddressSanitizer and UBSan and runs it
# from the repository root. Its last line is "N passed, N failed"; the exit status is non-zero
# on any failure, including a build failure.
set -u
cd "$(dirname "$0")/../.."
out=build/test_image
mkdir -p build
CC=${CC:-cc}
if ! $CC -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer \
    -fsanitize=address,undefined -fno-sanitize-recover=undefined -Isrc \
    -o "$out" tests/unit/test_image.c src/runtime/rt_image.c src/runtime/rt_pnm.c src/base/diag.c src/base/arena.c \
    -lpng -ljpeg -ltiff -lm; then
  echo "test_image: build failed"
  echo "0 passed, 1 failed"
  exit 1
fi
# A sanitizer report must not pass for the expected exit status 1 of a runtime error.
export ASAN_OPTIONS=exitcode=86:detect_leaks=1
export UBSAN_OPTIONS=exitcode=87:print_stacktrace=1
"$out" "$@"

#!/usr/bin/env bash
# tools/asan_suite.sh [--q] [OQ]: the test suite (tests/run.sh, targets interp and cpu) run
# with the sanitized build (`make asan`: build/oq-asan, AddressSanitizer + UBSan), the
# kernels it compiles sanitized too (OQ_KERNEL_CFLAGS). Every report goes to a log file; the
# run fails when the suite fails or when any report was written. Leaks of one-time
# allocations are suppressed by tools/lsan.supp (each entry says why), nothing else.
# --q: the .q groups only (and the cli, kernel cache and idx32 groups, which tests/run.sh
# always runs), without parse, examples, video and fuzz-run: about half the time
# (CI_ASAN=q in .ci/run).
set -u
cd "$(dirname "$0")/.." || exit 2
if [ "${1:-}" = --q ]; then
  export OQ_TEST_EXTERNAL=none
  shift
fi
OQ=${1:-build/oq-asan}
[ -x "$OQ" ] || { echo "asan: $OQ not built (make asan)"; exit 2; }
SECONDS=0
logs=$(mktemp -d "${TMPDIR:-/tmp}/oq-asan.XXXXXX")
cache=$(mktemp -d "${TMPDIR:-/tmp}/oq-asan-cache.XXXXXX")
trap 'rm -rf "$logs" "$cache"' EXIT
export OQ_CACHE_DIR=$cache
# the kernels at -O1 (after the kernel compiler's -O3): the same checks, a third less compile
# time, which dominates the cpu target's run (every kernel is compiled once: one cache for the
# whole run). The sanitized oq has no TinyCC tier (Makefile): every kernel is sanitized.
export OQ_KERNEL_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -O1"
# allocator_may_return_null: "out of memory" is oq's error to report (tests/errors/out_of_memory.q);
# detect_stack_use_after_return off: the interpreter's fibers switch stacks (ucontext)
export ASAN_OPTIONS="log_path=$logs/asan:exitcode=86:detect_leaks=1:allocator_may_return_null=1:detect_stack_use_after_return=0:handle_segv=1"
export LSAN_OPTIONS="suppressions=$PWD/tools/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="log_path=$logs/ubsan:exitcode=87:print_stacktrace=1:halt_on_error=1"
export OQ_TEST_TARGETS=${OQ_TEST_TARGETS:-interp cpu}
# the other groups that run oq: unit, image and cuda build test programs of their own with
# ASan + UBSan already in make test (nothing of build/oq-asan runs there), editors runs no
# oq; faults runs as nobody and with ulimit -f (the sanitizers' logs could not be written)
export OQ_TEST_EXTERNAL=${OQ_TEST_EXTERNAL:-parse|examples|examples-profile|video|fuzz-run}
export OQ_SKIP_FAULTS=1
export OQ_TEST_TIMEOUT=${OQ_TEST_TIMEOUT:-300}
# the sanitizers need deeper stacks for the recursion tests (frames grow with redzones)
ulimit -s unlimited 2>/dev/null || ulimit -S -s "$(ulimit -H -s)"
OQ=$OQ bash tests/run.sh
rc=$?
# ASan warns once about swapcontext (the interpreter's fibers): not a finding
reports=0
for f in "$logs"/*; do
  [ -e "$f" ] || continue
  # the cli group's runs under `ulimit -v` (out of memory is oq's error to report) leave
  # ASan's own run-time no room for its tables ("failed to allocate ... (error code: 12)",
  # or its internal allocator's "Failed to mmap"): not a report about oq
  if ! grep -E 'ERROR: |runtime error: |SUMMARY: ' "$f" |
       grep -v 'AddressSanitizer failed to allocate .* (error code: 12)' | grep -qv '^ERROR: Failed to mmap$'; then
    continue
  fi
  if grep -q -E 'ERROR: |runtime error: |SUMMARY: ' "$f"; then
    reports=$((reports + 1))
    echo "== sanitizer report $(basename "$f")"
    head -n 40 "$f"
  fi
done
echo "asan: suite exit status $rc, $reports sanitizer reports, $((SECONDS / 60))m$(printf '%02d' $((SECONDS % 60)))s"
[ "$rc" -eq 0 ] && [ "$reports" -eq 0 ]

#!/usr/bin/env bash
# tools/fuzz/run.sh [SECONDS] [FUZZER...]: runs each libFuzzer harness (build/fuzz/fuzz_*,
# `make fuzz-build`) for SECONDS (default 60) on a working copy of its seed corpus
# (tools/fuzz/corpus_NAME -> build/fuzz/work_NAME, so the repository's seeds stay small).
# Limits: 10 s per input (a hang), 2 GiB of memory (an allocation the input cannot justify).
# One line per fuzzer: executions, coverage, corpus, findings; a finding's input is kept in
# build/fuzz/ (crash-*, timeout-*, oom-*, leak-*) and its report printed. Exit status 1 on
# any finding. `make fuzz` runs it for FUZZ_SECONDS (600); CI for 60. docs/reliability.md.
set -u
cd "$(dirname "$0")/../.." || exit 2
secs=${1:-60}
shift || true
fuzzers=${*:-front imread}
found=0
for name in $fuzzers; do
  bin=build/fuzz/fuzz_$name
  [ -x "$bin" ] || { echo "fuzz_$name: not built (make fuzz-build)"; found=1; continue; }
  work=build/fuzz/work_$name
  mkdir -p "$work"
  cp -n tools/fuzz/corpus_"$name"/* "$work"/ 2>/dev/null
  log=build/fuzz/fuzz_$name.log
  # the front end keeps each loaded program until exit (oq loads one per process; nothing
  # frees a Program): its per-input leak is by design, so leaks are not checked there, and
  # -rss_limit_mb bounds the growth
  extra=""
  leaks=1
  [ "$name" = front ] && extra=-detect_leaks=0 leaks=0
  # the programs' own error messages go to stderr: the log keeps them, the summary does not
  ASAN_OPTIONS=detect_leaks=$leaks "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix=build/fuzz/ $extra "$work" >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -n 's/.*cov: \([0-9]*\).*ft: \([0-9]*\).*corp: \([0-9]*\).*/cov \1, features \2, corpus \3/p')
  if [ "$rc" -ne 0 ]; then
    found=1
    echo "fuzz_$name: FINDING after ${runs:-?} executions (exit status $rc); input and report:"
    grep -E 'ERROR|SUMMARY|Test unit written|deadly signal|timeout|out-of-memory' "$log" | head -n 20 | sed 's/^/    | /'
  else
    echo "fuzz_$name: ${runs:-?} executions in ${secs} s, ${cov:-coverage unknown}, no finding"
  fi
done
exit $found

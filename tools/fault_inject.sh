#!/usr/bin/env bash
# tools/fault_inject.sh [OQ]: faults of the kernel cache and of the machine, injected one by
# one; prints a table (case, what is expected, what happened) and ends with
# "N passed, N failed". Run by `make test` (tests/run.sh, group faults) and documented in
# docs/reliability.md. Each case uses a cache folder of its own.
#
# The program run is tests/lang/two_kernels.q (two kernels, asserting their results
# against host loops): exit status 0 means the answers were right.
set -u
# every entry is the C compiler's, built while the program waits (no TinyCC first build and
# background build: docs/cpu.md, tiers), so that each case finds the entry it damages
export OQ_CPU_TIERS=0
cd "$(dirname "$0")/.." || exit 2
OQ=${1:-build/oq}
case $OQ in /*) ;; *) OQ=$PWD/$OQ ;; esac
PROG=tests/lang/two_kernels.q
work=$(mktemp -d "${TMPDIR:-/tmp}/oq-faults.XXXXXX")
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
pass=0 fail=0
row() {   # row CASE EXPECTED GOT OK
  local mark=PASS
  if [ "$4" = ok ]; then pass=$((pass + 1)); else fail=$((fail + 1)); mark=FAIL; fi
  printf '| %-44s | %-44s | %-44s | %s |\n' "$1" "$2" "$3" "$mark"
}
run() {   # run CACHE [ENV...]: runs PROG --target cpu; sets rc and err
  local cache=$1
  shift
  env OQ_CACHE_DIR="$cache" "$@" timeout -k 5 120 "$OQ" run --target cpu "$PROG" >"$work/out" 2>"$work/err" </dev/null
  rc=$?
  err=$(head -n 1 "$work/err" | cut -c1-60)
}
fresh() {   # fresh NAME: a cache with the program's entries built
  local c=$work/$1
  mkdir -p "$c"
  run "$c"
  echo "$c"
}
first_so() { ls "$1"/oqk_*.so 2>/dev/null | head -n 1; }
sealed_all() {   # every entry of the cache is sealed (its last 32 bytes start "!OQSEAL1")
  local f
  for f in "$1"/oqk_*.so; do
    [ -e "$f" ] || continue
    [ "$(tail -c 32 "$f" | head -c 8)" = '!OQSEAL1' ] || return 1
  done
}

printf '| %-44s | %-44s | %-44s | %s |\n' case expected got result
printf '|%s|%s|%s|------|\n' "$(printf -- '-%.0s' {1..46})" "$(printf -- '-%.0s' {1..46})" "$(printf -- '-%.0s' {1..46})"

# 1. an entry truncated to 4096 bytes (a full disk, a crash): SIGBUS in dlopen before
c=$(fresh truncated); so=$(first_so "$c"); truncate -s 4096 "$so"
run "$c"
row "truncated entry (4096 bytes)" "rebuilt, right answers, exit 0" "exit $rc, $(sealed_all "$c" && echo sealed || echo unsealed)" \
  "$([ $rc -eq 0 ] && sealed_all "$c" && [ "$(stat -c %s "$so")" -gt 4096 ] && echo ok)"

# 2. one byte of an entry flipped
c=$(fresh corrupt); so=$(first_so "$c"); size=$(stat -c %s "$so")
printf '\x5a' | dd of="$so" bs=1 seek=$((size / 2)) conv=notrunc status=none
run "$c"
row "corrupt entry (one byte flipped)" "rebuilt, right answers, exit 0" "exit $rc" "$([ $rc -eq 0 ] && sealed_all "$c" && echo ok)"

# 3. a valid entry of another kernel under this name: wrong results before
c=$(fresh foreign); set -- "$c"/oqk_*.so
if [ $# -ge 2 ]; then
  cp "$1" "$work/a.so"; cp "$2" "$1"
  run "$c"
  row "foreign entry (another kernel's file)" "rebuilt, right answers, exit 0" "exit $rc" "$([ $rc -eq 0 ] && ! cmp -s "$1" "$2" && echo ok)"
else
  row "foreign entry (another kernel's file)" "two entries to swap" "only $# entries" no
fi

# 4. an empty file under an entry's name
c=$(fresh empty); so=$(first_so "$c"); : >"$so"
run "$c"
row "empty entry" "rebuilt, exit 0" "exit $rc" "$([ $rc -eq 0 ] && [ -s "$so" ] && echo ok)"

# 5. a cache folder that cannot be written (as user nobody)
c=$work/readonly; mkdir -p "$c"; chmod 755 "$c"
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
  chmod 755 "$work"
  env OQ_CACHE_DIR="$c" HOME="$work" setpriv --reuid=nobody --regid=nogroup --clear-groups \
    timeout -k 5 120 "$OQ" run --target cpu "$PROG" >"$work/out" 2>"$work/err" </dev/null
  rc=$?; err=$(head -n 1 "$work/err" | cut -c1-44)
  row "read-only cache folder" "exit 1, error names the cache" "exit $rc: $err" \
    "$([ $rc -eq 1 ] && grep -q 'cannot write' "$work/err" && echo ok)"
else
  row "read-only cache folder" "(needs root and setpriv)" "skipped" ok
fi

# 6. a full disk: every file write fails past 4 KiB (ulimit -f; SIGXFSZ ignored, so
#    writes fail with EFBIG as on a full disk)
c=$work/full; mkdir -p "$c"
( trap '' XFSZ; ulimit -f 8; run "$c"; echo "$rc" >"$work/rc" )
rc=$(cat "$work/rc"); err=$(head -n 1 "$work/err" | cut -c1-44)
row "full disk (file size limit 4 KiB)" "exit 1 with an error, no bad entry" "exit $rc: $err" \
  "$([ "$rc" = 1 ] && grep -q 'error' "$work/err" && sealed_all "$c" && echo ok)"
run "$c"
row "... then the disk has room again" "exit 0" "exit $rc" "$([ $rc -eq 0 ] && echo ok)"

# 7. no C compiler
run "$work/nocc" CC=/nonexistent/cc
row "missing compiler (CC=/nonexistent/cc)" "exit 1, error names the compiler" "exit $rc" \
  "$([ $rc -eq 1 ] && grep -q "C compiler '/nonexistent/cc' failed" "$work/err" && echo ok)"

# 8. kill -9 while the C compiler runs: the temporary files left are removed once stale
c=$work/killed; mkdir -p "$c"
( export OQ_CACHE_DIR="$c"; exec setsid "$OQ" run --target cpu "$PROG" >/dev/null 2>&1 </dev/null ) &
pid=$!
for _ in $(seq 1 200); do ls "$c"/*.tmp* >/dev/null 2>&1 && break; sleep 0.05; done
kill -9 -- -"$pid" 2>/dev/null || kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
sleep 0.5
left=$(ls "$c" | grep -c '\.tmp')
touch -d '20 minutes ago' "$c"/* 2>/dev/null
touch -d '1 day ago' "$c/prune.stamp" 2>/dev/null
run "$c"
after=$(ls "$c" | grep -c '\.tmp')
row "kill -9 during a compile" "tmp files removed later, exit 0" "$left tmp left, $after after; exit $rc" \
  "$([ $rc -eq 0 ] && [ "$after" -eq 0 ] && sealed_all "$c" && echo ok)"

# 9. 8 runs at once on one empty cache
c=$work/concurrent; mkdir -p "$c"
for i in 1 2 3 4 5 6 7 8; do
  OQ_CACHE_DIR="$c" timeout -k 5 300 "$OQ" run --target cpu "$PROG" >/dev/null 2>"$work/err$i" </dev/null &
done
bad=0
for job in $(jobs -p); do wait "$job" || bad=$((bad + 1)); done
row "8 concurrent runs, one empty cache" "all exit 0, every entry sealed" "$bad failed" \
  "$([ $bad -eq 0 ] && sealed_all "$c" && echo ok)"

# 10. runaway recursion with a 1 MiB stack (a SIGSEGV before)
( ulimit -s 1024; timeout -k 5 60 "$OQ" run --target interp tests/errors/recursion_runaway.q >/dev/null 2>"$work/err" </dev/null; echo $? >"$work/rc" )
rc=$(cat "$work/rc")
row "runaway recursion, ulimit -s 1024" "exit 1, call depth error" "exit $rc" \
  "$([ "$rc" = 1 ] && grep -q 'call depth limit' "$work/err" && echo ok)"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

#!/usr/bin/env bash
# tests/run.sh: every test of OpenQuasar, as `make test` runs it (with build/oq built).
#
# Groups, in this order:
#   parse, unit    tests/parse/run.sh build/oq and tests/unit/run.sh, when they exist (and
#                  the image, examples, cuda, fuzz-run and editors suites); each
#                  ends with a line `N passed, N failed`, whose counts are added here
#   faults         tools/fault_inject.sh: a damaged kernel cache, read-only and full cache
#                  folders, no compiler, kill -9, 8 concurrent runs (docs/reliability.md)
#   lang, seeds    tests/lang/*.q, tests/seeds_run/*.q and tests/cpu/*.q: pass = exit status 0
#   print          tests/print/*.q: stdout must equal tests/print/NAME.out byte for byte
#   errors         tests/errors/*.q, tests/cpu_errors/*.q: the first line `% EXPECT: <status> <regex>` gives the exit
#                  status and an extended regex that the FIRST line of stderr must match;
#                  a line `% MODE: check` runs `oq check` instead of `oq run`
#   explain        tests/explain/*.q: stdout of `oq check --explain` equals tests/explain/NAME.out
#   parloop-diff   programs with parallel loops print the same with --no-parloop
#   cli            usage errors, missing files, --version, check, parse --dump, `oq FILE.q`,
#                  `oq run -`, make install into a temporary prefix (run from there)
# The .q groups run once per target in $OQ_TEST_TARGETS (default: interp cpu), in parallel,
# plus the pseudo-target cudacheck when NVRTC is installed (lang, seeds_run and cpu on the CPU
# with OQ_CUDA_CHECK=1: every kernel's CUDA source must compile with NVRTC for sm_90),
# with `timeout $OQ_TEST_TIMEOUT` (default 120 s) per program. One line per failure with the
# reason and the first lines of output, one summary line per group as the group finishes
# (after the time since the start: [3m05s]), the duration, and as the LAST line exactly
# `N passed, N failed` (totals). Exit status 1 if anything failed.
#
# Environment: OQ_NO_IMAGES=1 (set by make NO_IMAGES=1) skips the image library suite, the
# examples gallery (tests/examples/run.sh, which reads PNGs), except its --profile part, and
# tests/video/run.sh (video, EXR and plots).
# OQ_SKIP_FAULTS=1 skips tools/fault_inject.sh (the sanitized suite does: setpriv, ulimit -f).
# OQ (default build/oq), OQ_TEST_TARGETS, OQ_TEST_EXTERNAL (a regex of the other groups to
# run, e.g. 'cli|unit'; none: the .q programs only), OQ_TEST_TIMEOUT, OQ_TEST_JOBS
# (default nproc), OQ_TEST_ONLY (an extended regex: only .q files whose path matches),
# OQ_TEST_FULL=1 (`make test-full`, run by CI: the heavy comparisons over every program).
# A .q test with a line `% NEEDS: LIB...` is skipped, saying so, where a run-time library it
# needs is not installed (tools/needs.sh: FFTW, OpenBLAS/LAPACK).
set -u

SELF=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")
cd "$(dirname "$SELF")/.." || exit 1
OQ=${OQ:-build/oq}
TIMEOUT=${OQ_TEST_TIMEOUT:-120}
export OQ TIMEOUT

# ---- one job (run by xargs in a child): tests/run.sh --one KIND TARGET FILE RESULT ----------
# Writes RESULT: first line PASS or `FAIL <reason>`, then detail lines to show on failure.
first_lines() {   # first_lines FILE N: up to N lines, indented, long lines cut
  [ -s "$1" ] || return 0
  head -n "$2" "$1" | cut -c1-200 | sed 's/^/    | /'
}

one() {
  local kind=$1 target=$2 file=$3 res=$4
  local out=$res.stdout err=$res.stderr rc
  if [ -n "$(sh tools/needs.sh "$file")" ]; then   # a library it needs is missing: skipped
    printf 'PASS\n    | skipped: %s\n' "$(sh tools/needs.sh "$file")" >"$res"
    return
  fi
  if [ "$kind" = error ] && grep -q '^% MODE: check$' "$file"; then   # found by `oq check`
    timeout -k 5 "$TIMEOUT" "$OQ" check "$file" >"$out" 2>"$err" </dev/null
  elif [ "$target" = cudacheck ]; then
    OQ_CUDA_CHECK=1 timeout -k 5 "$TIMEOUT" "$OQ" run --target cpu "$file" >"$out" 2>"$err" </dev/null
  else
    timeout -k 5 "$TIMEOUT" "$OQ" run --target "$target" "$file" >"$out" 2>"$err" </dev/null
  fi
  rc=$?
  (
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
      echo "FAIL timed out after ${TIMEOUT}s"
      first_lines "$err" 5
      exit 0
    fi
    case $kind in
      run)
        if [ "$rc" -eq 0 ]; then echo PASS; exit 0; fi
        echo "FAIL exit status $rc"
        first_lines "$err" 6
        first_lines "$out" 3
        ;;
      print)
        local want=${file%.q}.out
        if [ ! -f "$want" ]; then echo "FAIL no expected output file $want"; exit 0; fi
        if [ "$rc" -ne 0 ]; then
          echo "FAIL exit status $rc"
          first_lines "$err" 6
          exit 0
        fi
        # Byte-exact comparison without diffutils: same size and same lines.
        local why
        why=$(awk -v w="$want" '
          BEGIN { n = 0; while ((getline line < w) > 0) want_l[++n] = line }
          { got[NR] = $0 }
          END {
            m = NR
            for (i = 1; i <= (m > n ? m : n); i++) {
              if (i > n) { printf "line %d: unexpected extra output \"%s\"\n", i, got[i]; exit }
              if (i > m) { printf "line %d: output ends, expected \"%s\"\n", i, want_l[i]; exit }
              if (got[i] != want_l[i]) {
                printf "line %d: expected \"%s\", got \"%s\"\n", i, want_l[i], got[i]; exit
              }
            }
          }' "$out")
        if [ -z "$why" ] && [ "$(wc -c <"$out")" != "$(wc -c <"$want")" ]; then
          why="same lines but different byte count (trailing newline?)"
        fi
        if [ -z "$why" ]; then echo PASS; else echo "FAIL stdout differs: $why"; fi
        ;;
      error)
        local spec want_rc regex line1
        spec=$(head -n 1 "$file")
        want_rc=$(printf '%s\n' "$spec" | sed -n 's/^% EXPECT: \([0-9][0-9]*\) .*$/\1/p')
        regex=$(printf '%s\n' "$spec" | sed -n 's/^% EXPECT: [0-9][0-9]* \(.*\)$/\1/p')
        if [ -z "$want_rc" ] || [ -z "$regex" ]; then
          echo "FAIL first line is not '% EXPECT: <status> <regex>'"
          exit 0
        fi
        line1=$(head -n 1 "$err")
        if [ "$rc" -ne "$want_rc" ]; then
          echo "FAIL exit status $rc, expected $want_rc"
          first_lines "$err" 4
        elif ! printf '%s\n' "$line1" | grep -Eq -- "$regex"; then
          echo "FAIL first line of stderr does not match /$regex/"
          echo "    | $(printf '%s' "$line1" | cut -c1-200)"
        else
          echo PASS
        fi
        ;;
    esac
  ) >"$res.part"
  mv "$res.part" "$res"   # whole: the driver reports a group once all its results exist
}

if [ "${1:-}" = "--one" ]; then
  shift
  one "$@"
  exit 0
fi

# ---- the driver -------------------------------------------------------------------------
total_pass=0
total_fail=0
add() { total_pass=$((total_pass + $1)); total_fail=$((total_fail + $2)); }
# the time since the start, before each group's line as it finishes: [3m05s]
stamp() { printf '[%dm%02ds] ' $((SECONDS / 60)) $((SECONDS % 60)); }
SECONDS=0

if [ ! -x "$OQ" ]; then
  echo "FAIL $OQ does not exist or is not executable (run make first)"
  echo "0 passed, 1 failed"
  exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/oq-tests.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# (a) suites of the other parts, each ending with `N passed, N failed`
external() {   # external NAME SCRIPT ARGS...
  local name=$1 script=$2
  shift 2
  [ -f "$script" ] || return 0
  # OQ_TEST_EXTERNAL: an extended regex of the groups to run (none: only the .q programs)
  if [ -n "${OQ_TEST_EXTERNAL:-}" ] && ! [[ $name =~ ^(${OQ_TEST_EXTERNAL})$ ]]; then return 0; fi
  local log=$tmp/$name.log rc last p f
  bash "$script" "$@" >"$log" 2>&1 </dev/null
  rc=$?
  last=$(tail -n 1 "$log")
  if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    p=${BASH_REMATCH[1]}
    f=${BASH_REMATCH[2]}
    if [ "$f" -eq 0 ] && [ "$rc" -ne 0 ]; then
      echo "FAIL $name: $script exited with status $rc although it reports no failure"
      f=1
    fi
  else
    echo "FAIL $name: $script (exit status $rc) did not end with 'N passed, N failed'"
    p=0
    f=1
  fi
  if [ "$f" -ne 0 ]; then
    echo "  last lines of the output of $script:"
    tail -n 20 "$log" | cut -c1-200 | sed 's/^/    | /'
  fi
  echo "$(stamp)$name: $p passed, $f failed"
  add "$p" "$f"
}
external parse tests/parse/run.sh "$OQ"
external unit tests/unit/run.sh
if [ "${OQ_NO_IMAGES:-}" = 1 ]; then   # make NO_IMAGES=1: no image libraries to test
  echo "image: skipped (built with NO_IMAGES=1)"
  external examples-profile tests/examples/run.sh profile   # needs no libpng (GPU machine)
else
  external image tests/unit/run_image.sh
  external examples tests/examples/run.sh
  external video tests/video/run.sh   # FFmpeg, OpenEXR, plots (reads PNGs back)
fi
external cuda tests/unit/run_cuda.sh
external fuzz-run tests/fuzz_run.sh "$OQ"
# the kernel cache and the machine failing (issue 23): tools/fault_inject.sh's table
[ -n "${OQ_SKIP_FAULTS:-}" ] || external faults tools/fault_inject.sh "$OQ"
external editors contrib/test_editors.sh

# (b, c, d) the .q programs, in parallel; results are printed in a fixed order
shopt -s nullglob
jobs=$tmp/jobs
: >"$jobs"
groups=()
n=0
nvrtc_found() {
  local d
  for d in "${OQ_NVRTC:-}" "${CUDA_HOME:-/usr/local/cuda}"/lib64/libnvrtc.so* /usr/local/cuda/lib64/libnvrtc.so*; do
    [ -n "$d" ] && [ -e "$d" ] && return 0
  done
  ldconfig -p 2>/dev/null | grep -q 'libnvrtc\.so'
}
targets=${OQ_TEST_TARGETS:-interp cpu}
if [ -z "${OQ_TEST_TARGETS:-}" ]; then
  if nvrtc_found; then targets="$targets cudacheck"; else echo "cudacheck: skipped (NVRTC not found)"; fi
fi
for target in $targets; do
  for group in lang seeds_run cpu print errors cpu_errors; do
    if [ "$target" = cudacheck ]; then case $group in lang|seeds_run|cpu) ;; *) continue ;; esac; fi
    case $group in
      print) kind=print ;;
      errors|cpu_errors) kind=error ;;
      *) kind=run ;;
    esac
    groups+=("$group $target $((n))")
    for f in tests/"$group"/*.q; do
      if [ -n "${OQ_TEST_ONLY:-}" ] && ! [[ $f =~ ${OQ_TEST_ONLY} ]]; then continue; fi
      if grep -q '^% NEEDS: ' "$f" && [ -n "$(sh tools/needs.sh "$f")" ]; then
        echo "skip $group/$target $(sh tools/needs.sh "$f") not found"
        continue
      fi
      n=$((n + 1))
      echo "$kind $target $f $tmp/r$n" >>"$jobs"
    done
  done
done
groups+=("end - $n")

njobs=${OQ_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
xargs -r -P "$njobs" -n 4 bash "$SELF" --one <"$jobs" &
xargs_pid=$!

# report_group G: the failures and the summary line of group G (its results are all in)
report_group() {
  local g=$1 group target from to p=0 f=0 i line file res
  read -r group target from <<<"${groups[g]}"
  read -r _ _ to <<<"${groups[g + 1]}"
  for ((i = from + 1; i <= to; i++)); do
    line=$(sed -n "${i}p" "$jobs")
    file=$(cut -d' ' -f3 <<<"$line")
    res=$tmp/r$i
    if [ ! -s "$res" ]; then
      echo "FAIL $group/$target $file: the test runner lost its result"
      f=$((f + 1))
    elif [ "$(head -n 1 "$res")" = PASS ]; then
      p=$((p + 1))
    else
      echo "FAIL $group/$target $file: $(head -n 1 "$res" | sed 's/^FAIL //')"
      tail -n +2 "$res"
      f=$((f + 1))
    fi
  done
  echo "$(stamp)$group ($target): $p passed, $f failed"
  add "$p" "$f"
}

# group_done G: whether every result of group G is written (a job writes its result at its end)
group_done() {
  local from to i
  read -r _ _ from <<<"${groups[$1]}"
  read -r _ _ to <<<"${groups[$1 + 1]}"
  for ((i = from + 1; i <= to; i++)); do [ -s "$tmp/r$i" ] || return 1; done
}

# the groups in their order, each as soon as it and those before it are done
g=0
while ((g + 1 < ${#groups[@]})); do
  if group_done "$g"; then
    report_group "$g"
    g=$((g + 1))
  elif kill -0 "$xargs_pid" 2>/dev/null; then
    sleep 1
  else
    wait "$xargs_pid"
    for (( ; g + 1 < ${#groups[@]}; g++)); do report_group "$g"; done
  fi
done
wait "$xargs_pid" 2>/dev/null

# (d2) tests/explain/*.q: the stdout of `oq check --explain` is NAME.out, byte for byte
ep=0
ef=0
for f in tests/explain/*.q; do
  if [ -n "${OQ_TEST_ONLY:-}" ] && ! [[ $f =~ ${OQ_TEST_ONLY} ]]; then continue; fi
  timeout -k 5 30 "$OQ" check --explain "$f" >"$tmp/explain.out" 2>"$tmp/explain.err" </dev/null
  rc=$?
  if [ "$rc" -eq 0 ] && [ "$(cat "$tmp/explain.out"; echo .)" = "$(cat "${f%.q}.out"; echo .)" ]; then
    ep=$((ep + 1))
  else
    echo "FAIL explain $f: exit status $rc or output differs; got:"
    first_lines "$tmp/explain.out" 40
    first_lines "$tmp/explain.err" 5
    ef=$((ef + 1))
  fi
done
echo "$(stamp)explain: $ep passed, $ef failed"
add "$ep" "$ef"

# (d3) differential: the programs that exercise parallel loops print the same with
# --no-parloop (every host loop serial)
dp=0
df=0
for f in tests/lang/parloop_*.q tests/lang/macros.q tests/seeds_run/hist_*.q; do
  if [ -n "${OQ_TEST_ONLY:-}" ] && ! [[ $f =~ ${OQ_TEST_ONLY} ]]; then continue; fi
  timeout -k 5 "$TIMEOUT" "$OQ" run --target cpu "$f" >"$tmp/par.out" 2>&1 </dev/null
  r1=$?
  timeout -k 5 "$TIMEOUT" "$OQ" run --target cpu --no-parloop "$f" >"$tmp/ser.out" 2>&1 </dev/null
  r2=$?
  # timings (toc) differ: compare the rest
  if [ "$r1" -eq 0 ] && [ "$r2" -eq 0 ] &&
     [ "$(grep -Ev ': [0-9.]+ ms$' "$tmp/par.out")" = "$(grep -Ev ': [0-9.]+ ms$' "$tmp/ser.out")" ]; then
    dp=$((dp + 1))
  else
    echo "FAIL parloop-diff $f: exit $r1 (parallel) / $r2 (--no-parloop), or outputs differ"
    first_lines "$tmp/par.out" 5
    first_lines "$tmp/ser.out" 5
    df=$((df + 1))
  fi
done
echo "$(stamp)parloop-diff: $dp passed, $df failed"
add "$dp" "$df"

# (e) the command line
cli_pass=0
cli_fail=0
cli() {   # cli DESCRIPTION WANT_STATUS STREAM REGEX -- ARGS...: STREAM is out, err or -
  local what=$1 want=$2 stream=$3 regex=$4 rc   # (CLI_TIMEOUT: seconds, 30 unless set)
  shift 5
  timeout -k 5 "${CLI_TIMEOUT:-30}" "$OQ" "$@" >"$tmp/cli.out" 2>"$tmp/cli.err" </dev/null
  rc=$?
  local text=""
  case $stream in
    out) text=$(cat "$tmp/cli.out") ;;
    err) text=$(cat "$tmp/cli.err") ;;
  esac
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL cli: $what: oq $* exited with $rc, expected $want"
    first_lines "$tmp/cli.err" 3
    cli_fail=$((cli_fail + 1))
  elif [ "$stream" != - ] && ! printf '%s\n' "$text" | grep -Eq -- "$regex"; then
    echo "FAIL cli: $what: std$stream of oq $* does not match /$regex/"
    first_lines "$tmp/cli.$stream" 3
    cli_fail=$((cli_fail + 1))
  else
    cli_pass=$((cli_pass + 1))
  fi
}
ok_file=tests/print/ints.q
bad_file=tests/errors/syntax_error.q
missing=tests/errors/no_such_file_here.q
cli "no arguments is a usage error" 2 err 'usage' -- 
cli "unknown command" 2 err 'usage|unknown' -- frobnicate "$ok_file"
cli "unknown option" 2 err 'unknown option' -- run --no-such-flag "$ok_file"
cli "no input file" 2 err 'no input file' -- run
cli "program arguments without main()" 1 err 'no main\(\) to take them' -- run "$ok_file" "$ok_file"
cli "program arguments go to main()" 0 out '^hello 7 2\.5 x$' -- run tests/examples/main_args.q hello 7 2.5
cli "too many program arguments" 1 err 'runtime error: 5 program arguments given, but main\(\) takes 4' -- run tests/examples/main_args.q a 1 2 b c
cli "a program argument of the wrong type" 1 err "argument 'n' of 'main' expects int" -- run tests/examples/main_args.q a 1.5
cli "two input files (check)" 2 err 'unexpected argument' -- check "$ok_file" "$ok_file"
cli "unknown target" 2 err 'unknown target' -- run --target nowhere "$ok_file"
cli "unknown precision" 2 err 'unknown precision' -- run --precision half "$ok_file"
cli "missing file" 1 err 'cannot read' -- run "$missing"
cli "missing file (check)" 1 err 'cannot read' -- check "$missing"
cli "--version" 0 out '^oq .*[0-9]+\.[0-9]+' -- --version
cli "help" 0 out 'usage' -- help
cli "check of a valid program" 0 - '' -- check "$ok_file"
cli "check of a syntax error" 1 err 'error' -- check "$bad_file"
# after failed imports, check still reports the program's name errors (issue 21)
cli "check after a failed import: the second one" 1 err "cannot import 'no_such_module_either\.q'" -- check tests/errors/import_check_all.q
cli "check after a failed import: unknown names" 1 err "9:23: error: unknown name 'also_missing'" -- check tests/errors/import_check_all.q
cli "check after a failed import: other name errors" 1 err "11:5: error: 'continue' outside a loop" -- check tests/errors/import_check_all.q
cli "parse --dump prints a tree" 0 out '.' -- parse --dump "$ok_file"
cli "run --precision double" 0 - '' -- run --precision double --target interp "$ok_file"
# math functions of floats compute in float only in single precision: in double, exactly the interpreter's
cli "double-precision math functions are the interpreter's" 0 - '' -- run --precision double --target cpu tests/lang/float_math.q
cli "emit --target cuda prints CUDA C++" 0 out '^extern "C" __global__ void oqk_entry' -- emit --target cuda tests/lang/kernel_1d.q
# out of memory (a limit on the address space) is a run-time error naming the statement,
# never a crash: TinyCC, which crashes when its allocations fail, runs only with room left
oom_bad=""
for v in $(seq 15000 1000 40000); do
  rm -rf "$tmp/oomcache"
  (ulimit -v $v; OQ_CACHE_DIR=$tmp/oomcache timeout -k 5 60 "$OQ" run --target cpu tests/lang/two_kernels.q \
    >/dev/null 2>"$tmp/oom.err" </dev/null)
  rc=$?
  # 127: the dynamic loader found too little room (before oq runs)
  if [ $rc -gt 128 ] || { [ $rc -eq 1 ] && ! head -n 1 "$tmp/oom.err" | grep -Eq '^tests/lang/two_kernels\.q:[0-9]+:[0-9]+: runtime error: '; }; then
    oom_bad="$oom_bad $v:$rc"
  fi
done
if [ -z "$oom_bad" ]; then cli_pass=$((cli_pass + 1))
else echo "FAIL cli: under a memory limit (KiB:status)$oom_bad"; first_lines "$tmp/oom.err" 3; cli_fail=$((cli_fail + 1)); fi
# oq check types the kernels whose parameters all have types (kernel_check.c; its errors
# are tests/errors/check_kernel_*.q): none in the seed programs and examples
ck_bad=""
for f in examples/*.q tests/seeds_run/*.q; do
  timeout -k 5 30 "$OQ" check "$f" >/dev/null 2>&1 </dev/null || ck_bad="$ck_bad $f"
done
if [ -z "$ck_bad" ]; then cli_pass=$((cli_pass + 1))
else echo "FAIL cli: oq check reports errors in$ck_bad"; cli_fail=$((cli_fail + 1)); fi
# a kernel's launch fused with the statement after it (docs/language.md, "Host array
# expressions"): the TV loop's 5 iterations run as expr_tv_L_tv_grad (g dies), tv_keep's 3
# as expr_tv_keep_L_tv_grad (g written too); tv_grad itself runs only where fusion must not
# (an alias of a dead g, an alias read by the statement, a partial launch, t5's, the
# partial launch after tv_then_part's loop)
cli "--profile shows the launch fused" 0 err '^expr_tv_[0-9]+_tv_grad@arrayexpr_kernel_fuse\.q:[0-9]+ +cpu +5 .*fused with a kernel' -- run --target cpu --profile=wide tests/lang/arrayexpr_kernel_fuse.q
cli "--profile shows the launch fused, g written" 0 err '^expr_tv_keep_[0-9]+_tv_grad@arrayexpr_kernel_fuse\.q:[0-9]+ +cpu +3 ' -- run --target cpu --profile=wide tests/lang/arrayexpr_kernel_fuse.q
cli "--profile: the launches not fused" 0 err '^tv_grad@arrayexpr_kernel_fuse\.q:[0-9]+ +cpu +5 ' -- run --target cpu --profile=wide tests/lang/arrayexpr_kernel_fuse.q
# !kernel_tiling (docs/language.md): listed by --profile, shown by emit, ignored with a note for block kernels
cli "--profile lists the tiling" 0 err 'tiling\(global 8x8x1, local 1x3x1\)' -- run --target cpu --profile=wide tests/lang/kernel_tiling.q
cli "emit --target cuda shows the tiles" 0 out 'kernel g2: tiles of boxes of positions' -- emit --target cuda tests/lang/kernel_tiling.q
cli "--verbose: tiling ignored for block kernels" 0 err "kernel 'blocked': !kernel_tiling is ignored" -- run --target cpu --verbose tests/lang/kernel_tiling.q
# the CPU workers follow the affinity mask (taskset, a container's cpuset), not every processor
# online; OQ_THREADS still overrides it
all_cpus=$(nproc)
cli "--verbose: one worker per usable processor" 0 err "CPU back end: $all_cpus workers? \\($all_cpus processors? usable\\)" -- \
  run --target cpu --verbose tests/lang/kernel_tiling.q
if command -v taskset >/dev/null 2>&1; then
  w1=$(taskset -c 0 timeout -k 5 30 "$OQ" run --target cpu --verbose tests/lang/kernel_tiling.q 2>&1 >/dev/null </dev/null | grep 'CPU back end')
  w3=$(OQ_THREADS=3 taskset -c 0 timeout -k 5 30 "$OQ" run --target cpu --verbose tests/lang/kernel_tiling.q 2>&1 >/dev/null </dev/null | grep 'CPU back end')
  if [ "$w1" = "oq: CPU back end: 1 worker (1 processor usable)" ] && [ "$w3" = "oq: CPU back end: 3 workers (1 processor usable)" ]; then
    cli_pass=$((cli_pass + 1))
  else
    echo "FAIL cli: taskset -c 0 gives '$w1', with OQ_THREADS=3 '$w3'"; cli_fail=$((cli_fail + 1))
  fi
fi
# persistent blocks (docs/cuda.md): exactly the kernels that meet the conditions (each once:
# a barrier kernel compiles per block size on CUDA too)
persist=$(timeout -k 5 60 "$OQ" emit --target cuda tests/lang/shared_persistent.q 2>/dev/null |
          sed -n 's|^/\* kernel \([a-z_]*\): persistent blocks.*|\1|p' | awk '!seen[$0]++' | tr '\n' ' ')
if [ "$persist" = "hist_shared hist_short hist_half weighted counts_three " ]; then cli_pass=$((cli_pass + 1))
else echo "FAIL cli: persistent blocks for [$persist], expected [hist_shared hist_short hist_half weighted counts_three ]"; cli_fail=$((cli_fail + 1)); fi
# ... of which these merge packed (coarse.c em_cuda_packed_merge: a block-stride loop adding sums of counts)
packed=$(timeout -k 5 60 "$OQ" emit --target cuda tests/lang/shared_persistent.q 2>/dev/null |
         awk '/^\/\* kernel /{k = $3; p = /: persistent/} p && /^\/\* transforms: .*packed-merge/{print k}' | tr -d ':' | awk '!seen[$0]++' | tr '\n' ' ')
if [ "$packed" = "hist_shared hist_short " ]; then cli_pass=$((cli_pass + 1))
else echo "FAIL cli: packed merges for [$packed], expected [hist_shared hist_short ]"; cli_fail=$((cli_fail + 1)); fi
# ... with 4 Quasar threads per GPU thread (vector-loads) for exactly the block sizes of a
# multiple of 128 threads, when asked for every launch: tests/gpu/persistent.q's launches in
# order, blocks of 2x64x3 (v), 2x8x3, 1x50x3 twice (an image 50 wide: one block covers its
# columns, another specialization), 2x50x3, 1x13x3 (-) and 64x2x1 (v)
pvec=$(OQ_DEV_CUDA_COARSE_VEC=1 timeout -k 5 120 "$OQ" emit --target cuda tests/gpu/persistent.q 2>/dev/null |
       awk '/^\/\* transforms: .*persistent-blocks/{printf "%s", /vector-loads\(4\)/ ? "v" : "-"}')
if [ "$pvec" = "v-----v" ]; then cli_pass=$((cli_pass + 1))
else echo "FAIL cli: vector-loads of persistent blocks [$pvec], expected [v-----v]"; cli_fail=$((cli_fail + 1)); fi
# parallel loops from 0 index their arrays' own elements (transform_parloop, index_by_pos):
# the linear loop for exactly the nests that keep A[m, n, k] whole (tests/lang/parloop_pos.q:
# map, histogram, not: fewer indices, variables used and swapped, offsets; one dimension;
# not: a scalar range read besides; larger arrays (linear, its guard falls back); the 9th nest
# stays serial, its inner loop over m (a sum) is the 9th kernel, not linear)
plin=$(timeout -k 5 60 "$OQ" run --profile=wide --target cpu tests/lang/parloop_pos.q 2>&1 >/dev/null |
       awk '/^parloop:top@/{printf "%s", / linear/ ? "L" : "-"}')
if [ "$plin" = "LL---L-L-" ]; then cli_pass=$((cli_pass + 1))
else echo "FAIL cli: linear parallel loops [$plin], expected [LL---L-L-]"; cli_fail=$((cli_fail + 1)); fi
# a literal grid on a streaming kernel runs as global auto on the CPU too (g1, counts), one
# whose kernel reads pos otherwise keeps its tiles (g2)
tstream=$(timeout -k 5 60 "$OQ" run --profile=wide --target cpu tests/lang/kernel_tiling.q 2>&1 >/dev/null |
          awk '/^(g1|g2|counts)@/{printf "%s", /streaming, as global auto/ ? "S" : /tiling\(global 3x5x1\)/ ? "T" : "?"}')
if [ "$tstream" = "STS" ]; then cli_pass=$((cli_pass + 1))
else echo "FAIL cli: streaming tiling on the CPU [$tstream], expected [STS]"; cli_fail=$((cli_fail + 1)); fi
# ... and on CUDA seed 000's loops as written load float4s; hist_auto's literal grid on a
# streaming kernel runs as global auto (emit_cuda.c)
seedk=$(timeout -k 5 60 "$OQ" emit --target cuda tests/seeds_run/hist_all.q 2>/dev/null |
        awk '/^\/\* kernel parloop:hist_(naive|auto):/{k = $3} /float4 _qn0_0/ && k {print k; k = ""}
             /streaming, as global auto/{print "streaming"}' | tr '\n' ' ')
if [ "$seedk" = "parloop:hist_naive: streaming parloop:hist_auto: " ]; then cli_pass=$((cli_pass + 1))
else echo "FAIL cli: seed 000's loops on CUDA [$seedk]"; cli_fail=$((cli_fail + 1)); fi
# the literal grid's sweep of streaming kernels (OQ_DEV_TILE_LITERAL=1) still computes the
# same and compiles with NVRTC (sweep_columns; it runs on the GPU in tests/gpu.sh)
for f in tests/lang/kernel_tiling.q tests/gpu/sweep_columns.q; do
  if OQ_DEV_TILE_LITERAL=1 OQ_CUDA_CHECK=1 timeout -k 5 120 "$OQ" run --target cpu "$f" >/dev/null 2>"$tmp/lit.err"; then
    cli_pass=$((cli_pass + 1))
  else echo "FAIL cli: OQ_DEV_TILE_LITERAL=1 $f"; first_lines "$tmp/lit.err" 3; cli_fail=$((cli_fail + 1)); fi
done
# reductions along a dimension in their other forms (interp_arrayexpr.c, launch_along), the
# results poisoned before the kernels write them: lanes forced (3, 7: runs with tails), the
# GPU's launch order and layout of partial results (its CUDA compiled by NVRTC where it is
# installed), one pass (arrayexpr_along_lanes.q then checks emit_c.c's lanes bit for bit),
# 3 workers (arrayexpr_along_rows.q: chunks that end inside rows of 32 lanes)
for run in "_split:OQ_DEV_ALONG_LANES=3" "_split:OQ_DEV_ALONG_LANES=7 OQ_DEV_ALONG_GPU=1" \
           "_split:OQ_DEV_ALONG_GPU=1 OQ_CUDA_CHECK=1" "_split:OQ_DEV_ALONG_LANES=1" \
           "_split:OQ_DEV_ALONG_LANES=1 OQ_DEV_ALONG_GPU=1" ":OQ_DEV_ALONG_LANES=3" \
           ":OQ_DEV_ALONG_GPU=1" "_lanes:OQ_DEV_ALONG_LANES=1" "_rows:OQ_THREADS=3"; do
  f=tests/lang/arrayexpr_along${run%%:*}.q   # (tests/lang/arrayexpr_along_split.q, ...)
  if env OQ_DEV_ALONG_POISON=1 ${run#*:} timeout -k 5 120 "$OQ" run --target cpu "$f" >/dev/null 2>"$tmp/along.err"; then
    cli_pass=$((cli_pass + 1))
  else echo "FAIL cli: ${run#*:} $f"; first_lines "$tmp/along.err" 3; cli_fail=$((cli_fail + 1)); fi
done
# the CPU's lanes along the contiguous dimension (emit_c.c along_loop, its copy with 32
# lanes in registers) add in the order docs/language.md gives, bit for bit
# (22 s under ASan on CI's 2 cores, from an empty kernel cache: a longer limit than 30 s)
for p in single double; do
  CLI_TIMEOUT=120 cli "rows of lanes in the documented order ($p)" 0 out "lanes' order: exact" -- \
    run --target cpu --precision $p tests/lang/arrayexpr_along_rows.q
done
# virtual threads (docs/cuda.md): the F of each kernel and block size, by the block's size
# and the state kept across barriers (each pair once: keys may split a block size)
vt=$(timeout -k 5 60 "$OQ" emit --target cuda tests/lang/virtual_threads.q 2>/dev/null |
     awk '/^\/\* kernel /{k = $3; sub(":", "", k)} /^\/\* transforms: .*virtual-threads/{
          f = $0; sub(/.*virtual-threads\(/, "", f); sub(/\).*/, "", f); print k ":" f}' | awk '!seen[$0]++' | tr '\n' ' ')
want="transpose:4 mirror:4 cross:4 cross:2 below:4 reverse1:4 heavy:2 swap3:4 "
if [ "$vt" = "$want" ]; then cli_pass=$((cli_pass + 1))
else echo "FAIL cli: virtual threads [$vt], expected [$want]"; cli_fail=$((cli_fail + 1)); fi
# ... and virtual blocks: the most each kernel allows (4, or 2 where the GPU block would pass
# 256 threads); each launch runs as many as divide its grid (a run-time value, no key)
vb=$(timeout -k 5 60 "$OQ" emit --target cuda tests/lang/virtual_blocks.q 2>/dev/null |
     awk '/^\/\* kernel /{k = $3; sub(":", "", k)} /^\/\* transforms: .*virtual-blocks/{
          f = $0; sub(/.*virtual-blocks\(/, "", f); sub(/\).*/, "", f); print k ":" f}' | awk '!seen[$0]++' | tr '\n' ' ')
if [ "$vb" = "transpose:4 halo:2 reverse1:4 reverse3:4 " ]; then cli_pass=$((cli_pass + 1))
else echo "FAIL cli: virtual blocks [$vb], expected [transpose:4 halo:2 reverse1:4 reverse3:4 ]"; cli_fail=$((cli_fail + 1)); fi
ldg=$(timeout -k 5 60 "$OQ" emit --target cuda tests/lang/hwconst_ldg.q 2>/dev/null |
      sed -n '/^\/\* kernel kernel_ldg_sync/,/^\/\* kernel /p' | grep -c '__ldg(')
if [ "${ldg:-0}" -ge 1 ]; then cli_pass=$((cli_pass + 1))
else echo "FAIL cli: kernel_ldg_sync (a barrier kernel) does not read x through __ldg"; cli_fail=$((cli_fail + 1)); fi
# a thread's own elements (emit_analysis.c em_own_update): no atomic in the C of own_element.q's
# axpy, grid2 and counts; mixed keeps them (one argument is updated elsewhere)
atomics=$(timeout -k 5 60 "$OQ" emit --target c tests/lang/own_element.q 2>/dev/null |
          awk '/^\/\* ---- kernel/{k = ""} /^\/\* kernel /{k = $3} k && /compare_exchange\(t|__atomic_(add|sub)_fetch/{print k}' |
          tr -d ':' | sort -u | tr '\n' ' ')
if [ "$atomics" = "mixed " ]; then cli_pass=$((cli_pass + 1))
else echo "FAIL cli: kernels of own_element.q with atomics [$atomics], expected [mixed ]"; cli_fail=$((cli_fail + 1)); fi
# cooperative groups (docs/language.md): shuffles.q's kernels of lane, size and
# this_thread_block.sync() (syncthreads) compile for the CPU, its shuffles' kernels only for
# CUDA (NVRTC, where installed)
OQ_CUDA_CHECK=1 timeout -k 5 120 "$OQ" run --target cpu --verbose tests/lang/shuffles.q >/dev/null 2>"$tmp/sh.err"
rc=$?
cpu_k=$(grep -o "kernel '[a-z_0-9]*' compiled for the cpu" "$tmp/sh.err" | sort -u | tr -d "'" | awk '{print $2}' | tr '\n' ' ')
cuda_k=$(grep -o "kernel '[a-z_0-9]*' compiles for sm_90" "$tmp/sh.err" | sort -u | wc -l)
want_cuda=0
if nvrtc_found; then want_cuda=4; fi
if [ "$rc" -eq 0 ] && [ "$cpu_k" = "lanes reverse " ] && [ "$cuda_k" = "$want_cuda" ]; then cli_pass=$((cli_pass + 1))
else
  echo "FAIL cli: shuffles.q: exit $rc, compiled for the CPU [$cpu_k] (want [lanes reverse ]), $cuda_k kernels for CUDA (want $want_cuda)"
  first_lines "$tmp/sh.err" 5
  cli_fail=$((cli_fail + 1))
fi
# compound assignments other than += and -= on complex arrays compile (docs/cuda.md "Complex
# numbers"): all 9 kernels of complex_compound.q on the CPU, none in the interpreter, in single
# and double precision (16-byte elements: locks in C, sm_90's 16-byte atomicCAS in CUDA), and
# their CUDA with NVRTC where it is installed
want_cuda=0
if nvrtc_found; then want_cuda=9; fi
for prec in single double; do
  OQ_CUDA_CHECK=1 timeout -k 5 120 "$OQ" run --target cpu --verbose --precision "$prec" tests/lang/complex_compound.q \
    >/dev/null 2>"$tmp/cc.err"
  rc=$?
  ncpu=$(grep -c "compiled for the cpu" "$tmp/cc.err")
  ncuda=$(grep -c "compiles for sm_90" "$tmp/cc.err")
  if [ "$rc" -eq 0 ] && [ "$ncpu" = 9 ] && [ "$ncuda" = "$want_cuda" ]; then cli_pass=$((cli_pass + 1))
  else
    echo "FAIL cli: complex_compound.q ($prec): exit $rc, $ncpu kernels compiled for the CPU, $ncuda for CUDA (want 9, $want_cuda)"
    first_lines "$tmp/cc.err" 5
    cli_fail=$((cli_fail + 1))
  fi
done
# the short form, the program from standard input, run --help, emit's program arguments
cli "oq FILE.q runs it" 0 out "^$(head -n 1 tests/print/ints.out)\$" -- "$ok_file"
cli "oq [options] FILE.q runs it" 0 out '^hello 7 2\.5 x$' -- --target interp tests/examples/main_args.q hello 7 2.5
cli "run --help" 0 out '^usage: oq run \[options\] FILE\.q' -- run --help
cli "oq help lists the cache commands" 0 out 'oq cache info\|clear\|prune' -- help
cli "emit takes program arguments" 0 out '^hello 7 2\.5 x$' -- emit --target c tests/examples/main_args.q hello 7 2.5
stdin_run() {   # stdin_run DESCRIPTION WANT_STATUS PROGRAM-TEXT WANT-STDOUT STDERR-REGEX -- ARGS...
  # (stderr's lines joined by |; an empty STDERR-REGEX: nothing on stderr)
  local what=$1 want=$2 text=$3 want_out=$4 regex=$5 rc
  shift 6
  printf '%s' "$text" | timeout -k 5 30 "$OQ" "$@" >"$tmp/cli.out" 2>"$tmp/cli.err"
  rc=$?
  if [ "$rc" -eq "$want" ] && [ "$(cat "$tmp/cli.out")" = "$want_out" ] &&
     { [ -z "$regex" ] && [ ! -s "$tmp/cli.err" ] || tr '\n' '|' <"$tmp/cli.err" | grep -Eq -- "$regex"; }; then
    cli_pass=$((cli_pass + 1))
  else
    echo "FAIL cli: $what: oq $* <program exited with $rc (want $want)"
    first_lines "$tmp/cli.out" 3
    first_lines "$tmp/cli.err" 3
    cli_fail=$((cli_fail + 1))
  fi
}
stdin_run "oq run - reads the program from stdin" 0 $'x = 40\nprint(x + 2)\n' 42 '' -- run --target cpu -
stdin_run "oq - with program arguments" 0 $'function [] = main(a : int = 1)\n    print(a * 2)\nendfunction\n' 14 '' -- - 7
stdin_run "errors of a program from stdin name <stdin>" 1 $'x = 1\ny = nope + 1\n' '' \
  "^<stdin>:2:5: error: unknown name 'nope'\|y = nope \+ 1\|    \^" -- run -
# make install: the binary finds its library beside it (no path baked in at build time), the
# man page and docs are installed, and the demo runs from the prefix; OQ_PATH adds folders
if grep -aq "$PWD/lib" "$OQ"; then
  echo "FAIL cli: $OQ holds the path of the checkout's lib/"; cli_fail=$((cli_fail + 1))
else cli_pass=$((cli_pass + 1)); fi
prefix=$tmp/prefix
if make -s install PREFIX="$prefix" >"$tmp/install.log" 2>&1 && [ -x "$prefix/bin/oq" ] &&
   [ -f "$prefix/share/man/man1/oq.1" ] && [ -f "$prefix/share/doc/openquasar/language.md" ] &&
   [ -f "$prefix/share/openquasar/lib/imfilter.q" ]; then cli_pass=$((cli_pass + 1))
else echo "FAIL cli: make install PREFIX=$prefix"; first_lines "$tmp/install.log" 5; cli_fail=$((cli_fail + 1)); fi
mkdir -p "$tmp/away/demo" "$tmp/mods"
cp tests/lang/lib_imfilter.q "$tmp/away/"
installed() {   # installed DESCRIPTION REGEX -- ARGS...: the installed oq, run in $tmp/away, succeeds
  local what=$1 regex=$2
  shift 3
  # (build/oq, unsanitized even under make asan: its kernels must not load the sanitizers)
  if (cd "$tmp/away" && unset OQ_KERNEL_CFLAGS && timeout -k 5 120 "$prefix/bin/oq" "$@" >"$tmp/inst.out" 2>"$tmp/inst.err") &&
     grep -Eq -- "$regex" "$tmp/inst.out"; then cli_pass=$((cli_pass + 1))
  else echo "FAIL cli: installed oq: $what"; first_lines "$tmp/inst.err" 3; cli_fail=$((cli_fail + 1)); fi
}
installed "imports its library (imfilter.q)" '^lib_imfilter: ok' -- run --target cpu lib_imfilter.q
printf 'function y = twice(x)\n    y = 2 * x\nendfunction\n' >"$tmp/mods/twice.q"
printf 'import "twice.q"\nprint(twice(21))\n' >"$tmp/away/use_mod.q"
OQ_PATH=$tmp/nowhere:$tmp/mods installed "finds a module in OQ_PATH" '^42$' -- use_mod.q
if [ "${OQ_NO_IMAGES:-}" != 1 ]; then
  cp examples/hist_000.q "$tmp/away/demo/" && cp -r examples/lib "$tmp/away/demo/"
  installed "runs the demo (examples/hist_000.q)" '^histogram plot written' -- \
    demo/hist_000.q "$PWD/examples/data/chelsea.png" "$tmp/away/hist.png" 64 1
fi
mv "$prefix/share/openquasar/lib" "$prefix/share/openquasar/lib.off"
if ! (cd "$tmp/away" && "$prefix/bin/oq" check lib_imfilter.q >/dev/null 2>"$tmp/inst.err") &&
   grep -q "cannot import 'imfilter.q'" "$tmp/inst.err"; then cli_pass=$((cli_pass + 1))
else echo "FAIL cli: installed oq without its library still imports imfilter.q"; cli_fail=$((cli_fail + 1)); fi
if nvrtc_found; then   # a CUDA compile error shows the generated line and the Quasar line
  export OQ_CUDA_CHECK=1 OQ_DEV_CUDA_BREAK=1
  cli "NVRTC error names both lines" 1 err \
    "^tests/lang/kernel_1d\.q:[0-9]+:[0-9]+: runtime error: kernel 'affine': NVRTC failed to compile its CUDA code at generated line [0-9]+ \(Quasar kernel_1d\.q:5\): .*oq_no_such_function" \
    -- run --target cpu --no-parloop tests/lang/kernel_1d.q
  unset OQ_CUDA_CHECK OQ_DEV_CUDA_BREAK
fi
# grids past the device's y or z limit (65535 blocks on the stub's device) run in chunks
# (backend/plan.c, plan_cuda_chunk): over tools/cuda_stub.c, which logs each cuLaunchKernel,
# every chunk's grid, shared bytes and first blocks (OqkGridHead.boff) are a plain walk's
chunk_walk() {   # chunk_walk Y Z SHARED D: the chunks of a grid of 1 x Y x Z blocks, z outer
  local y z gy gz most=65535
  for ((z = 0; z < $2; z += most)); do
    for ((y = 0; y < $1; y += most)); do
      gy=$(($1 - y < most ? $1 - y : most)) gz=$(($2 - z < most ? $2 - z : most))
      if [ "$4" = 2 ]; then echo "grid 1 $gy $gz shared $3 boff $y 0 0"; else echo "grid 1 $gy $gz shared $3 boff $z $y 0"; fi
    done
  done
}
if nvrtc_found && ${CC:-cc} -O2 -shared -fPIC -o "$tmp/libcuda_log.so" tools/cuda_stub.c 2>/dev/null; then
  printf '%s\n' 'function [] = __kernel__ k2(y : vec, pos : ivec2)' '    y[pos[0]] = 1' 'endfunction' \
    'function [] = __kernel__ k3(y : vec, pos : ivec3)' '    y[pos[0]] = 1' 'endfunction' \
    'function [] = __kernel__ ks(y : vec, pos : ivec2, blkpos : ivec2, blkdim : ivec2)' \
    '    s = shared(blkdim[0])' '    s[blkpos[0]] = pos[0]' '    syncthreads' \
    '    y[pos[0]] = s[blkdim[0] - 1 - blkpos[0]]' 'endfunction' \
    'y = zeros(600000)' 'parallel_do([[200000, 1], [1, 1]], y, k2)' \
    'parallel_do([[70000, 70000, 1], [1, 1, 1]], y, k3)' 'parallel_do([[600000, 1], [8, 1]], y, ks)' >"$tmp/chunks.q"
  rm -f "$tmp/launch.log"
  STUB_LAUNCH_LOG=$tmp/launch.log OQ_LIBCUDA=$tmp/libcuda_log.so OQ_CACHE_DIR=$tmp/chunk_cache timeout -k 5 60 \
    "$OQ" run --target cuda "$tmp/chunks.q" >/dev/null 2>"$tmp/chunks.err" </dev/null
  want=$(chunk_walk 200000 1 0 2; chunk_walk 70000 70000 0 3; chunk_walk 75000 1 32 2)
  got=$(awk '{ print "grid", $2, $3, $4, "shared", $10, "boff", $21, $22, $23 }' "$tmp/launch.log" 2>/dev/null)
  if [ "$got" = "$want" ]; then cli_pass=$((cli_pass + 1))
  else
    echo "FAIL cli: chunks of grids past the device's limits (plan_cuda_chunk): launches differ from a plain walk"
    diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | head -n 6
    first_lines "$tmp/chunks.err" 3
    cli_fail=$((cli_fail + 1))
  fi
  # the launch memo (backend/cuda/rt_gpu.c, memo_hit) tells an array passed twice apart as
  # the key does (KSpec.aliased: such code differs): one site, two distinct arrays twice,
  # then one array twice: a second specialization (module 2 in the stub's launch log)
  printf '%s\n' 'function [] = __kernel__ kk(a : vec, b : vec, pos : int)' '    a[pos] = a[pos] + b[pos]' \
    'endfunction' 'x = zeros(64)' 'z = ones(64)' 'for i = 1..3' '    w = i < 3 ? z : x' '    parallel_do(64, x, w, kk)' \
    'endfor' >"$tmp/memo_alias.q"
  rm -f "$tmp/launch.log"
  STUB_LAUNCH_LOG=$tmp/launch.log OQ_LIBCUDA=$tmp/libcuda_log.so OQ_CACHE_DIR=$tmp/chunk_cache OQ_DEV_CUDA_GRAPHS=0 \
    OQ_CUDA_TIERS=0 OQ_NO_PARLOOP=1 timeout -k 5 60 "$OQ" run --target cuda "$tmp/memo_alias.q" >/dev/null \
    2>"$tmp/memo_alias.err" </dev/null
  got=$(awk '{ printf "%s%s", (NR > 1 ? " " : ""), $NF }' "$tmp/launch.log" 2>/dev/null)
  if [ "$got" = "1 1 2" ]; then cli_pass=$((cli_pass + 1))
  else
    echo "FAIL cli: the launch memo: modules '$got' (want '1 1 2': an array passed twice is another specialization)"
    first_lines "$tmp/memo_alias.err" 3
    cli_fail=$((cli_fail + 1))
  fi
fi
# tiers of the CUDA back end (backend/cuda/rt_gpu.c), over tools/cuda_stub.c with NVRTC: a
# kernel missing from the cache runs a first build (module 1 in the stub's launch log) while
# its optimized build compiles in a child process (`oq __cuda-build`, device/rt_nvrtc.c);
# OQ_DEV_CUDA_SWITCH_AT=3 makes launch 3 wait for it and run it (module 2). Only the
# optimized image is cached (by the child): the second run finds it, with tiers and without
# (the key of the optimized source). An optimized build that fails (OQ_DEV_CUDA_BREAK=opt)
# leaves the first build running and nothing cached; a program that ends (or stops at a
# run-time error) before its builds leaves them to the children, whose entries the next run
# finds. The children end by themselves: each check waits until the cache holds no
# temporary file (a pending build has its source there) and then wants none left.
tier_settle() {   # tier_settle DIR: waits (30 s at most) until no build of DIR is pending
  local i
  for ((i = 0; i < 300; i++)); do
    find "$1" -name '*.tmp*' 2>/dev/null | grep -q . || return 0
    sleep 0.1
  done
  return 1
}
tier_sealed() {   # tier_sealed DIR: every CUDA image of DIR ends in its seal
  local f
  for f in "$1"/oqcu_*; do
    [ -e "$f" ] || continue
    [ "$(tail -c 32 "$f" | head -c 8)" = '!OQSEAL1' ] || return 1
  done
}
tier_run() {   # tier_run NAME WANT_STATUS WANT_MODULES WANT_CUBINS ERR_REGEX [VAR=VALUE...]
  local name=$1 want=$2 mods=$3 cubins=$4 regex=$5 rc got n
  shift 5
  rm -f "$tmp/tier.log"
  env "$@" STUB_LAUNCH_LOG=$tmp/tier.log OQ_LIBCUDA=$tmp/libcuda_log.so OQ_CACHE_DIR=$tmp/tier_cache \
    OQ_DEV_CUDA_GRAPHS=0 OQ_CUDA_TIERS=${OQ_CUDA_TIERS-1} timeout -k 5 120 "$OQ" run --target cuda --verbose --profile \
    "$tmp/$tier_prog.q" >"$tmp/tier.out" 2>"$tmp/tier.err" </dev/null
  rc=$?
  tier_settle "$tmp/tier_cache" || rc="$rc, builds still pending after 30 s"
  got=$(awk '{ printf "%s%s", (NR > 1 ? " " : ""), $NF }' "$tmp/tier.log" 2>/dev/null)
  n=$(find "$tmp/tier_cache" -name 'oqcu_*' 2>/dev/null | wc -l)
  if [ $rc = "$want" ] && [ "$got" = "$mods" ] && [ "$n" = "$cubins" ] && grep -Eq -- "$regex" "$tmp/tier.err" &&
     tier_sealed "$tmp/tier_cache"; then
    cli_pass=$((cli_pass + 1))
  else
    echo "FAIL cli: tiers: $name: exit $rc (want $want), modules '$got' (want '$mods'), $n files (want $cubins sealed images), /$regex/ on stderr"
    first_lines "$tmp/tier.err" 4
    cli_fail=$((cli_fail + 1))
  fi
}
# a first build computes what the optimized one does (emit_cuda.c, fast_schedule): it leaves
# out schedules (vector loads, coarse groups, !kernel_tiling, the grid-stride tiling, rows,
# virtual threads, the packed merge) and private copies whose merge plain atomics match
# (counts, integers), nothing else: tests/gpu/persistent.q's persistent blocks (double shadows, counts past 2^24)
# stay, and so do the private float sums of tests/cpu/atomics_contention.q's hist16;
# tests/gpu/rows_stencil.q's rows go (no GPU, no NVRTC needed: `oq emit` prints the
# transforms; a kernel left with none prints no line)
tier_transforms() {   # tier_transforms FILE FAST: each kernel's transforms but those
  OQ_DEV_CUDA_TIER_FAST=$2 timeout -k 5 60 "$OQ" emit --target cuda "$1" 2>/dev/null </dev/null |
    grep -E '^/\* (transforms|---- CUDA kernel)' |
    sed -E 's/\(.*\) ----/----/; s/(privatize|tiling)(\([^)]*\))?//g
            s/(vector-loads|coarse-groups|rows|virtual-threads)\([0-9]+\)//g; s/pipelined-loads|grid-stride-blocks|packed-merge//g
            s/(, )+/, /g; s/: (, )?/: /; s/(, )? *\*\/$/ *\//' |
    grep -v '^/\* transforms: \*/$'
}
for f in tests/gpu/persistent.q tests/cpu/atomics_contention.q tests/gpu/rows_stencil.q; do
  want=$(tier_transforms "$f" 0)
  if [ -n "$want" ] && [ "$(tier_transforms "$f" 1)" = "$want" ]; then cli_pass=$((cli_pass + 1))
  else
    echo "FAIL cli: tiers: the first builds of $f differ from the optimized ones in more than schedules"
    diff <(printf '%s\n' "$want") <(tier_transforms "$f" 1) | head -n 6
    cli_fail=$((cli_fail + 1))
  fi
done
if OQ_DEV_CUDA_TIER_FAST=1 timeout -k 5 60 "$OQ" emit --target cuda tests/cpu/atomics_contention.q 2>/dev/null </dev/null |
   grep -q '^/\* transforms: privatize(hi), privatize(hf), privatize(hw), tiling \*/$'; then cli_pass=$((cli_pass + 1))
else
  echo "FAIL cli: tiers: the first build of atomics_contention.q's hist16 left out its private float sums"
  cli_fail=$((cli_fail + 1))
fi
if nvrtc_found && [ -f "$tmp/libcuda_log.so" ]; then
  printf '%s\n' 'function y = hist(im : mat)' '    y = zeros(16)' '    for m = 0..size(im, 0) - 1' \
    '        for n = 0..size(im, 1) - 1' '            y[mod(im[m, n], 16)] += 1' '        endfor' '    endfor' \
    'endfunction' 'im = zeros(512, 512)' 'for i = 1..4' '    y = hist(im)' 'endfor' 'print "ok"' >"$tmp/tier.q"
  { head -n 9 "$tmp/tier.q"; echo 'y = hist(im)'; echo 'z = y[20]'; } >"$tmp/tier_err.q"
  tier_prog=tier
  rm -rf "$tmp/tier_cache"
  tier_run "a first build, then the optimized one from launch 3" 0 "1 1 2 2" 1 \
    "replaces the first build at launch 3" OQ_DEV_CUDA_SWITCH_AT=3
  tier_run "the second run finds the optimized image" 0 "1 1 1 1" 1 '^parloop:hist.* 1 cached'
  OQ_CUDA_TIERS=0 tier_run "... without tiers too" 0 "1 1 1 1" 1 '^parloop:hist.* 1 cached'
  rm -rf "$tmp/tier_cache"
  tier_run "an optimized build that fails leaves the first build" 0 "1 1 1 1" 0 \
    "its optimized build failed \(NVRTC: error: .*oq_no_such_function.*\); the first build stays" \
    OQ_DEV_CUDA_SWITCH_AT=3 OQ_DEV_CUDA_BREAK=opt
  grep -q '^ok$' "$tmp/tier.out" || { echo "FAIL cli: tiers: the run with a failed optimized build did not finish"; cli_fail=$((cli_fail + 1)); }
  # the child's messages never reach the program's: only the launcher's line names the error
  if grep -q 'detected in the compilation' "$tmp/tier.out" "$tmp/tier.err"; then
    echo "FAIL cli: tiers: NVRTC's log of a child reached the program's output"; cli_fail=$((cli_fail + 1))
  else cli_pass=$((cli_pass + 1)); fi
  tier_prog=tier_err
  rm -rf "$tmp/tier_cache"
  tier_run "a run-time error leaves the build to its child, which caches it" 1 "1" 1 "index \[20\] out of range"
  tier_prog=tier
  rm -rf "$tmp/tier_cache"
  tier_run "a program that ends before its build leaves it to the child" 0 "1 1 1 1" 1 "optimized one compiles in the background"
  tier_run "... and the next run finds its entry and compiles nothing" 0 "1 1 1 1" 1 '^parloop:hist.* 1 cached'
  grep -q 'compiles in the background' "$tmp/tier.err" && { echo "FAIL cli: tiers: the run after a child's build compiled again"; cli_fail=$((cli_fail + 1)); }
  # a run while another run's child builds the same kernel watches that build (no child of
  # its own) and switches to its image
  rm -rf "$tmp/tier_cache"
  OQ_LIBCUDA=$tmp/libcuda_log.so OQ_CACHE_DIR=$tmp/tier_cache OQ_CUDA_TIERS=1 OQ_DEV_CUDA_GRAPHS=0 \
    timeout -k 5 120 "$OQ" run --target cuda "$tmp/tier.q" >/dev/null 2>&1 </dev/null
  tier_run "a run watches another run's build of its kernel" 0 "1 1 2 2" 1 \
    "replaces the first build at launch 3" OQ_DEV_CUDA_SWITCH_AT=3
  # the child's command (oq's own): its errors, and a job that compiles (entry sealed, its
  # source removed) or does not (NVRTC's error on stderr, no entry)
  cli "__cuda-build without its arguments" 2 err "is oq's own" -- __cuda-build 1 -
  cli "__cuda-build of a missing source" 1 err "cannot read .*no_such.cu" -- __cuda-build 1 - sm_90 k "$tmp/no_such.cu"
  rm -rf "$tmp/child_cache"; mkdir -p "$tmp/child_cache"
  printf '%s\n' 'extern "C" __global__ void oq_entry(float *p) { p[0] = 1.0f; }' >"$tmp/child_cache/ok.tmp1_1.cu"
  printf '%s\n' 'extern "C" __global__ void oq_entry(float *p) { p[0] = oq_no_such(); }' >"$tmp/child_cache/bad.tmp1_2.cu"
  OQ_CACHE_DIR=$tmp/child_cache cli "__cuda-build: an image, sealed, its source removed" 0 - '' -- \
    __cuda-build 1 - sm_90 ok "$tmp/child_cache/ok.tmp1_1.cu"
  OQ_CACHE_DIR=$tmp/child_cache cli "__cuda-build: a source that does not compile" 1 err 'error.*oq_no_such' -- \
    __cuda-build 1 - sm_90 bad "$tmp/child_cache/bad.tmp1_2.cu"
  n=$(find "$tmp/child_cache" -name 'oqcu_*.cubin' | wc -l)
  if [ "$n" = 1 ] && tier_sealed "$tmp/child_cache" && ! find "$tmp/child_cache" -name '*.tmp*' | grep -q .; then
    cli_pass=$((cli_pass + 1))
  else
    echo "FAIL cli: tiers: __cuda-build left $n images (want 1, sealed) or a temporary file"; ls "$tmp/child_cache" | head -n 5
    cli_fail=$((cli_fail + 1))
  fi
  # 8 runs at once on one empty cache: all right, one sealed image, no temporary file left
  rm -rf "$tmp/tier_cache"
  for i in 1 2 3 4 5 6 7 8; do
    OQ_LIBCUDA=$tmp/libcuda_log.so OQ_CACHE_DIR=$tmp/tier_cache OQ_CUDA_TIERS=1 OQ_DEV_CUDA_GRAPHS=0 \
      timeout -k 5 120 "$OQ" run --target cuda "$tmp/tier.q" >"$tmp/tier_par$i.out" 2>&1 </dev/null &
  done
  bad=0
  for job in $(jobs -p); do wait "$job" || bad=$((bad + 1)); done
  for i in 1 2 3 4 5 6 7 8; do grep -q '^ok$' "$tmp/tier_par$i.out" || bad=$((bad + 1)); done
  tier_settle "$tmp/tier_cache" || bad="$bad (builds still pending after 30 s)"
  n=$(find "$tmp/tier_cache" -name 'oqcu_*' 2>/dev/null | wc -l)
  if [ "$bad" = 0 ] && [ "$n" = 1 ] && tier_sealed "$tmp/tier_cache"; then cli_pass=$((cli_pass + 1))
  else
    echo "FAIL cli: tiers: 8 concurrent runs on one empty cache: $bad failed, $n files (want 1 sealed image)"
    first_lines "$tmp/tier_par1.out" 3
    cli_fail=$((cli_fail + 1))
  fi
  # each kind of kernel starts on its first build (emit_cuda.c, fast_schedule), compiled by
  # NVRTC at its first launch: a parallel loop's counted `+=`, a shared-memory kernel with
  # barriers (persistent blocks), a host array sum; a lambda alike in both builds compiles once
  rm -rf "$tmp/tier_cache"
  OQ_LIBCUDA=$tmp/libcuda_log.so OQ_CACHE_DIR=$tmp/tier_cache OQ_CUDA_TIERS=1 OQ_DEV_CUDA_GRAPHS=0 timeout -k 5 120 \
    "$OQ" run --target cuda --verbose tests/lang/tier_first_builds.q 0 >"$tmp/tier.out" 2>"$tmp/tier.err" </dev/null
  rc=$?
  tier_settle "$tmp/tier_cache" || rc="$rc, builds still pending after 30 s"
  bad=
  for k in "parloop:hist_loop" "count" "expr_main_[0-9]+"; do
    grep -Eq "^oq: kernel '$k' compiled for CUDA \(sm_[0-9]+\): a first build, the optimized" "$tmp/tier.err" || bad="$bad $k"
  done
  grep -Eq "^oq: kernel '\(lambda\)' compiled for CUDA \(sm_[0-9]+\)$" "$tmp/tier.err" || bad="$bad (lambda)"
  if [ "$rc" = 0 ] && grep -q '^ok$' "$tmp/tier.out" && [ -z "$bad" ]; then cli_pass=$((cli_pass + 1))
  else
    echo "FAIL cli: tiers: tests/lang/tier_first_builds.q: exit $rc, not started on a first build:$bad"
    first_lines "$tmp/tier.err" 6
    cli_fail=$((cli_fail + 1))
  fi
fi
# cuSOLVER's path (device/rt_cusolver.c) without a GPU: tools/cuda_stub.c keeps "device"
# memory on the host and tools/cusolver_stub.c answers on LAPACK; the factorizations'
# identities must hold through it (OQ_LINALG_GPU=1), and without a GPU forcing it is an error
OQ_LINALG_GPU=1 OQ_CUDA_DISABLE=1 cli "OQ_LINALG_GPU=1 without a GPU" 1 err \
  "inv: OQ_LINALG_GPU=1 asks for cuSOLVER, which cannot run: no GPU" -- run --target interp tests/lang/linalg_factor.q
mkdir -p "$tmp/cus/lib64"
if [ -n "$(sh tools/needs.sh tests/lang/linalg_factor.q)" ]; then
  echo "skip cli: cuSOLVER stub (no LAPACK)"
elif ${CC:-cc} -O2 -shared -fPIC -o "$tmp/libcuda_stub.so" tools/cuda_stub.c 2>/dev/null &&
   ${CC:-cc} -O2 -shared -fPIC -w -o "$tmp/cus/lib64/libcusolver.so" tools/cusolver_stub.c \
     -l:liblapack.so.3 2>/dev/null; then
  for p in single double; do
    OQ_LIBCUDA=$tmp/libcuda_stub.so CUDA_HOME=$tmp/cus OQ_LINALG_GPU=1 cli \
      "factorizations through the cuSOLVER stub ($p)" 0 out '^ok' -- run --target interp --precision $p tests/lang/linalg_factor.q
  done
  OQ_LIBCUDA=$tmp/libcuda_stub.so CUDA_HOME=$tmp/cus OQ_LINALG_GPU=1 cli \
    "tests/gpu/linalg_cusolver.q through the cuSOLVER stub" 0 out '^ok' -- run --target cpu tests/gpu/linalg_cusolver.q
  OQ_LIBCUDA=$tmp/libcuda_stub.so CUDA_HOME=$tmp/cus OQ_LINALG_GPU=1 cli \
    "tests/gpu/linalg_more.q through the cuSOLVER stub" 0 out '^ok' -- run --target cpu tests/gpu/linalg_more.q
  if nvrtc_found; then
    # --target cuda: matrices on the "GPU" are factorized where they lie (device/rt_cusolver.c's
    # cusolver_resident; its layout kernels compile but do not run under the stub driver, so
    # the values are not checked here: tests/gpu/linalg_*.q does on a GPU); the two host
    # matrices (P, B) go up and nothing comes down
    cat >"$tmp/linalg_res.q" <<'QEOF'
function [] = __kernel__ touch(p : mat, pos : ivec2)
    p[pos] = p[pos]
end
n = 64
P = rand(n, n) + n * eye(n)
P = (P + transpose(P)) / 2
parallel_do(size(P), P, touch)
R = chol(P)
X = inv(P)
[L, U, Pm] = lu(P)
[Q, Rq] = qr(P)
[Us, Ss, Vs] = svd(P)
[V, d] = symeig(P)
C = complex(P, P)
parallel_do(size(C), C, __kernel__ (c : cmat, pos : ivec2) -> c[pos] = c[pos])
[Qc, Rc] = qr(C)
B = rand(n, 3)
parallel_do(size(B), B, touch)
Xb = solve(P, B)
function [] = __kernel__ fill(p : mat, pos : ivec2)
    p[pos] = sin(pos[0] * 0.3 + pos[1] * 0.7)
end
dt = det(P)
Xp = pinv(P)
[LUp, piv] = blas_lu(P)
[Ug, Sg, Vg] = blas_gesvd(P)
T = mat(n, 5)
parallel_do(size(T), T, fill)
Pt = pinv(T, 1e-6)
Xt = solve(T, Xb)
N = rand(n, n)
parallel_do(size(N), N, touch)
[Vn, dn] = eig(N)
QEOF
    # STUB_FILL: "device" memory that no kernel wrote holds numbers of full rank; STUB_LAYOUT:
    # the layout kernels run (the test of symmetry sends N to Xgeev)
    STUB_FILL=1 STUB_LAYOUT=1 OQ_DEV_CUDA_GRAPHS=0 OQ_LIBCUDA=$tmp/libcuda_stub.so CUDA_HOME=$tmp/cus cli \
      "factorizations of resident matrices move nothing (cuSOLVER stub)" 0 err \
      '^cuda: [0-9]+ launches, [0-9]+ waits; 3 uploads \([0-9.]+ MiB\), 0 downloads' \
      -- run --target cuda --profile "$tmp/linalg_res.q"
    # the values of the resident way: the layout kernels run as C in the stub driver
    # (STUB_LAYOUT), launched one by one, with host code kept off the GPU
    for f in linalg_factor linalg_complex_factor linalg_complex_lapack linalg_blas linalg_rest; do
      for p in single double; do
        OQ_NO_PARLOOP=1 STUB_LAYOUT=1 OQ_DEV_CUDA_GRAPHS=0 OQ_ARRAY_KERNEL_MIN=-1 \
          OQ_LIBCUDA=$tmp/libcuda_stub.so CUDA_HOME=$tmp/cus OQ_LINALG_GPU=1 cli \
          "tests/lang/$f.q ($p) on cuSOLVER's resident way (stub)" 0 out '^ok' \
          -- run --target cuda --precision $p tests/lang/$f.q
      done
    done
    # the resident way's errors are the host's
    printf '%s\n' 'x = solve([[1.0, 0, 2], [3, 0, 1], [2, 0, 5], [1, 0, 1]], [1.0, 2, 3, 4])' >"$tmp/res_e1.q"
    printf '%s\n' 'x = mldivide([[1.0, 2, 3, 4], [0, 0, 0, 0]], [1.0, 2])' >"$tmp/res_e2.q"
    printf '%s\n' '[L, p] = blas_lu([[1.0, 0, 2], [3, 0, 1], [2, 0, 5]])' >"$tmp/res_e3.q"
    for e in "res_e1 solve: the matrix does not have full rank" \
             "res_e2 mldivide: the matrix does not have full rank" "res_e3 blas_lu: the matrix is singular"; do
      OQ_NO_PARLOOP=1 STUB_LAYOUT=1 OQ_DEV_CUDA_GRAPHS=0 OQ_ARRAY_KERNEL_MIN=-1 \
        OQ_LIBCUDA=$tmp/libcuda_stub.so CUDA_HOME=$tmp/cus OQ_LINALG_GPU=1 cli \
        "${e#* } on cuSOLVER's resident way (stub)" 1 err ": runtime error: ${e#* }\$" \
        -- run --target cuda "$tmp/${e%% *}.q"
    done
    # a cuSOLVER without Xgeev: eig of a matrix that is not symmetric goes through the host,
    # which --verbose says
    mkdir -p "$tmp/cus_old/lib64"
    if ${CC:-cc} -O2 -shared -fPIC -w -DSTUB_NO_XGEEV -o "$tmp/cus_old/lib64/libcusolver.so" \
         tools/cusolver_stub.c -l:liblapack.so.3 2>/dev/null; then
      OQ_NO_PARLOOP=1 STUB_LAYOUT=1 OQ_DEV_CUDA_GRAPHS=0 OQ_ARRAY_KERNEL_MIN=-1 \
        OQ_LIBCUDA=$tmp/libcuda_stub.so CUDA_HOME=$tmp/cus_old OQ_LINALG_GPU=1 cli \
        "eig without Xgeev: through the host, said under --verbose" 0 err \
        '^oq: eig: this cuSOLVER lacks cusolverDnXgeev .*goes through the host' \
        -- run --target cuda --verbose tests/lang/linalg_rest.q
    fi
  fi
else
  echo "skip cli: cuSOLVER stub (tools/cusolver_stub.c does not build against liblapack.so.3)"
fi
echo "$(stamp)cli: $cli_pass passed, $cli_fail failed"
add "$cli_pass" "$cli_fail"

# (f) compiled kernels: a second run compiles nothing; a missing C compiler is an error
# that names the kernel; oq cache info | clear | prune, the size limit, stale files
if [[ " ${OQ_TEST_TARGETS:-interp cpu} " == *" cpu "* ]]; then
  kc_pass=0
  kc_fail=0
  kc() {   # kc DESCRIPTION CONDITION-RESULT
    if [ "$2" = ok ]; then kc_pass=$((kc_pass + 1)); else
      echo "FAIL kernel cache: $1"
      first_lines "$tmp/kc.err" 6
      kc_fail=$((kc_fail + 1))
    fi
  }
  # tiers (OQ_CPU_TIERS, on): TinyCC's build first, the C compiler's in the background,
  # cached for the next run, which compiles nothing
  if OQ_CACHE_DIR=$tmp/kcache0 "$OQ" run --target cpu --verbose tests/cpu/kernel_outputs.q 2>&1 >/dev/null | grep -q 'by TinyCC'; then
    rm -rf "$tmp/kcache"
    OQ_CACHE_DIR=$tmp/kcache timeout 120 "$OQ" run --target cpu --verbose tests/cpu/kernel_outputs.q >/dev/null 2>"$tmp/kc.err"
    rc=$?
    kc "tiers: the first run takes TinyCC's builds" "$([ $rc -eq 0 ] && grep -q 'by TinyCC; the C compiler' "$tmp/kc.err" && echo ok)"
    for ((i = 0; i < 240; i++)); do compgen -G "$tmp/kcache/*.tmp*" >/dev/null || break; sleep 0.5; done
    OQ_CACHE_DIR=$tmp/kcache timeout 120 "$OQ" run --target cpu --profile=wide tests/cpu/kernel_outputs.q >/dev/null 2>"$tmp/kc.err"
    rc=$?
    kc "tiers: the background builds are in the cache for the next run" \
      "$([ $rc -eq 0 ] && grep -q 'from cache' "$tmp/kc.err" && ! grep -q '[1-9] compiled' "$tmp/kc.err" && echo ok)"
    # identical kernels written twice share one TinyCC build and one background build
    # (caches of their own: background builds outlive these runs and write into them)
    OQ_CACHE_DIR=$tmp/kcache_twin timeout 120 "$OQ" run --target cpu --verbose tests/cpu/twin_kernels.q >/dev/null 2>"$tmp/kc.err"
    rc=$?
    kc "tiers: an identical kernel takes its twin's TinyCC build" \
      "$([ $rc -eq 0 ] && grep -q "'scale_b' .*TinyCC's build of an identical kernel" "$tmp/kc.err" &&
         [ "$(grep -c 'by TinyCC' "$tmp/kc.err")" -eq 2 ] && echo ok)"
    # TinyCC builds every seed example's kernels (complex numbers too: mandelbrot)
    for prog in examples/dot.q examples/sums.q tests/seeds_run/mandelbrot_102.q; do
      OQ_CACHE_DIR=$tmp/kcache_$(basename "$prog" .q) timeout 120 "$OQ" run --target cpu --verbose "$prog" >/dev/null 2>"$tmp/kc.err"
      rc=$?
      kc "tiers: TinyCC builds every kernel of $prog (fiber kernels too)" \
        "$([ $rc -eq 0 ] && grep -q 'by TinyCC' "$tmp/kc.err" && ! grep -q 'TinyCC cannot' "$tmp/kc.err" && echo ok)"
    done
    # the same results from both builds: seed programs print the same from TinyCC's builds
    # only and from the C compiler's (timings masked); every one in make test-full
    # (fiber_barriers.q: fiber kernels, which TinyCC's build runs on one worker)
    tier_progs=(tests/seeds_run/hist2048_004.q tests/seeds_run/bitonic_108.q tests/seeds_run/haar_104.q
                tests/seeds_run/dense_multiply_109.q examples/hist_004.q tests/cpu/fiber_barriers.q)
    [ "${OQ_TEST_FULL:-}" = 1 ] && tier_progs=(tests/seeds_run/*.q examples/dot.q examples/hist_004.q examples/sums.q)
    for prog in "${tier_progs[@]}"; do
      OQ_DEV_CPU_TCC_ONLY=1 timeout 120 "$OQ" run --target cpu "$prog" >"$tmp/tcc.out" 2>&1 </dev/null
      r1=$?
      OQ_CPU_TIERS=0 timeout 120 "$OQ" run --target cpu "$prog" >"$tmp/cc.out" 2>&1 </dev/null
      r2=$?
      cp "$tmp/tcc.out" "$tmp/kc.err"
      kc "tiers: $prog prints the same from TinyCC's and the C compiler's builds" \
        "$([ $r1 -eq $r2 ] && cmp -s <(grep -v ' ms$' "$tmp/tcc.out") <(grep -v ' ms$' "$tmp/cc.out") && echo ok)"
    done
    # complex numbers, which TinyCC's source keeps in structs (emit_c.c): every complex
    # kernel of these is TinyCC's build, and prints what the C compiler's does, in both
    # precisions
    for prog in tests/cpu/complex_tiers.q tests/lang/kernel_complex.q tests/lang/complex_compound.q \
                tests/lang/complex_accumulate.q tests/seeds_run/mandelbrot_102.q; do
      for prec in single double; do
        OQ_DEV_CPU_TCC_ONLY=1 timeout 120 "$OQ" run --target cpu --precision $prec --verbose "$prog" \
          >"$tmp/tcc.out" 2>"$tmp/kc.err" </dev/null
        r1=$?
        OQ_CPU_TIERS=0 timeout 120 "$OQ" run --target cpu --precision $prec "$prog" >"$tmp/cc.out" 2>&1 </dev/null
        r2=$?
        kc "tiers: $prog ($prec) prints the same from TinyCC's complex structs and the C compiler's" \
          "$([ $r1 -eq 0 ] && [ $r2 -eq 0 ] && grep -q 'by TinyCC' "$tmp/kc.err" && ! grep -q 'TinyCC cannot' "$tmp/kc.err" &&
             cmp -s "$tmp/tcc.out" "$tmp/cc.out" && echo ok)"
      done
    done
    # the switch in the middle of a launch (rt_cpu.c, PoolTier): OQ_DEV_CPU_SWITCH_AT=N runs
    # a launch's first N chunks from TinyCC's build, waits for the C compiler's and runs the
    # rest from it: element-wise, reduction (outputs, private copies) and complex kernels
    # print the interpreter's results, on 1, 2 and 5 workers; a background build that fails
    # leaves TinyCC's code to finish the launch
    "$OQ" run --target interp --precision double tests/cpu/tier_switch.q >"$tmp/ts_interp.out" 2>&1 </dev/null
    for sw in "1 2" "2 1" "5 3"; do
      read -r nw at <<<"$sw"
      rm -rf "$tmp/kcache_ts"
      OQ_THREADS=$nw OQ_DEV_CPU_SWITCH_AT=$at OQ_CACHE_DIR=$tmp/kcache_ts timeout 300 "$OQ" run --target cpu --precision double \
        --verbose tests/cpu/tier_switch.q >"$tmp/ts.out" 2>"$tmp/kc.err" </dev/null
      rc=$?
      kc "tiers: launches on $nw workers switch builds after chunk $at and print the interpreter's results" \
        "$([ $rc -eq 0 ] && cmp -s "$tmp/ts.out" "$tmp/ts_interp.out" &&
           for k in affine sums escape; do
             grep -q "'$k': the C compiler's build replaces TinyCC's during a launch (chunks: $at of TinyCC's build, then [1-9]" \
               "$tmp/kc.err" || exit 1
           done && echo ok)"
    done
    rm -rf "$tmp/kcache_ts"
    CC=false OQ_DEV_CPU_SWITCH_AT=2 OQ_CACHE_DIR=$tmp/kcache_ts timeout 300 "$OQ" run --target cpu --precision double \
      --verbose tests/cpu/tier_switch.q >"$tmp/ts.out" 2>"$tmp/kc.err" </dev/null
    rc=$?
    kc "tiers: a background build that fails during a launch leaves it to TinyCC's build" \
      "$([ $rc -eq 0 ] && cmp -s "$tmp/ts.out" "$tmp/ts_interp.out" && grep -q "'escape': the C compiler 'false' failed" "$tmp/kc.err" &&
         ! grep -q 'during a launch' "$tmp/kc.err" && echo ok)"
  fi
  # the rest waits for the C compiler: its results are in the cache when a run ends
  export OQ_CPU_TIERS=0
  # identical kernels written twice (scale_a, scale_b) compile once: the key skips comments
  rm -rf "$tmp/kcache"
  OQ_CACHE_DIR=$tmp/kcache timeout 120 "$OQ" run --target cpu tests/cpu/twin_kernels.q >/dev/null 2>"$tmp/kc.err"
  rc=$?
  kc "identical kernels written twice share one object (and the loop's kernel has its own)" \
    "$([ $rc -eq 0 ] && [ "$(ls "$tmp/kcache"/oqk_*.so | wc -l)" -eq 2 ] && echo ok)"
  # device_functions.q: several device functions, whose order in the source must not follow
  # addresses (a source that changes from run to run is compiled again every run)
  for prog in tests/cpu/kernel_outputs.q tests/lang/device_functions.q; do
    rm -rf "$tmp/kcache"
    OQ_CACHE_DIR=$tmp/kcache timeout 120 "$OQ" run --target cpu --profile=wide "$prog" >/dev/null 2>"$tmp/kc.err"
    rc=$?
    kc "$prog: first run compiles" "$([ $rc -eq 0 ] && grep -q '[1-9] compiled' "$tmp/kc.err" && echo ok)"
    OQ_CACHE_DIR=$tmp/kcache timeout 120 "$OQ" run --target cpu --profile=wide "$prog" >/dev/null 2>"$tmp/kc.err"
    rc=$?
    kc "$prog: second run takes every kernel from the cache" \
      "$([ $rc -eq 0 ] && grep -q 'from cache' "$tmp/kc.err" && ! grep -q '[1-9] compiled' "$tmp/kc.err" && echo ok)"
  done
  prog=tests/cpu/kernel_outputs.q
  CC=/nonexistent OQ_CACHE_DIR=$tmp/kcache2 timeout 60 "$OQ" run --target cpu "$prog" >/dev/null 2>"$tmp/kc.err"
  rc=$?
  kc "a missing compiler is a run-time error naming the kernel" \
    "$([ $rc -eq 1 ] && head -n 1 "$tmp/kc.err" | grep -Eq "runtime error: kernel '[^']+': the C compiler '/nonexistent' failed" && echo ok)"
  # oq cache info | clear | prune (runtime/cache_admin.h) on a cache of its own: A's kernels,
  # made old, then B's; a stale temporary file, a fresh one, and a file not the cache's
  d=$tmp/kcache3
  export OQ_CACHE_DIR=$d
  "$OQ" cache info >"$tmp/kc.err" 2>&1
  kc "cache info of a cache not made yet" "$(grep -q '^entries: none' "$tmp/kc.err" && echo ok)"
  timeout 120 "$OQ" run --target cpu tests/cpu/kernel_outputs.q >/dev/null 2>"$tmp/kc.err"
  a_files=$(cd "$d" && ls oqk_*)
  touch -d '2 days ago' "$d"/oqk_*
  "$OQ" cache info >"$tmp/kc.err" 2>&1
  kc "cache info counts the C kernels" "$(grep -Eq "^entries: $(ls "$d"/oqk_*.so | wc -l) C kernels, 0 CUDA images" "$tmp/kc.err" && echo ok)"
  # a cached kernel's source includes only system headers: its hash (source, compiler
  # command, ABI) covers all it depends on, so two checkouts or versions cannot share a
  # wrong entry
  kc "cached sources include no file of the checkout" "$(! grep -l '#include "' "$d"/oqk_*.c && echo ok)"
  timeout 120 "$OQ" run --target cpu tests/cpu/kernel_outputs.q >/dev/null 2>"$tmp/kc.err"
  kc "a cache hit marks its entry used" "$([ -z "$(find "$d" -name 'oqk_*.so' -mmin +60)" ] && echo ok)"
  touch -d '2 days ago' "$d"/oqk_*
  timeout 120 "$OQ" run --target cpu tests/lang/device_functions.q >/dev/null 2>"$tmp/kc.err"
  b_bytes=0
  for f in "$d"/oqk_*; do
    case " $(echo $a_files) " in *" ${f##*/} "*) ;; *) b_bytes=$((b_bytes + $(stat -c %s "$f"))) ;; esac
  done
  touch -d '2 hours ago' "$d/tmp_0123_99999_1.c"
  touch "$d/tmp_4567_99999_2.c" "$d/notes.txt"
  OQ_CACHE_MAX=$b_bytes "$OQ" cache prune >"$tmp/kc.err" 2>&1
  left=$(cd "$d" && ls | tr '\n' ' ')
  kept_a=0
  for f in $a_files; do [ -e "$d/$f" ] && kept_a=$((kept_a + 1)); done
  kc "cache prune: the least recently used go, down to OQ_CACHE_MAX" \
    "$([ "$kept_a" = 0 ] && ls "$d"/oqk_*.so >/dev/null 2>&1 && grep -q '^removed [1-9][0-9]* entries and 1 temporary files' "$tmp/kc.err" && echo ok)"
  kc "cache prune: stale temporary files go, fresh ones and other files stay" \
    "$([[ $left != *tmp_0123* && $left == *tmp_4567* && $left == *notes.txt* ]] && echo ok)"
  # writing an entry prunes too (at most every CACHE_PRUNE_EVERY_S: prune.stamp made old)
  touch -d '2 days ago' "$d"/oqk_*
  touch -d '1 day ago' "$d/prune.stamp"
  OQ_CACHE_MAX=1 timeout 120 "$OQ" run --target cpu tests/cpu/kernel_outputs.q >/dev/null 2>"$tmp/kc.err"
  rc=$?
  kc "compiling past OQ_CACHE_MAX removes the least recently used" \
    "$([ $rc -eq 0 ] && [ -z "$(find "$d" -name 'oqk_*' -mmin +60)" ] && echo ok)"
  "$OQ" cache clear >"$tmp/kc.err" 2>&1
  left=$(cd "$d" && ls | tr '\n' ' ')
  kc "cache clear removes every entry and temporary file, nothing else" \
    "$([[ $left != *oqk_* && $left != *tmp_* && $left == *notes.txt* ]] && grep -q 'the cache holds 0 entries' "$tmp/kc.err" && echo ok)"
  "$OQ" cache frobnicate >/dev/null 2>"$tmp/kc.err"
  kc "cache with an unknown command is a usage error" "$([ $? -eq 2 ] && grep -q 'usage: oq cache' "$tmp/kc.err" && echo ok)"
  unset OQ_CACHE_DIR OQ_CPU_TIERS
  echo "$(stamp)kernel cache: $kc_pass passed, $kc_fail failed"
  add "$kc_pass" "$kc_fail"
fi

# (g) 32-bit index arithmetic (the idx32 key bit): the generated code uses it for these
# launches, and OQ_DEV_NO_IDX32=1 (the 64-bit code) prints the same, per target run here
ix_pass=0
ix_fail=0
ix() {   # ix DESCRIPTION CONDITION-RESULT
  if [ "$2" = ok ]; then ix_pass=$((ix_pass + 1)); else echo "FAIL idx32: $1"; ix_fail=$((ix_fail + 1)); fi
}
ixsrc=$(timeout -k 5 60 "$OQ" emit --target cuda tests/lang/kernel_2d_3d.q 2>/dev/null)
ix "small launches compile with int32 indices for CUDA" "$(grep -q 'typedef int32_t oq_ix;' <<<"$ixsrc" && echo ok)"
ixsrc=$(OQ_DEV_NO_IDX32=1 timeout -k 5 60 "$OQ" emit --target cuda tests/lang/kernel_2d_3d.q 2>/dev/null)
ix "OQ_DEV_NO_IDX32=1 keeps int64 indices" "$(grep -q 'typedef int64_t oq_ix;' <<<"$ixsrc" && ! grep -q int32_t\ oq_ix <<<"$ixsrc" && echo ok)"
ixsrc=$(timeout -k 5 60 "$OQ" emit --target c tests/lang/kernel_2d_3d.q 2>/dev/null)
ix "the C back end keeps int64 indices" "$(grep -q 'typedef int64_t oq_ix;' <<<"$ixsrc" && ! grep -q int32_t\ oq_ix <<<"$ixsrc" && echo ok)"
for target in ${OQ_TEST_TARGETS:-cpu}; do
  # the CPU compiles int32 indices only when asked (OQ_DEV_CPU_IDX32=1), CUDA unless told not to
  case $target in cpu) on=OQ_DEV_CPU_IDX32=1 off=OQ_DEV_CPU_IDX32=0 ;; cuda) on=OQ_DEV_NO_IDX32=0 off=OQ_DEV_NO_IDX32=1 ;; *) continue ;; esac
  for f in tests/cpu/*.q tests/lang/index_wide.q tests/lang/boundary_*.q tests/lang/kernel_2d_3d.q \
           tests/lang/shared_*.q tests/seeds_run/hist_*.q; do
    if [ -n "${OQ_TEST_ONLY:-}" ] && ! [[ $f =~ ${OQ_TEST_ONLY} ]]; then continue; fi
    env "$on" timeout -k 5 "$TIMEOUT" "$OQ" run --target "$target" "$f" >"$tmp/ix32.out" 2>&1
    rc32=$?
    env "$off" timeout -k 5 "$TIMEOUT" "$OQ" run --target "$target" "$f" >"$tmp/ix64.out" 2>&1
    rc64=$?
    # toc's times differ from run to run
    ix "$f ($target): the int32 and int64 index code print the same" \
       "$([ $rc32 -eq 0 ] && [ $rc64 -eq 0 ] && cmp -s <(grep -v ' ms$' "$tmp/ix32.out") <(grep -v ' ms$' "$tmp/ix64.out") && echo ok)"
  done
done
echo "$(stamp)idx32: $ix_pass passed, $ix_fail failed"
add "$ix_pass" "$ix_fail"

echo "tests/run.sh: finished in $((SECONDS / 60))m$(printf '%02d' $((SECONDS % 60)))s"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]

#!/usr/bin/env bash
# tests/gpu.sh: THE script for a machine with an NVIDIA GPU. From the repository root:
#   1. the GPU, driver and CUDA toolkit in one line each (nvidia-smi, nvcc)
#   2. builds build/oq (make); without the libpng/libjpeg/libtiff headers (the GPU machine
#      has none and no package registry) it builds with NO_IMAGES=1: imread/imwrite report
#      an error and `make test` skips the image library suite; no .q test reads images
#   3. the CUDA layer's tests with their numbers (launch overhead, bandwidths): run_cuda.sh
#   4. make test (the CUDA part runs again in it, now counted with everything else)
#   5. the .q suite on the CUDA back end next to the CPU one (OQ_TEST_TARGETS="cpu cuda"),
#      once `oq run --target cuda` works; the programs check their own results, the print
#      tests compare output byte for byte; then tests/gpu/*.q, which only the GPU can run
#   6. the device pool and the overwrite analysis: tests/gpu/pool*.q under --profile (the
#      cuMemAlloc and upload counters; arrayexpr_resident.q: host array code moves f up once
#      and nothing down: its final check is a parallel loop; linalg_resident.q: cuSOLVER
#      factorizes a matrix on the GPU with nothing moved), the launch overhead (tests/gpu/launch.q) and the overlap
#      of launches with host work (tests/gpu/overlap.q)
#   7. make bench-gpu: oq's kernels against CUB and hand-written CUDA in one process
#      (bench/gpu), then make bench (the CPU back end against threaded C); bench-lib: the
#      FFT and matrix product against FFTW, OpenBLAS, cuFFT, cuBLAS, CuPy, PyTorch
#      (bench/lib/run.sh all)
#   8. compute-sanitizer --tool memcheck, racecheck and synccheck (one step each, side by
#      side on GPUs of their own where CUDA_VISIBLE_DEVICES or nvidia-smi names several;
#      GPU_SANITIZE_TOOLS picks some) over every .q test (lang, seeds_run, cpu, gpu, print,
#      errors, cpu_errors: each by its group's rule) and every example on --target cuda:
#      a failed test or any error, hazard or barrier misuse fails the step
#   programs: the .q programs of lang, seeds_run, cpu and gpu on --target cuda alone, 8 at
#      a time, again on first builds alone (OQ_DEV_CUDA_TIER_FAST=1), then three with
#      OQ_DEV_TILE_LITERAL=1, three with each merge of persistent blocks forced
#      (OQ_DEV_CUDA_PACKED) and the error tests (tests/errors, tests/cpu_errors) on cuda
#      (about two minutes: the quick check of generated code after a change)
#   xform: bench/xform/run.sh (seed 000's histograms and seed 001's sums against CUB)
#   cold-cuda: bench/coldstart_cuda.sh: each example's cold (empty cache) and warm start on
#      --target cuda, and each CUDA kernel's NVRTC compile ms
# GPU_SANITIZE_JOBS (default: half the cores; with the tools side by side on several GPUs,
# half the cores shared among the tools) programs at a time under each tool, and
# GPU_SANITIZE_LIMIT (600 s) each tool's limit. Session 20 on 4 H200s (64 cores), every
# program: memcheck alone on its GPU, 20 jobs, 385 s; the three side by side, 14 jobs each,
# did not finish in 430 s (racecheck, the slowest, had done 315 of 442).
# GPU_STEPS (default: all) picks steps by name: cuda test pool programs bench-gpu bench-lib bench-expr xform
# cold-cuda suite-cuda sanitize bench; the build always runs. GPU_SUITE_TARGETS (default "cpu cuda"): step 5's targets.
# The device tool sends the session's main checkout; to test a branch of another worktree,
# extract it into a folder that .git/info/exclude ignores and carry that folder:
#   git archive HEAD | tar -x -C /work/main/.wt-cuda   then run: cd .wt-cuda && bash tests/gpu.sh
# Logs go to $OUT (if set; else build/gpu-logs). Ends with one line per step and
# "gpu.sh: N steps failed"; exit status 1 if any failed.
set -u
cd "$(dirname "$0")/.." || exit 2
logs=${OUT:-build/gpu-logs}
export logs
mkdir -p "$logs" build
failed=0
summary=()

want() {   # want STEP: whether GPU_STEPS asks for it
  [ -z "${GPU_STEPS:-}" ] || [[ " $GPU_STEPS " == *" $1 "* ]]
}

step() {   # step NAME LIMIT_S COMMAND...: runs with a time limit, logs, records the result
  local name=$1 limit=$2 t0 rc
  shift 2
  echo "==== $name: $*"
  t0=$(date +%s)
  timeout -k 10 "$limit" "$@" >"$logs/$name.log" 2>&1
  rc=$?
  local line
  line="$name: status $rc, $(( $(date +%s) - t0 )) s, last line: $(tail -n 1 "$logs/$name.log")"
  [ "$rc" -ne 0 ] && failed=$((failed + 1))
  summary+=("$line")
  echo "$line"
  return "$rc"
}

# NVRTC is looked for under $CUDA_HOME: take the toolkit of the nvcc on the PATH.
if [ -z "${CUDA_HOME:-}" ] && command -v nvcc >/dev/null 2>&1; then
  CUDA_HOME=$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")
  export CUDA_HOME
fi

# The interpreter's fibers switch stacks with _longjmp, which glibc's _FORTIFY_SOURCE checks
# abort ("longjmp causes uninitialized stack frame"); the GPU machine's compiler defines it
# by default. (make reads CFLAGS from the environment and appends its own flags.)
export CFLAGS="${CFLAGS:--O2 -g} -U_FORTIFY_SOURCE"

# 1. the machine
echo "==== machine"
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=name,driver_version,memory.total,pcie.link.gen.max,pcie.link.width.max \
    --format=csv,noheader 2>&1 | head -n 4
else
  echo "nvidia-smi: not found"
fi
command -v nvcc >/dev/null 2>&1 && nvcc --version | tail -n 2 | head -n 1
echo "CUDA_HOME=${CUDA_HOME:-}: $(ls "${CUDA_HOME:-/usr/local/cuda}"/lib64/libnvrtc.so* 2>&1 | head -n 1)"
echo "$(nproc) cores, $(grep -m1 PRETTY_NAME /etc/os-release 2>/dev/null | cut -d= -f2)"

# 2. build
make_args=()
for h in png.h jpeglib.h tiffio.h; do
  if ! printf '#include <%s>\n' "$h" | cc -E - >/dev/null 2>&1; then
    echo "no $h: building with NO_IMAGES=1"
    make_args=(NO_IMAGES=1)
    break
  fi
done
no_images=0
[ ${#make_args[@]} -gt 0 ] && no_images=1   # built with NO_IMAGES=1: the suites skip the image tests
export no_images
if ! step build 300 make -j"$(nproc)" "${make_args[@]}"; then
  tail -n 30 "$logs/build.log"
  echo "gpu.sh: the build failed"
  exit 1
fi

# 3. the CUDA layer, with its numbers
if want cuda; then
  step cuda 300 bash tests/unit/run_cuda.sh
  grep -E '^(NOTE|FAIL)' "$logs/cuda.log"
fi

# 4. everything
if want test; then
  step test 600 make "${make_args[@]}" test
  grep -E '^FAIL|: [0-9]+ passed, [0-9]+ failed$|skipped' "$logs/test.log" | head -n 40
fi

gpu_ok=0
timeout 60 build/oq run --target cuda tests/print/ints.q >/dev/null 2>&1 && gpu_ok=1

# 6. the pool and the overwrite analysis, by the counters of --profile; launch overhead
counter() {   # counter LOG WORDS: the number before WORDS in the "cuda:" line of --profile
  grep '^cuda:' "$1" | grep -oE "[0-9]+ $2" | head -n 1 | cut -d' ' -f1
}
pool_check() {
  build/oq run --target cuda --profile tests/gpu/pool.q >"$logs/pool.out" 2>&1 || return 1
  build/oq run --target cuda --profile tests/gpu/pool_read.q >"$logs/pool_read.out" 2>&1 || return 1
  local a u ur
  a=$(counter "$logs/pool.out" cuMemAlloc)
  u=$(counter "$logs/pool.out" uploads)
  ur=$(counter "$logs/pool_read.out" uploads)
  build/oq run --target cuda --profile tests/gpu/host_copy.q >"$logs/host_copy.out" 2>&1 || return 1
  local hu hd
  hu=$(counter "$logs/host_copy.out" uploads)
  hd=$(counter "$logs/host_copy.out" downloads)
  build/oq run --target cuda --profile tests/gpu/arrayexpr_resident.q >"$logs/arrayexpr_resident.out" 2>&1 || return 1
  local xu xd
  xu=$(counter "$logs/arrayexpr_resident.out" uploads)
  xd=$(counter "$logs/arrayexpr_resident.out" downloads)
  build/oq run --target cuda --profile tests/gpu/linalg_resident.q >"$logs/linalg_resident.out" 2>&1 || return 1
  local lu ld
  lu=$(counter "$logs/linalg_resident.out" uploads)
  ld=$(counter "$logs/linalg_resident.out" downloads)
  echo "pool.q: ${a:-?} cuMemAlloc for 1000 zeros(256), ${u:-?} uploads; pool_read.q: ${ur:-?} uploads"
  echo "linalg_resident.q: ${lu:-?} uploads, ${ld:-?} downloads (want 0 and 0)"
  echo "host_copy.q: ${hu:-?} uploads, ${hd:-?} downloads (want 2 and 3)"
  echo "arrayexpr_resident.q: ${xu:-?} uploads, ${xd:-?} downloads (want 1 and 0)"
  [ -n "$a" ] && [ "$a" -lt 20 ] && [ "$u" = 0 ] && [ -n "$ur" ] && [ "$ur" -ge 1000 ] && [ "$hu" = 2 ] && [ "$hd" = 3 ] &&
    [ "$xu" = 1 ] && [ "$xd" = 0 ] && [ "${lu:-}" = 0 ] && [ "${ld:-}" = 0 ]
}
if want pool && [ $gpu_ok = 1 ]; then
  export logs
  export -f counter pool_check
  step pool 120 bash -c pool_check
  step launch 120 build/oq run --target cuda tests/gpu/launch.q
  step overlap 120 build/oq run --target cuda tests/gpu/overlap.q
fi

# the suite's programs on the GPU alone, 8 at a time (tests/gpu/launch.q, overlap.q and pool*.q
# time or count: they run in step 6)
programs_cuda() {
  local list out
  list=$(ls tests/lang/*.q tests/seeds_run/*.q tests/cpu/*.q tests/gpu/*.q | grep -v -e /launch.q -e /overlap.q -e /pool)
  # programs that need a run-time library this machine lacks (% NEEDS:, tools/needs.sh)
  local skip
  skip=$(sh tools/needs.sh $list | cut -d: -f1 | sort -u)
  [ -n "$skip" ] && echo "skipped (library missing): $(tr '\n' ' ' <<<"$skip")" &&
    list=$(grep -vxF -f <(printf '%s\n' "$skip") <<<"$list")
  out=$(xargs -P 8 -I{} sh -c 'timeout 200 build/oq run --target cuda {} >/dev/null 2>&1 || echo "FAIL {}"' <<<"$list")
  # again on the first builds of tiers alone (emit_cuda.c, fast_schedule: what a kernel runs
  # before its optimized build replaces it), which must compute what the optimized ones do
  out+=$'\n'$(OQ_DEV_CUDA_TIER_FAST=1 xargs -P 8 -I{} sh -c 'timeout 200 build/oq run --target cuda {} >/dev/null 2>&1 ||
    echo "FAIL first-builds {}"' <<<"$list")
  local extra=$(wc -l <<<"$list")
  # the literal grid's sweep, which streaming kernels take only when asked (emit_cuda.c)
  local f
  for f in tests/lang/kernel_tiling.q tests/gpu/sweep_columns.q tests/seeds_run/hist_all.q; do
    OQ_DEV_TILE_LITERAL=1 timeout 200 build/oq run --target cuda "$f" >/dev/null 2>&1 || out+=$'\n'"FAIL literal $f"
    extra=$((extra + 1))
  done
  # persistent blocks' two merges, each where the launch would pick the other (coarse.c
  # em_cuda_packed_when), with and without vector loads
  local v
  for f in tests/lang/shared_persistent.q tests/gpu/persistent.q tests/gpu/hist_vector.q; do
    for v in "OQ_DEV_CUDA_PACKED=0" "OQ_DEV_CUDA_PACKED=1" "OQ_DEV_CUDA_PACKED=1 OQ_DEV_CUDA_COARSE_VEC=1"; do
      env $v timeout 200 build/oq run --target cuda "$f" >/dev/null 2>&1 || out+=$'\n'"FAIL $v $f"
      extra=$((extra + 1))
    done
  done
  # the error tests on cuda, judged by tests/run.sh's rule for them (one program each)
  local res nerr=0
  res=$(mktemp)
  for f in tests/errors/*.q tests/cpu_errors/*.q; do
    bash tests/run.sh --one error cuda "$f" "$res"
    nerr=$((nerr + 1))
    grep -q '^PASS' "$res" || out+=$'\n'"FAIL error $f: $(head -n 2 "$res" | tr '\n' ' ')"
  done
  rm -f "$res"
  echo "error tests on cuda: $nerr"
  grep FAIL <<<"$out"
  echo "programs on cuda: $(($(wc -l <<<"$list") + extra)) run, $(grep -c FAIL <<<"$out") failed"
  ! grep -q FAIL <<<"$out"
}
if want programs && [ $gpu_ok = 1 ]; then
  export -f programs_cuda
  step programs 600 bash -c programs_cuda
  grep FAIL "$logs/programs.log" | head -n 20
fi

# 7. the GPU benchmarks, in one process (quiet device: before the parallel steps below)
if want bench-gpu && [ $gpu_ok = 1 ]; then
  step bench-gpu 420 make "${make_args[@]}" bench-gpu
  grep -vE '^(nvcc|/|cc |ar |rm )' "$logs/bench-gpu.log" | tail -n 30
fi

# the library benchmarks: fft2 2048^2 and SGEMM 4096^2 against FFTW/OpenBLAS (CPU) and
# cuFFT/cuBLAS, CuPy, PyTorch (GPU), called directly in the same run (bench/lib/run.sh)
if want bench-lib && [ $gpu_ok = 1 ]; then
  step bench-lib 600 bash bench/lib/run.sh all
  tail -n 12 "$logs/bench-lib.log"
fi

# host array expressions against JAX, PyTorch, CuPy, NumPy and threaded C (bench/arrayexpr),
# and the image library's filters against a copy (bench/imfilter.sh)
if want bench-expr && [ $gpu_ok = 1 ]; then
  step bench-expr 600 bash -c 'bash bench/arrayexpr/run.sh 2048 20 && PEERS=jax,copy AX_TARGETS="cuda cuda0" bash bench/arrayexpr/run.sh 4096 10 && bash bench/imfilter.sh cuda'
  grep -E '^\||^n =|psnr|imfilter|gaussian|copy|^cuda |cupyx|Memcpy' "$logs/bench-expr.log" | tail -n 60
fi

if want xform && [ $gpu_ok = 1 ] && command -v nvcc >/dev/null 2>&1; then
  step xform 600 bash bench/xform/run.sh "$logs/xform"
  tail -n 40 "$logs/xform.log"
fi

# 5. the .q suite on the GPU, next to the CPU back end (after the benchmarks: it is noisy)
# cold-cuda: every example started with an empty kernel cache and again warm on --target
# cuda, with each CUDA kernel's compile ms (NVRTC) of the cold run (bench/coldstart_cuda.sh)
if want cold-cuda && [ $gpu_ok = 1 ]; then
  step cold-cuda 600 bash bench/coldstart_cuda.sh
  cat "$logs/cold-cuda.log"
fi

if want suite-cuda && [ $gpu_ok = 1 ]; then
  step suite-cuda 600 env OQ_TEST_TARGETS="${GPU_SUITE_TARGETS:-cpu cuda}" OQ_NO_IMAGES=$no_images bash tests/run.sh
  grep -E '^FAIL|: [0-9]+ passed, [0-9]+ failed$' "$logs/suite-cuda.log" | head -n 40
  # programs only the GPU runs (launches beyond the interpreter's limits): a kernel of theirs
  # that falls back to the CPU fails them (gpu_only FILE [OPTION...])
  gpu_only() {
    local out rc
    out=$(build/oq run --verbose --target cuda "${@:2}" "$1" 2>&1)
    rc=$?
    printf '%s\n' "$out"
    [ $rc -eq 0 ] && ! grep -q 'does not run on the GPU' <<<"$out"
  }
  export -f gpu_only
  for f in tests/gpu/*.q; do
    step "gpu-$(basename "$f" .q)" 300 bash -c "gpu_only $f"
  done
  # double complex elements updated by sm_90's 16-byte atomicCAS (docs/cuda.md "Complex numbers")
  for f in tests/lang/complex_compound.q tests/gpu/complex_compound.q; do
    step "gpu-double-$(basename "$(dirname "$f")")-$(basename "$f" .q)" 300 bash -c "gpu_only $f --precision double"
  done
  # which kernels do not run on the GPU, and why (the launch then runs on the CPU back end)
  for f in tests/lang/*.q tests/seeds_run/*.q tests/cpu/*.q; do
    timeout 120 build/oq run --verbose --target cuda "$f" 2>&1 >/dev/null | grep 'does not run on the GPU'
  done | sed 's/ (line [0-9]*)//' | sort | uniq -c | sort -rn >"$logs/fallbacks.log"
  echo "kernels not on the GPU: $(wc -l <"$logs/fallbacks.log") distinct (fallbacks.log)"
elif [ $gpu_ok = 0 ]; then
  summary+=("suite-cuda: skipped: $(build/oq run --target cuda tests/print/ints.q 2>&1 | head -n 1)")
fi

# 8. compute-sanitizer over every program on the GPU: memcheck, racecheck and synccheck, one
#    step each (GPU_SANITIZE_TOOLS picks some, for a run that must stay under 10 minutes;
#    GPU_SANITIZE_ONLY, a regex of test files, picks programs and leaves out the examples).
#    Every .q test (lang, seeds_run, cpu, gpu, print, errors, cpu_errors) is judged by
#    tests/run.sh's rule for its group, through a build/oq that runs under the sanitizer and
#    writes its reports to a file of their own (the program's output stays the test's); every
#    example (examples/*.q) runs on a small generated image (netpbm: NO_IMAGES builds read
#    it). A failed test, a timeout or any report (error, race hazard, barrier misuse) fails it.
sanitizer=""
for c in "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer" \
         "${CUDA_HOME:-/usr/local/cuda}/compute-sanitizer/compute-sanitizer" "$(command -v compute-sanitizer)"; do
  [ -n "$c" ] && [ -x "$c" ] && { sanitizer=$c; break; }
done
sanitize_one() {   # sanitize_one TOOL KIND FILE [ARG...]: prints "FAIL ..." for a failure
  local tool=$1 kind=$2 f=$3 dir rc why=""
  shift 3
  dir=$(mktemp -d)
  # a program that stops before touching the GPU (a syntax error) makes the sanitizer exit
  # 255 ("terminated before first instrumented API call"): nothing ran on the GPU, so the
  # wrapper runs it again alone for its own status
  # synccheck leaves out cuBLAS's trsm_ln_up_kernel (mldivide of a triangular matrix,
  # tests/gpu/linalg_more.q): NVIDIA's kernel, whose barriers it reports as divergent and
  # then stops (session 20, CUDA 13.0); our kernels and the other library kernels stay in
  local skip=""
  [ "$tool" = synccheck ] && skip="--kernel-name-exclude kns=trsm_ln_up_kernel"
  printf '#!/bin/sh\n"%s" --tool %s %s --print-limit 10 --log-file "%s/report.%%p" "%s" "$@"\nrc=$?\n' \
    "$SANITIZER" "$tool" "$skip" "$dir" "$PWD/build/oq" >"$dir/oq"
  printf 'if grep -qs "terminated before first instrumented API call" "%s"/report.*; then rm -f "%s"/report.*; exec "%s" "$@"; fi\nexit $rc\n' \
    "$dir" "$dir" "$PWD/build/oq" >>"$dir/oq"
  chmod +x "$dir/oq"
  if [ "$kind" = example ]; then
    timeout -k 5 300 "$dir/oq" run --target cuda "$f" "$@" >"$dir/out" 2>&1
    rc=$?
    [ $rc -ne 0 ] && why="exit status $rc: $(tail -n 2 "$dir/out" | tr '\n' ' ')"
  else
    OQ=$dir/oq OQ_TEST_TIMEOUT=300 bash tests/run.sh --one "$kind" cuda "$f" "$dir/res"
    grep -q '^PASS' "$dir/res" || why=$(head -n 3 "$dir/res" | tr '\n' ' ')
  fi
  if cat "$dir"/report.* 2>/dev/null | grep -qE '(ERROR|RACECHECK) SUMMARY: [1-9]'; then
    why="${why:+$why; }sanitizer report"
  fi
  if [ -n "$why" ]; then
    echo "FAIL $f ($tool): $why"
    cat "$dir"/report.* 2>/dev/null |
      grep -E '^========= (Invalid|Error|Race|Barrier|Program hit|ERROR|RACECHECK|  at|    at)|Warning' |
      grep -v 'SUMMARY: 0 ' | head -n 12
  fi
  rm -rf "$dir"
  [ -z "${SANITIZE_DONE:-}" ] || echo "$f" >>"$SANITIZE_DONE"
}
sanitize_jobs() {   # sanitize_jobs IMAGE DIR: one line per program, "KIND FILE [ARG...]"
  local g f
  for g in lang:run seeds_run:run cpu:run gpu:run print:print errors:error cpu_errors:error; do
    for f in tests/"${g%%:*}"/*.q; do
      if [ -n "${GPU_SANITIZE_ONLY:-}" ] && ! [[ $f =~ $GPU_SANITIZE_ONLY ]]; then continue; fi
      # a timing program too long under the sanitizer names smaller arguments for main()
      # in a line "% SANITIZE_ARGS: ..." and runs by its exit status, like an example
      local args
      args=$(sed -n 's/^% SANITIZE_ARGS: *//p' "$f" | head -n 1)
      if [ -n "$args" ]; then echo "example $f $args"; continue; fi
      echo "${g#*:} $f"
    done
  done
  [ -z "${GPU_SANITIZE_ONLY:-}" ] || return 0   # (a regex of test files: no examples)
  # the gallery (examples/run_all.sh's arguments) on a 64 x 64 crop
  for f in gamma rotate gaussian morph bitonic matmul transpose hist_000 hist_002 hist_004; do
    echo "example examples/$f.q $1 $2/$f.ppm 64"
  done
  echo "example examples/mandelbrot.q $2/mandelbrot.ppm 64"
  echo "example examples/haar.q $1 $2/haar.ppm $2/haar_back.ppm 64"
  echo "example examples/filter3x3.q $1 $2/f1.ppm $2/f2.ppm $2/f3.ppm 64"
  echo "example examples/sums.q $1 64"
  echo "example examples/dot.q $1 64"
}
sanitize_all() {   # sanitize_all TOOL
  export SANITIZER=$sanitizer
  # each finished program's name, so that a step stopped by its limit says how far it got
  export SANITIZE_DONE=${logs:-build}/$1.done
  : >"$SANITIZE_DONE"
  local res dir n total
  res=$(mktemp)
  dir=$(mktemp -d)
  printf 'x = zeros(96, 128, 3)\nfor m = 0..95\n  for n = 0..127\n    for c = 0..2\n      x[m, n, c] = mod(m * 7 + n * 3 + c * 50, 256)\n    end\n  end\nend\nimwrite("%s/in.ppm", x)\n' \
    "$dir" >"$dir/gen.q"
  build/oq run --target interp "$dir/gen.q" || { echo "sanitize: cannot write the examples' image"; return 1; }
  sanitize_jobs "$dir/in.ppm" "$dir" >"$dir/jobs"
  total=$(wc -l <"$dir/jobs")
  xargs -P "${GPU_SANITIZE_JOBS:-$(( $(nproc) / 2 > 1 ? $(nproc) / 2 : 1 ))}" -L 1 bash -c 'sanitize_one '"$1"' "$@"' _ <"$dir/jobs" | tee "$res"
  [ -n "${GPU_SANITIZE_ONLY:-}" ] || ls examples/*.q | while read -r f; do
    grep -q " $f " "$dir/jobs" || echo "FAIL $f ($1): not in sanitize_jobs (tests/gpu.sh)"
  done | tee -a "$res"
  n=$(grep -c '^FAIL' "$res")
  rm -rf "$res" "$dir"
  echo "$1: $total programs checked (tests and examples), $n with errors"
  [ "$n" -eq 0 ]
}
# The GPUs the tools may spread over: CUDA_VISIBLE_DEVICES's list, else those nvidia-smi lists.
gpu_ids() {
  if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then tr ',' ' ' <<<"$CUDA_VISIBLE_DEVICES"
  else nvidia-smi -L 2>/dev/null | grep -c '^GPU' | { read -r n; seq 0 $((${n:-1} - 1)); }
  fi
}
sanitize_report() {   # sanitize_report TOOL: how far it got, its failures
  echo "$1: $(wc -l <"$logs/$1.done") programs finished"
  grep -A12 '^FAIL' "$logs/$1.log" | head -n 40
}
if want sanitize && [ $gpu_ok = 1 ]; then
  if [ -n "$sanitizer" ]; then
    export sanitizer
    export -f sanitize_one sanitize_jobs sanitize_all
    read -r -a tools <<<"${GPU_SANITIZE_TOOLS:-memcheck racecheck synccheck}"
    read -r -a ids <<<"$(gpu_ids | tr '\n' ' ')"
    if [ ${#ids[@]} -ge 2 ] && [ ${#tools[@]} -ge 2 ]; then
      # several GPUs: the tools side by side, tool i on GPU i (mod their count), the cores
      # shared among them; each step's status and summary line come back through files
      per=$(( $(nproc) / (2 * ${#tools[@]}) ))
      pids=()
      for i in "${!tools[@]}"; do
        tool=${tools[$i]}
        ( export CUDA_VISIBLE_DEVICES=${ids[$((i % ${#ids[@]}))]} GPU_SANITIZE_JOBS=${GPU_SANITIZE_JOBS:-$(( per > 1 ? per : 1 ))}
          step "$tool" "${GPU_SANITIZE_LIMIT:-600}" bash -c "sanitize_all $tool" >"$logs/$tool.step"
          echo $? >"$logs/$tool.rc" ) &
        pids+=($!)
      done
      for i in "${!tools[@]}"; do
        tool=${tools[$i]}
        wait "${pids[$i]}"
        cat "$logs/$tool.step"
        summary+=("$(tail -n 1 "$logs/$tool.step")")
        [ "$(cat "$logs/$tool.rc" 2>/dev/null)" = 0 ] || failed=$((failed + 1))
        sanitize_report "$tool"
      done
    else
      for tool in "${tools[@]}"; do
        step "$tool" "${GPU_SANITIZE_LIMIT:-600}" bash -c "sanitize_all $tool"
        sanitize_report "$tool"
      done
    fi
  else
    summary+=("sanitize: skipped (no compute-sanitizer under ${CUDA_HOME:-/usr/local/cuda})")
  fi
fi

# the CPU benchmarks
if want bench && [ -f bench/run.sh ]; then
  step bench 600 make "${make_args[@]}" bench
  tail -n 20 "$logs/bench.log"
fi

echo "==== summary"
printf '%s\n' "${summary[@]}"
echo "gpu.sh: $failed steps failed"
[ "$failed" -eq 0 ]

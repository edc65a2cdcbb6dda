#!/usr/bin/env bash
# Builds and runs tests/unit/test_cuda.c, the tests of the CUDA layer, in two parts:
#   host  (AddressSanitizer + UBSan): availability report, NVRTC and its disk cache, the memory
#         manager over a fake device; NVRTC checks say "skipped" when NVRTC is absent
#   gpu   (UBSan only: AddressSanitizer's shadow memory clashes with the CUDA driver's address
#         space reservations): kernels on the real device, transfers, pool, faults, and the
#         launch overhead and bandwidth numbers; "skipped" without a GPU
#   stub  (AddressSanitizer + UBSan) batched launches over tools/cuda_stub.c, a driver that
#         runs nothing and logs what would run; "skipped" without NVRTC
# On a machine with a GPU the host part runs with OQ_CUDA_DISABLE=1 (the driver is not
# loaded under AddressSanitizer). The last line is "N passed, N failed" (both parts).
set -u
cd "$(dirname "$0")/../.."
CC=${CC:-cc}
mkdir -p build/unit
srcs="src/device/rt_cuda.c src/device/rt_nvrtc.c src/runtime/rt_cache.c src/runtime/cache_admin.c src/device/rt_devmem.c src/runtime/rt_value.c src/runtime/rt_ops.c src/runtime/rt_index.c
      src/runtime/rt_print.c src/runtime/rt_builtins.c src/runtime/rt_object.c src/runtime/rt_stats.c src/base/diag.c src/base/arena.c src/base/config.c src/front/ast.c"
flags="-std=c11 -g -Wall -Wextra -Werror -D_GNU_SOURCE -fno-omit-frame-pointer -Isrc"
# shellcheck disable=SC2086 # word splitting of the lists is intended
if ! $CC $flags -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
     -o build/unit/test_cuda_asan tests/unit/test_cuda.c $srcs -ldl -lm ||
   ! $CC $flags -O2 -fsanitize=undefined -fno-sanitize-recover=all \
     -o build/unit/test_cuda tests/unit/test_cuda.c $srcs -ldl -lm; then
  echo "0 passed, 1 failed (build)"
  exit 1
fi

total_p=0
total_f=0
part() {   # part NAME COMMAND...: runs one part, adds its counts
  local name=$1 out rc last
  shift
  out=$("$@")
  rc=$?
  printf '%s\n' "$out"
  last=$(printf '%s\n' "$out" | tail -n 1)
  if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    total_p=$((total_p + BASH_REMATCH[1]))
    total_f=$((total_f + BASH_REMATCH[2]))
  else
    echo "FAIL test_cuda $name died (status $rc)"
    total_f=$((total_f + 1))
  fi
}

gpu_env=()
if [ -e /dev/nvidiactl ] || [ -e /dev/nvidia0 ]; then gpu_env=(OQ_CUDA_DISABLE=1); fi
ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
  part host env "${gpu_env[@]}" ./build/unit/test_cuda_asan host
UBSAN_OPTIONS=print_stacktrace=1 part gpu ./build/unit/test_cuda gpu
# batched launches over the do-nothing driver (tools/cuda_stub.c), which logs what would run
if $CC -O2 -shared -fPIC -o build/unit/libcuda_stub.so tools/cuda_stub.c; then
  ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 OQ_LIBCUDA=$PWD/build/unit/libcuda_stub.so \
    part stub env -u OQ_CUDA_DISABLE ./build/unit/test_cuda_asan stub
else
  echo "FAIL test_cuda stub: tools/cuda_stub.c did not build"
  total_f=$((total_f + 1))
fi

echo "$total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]

#!/bin/sh
# tools/deps.sh: checks that what the build needs is present: a C compiler (cc), make, and
# the development headers of libpng, libjpeg and libtiff; what `make test` needs for video
# and EXR: FFmpeg 5 (libavformat, libavcodec, libswscale, libavutil) and OpenEXR 3.1 (oq loads
# them with dlopen and builds without them; their -dev packages bring the libraries and the
# headers that tests/video/abi_check.c compares rt_av_abi.h with); the numerical libraries
# that oq loads at run time with dlopen (FFTW single and double, OpenBLAS with LAPACK: no
# headers needed; the FFT and linear-algebra tests use them); optionally libtcc-dev (tiers).
# Quiet when everything is there.
# Without apt-get (or when the install fails) a missing numerical library is only reported:
# the build does not need it, and its functions say which package to install.
# OQ_NO_IMAGES=1 (set by `make NO_IMAGES=1`): neither the image nor the video headers are
# needed (the video tests are skipped too).
# `tools/deps.sh fuzz` (make fuzz, fuzz-build): also clang and its libFuzzer runtime.
# `tools/deps.sh asan` (make asan): also GCC's AddressSanitizer and UBSan run-time libraries.
# When something is missing: as root it installs the Debian packages; otherwise it prints
# the command to run and exits 1. (Plain POSIX sh: the Makefile runs it with sh.)
set -u

APT_PKGS="gcc make libc6-dev libpng-dev libjpeg-dev libtiff-dev libavformat-dev libavcodec-dev libswscale-dev libavutil-dev libopenexr-dev"
# run-time libraries loaded with dlopen (src/runtime/rt_fft.c, rt_linalg.c)
LIB_PKGS="libfftw3-single3 libfftw3-double3 libopenblas0 liblapack3"
LIBS="libfftw3f.so.3 libfftw3.so.3 libopenblas.so.0 liblapack.so.3"
FUZZ=""
[ "${1:-}" = fuzz ] && FUZZ=1 && APT_PKGS="$APT_PKGS clang libclang-rt-14-dev"
ASAN=""
[ "${1:-}" = asan ] && ASAN=1 && APT_PKGS="$APT_PKGS libasan8 libubsan1"

missing() {
  miss=""
  command -v cc >/dev/null 2>&1 || miss="$miss cc"
  command -v make >/dev/null 2>&1 || miss="$miss make"
  headers="png.h jpeglib.h tiffio.h libavformat/avformat.h libswscale/swscale.h OpenEXR/ImfCRgbaFile.h"
  [ "${OQ_NO_IMAGES:-}" = 1 ] && headers=""
  for h in $headers; do
    if ! command -v cc >/dev/null 2>&1 ||
       ! printf '#include <%s>\n' "$h" | cc -E - >/dev/null 2>&1; then
      miss="$miss $h"
    fi
  done
  if [ -n "$FUZZ" ]; then   # libFuzzer links: clang and libclang-rt
    if ! command -v clang >/dev/null 2>&1 ||
       ! printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }\n' |
         clang -fsanitize=fuzzer -x c -o /dev/null - >/dev/null 2>&1; then
      miss="$miss clang-libfuzzer"
    fi
  fi
  if [ -n "$ASAN" ]; then   # make asan links oq and its kernels with both sanitizers
    if ! command -v cc >/dev/null 2>&1 ||
       ! printf 'int main(void) { return 0; }\n' |
         cc -fsanitize=address,undefined -x c -o /dev/null - >/dev/null 2>&1; then
      miss="$miss libasan-libubsan"
    fi
  fi
  printf '%s' "$miss"
}

missing_libs() {
  miss=""
  known=$(ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null)
  for l in $LIBS; do
    printf '%s\n' "$known" | grep -q "$l " || miss="$miss $l"
  done
  printf '%s' "$miss"
}

# Optional: TinyCC's library (libtcc-dev, with tcc's runtime files) makes CPU kernels start in
# milliseconds (docs/cpu.md, tiers); the build works without it. Installed along with the
# rest, or alone as root when apt-get can; a failure is not an error.
OPT_PKGS="libtcc-dev tcc"
optional() {
  [ -f /usr/include/libtcc.h ] && return 0
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 || return 0
  # shellcheck disable=SC2086 # the package list is split on purpose
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $OPT_PKGS >/dev/null 2>&1 ||
    echo "deps: optional $OPT_PKGS not installed (CPU kernels wait for the C compiler)" >&2
}

# The numerical libraries: installed when possible, else reported (not a build failure).
libs=$(missing_libs)
if [ -n "$libs" ]; then
  echo "deps: numerical libraries missing:$libs" >&2
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "deps: installing: $LIB_PKGS" >&2
    # shellcheck disable=SC2086 # the package list is split on purpose
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $LIB_PKGS >/dev/null 2>&1 ||
      { apt-get update >/dev/null 2>&1 &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $LIB_PKGS >/dev/null 2>&1; } ||
      echo "deps: could not install $LIB_PKGS; the FFT and linear-algebra tests are skipped" >&2
  else
    echo "deps: to get them: sudo apt-get install -y --no-install-recommends $LIB_PKGS" >&2
  fi
fi

miss=$(missing)
if [ -z "$miss" ]; then optional; exit 0; fi

echo "deps: missing:$miss" >&2
if [ "$(id -u)" = 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "deps: apt-get not found; install a C compiler, make and the libpng, libjpeg and" \
         "libtiff development packages by hand" >&2
    exit 1
  fi
  echo "deps: installing: $APT_PKGS" >&2
  DEBIAN_FRONTEND=noninteractive
  export DEBIAN_FRONTEND
  # shellcheck disable=SC2086 # the package list is split on purpose
  apt-get update && apt-get install -y --no-install-recommends $APT_PKGS || exit 1
  optional
  miss=$(missing)
  if [ -n "$miss" ]; then
    echo "deps: still missing after the install:$miss" >&2
    exit 1
  fi
  exit 0
fi
echo "deps: run: sudo apt-get update && sudo apt-get install -y --no-install-recommends $APT_PKGS" >&2
exit 1

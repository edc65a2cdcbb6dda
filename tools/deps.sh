#!/bin/sh
# tools/deps.sh: checks that what the build needs is present: a C compiler (cc), make, and
# the development headers of libpng, libjpeg and libtiff; and what `make test` needs for
# video and EXR: FFmpeg 5 (libavformat, libavcodec, libswscale, libavutil) and OpenEXR 3.1.
# oq loads those two with dlopen and builds without them; their -dev packages bring the
# libraries and the headers that tests/video/abi_check.c compares rt_av_abi.h with.
# Quiet when everything is there.
# OQ_NO_IMAGES=1 (set by `make NO_IMAGES=1`): neither the image nor the video headers are
# needed (the video tests are skipped too).
# When something is missing: as root it installs the Debian packages; otherwise it prints
# the command to run and exits 1. (Plain POSIX sh: the Makefile runs it with sh.)
set -u

APT_PKGS="gcc make libc6-dev libpng-dev libjpeg-dev libtiff-dev libavformat-dev libavcodec-dev libswscale-dev libavutil-dev libopenexr-dev"

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
  printf '%s' "$miss"
}

miss=$(missing)
[ -z "$miss" ] && exit 0

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
  miss=$(missing)
  if [ -n "$miss" ]; then
    echo "deps: still missing after the install:$miss" >&2
    exit 1
  fi
  exit 0
fi
echo "deps: run: sudo apt-get update && sudo apt-get install -y --no-install-recommends $APT_PKGS" >&2
exit 1

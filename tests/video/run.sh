#!/usr/bin/env bash
# tests/video/run.sh: video (FFmpeg), EXR (OpenEXR) and plot tests; tests/run.sh runs it as
# the group "video". The last line is "N passed, N failed".
#   abi        tests/video/abi_check.c against FFmpeg's headers (skipped without them)
#   programs   tests/video/*.q on each of $OQ_TEST_TARGETS (default: interp cpu), run as
#              `oq run --target T FILE DIR` with a fresh DIR (also $OQ_SHOW_DIR): they write
#              their clips, images and figures there and exit 0
#   exr-tiny   exr_tiny.c writes an EXR without OpenEXR; exr_tiny.q reads it back
#   errors     tests/video/errors/*.q: the first line `% EXPECT: <status> <regex>` (as in
#              tests/errors) for programs that need a clip or a folder
#   truncated  a clip cut short: reading it ends or stops with an error, never a crash
#   unclosed   a writer never closed: the end of the program finishes its file
#   windows    where Xvfb and SDL2 are installed: figures and a paced video in windows
# Without FFmpeg or OpenEXR (the libraries are loaded at run time) the group says so and
# counts nothing: tools/deps.sh installs them where `make test` runs.
set -u
cd "$(dirname "$0")/../.." || exit 1
OQ=${OQ:-build/oq}
CC=${CC:-cc}
TIMEOUT=${OQ_TEST_TIMEOUT:-120}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

have_lib() { ldconfig -p 2>/dev/null | grep -q "$1"; }
if ! have_lib libavformat.so.59 || ! have_lib libswscale.so.6 || ! have_lib libOpenEXR-3_1.so.30; then
  echo "video: skipped (FFmpeg 5 or OpenEXR 3.1 is not installed: tools/deps.sh installs them)"
  echo "0 passed, 0 failed"
  exit 0
fi

# ---- abi ----
if printf '#include <libavformat/avformat.h>\n#include <libswscale/swscale.h>\n' | $CC -E - >/dev/null 2>&1; then
  if $CC -std=c11 -Wall -Isrc -o "$tmp/abi_check" tests/video/abi_check.c 2>"$tmp/abi.err" && "$tmp/abi_check"; then
    ok
  else
    bad "abi: rt_av_abi.h disagrees with FFmpeg's headers"
    head -n 5 "$tmp/abi.err"
  fi
else
  echo "abi: skipped (no FFmpeg headers)"
fi

# ---- programs ----
run_q() {   # run_q TARGET FILE DIR: runs one program; its status, stdout and stderr in DIR
  mkdir -p "$3"
  OQ_SHOW_DIR=$3 timeout -k 5 "$TIMEOUT" "$OQ" run --target "$1" "$2" "$3" >"$3/out" 2>"$3/err" </dev/null
}
targets=${OQ_TEST_TARGETS:-interp cpu}
for t in $targets; do
  [ "$t" = cuda ] && continue
  for f in tests/video/*.q; do
    n=$(basename "$f" .q)
    [ "$n" = exr_tiny ] && continue
    [ "$n" = truncated ] || [ "$n" = unclosed ] || [ "$n" = windows ] && continue
    d=$tmp/$t/$n
    if run_q "$t" "$f" "$d"; then ok; else bad "$f on $t: exit status $?"; head -n 4 "$d/err"; fi
  done
done

# ---- exr-tiny ----
if $CC -std=c11 -Wall -o "$tmp/exr_tiny" tests/video/exr_tiny.c && mkdir -p "$tmp/tiny" &&
   "$tmp/exr_tiny" "$tmp/tiny/tiny.exr" && run_q interp tests/video/exr_tiny.q "$tmp/tiny"; then
  ok
else
  bad "exr_tiny: the EXR written without OpenEXR does not read back"
  head -n 4 "$tmp/tiny/err" 2>/dev/null
fi

# ---- errors ----
wav() {   # a WAV file of 800 silent 16-bit samples at 8 kHz: sound and no picture
  printf 'RIFF\x44\x06\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x40\x1f\x00\x00'
  printf '\x80\x3e\x00\x00\x02\x00\x10\x00data\x40\x06\x00\x00'
  head -c 1600 /dev/zero
}
for f in tests/video/errors/*.q; do
  d=$tmp/errors/$(basename "$f" .q)
  mkdir -p "$d"
  wav >"$d/audio.wav"
  spec=$(head -n 1 "$f")
  want_rc=$(printf '%s\n' "$spec" | sed -n 's/^% EXPECT: \([0-9][0-9]*\) .*$/\1/p')
  regex=$(printf '%s\n' "$spec" | sed -n 's/^% EXPECT: [0-9][0-9]* \(.*\)$/\1/p')
  run_q interp "$f" "$d"
  rc=$?
  line1=$(head -n 1 "$d/err")
  if [ -z "$want_rc" ]; then bad "$f: first line is not '% EXPECT: <status> <regex>'"
  elif [ "$rc" -ne "$want_rc" ]; then bad "$f: exit status $rc, expected $want_rc"; echo "    | $line1"
  elif ! printf '%s\n' "$line1" | grep -Eq -- "$regex"; then bad "$f: stderr does not match: $regex"; echo "    | $line1"
  else ok
  fi
done

# ---- truncated ----
mkdir -p "$tmp/trunc"
if run_q interp tests/video/truncated.q "$tmp/trunc"; then
  full=$tmp/trunc/whole.mkv
  size=$(wc -c <"$full")
  for cut in 64 300 $((size / 2)) $((size - 100)); do
    head -c "$cut" "$full" >"$tmp/trunc/cut.mkv"
    OQ_SHOW_DIR=$tmp timeout -k 5 "$TIMEOUT" "$OQ" run tests/video/truncated.q "$tmp/trunc" read >"$tmp/trunc/o" 2>"$tmp/trunc/e" </dev/null
    rc=$?
    if [ "$rc" -eq 0 ] || { [ "$rc" -eq 1 ] && grep -Eq 'vid(open|readframe): cannot' "$tmp/trunc/e"; }; then ok
    else bad "truncated clip ($cut of $size bytes): exit status $rc"; head -n 3 "$tmp/trunc/e"
    fi
  done
else
  bad "truncated.q could not write its clip"
  head -n 4 "$tmp/trunc/err"
fi

# ---- unclosed: a writer vidclose never closed is finished at the end of the program ----
if run_q interp tests/video/unclosed.q "$tmp/unclosed" && [ ! -e "$tmp/unclosed/empty.mkv" ] &&
   timeout -k 5 "$TIMEOUT" "$OQ" run tests/video/unclosed.q "$tmp/unclosed" read >"$tmp/unclosed/o" 2>&1 </dev/null; then
  ok
else
  bad "unclosed: the file of a writer left open is not finished (or an empty one is left)"
  head -n 4 "$tmp/unclosed/err" "$tmp/unclosed/o" 2>/dev/null
fi

# ---- windows: figures and a video in SDL windows, where Xvfb and SDL2 are installed ----
if command -v Xvfb >/dev/null && { ldconfig -p 2>/dev/null | grep -q 'libSDL2-2\.0\.so\.0'; }; then
  disp=:$((700 + $$ % 200))
  Xvfb "$disp" -screen 0 1024x768x24 -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
  xvfb=$!
  sleep 1
  w=$tmp/windows
  mkdir -p "$w"
  cp tests/video/windows.q "$w/windows.q"   # files, if any, would go next to the program
  if "$OQ" run "$w/windows.q" "$w" >/dev/null 2>&1 &&
     DISPLAY=$disp OQ_SHOW_WAIT=0 timeout -k 5 60 "$OQ" run "$w/windows.q" "$w" show >"$w/o" 2>"$w/e" </dev/null &&
     ! ls "$w"/*.png >/dev/null 2>&1; then
    ok
  else
    bad "windows: plot, subplot or a paced video in windows failed (or wrote files)"
    head -n 4 "$w/e"
  fi
  kill "$xvfb" 2>/dev/null
  wait "$xvfb" 2>/dev/null
else
  echo "windows: skipped (needs Xvfb and libSDL2-2.0.so.0: apt-get install xvfb libsdl2-2.0-0)"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/usr/bin/env bash
# tools/check_walk.sh: keeps docs/design.md's walk of one parallel_do true. Every name in
# backquotes in that section ("## The walk of one ...", up to the next "## ") must exist in
# src/: a lower-case name (a function) as a definition in a .c file (its name, then "(", on
# a line that starts a declaration at column 0), a header's static inline function or a
# function-like macro; another name (a
# type, an enum constant, an environment variable) as a word of a source file. Backquoted
# text that is not one name (code, a command line, a path) is not checked. First it checks
# itself: names that src/ does not define must not be found.
# Prints one line per missing name and, last, `walk: N passed, N failed`.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
doc=${1:-docs/design.md}
section=$(awk '/^## The walk of one/ {on = 1; next} on && /^## / {on = 0} on' "$doc")
if [ -z "$section" ]; then
  echo "walk: $doc has no section '## The walk of one ...'"
  echo "walk: 0 passed, 1 failed"
  exit 1
fi
names=$(printf '%s\n' "$section" | grep -o '`[^`]*`' | tr -d '`' | grep -E '^[A-Za-z_][A-Za-z0-9_]*$' | sort -u)
srcs=$(find src -name '*.[ch]' | sort)
csrcs=$(find src -name '*.c' | sort)
# Whether name $1 is a function of src/ (lower case) or a word of src/ (another name).
defined() {
  if [[ $1 =~ ^[a-z_][a-z0-9_]*$ ]]; then
    # a definition: `type name(` or `type *name(` at column 0 (not a call inside a body)
    grep -qE "^[A-Za-z_][A-Za-z0-9_ *]*[ *]$1\(" $csrcs ||
      grep -qE "^#define $1\(|^static inline [A-Za-z0-9_ *]*[ *]$1\(" $srcs
  else
    grep -qw -- "$1" $srcs
  fi
}
pass=0 fail=0
# the check itself: a name that is nowhere, and one called but not defined here, fail
for n in walk_no_such_function WalkNoSuchType dlsym; do
  if defined "$n"; then echo "walk: the check finds '$n', which src/ does not define"; fail=$((fail + 1)); fi
done
for n in $names; do
  if defined "$n"; then
    pass=$((pass + 1))
  elif [[ $n =~ ^[a-z_][a-z0-9_]*$ ]]; then
    echo "walk: $doc names \`$n\`, which no function of src/ is called"
    fail=$((fail + 1))
  else
    echo "walk: $doc names \`$n\`, which src/ does not mention"
    fail=$((fail + 1))
  fi
done
echo "walk: $pass passed, $fail failed"
[ $fail = 0 ]

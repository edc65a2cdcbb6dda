#!/usr/bin/env bash
# tools/check_commits.sh: commit subjects are at most 72 characters (details go in the
# body). Checks the commits after 07f24b0, the last commit made before the rule; older
# subjects are history. Skipped outside a git checkout or in a shallow one without it.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
since=07f24b0
if ! git rev-parse -q --verify "$since^{commit}" >/dev/null 2>&1; then
  echo "commits: skipped (no history before $since here)"
  exit 0
fi
long=$(git log --format='%h%x09%s' "$since..HEAD" | awk -F'\t' 'length($2) > 72 { print $1 " " $2 }')
n=$(git rev-list --count "$since..HEAD")
bad=$(printf '%s' "$long" | grep -c . || true)
[ -n "$long" ] && printf 'commits: subject over 72 characters: %s\n' "$long"
echo "commits: $((n - bad)) passed, $bad failed"
[ "$bad" = 0 ]

#!/usr/bin/env bash
# tools/check_commits.sh: commit subjects are at most 72 characters (details go in the
# body). Checks the commits after 07f24b0, the last commit made before the rule; older
# subjects are history, and so are the commits tools/commit_exceptions lists (made on a
# branch before the check existed, then merged). Skipped outside a git checkout or in a
# shallow one without 07f24b0.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
since=07f24b0
if ! git rev-parse -q --verify "$since^{commit}" >/dev/null 2>&1; then
  echo "commits: skipped (no history before $since here)"
  exit 0
fi
known=$(grep -v '^#' tools/commit_exceptions 2>/dev/null | cut -d' ' -f1 | tr '\n' ' ')
long=$(git log --format='%h%x09%s' "$since..HEAD" |
  awk -F'\t' -v known=" $known " 'length($2) > 72 && index(known, " " substr($1, 1, 7) " ") == 0 { print $1 " " $2 }')
n=$(git rev-list --count "$since..HEAD")
bad=$(printf '%s' "$long" | grep -c . || true)
[ -n "$long" ] && printf 'commits: subject over 72 characters: %s\n' "$long"
echo "commits: $((n - bad)) passed, $bad failed"
[ "$bad" = 0 ]

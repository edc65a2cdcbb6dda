#!/usr/bin/env bash
# contrib/test_editors.sh: the editor support of contrib/ highlights every seed program
# (tests/seeds_run/*.q and examples/*.q) without errors:
# - Vim (contrib/vim): loaded into `vim -es` with nothing else, each file gets filetype
#   quasar and syntax quasar, every line is highlighted with no error message, and a `%`
#   comment, a `function` and a number are in their groups;
# - TextMate (contrib/textmate/quasar.tmLanguage.json, VS Code's format): valid JSON, every
#   regex compiles (Python's re: the grammar keeps to the subset Oniguruma and Python share),
#   and a small tokenizer that applies the grammar line by line gives `%` lines the comment
#   scope, `function` the declaration scope, and finds every scope kind over the files.
# Ends with `N passed, N failed` (tests/run.sh adds the counts). Skips Vim if not installed.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oq-editors.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
files=(tests/seeds_run/*.q examples/*.q)
pass=0
fail=0

if command -v vim >/dev/null 2>&1; then
  cat >"$tmp/check.vim" <<'EOF'
let s:fails = []
for f in argv()
  execute 'silent edit ' . fnameescape(f)
  let v:errmsg = ''
  if &filetype !=# 'quasar' || get(b:, 'current_syntax', '') !=# 'quasar'
    call add(s:fails, f . ': filetype "' . &filetype . '", syntax "' . get(b:, 'current_syntax', '') . '"')
    continue
  endif
  for l in range(1, line('$'))
    let text = getline(l)
    for c in range(1, len(text))
      call synID(l, c, 1)
    endfor
  endfor
  let checks = [['^\s*%', '%', 'quasarComment'], ['^\s*function\>', 'function', 'quasarKeyword'],
              \ ['\<\d\+\>', '\<\d', 'quasarNumber']]
  for [line_re, at_re, group] in checks
    let l = search(line_re, 'nw')
    if l == 0 | continue | endif
    let c = match(getline(l), at_re) + 1
    let got = synIDattr(synID(l, c, 1), 'name')
    " a number inside a comment or string is theirs
    if got !=# group && !(group ==# 'quasarNumber' && got =~# 'Comment\|String\|Pragma')
      call add(s:fails, f . ':' . l . ': ' . group . ' expected, got "' . got . '"')
    endif
  endfor
  if v:errmsg !=# ''
    call add(s:fails, f . ': ' . v:errmsg)
  endif
endfor
call writefile(s:fails, $OQ_EDITORS_OUT)
qa!
EOF
  OQ_EDITORS_OUT=$tmp/vim.out vim -Nu NONE -i NONE -es --cmd 'set rtp^=contrib/vim' \
    -c 'filetype on' -c 'syntax on' -S "$tmp/check.vim" -- "${files[@]}" >"$tmp/vim.log" 2>&1 </dev/null
  rc=$?
  if [ "$rc" -eq 0 ] && [ -f "$tmp/vim.out" ] && [ ! -s "$tmp/vim.out" ] && ! grep -q 'E[0-9][0-9]*:' "$tmp/vim.log"; then
    pass=$((pass + 1))
  else
    echo "FAIL vim: contrib/vim/syntax/quasar.vim (exit status $rc)"
    head -n 10 "$tmp/vim.out" "$tmp/vim.log" 2>/dev/null | sed 's/^/    | /'
    fail=$((fail + 1))
  fi
else
  echo "vim: skipped (not installed)"
fi

if python3 - "${files[@]}" <<'EOF'
import json, re, sys
g = json.load(open("contrib/textmate/quasar.tmLanguage.json"))
rules = []
def compile_rule(r, where):
    for k in ("match", "begin", "end"):
        if k in r:
            r["_" + k] = re.compile(r[k])
    for i, p in enumerate(r.get("patterns", [])):
        compile_rule(p, where + "/" + str(i))
for name, r in g["repository"].items():
    compile_rule(r, name)
def expand(pats):
    out = []
    for p in pats:
        if "include" in p:
            out += expand([g["repository"][p["include"][1:]]])
        elif "_match" in p or "_begin" in p:
            out.append(p)
        else:
            out += expand(p.get("patterns", []))
    return out
top = expand(g["patterns"])
def tokens(line):
    pos, out = 0, []
    while pos < len(line):
        best = None
        for p in top:
            m = (p.get("_match") or p["_begin"]).search(line, pos)
            if m and (best is None or m.start() < best[1].start()):
                best = (p, m)
        if not best or best[1].end() == best[1].start():
            break
        p, m = best
        end = m.end()
        if "_begin" in p:
            e = p["_end"].search(line, end)
            end = e.end() if e else len(line)
        scope = p.get("name") or (p.get("captures", {}).get("1", {}).get("name"))
        out.append((m.start(), line[m.start():end], scope))
        pos = max(end, pos + 1)
    return out
fails, seen = [], set()
for f in sys.argv[1:]:
    for n, line in enumerate(open(f, encoding="utf-8", errors="replace"), 1):
        line = line.rstrip("\n")
        toks = tokens(line)
        for _, _, s in toks:
            if s: seen.add(s.split(".")[0] + "." + s.split(".")[1])
        if line.lstrip().startswith("%") and (not toks or not toks[0][2].startswith("comment")):
            fails.append("%s:%d: a %% line is not a comment" % (f, n))
        if re.match(r"\s*function\b", line) and (not toks or toks[0][2] != "keyword.declaration.function.quasar"):
            fails.append("%s:%d: function is not a declaration" % (f, n))
for kind in ("comment.line", "keyword.control", "keyword.declaration", "storage.type", "constant.numeric",
             "string.quoted", "support.function", "keyword.operator"):
    if kind not in seen:
        fails.append("no token of scope " + kind + " in the seed programs")
for x in fails[:10]:
    print("    | " + x)
sys.exit(1 if fails else 0)
EOF
then
  pass=$((pass + 1))
else
  echo "FAIL textmate: contrib/textmate/quasar.tmLanguage.json"
  fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/bin/sh
# Checks litmus' Python tokenizer against CPython's tokenize module: for
# each file given (default: a sample of the interpreter's standard
# library), the token texts must be identical (comments, NEWLINE, NL,
# INDENT, DEDENT and ENDMARKER dropped, as litmus drops them).
# Usage: bench/similarity_tokcheck.sh DRIVER [FILE...]
#   DRIVER: the litmus-similarity test driver (or `litmus similarity`).
# SPDX-License-Identifier: MIT
set -eu
driver=$1
shift
if [ $# -eq 0 ]; then
    lib=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
    set -- $(ls "$lib"/*.py | head -n 120)
fi
fail=0
total=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$@"; do
    total=$((total + 1))
    if ! python3 - "$f" >"$tmp/py" 2>/dev/null <<'PY'
import sys, tokenize
skip = {tokenize.COMMENT, tokenize.NEWLINE, tokenize.NL, tokenize.INDENT,
        tokenize.DEDENT, tokenize.ENDMARKER}
with open(sys.argv[1], 'rb') as fh:
    for tok in tokenize.tokenize(fh.readline):
        if tok.type == tokenize.ENCODING or tok.type in skip:
            continue
        print(tok.string)
PY
    then
        echo "skip (tokenize fails): $f"
        continue
    fi
    "$driver" --dump-tokens "$f" >"$tmp/lt"
    if ! cmp -s "$tmp/py" "$tmp/lt"; then
        echo "DIFF: $f"
        diff "$tmp/py" "$tmp/lt" | head -n 6
        fail=$((fail + 1))
    fi
done
echo "tokcheck: $((total - fail))/$total files identical"
[ "$fail" -eq 0 ]

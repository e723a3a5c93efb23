# --html: one self-contained file (mutation-test-elements.js inlined with
# its license, the report JSON with '<' escaped) rendered in headless
# Chromium through playwright-core; the shadow DOM shows the file, the
# score and the survivor's diff.  Screenshots go under build/.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_report.sh"
need_npm
need_chromium
score_merge_sort --html "$WORK/report.html"
grep -q "wrote the HTML report to $WORK/report.html" "$WORK/score.err" || fail "no HTML message: $(cat "$WORK/score.err")"
H=$WORK/report.html
# Self-contained: no external script, stylesheet or link.
grep -Eiq '<(script|link)[^>]+(src|href)=' "$H" && fail "the report loads something from outside"
grep -q 'Apache License' "$H" || fail "the license of mutation-testing-elements is not kept"
grep -q 'mutation-testing-elements 3.9.0' "$H" || fail "the inlined version is not named"
# A '<' in the report data (the survivor's original text is '<') is escaped.
data=$(grep "^document.querySelector('mutation-test-report-app').report = {" "$H")
[ -n "$data" ] || fail "no embedded report"
case $data in *'\u003c'*) ;; *) fail "'<' is not escaped in the embedded report" ;; esac
case $data in *'<'*) fail "unescaped '<' in the report data" ;; esac
# `report --html` gives the same page.
report --html "$WORK/again.html"
expect_eq "$RC" 0 "report --html"
cmp -s <(sed 's/"performance":{[^}]*}//' "$H") <(sed 's/"performance":{[^}]*}//' "$WORK/again.html") || fail "score --html and report --html differ"

SHOTS=$(dirname "$LITMUS")/report-screenshots
mkdir -p "$SHOTS"
cat > "$WORK/expect.json" <<'JSON'
{"files": ["bench/corpus/merge_sort/merge_sort.py"], "score": "97.50",
 "survivor": {"file": "bench/corpus/merge_sort/merge_sort.py", "line": 35,
              "column": 17, "original_line": "while width < n:",
              "mutated_line": "while width <= n:"}}
JSON
timeout 180 node "$REPO/tests/e2e/lib_report_browser.js" "$NPM_DIR" "$CHROMIUM" "$H" \
  "$SHOTS/merge_sort.png" "$WORK/expect.json" || fail "the report does not render as expected"
[ -s "$SHOTS/merge_sort.png" ] && [ -s "$SHOTS/merge_sort-survivor.png" ] || fail "no screenshot"

# The check can fail: a report of another score does not pass.
sed 's/"97.50"/"12.00"/' "$WORK/expect.json" > "$WORK/wrong.json"
timeout 180 node "$REPO/tests/e2e/lib_report_browser.js" "$NPM_DIR" "$CHROMIUM" "$H" \
  "$WORK/wrong.png" "$WORK/wrong.json" >"$WORK/wrong.log" 2>&1 && fail "a wrong score passed"
grep -q "check failed: score shown: 12.00" "$WORK/wrong.log" || fail "failed for another reason: $(tail -n 5 "$WORK/wrong.log")"

# Without mutation-test-elements.js: a clear error naming the fetch.
report --html "$WORK/none.html" --elements-js "$WORK/missing.js"
expect_eq "$RC" 2 "--html without the npm file"
grep -q 'scripts/fetch-npm.sh' "$WORK/err" || fail "the error does not name the fetch: $(cat "$WORK/err")"
[ -e "$WORK/none.html" ] && fail "a report was written anyway"
no_leftovers
exit 0

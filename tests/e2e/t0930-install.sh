# make install: the build under test installed into a temporary prefix
# (cmake --install, as `make install PREFIX=...` runs it) works from
# another directory with nothing beside it: `score --html` inlines the
# report's script from PREFIX/share/litmus/npm, and the Java worker maps
# its class archive from PREFIX/lib/litmus/java.
. "$(dirname "$0")/lib.sh"
BUILD=$(dirname "$LITMUS")
[ -f "$BUILD/cmake_install.cmake" ] || skip "$BUILD is not a CMake build directory"
ELEMENTS=npm/node_modules/mutation-testing-elements/dist/mutation-test-elements.js
if [ ! -f "$BUILD/$ELEMENTS" ]; then
  # The build fetches them (make build); a bare cmake --build does not.
  "$REPO/scripts/fetch-npm.sh" "$BUILD/npm" >"$WORK/fetch.log" 2>&1 ||
    skip "cannot fetch the npm packages: $(tail -n 2 "$WORK/fetch.log" | tr '\n' ' ')"
fi
P=$WORK/p
cmake --install "$BUILD" --prefix "$P" >"$WORK/install.log" 2>&1 ||
  fail "cmake --install: $(tail -n 5 "$WORK/install.log")"
[ -x "$P/bin/litmus" ] || fail "no $P/bin/litmus"
[ -f "$P/share/litmus/$ELEMENTS" ] || fail "the report's script is not installed: $(cat "$WORK/install.log")"
grep -q 'WARNING' "$WORK/install.log" && fail "install warned: $(cat "$WORK/install.log")"

# From a directory that holds nothing of litmus's.
mkdir -p "$WORK/elsewhere"
cd "$WORK/elsewhere" || fail "cd"
M=$CORPUS/merge_sort
"$P/bin/litmus" score "$M" --tests "$M" --db "$WORK/m.db" --no-progress \
  --html "$WORK/r.html" >"$WORK/out" 2>"$WORK/err"
expect_eq "$?" 0 "installed litmus score --html: $(tail -n 3 "$WORK/err")"
[ -s "$WORK/r.html" ] || fail "no HTML report"
grep -q 'mutation-testing-elements 3.9.0' "$WORK/r.html" || fail "the report does not inline mutation-testing-elements"
grep -q 'customElements.define' "$WORK/r.html" || fail "the report holds no web component script"
grep -q 'Apache License' "$WORK/r.html" || fail "the license of mutation-testing-elements is not kept"

# The Java worker, when this build has one, uses the installed archive.
if [ -f "$BUILD/java/litmus-worker.jsa" ] && command -v javac >/dev/null &&
   [ -r /usr/share/java/junit4.jar ]; then
  [ -f "$P/lib/litmus/java/litmus-worker.jsa" ] || fail "the class archive is not installed"
  G=$CORPUS/java/gcd
  echo "{\"id\":\"gcd\",\"path\":\"$G/src/corpus/gcd/Gcd.java\",\"tests\":\"$G/test\"}" > "$WORK/in.jsonl"
  LITMUS_DEBUG=1 "$P/bin/litmus" dataset faults "$WORK/in.jsonl" --lang java --no-db \
    -o "$WORK/faults.jsonl" >"$WORK/out" 2>"$WORK/err"
  expect_eq "$?" 0 "installed litmus dataset faults --lang java: $(tail -n 3 "$WORK/err")"
  [ -s "$WORK/faults.jsonl" ] || fail "no fault written"
  grep -q '"id": *"gcd' "$WORK/faults.jsonl" || fail "the faults are not gcd's: $(head -c 300 "$WORK/faults.jsonl")"
  line=$(grep -m 1 'litmus-jvm: class archive' "$WORK/err")
  expect_eq "$line" "litmus-jvm: class archive $(realpath "$P/lib/litmus/java/litmus-worker.jsa")" "the worker's class archive"
fi
cd / || fail "cd /"
no_leftovers
exit 0

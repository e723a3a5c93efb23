#!/usr/bin/env bash
# Runs every tests/e2e/t*.sh (or those matching $2) against the litmus
# binary $1; prints one line per test and a closing count.
set -u
LITMUS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
export LITMUS
dir=$(cd "$(dirname "$0")" && pwd)
pattern=${2:-t}
pass=0 failn=0 skipn=0
failed=()
for t in "$dir"/${pattern}*.sh; do
  [ -e "$t" ] || continue
  name=$(basename "$t" .sh)
  start=$(date +%s%N)
  log=$(mktemp)
  bash "$t" >"$log" 2>&1
  rc=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 )); dur=$(printf "%d.%02d" $((ms / 1000)) $(((ms % 1000) / 10)))
  case $rc in
    0) pass=$((pass + 1)); printf 'ok    %-45s %6ss\n' "$name" "$dur" ;;
    77) skipn=$((skipn + 1)); printf 'skip  %-45s %s\n' "$name" "$(tail -n 1 "$log")" ;;
    *) failn=$((failn + 1)); failed+=("$name"); printf 'FAIL  %-45s %6ss\n' "$name" "$dur"; sed 's/^/      /' "$log" | tail -n 30 ;;
  esac
  rm -f "$log"
done
echo "e2e: $pass passed, $failn failed, $skipn skipped"
[ $failn -eq 0 ]

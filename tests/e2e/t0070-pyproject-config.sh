# Settings from [tool.litmus] in pyproject.toml; the command line wins.
. "$(dirname "$0")/lib.sh"
proj=$WORK/proj
mkdir -p "$proj"
cp "$CORPUS/palindromes/"*.py "$proj/"
cd "$proj"
cat > pyproject.toml <<'TOML'
[tool.litmus]
paths = ["palindromes.py"]
tests = ["test_palindromes.py"]
db = "from-config.db"
fail_under = "99%"
jobs = 1
TOML
run_litmus score --no-progress
expect_eq "$RC" 1 "fail-under from the config"
[ -e from-config.db ] || fail "db from the config not used"
run_litmus score --no-progress --fail-under 0
expect_eq "$RC" 0 "--fail-under overrides the config"
run_litmus score --no-progress --no-config --db other.db palindromes.py --tests test_palindromes.py
expect_eq "$RC" 0 "--no-config"
echo 'colour = "blue"' >> pyproject.toml
run_litmus score --no-progress
expect_eq "$RC" 2 "unknown key"
grep -q "unknown key 'colour'" "$WORK/err" || fail "unclear message: $(cat "$WORK/err")"
# max-time: a duration as on the command line, or seconds; anything
# else is refused before anything runs.
sed -i '/^colour/d' pyproject.toml
for bad in '"soon"' '"1h30"' '0' '-5' '"200h"' 'true'; do
  printf 'max-time = %s\n' "$bad" >> pyproject.toml
  run_litmus score --no-progress
  expect_eq "$RC" 2 "max-time = $bad"
  grep -q "invalid value for 'max-time'" "$WORK/err" || fail "unclear message for max-time = $bad: $(cat "$WORK/err")"
  sed -i '/^max-time/d' pyproject.toml
done
# Taken, in both forms: a budget no start-up fits in leaves every mutant
# not_run.
for good in '"0.01s"' '0.01'; do
  printf 'max-time = %s\n' "$good" >> pyproject.toml
  run_litmus score --no-progress --fail-under 0 --db budget.db
  expect_eq "$RC" 0 "max-time = $good"
  grep -q "^litmus: --max-time 0.01 s was spent before the mutants" "$WORK/err" ||
    fail "max-time = $good not taken: $(cat "$WORK/err")"
  grep -q "not_run [1-9]" "$WORK/out" || fail "no not_run: $(cat "$WORK/out")"
  sed -i '/^max-time/d' pyproject.toml
done
# A key is read by its option's check, and says what the option says.
printf 'pass-env = ["TOKEN=x"]\n' >> pyproject.toml
run_litmus score --no-progress
expect_eq "$RC" 2 "pass-env = [\"TOKEN=x\"]"
grep -q "invalid value for 'pass-env' in \[tool.litmus\] (a variable's name)" "$WORK/err" ||
  fail "unclear message for pass-env: $(cat "$WORK/err")"
sed -i '/^pass-env/d' pyproject.toml
run_litmus score --no-progress --no-config palindromes.py --pass-env TOKEN=x
expect_eq "$RC" 2 "--pass-env TOKEN=x"
grep -q "^litmus score: --pass-env: invalid value 'TOKEN=x' (a variable's name)" "$WORK/err" ||
  fail "unclear message for --pass-env: $(cat "$WORK/err")"
printf '[tool.litmus\n' > broken.toml
run_litmus score --config broken.toml
expect_eq "$RC" 2 "broken TOML"
run_litmus score --config missing.toml
expect_eq "$RC" 2 "missing config"
exit 0

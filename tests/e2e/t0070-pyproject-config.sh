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
printf '[tool.litmus\n' > broken.toml
run_litmus score --config broken.toml
expect_eq "$RC" 2 "broken TOML"
run_litmus score --config missing.toml
expect_eq "$RC" 2 "missing config"
exit 0

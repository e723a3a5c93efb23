# Every default a help text states is the one the engine fills in (printed
# by the hidden `litmus __defaults`), and no help shows a printf escape.
. "$(dirname "$0")/lib.sh"
cd "$WORK" || fail "cd"
run_litmus __defaults
expect_eq "$RC" 0 "__defaults"
cp "$WORK/out" defaults.txt
grep -q '^score timeout-const ' defaults.txt || fail "no score defaults"
for cmd in score patches slurm "dataset select" "dataset typed" \
           "dataset faults" "dataset rewrite"; do
  run_litmus $cmd --help
  expect_eq "$RC" 0 "litmus $cmd --help"
  cp "$WORK/out" "help-${cmd// /-}.txt"
done
python3 - defaults.txt <<'PY' || fail "help texts and defaults disagree"
import re, sys
bad = 0
checked = 0
for line in open(sys.argv[1]):
    cmd, opt, want = line.split()
    seen = 0
    files = ["help-%s.txt" % cmd] if cmd != "dataset" else [
        "help-dataset-%s.txt" % m for m in ("select", "typed", "faults", "rewrite")]
    for f in files:
        text = open(f).read()
        # An option's block: from its line to the next option line.
        m = re.search(r"^ +(?:-\w, )?--%s(?=[\s=,]).*?(?=^ +(?:-\w, )?--|\Z)"
                      % re.escape(opt), text, re.M | re.S)
        if not m:
            continue
        seen += 1
        d = (re.search(r"default:?\s+([^\s)]+)", m.group(0))
             or re.search(r"(\S+) \(default\)", m.group(0)))
        if not d:
            print("%s: --%s names no default" % (f, opt)); bad += 1; continue
        got = d.group(1).rstrip(".,;")
        try:
            same = float(got) == float(want)
        except ValueError:
            same = got == want
        checked += 1
        if not same:
            print("%s: --%s says default %s, the engine uses %s" % (f, opt, got, want))
            bad += 1
    if not seen:
        print("--%s of %s is in no help" % (opt, cmd)); bad += 1
print("checked %d defaults" % checked)
sys.exit(1 if bad or checked < 20 else 0)
PY
# No `%%` (or other printf residue) in any help.
for cmd in "" score show report merge slurm patches completion dataset \
           "dataset select" "dataset typed" "dataset faults" "dataset rewrite" \
           similarity; do
  "$LITMUS" $cmd --help > h.txt 2>&1 || { [ "$cmd" = similarity ] && continue; fail "litmus $cmd --help"; }
  if grep -n '%%\|%[sdgu]\b' h.txt; then fail "litmus $cmd --help shows a printf escape"; fi
done
exit 0

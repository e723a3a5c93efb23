# litmus patches on a Django-style repository: a tree with a django
# package and tests/runtests.py runs its suite under Django's runner, as
# the harness runs `tests/runtests.py --settings=test_sqlite LABELS`: the
# settings module, the test apps of the named modules installed, the test
# database created once in the zygote (its rows, made by setUpTestData,
# seen by each forked test).  The instance names its tests as Django's
# runner prints them, "name (app.tests.Class)", and a documented test by
# its docstring's first line.  The package here is Debian's Django with
# one module of the tree's own (django/textkit.py), whose fix keeps a
# text that fits; the fix is correct, an alternative is correct, one that
# special-cases the tested text is overfitting with a witness, one that
# drops the ellipsis fails a PASS_TO_PASS test, and the empty diff is not
# resolved.
. "$(dirname "$0")/lib.sh"
/usr/bin/python3 -c 'import django' 2>/dev/null || skip "python3-django is not installed"
R=$WORK/repos/django__django
mkdir -p "$R/django" "$R/tests/notes"
cd "$R" || fail "cd"
git init -q -b main . && git config user.email t@e && git config user.name t
cat > django/__init__.py <<'PY'
# A stand-in for Django's source tree: Debian's Django, with this
# folder's own modules found first.
import os as _os
import sys as _sys

_here = _os.path.dirname(_os.path.abspath(__file__))
_real = next(_os.path.join(e, "django") for e in _sys.path
             if e and _os.path.abspath(_os.path.join(e, "django")) != _here
             and _os.path.isfile(_os.path.join(e, "django", "__init__.py")))
__path__.append(_real)
with open(_os.path.join(_real, "__init__.py")) as _f:
    exec(compile(_f.read(), _os.path.join(_real, "__init__.py"), "exec"))
PY
cat > django/textkit.py <<'PY'
def shorten(text, width):
    """text cut to width characters, an ellipsis marking the cut."""
    return text[:width] + "..."
PY
cat > tests/runtests.py <<'PY'
# Django's test runner's set-up, in the shape of Django's own
# tests/runtests.py: the settings module's databases, the test modules'
# applications installed.
import django
from django.apps import apps
from django.conf import settings

ALWAYS_INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.auth"]


def setup_run_tests(verbosity, start_at, start_after, test_labels=None):
    if any(l.split(".")[0] == "gis_tests" for l in test_labels or ()):
        # as Django's own does on a database without GIS
        print("Aborting: A GIS database backend is required to run gis_tests.")
        raise SystemExit(1)
    settings.INSTALLED_APPS = list(ALWAYS_INSTALLED_APPS)
    django.setup()
    for label in test_labels or ():
        app = label.split(".")[0]
        if app not in settings.INSTALLED_APPS:
            settings.INSTALLED_APPS.append(app)
    apps.set_installed_apps(settings.INSTALLED_APPS)
    return test_labels, {}


if __name__ == "__main__":
    raise SystemExit("run through the test runner")
PY
cat > tests/test_sqlite.py <<'PY'
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3"},
             "other": {"ENGINE": "django.db.backends.sqlite3"}}
SECRET_KEY = "django_tests_secret_key"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
USE_TZ = False
PY
: > tests/notes/__init__.py
cat > tests/notes/models.py <<'PY'
from django.db import models


class Note(models.Model):
    title = models.CharField(max_length=100)
PY
cat > tests/notes/tests.py <<'PY'
from django.test import SimpleTestCase, TestCase
from django.textkit import shorten

from .models import Note


class NoteTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        Note.objects.create(title="a rather long title")

    def test_shorten_long(self):
        note = Note.objects.get()
        self.assertEqual(shorten(note.title, 8), "a rather...")

    def test_count(self):
        self.assertEqual(Note.objects.count(), 1)


class PlainTests(SimpleTestCase):
    def test_shorten_empty_width(self):
        self.assertEqual(shorten("abc", 0), "...")
PY
# Two more applications whose tests read the changed module: the wider
# suite.  gis_tests needs a GIS database, which test_sqlite is not: the
# harness's runtests.py would abort on it, so it is left out, and the
# other application's tests are still run.
mkdir -p tests/gis_tests tests/widgets
: > tests/gis_tests/__init__.py
: > tests/widgets/__init__.py
for app in gis_tests widgets; do
  cat > tests/$app/tests.py <<'PY'
from django.test import SimpleTestCase
from django.textkit import shorten


class LabelTests(SimpleTestCase):
    def test_label_cut(self):
        self.assertEqual(shorten("a long label", 6), "a long...")
PY
done
git add -A && git commit -qm base
base=$(git rev-parse HEAD)
cat >> tests/notes/tests.py <<'PY'

    def test_shorten_fits(self):
        """A text that fits is kept as it is."""
        self.assertEqual(shorten("short", 10), "short")

    def test_shorten_exact(self):
        self.assertEqual(shorten("abcd", 4), "abcd")
PY
git diff > "$WORK/test.diff"
git checkout -q tests/notes/tests.py
# diff_of CODE: the fix's file as CODE (the body of shorten), as a diff.
diff_of() {
  printf 'def shorten(text, width):\n    """text cut to width characters, an ellipsis marking the cut."""\n%s\n' "$1" > django/textkit.py
  git diff
  git checkout -q django/textkit.py
}
ref=$(diff_of '    if len(text) <= width:
        return text
    return text[:width] + "..."')
alt=$(diff_of '    return text if width >= len(text) else text[:width] + "..."')
special=$(diff_of '    if text in ("short", "abcd"):
        return text
    return text[:width] + "..."')
dropped=$(diff_of '    return text[:width]')
cd "$WORK" || fail "cd work"
/usr/bin/python3 - "$base" "$WORK/test.diff" "$ref" "$alt" "$special" "$dropped" <<'PY' || fail "inputs"
import json, sys
base, test_diff = sys.argv[1:3]
# (the shell's $(...) took each diff's last newline)
ref, alt, special, dropped = (d + "\n" for d in sys.argv[3:])
t = lambda n, c="NoteTests": "%s (notes.tests.%s)" % (n, c)
inst = {"instance_id": "django__django-1", "repo": "django/django",
        "base_commit": base, "patch": ref, "test_patch": open(test_diff).read(),
        "FAIL_TO_PASS": ["A text that fits is kept as it is.",
                         t("test_shorten_exact", "PlainTests")],
        "PASS_TO_PASS": [t("test_shorten_long"), t("test_count"),
                         t("test_shorten_empty_width", "PlainTests")],
        "version": "3.2"}
open("instances.jsonl", "w").write(json.dumps(inst) + "\n")
with open("predictions.jsonl", "w") as f:
    for name, patch in (("ref", ref), ("alt", alt), ("special", special),
                        ("dropped", dropped), ("empty", "")):
        f.write(json.dumps({"instance_id": "django__django-1",
                            "model_name_or_path": name,
                            "model_patch": patch}) + "\n")
open("env.json", "w").write(json.dumps({"django/django": {"*": "/usr/bin/python3"}}))
PY
run_litmus patches --instances instances.jsonl --predictions predictions.jsonl \
  --repos "$WORK/repos" --env env.json --db "$WORK/p.db" --no-progress -f json \
  --worktrees "$WORK/trees" --diff-budget 2 --no-mutation \
  --harness-report "$WORK/harness"
expect_eq "$RC" 1 "exit code ($(tail -3 "$WORK/err"))"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "verdicts"
import json, sys
rows = {c["model_name_or_path"]: c for c in json.load(open(sys.argv[1]))["candidates"]}
harness = {k: c["evidence"].get("harness") for k, c in rows.items()}
assert harness == {"ref": "resolved", "alt": "resolved", "special": "resolved",
                   "dropped": "unresolved", "empty": "empty"}, harness
ev = rows["ref"]["evidence"]
# Both forms of the instance's ids found their tests, none missing.
assert ev["tests_counted"] == 5 and ev["decided_by"] == "instance lists", ev
assert rows["ref"]["verdict"] in ("correct", "memorized"), rows["ref"]
# The wider suite ran without the GIS application's tests; the
# reference's own text has nothing to tell apart from the reference.
alt = rows["alt"]
assert alt["evidence"]["wider"]["tests"] == 1, alt["evidence"]["wider"]
assert ev["wider"]["tests"] == 0, ev["wider"]
assert alt["verdict"] == "correct", alt
assert alt["evidence"]["differential"]["compared"] > 0, alt["evidence"]
s = rows["special"]
assert (s["verdict"], s["reason"]) == ("overfitting", "differs_from_reference"), s
assert s["evidence"]["witness"]["function"] == "shorten", s["evidence"]["witness"]
d = rows["dropped"]
assert d["verdict"] == "invalid" and d["reason"] == "fails_tests", d
assert "tests/notes/tests.py::NoteTests::test_shorten_long" in d["evidence"]["failing"], d
PY
grep -q "wider suite cannot be collected" "$WORK/err" && fail "the wider suite was dropped: $(grep wider "$WORK/err")"
true

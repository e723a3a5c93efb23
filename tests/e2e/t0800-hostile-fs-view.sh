# The file-system view: a test suite that tries to read, list, change,
# link out of, and fill what it should not.  Every attempt must fail
# inside the sandbox (each test asserts its own failure, so a leak is a
# failing baseline test), and the host must be unchanged afterwards.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "the uid checks need root"
proj=$WORK/proj
mkdir -p "$proj"
secret=$WORK/outside/secret.txt
mkdir -p "$WORK/outside"
echo "the host's secret" > "$secret"
chmod 644 "$secret"
cat > "$proj/shapes.py" <<'PY'
def area(w, h):
    return w * h
PY
cat > "$proj/test_hostile.py" <<PY
import errno
import os
import socket

import pytest

from shapes import area

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = os.path.join(HERE, "shapes.py")


def test_area():
    assert area(2, 3) == 6


def test_secret_outside_the_project_is_absent():
    with pytest.raises(OSError):
        open("$secret").read()


@pytest.mark.parametrize("path", ["/home", "/root", "/var", "/etc/shadow"])
def test_host_directories_are_absent(path):
    assert not os.path.exists(path)


def test_runs_as_nobody():
    assert os.getuid() == 65534 and os.geteuid() == 65534


@pytest.mark.parametrize("change", [
    lambda: os.chmod(TARGET, 0o777),
    lambda: os.chown(TARGET, 65534, 65534),
    lambda: os.utime(TARGET, (0, 0)),
    lambda: os.setxattr(TARGET, "user.litmus", b"1"),
    lambda: open(TARGET, "a").write("# changed"),
    lambda: os.unlink(TARGET),
])
def test_project_files_cannot_change(change):
    with pytest.raises(OSError):
        change()


def test_symlink_out_of_scratch_writes_nothing(tmp_path):
    link = tmp_path / "escape"
    os.symlink(TARGET, link)
    with pytest.raises(OSError):
        with open(link, "a") as f:
            f.write("# through a link")


def test_hard_link_out_of_scratch_fails(tmp_path):
    with pytest.raises(OSError):
        os.link(TARGET, tmp_path / "hard")


def test_zygote_memory_and_environment_are_closed():
    parent = os.getppid()
    for name in ("mem", "environ"):
        with pytest.raises(OSError):
            open("/proc/%d/%s" % (parent, name), "rb").read(16)


def test_unix_socket_in_tmp_fails():
    s = socket.socket(socket.AF_UNIX)
    with pytest.raises(OSError):
        s.bind("/tmp/litmus-hostile.sock")


def test_dev_shm_is_private():
    try:
        with open("/dev/shm/litmus-hostile", "w") as f:
            f.write("x")
    except OSError:
        pass  # refused is as good as private


def test_scratch_fills_up(tmp_path):
    with pytest.raises(OSError) as info:
        with open(tmp_path / "big", "wb") as f:
            for _ in range(64):
                f.write(b"\0" * (1 << 20))
                f.flush()
    assert info.value.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)


def test_scratch_inodes_are_capped(tmp_path):
    with pytest.raises(OSError):
        for i in range(100000):
            (tmp_path / str(i)).touch()
PY
snapshot() { (cd "$proj" && find . -path ./__pycache__ -prune -o -printf '%p %m %u %T@ %s\n' | sort
   sha256sum shapes.py test_hostile.py) ; stat -c '%a %U %Y %s' "$secret"; ls -la /dev/shm | grep -c litmus-hostile; ls /tmp | grep -c litmus-hostile; }
before=$(snapshot)
cd "$proj"
run_litmus score shapes.py --tests test_hostile.py --db "$WORK/h.db" --no-progress --scratch-mb 8
expect_eq "$RC" 0 "hostile suite: exit code ($(cat "$WORK/err"))"
grep -q "sandbox degraded" "$WORK/err" && fail "degraded: $(cat "$WORK/err")"
expect_eq "$(q "$WORK/h.db" "SELECT count(*) FROM tests WHERE outcome != 'passed'")" 0 "every hostile test passed (each attempt failed)"
expect_eq "$(verdict_at "$WORK/h.db" shapes.py 2)" killed "the honest mutant"
after=$(snapshot)
[ "$before" = "$after" ] || fail "the host changed: $(diff <(echo "$before") <(echo "$after"))"
# The view is stored with the run and can be listed.
q "$WORK/h.db" "SELECT value FROM meta WHERE key = 'sandbox_view'" | grep -q "^write " ||
  fail "view not stored"
run_litmus score shapes.py --tests test_hostile.py --db "$WORK/x.db" --explain-sandbox
expect_eq "$RC" 0 "--explain-sandbox"
grep -q "^read $proj\$" "$WORK/out" || fail "project not in the view: $(cat "$WORK/out")"
grep -q "^uid 65534\$" "$WORK/out" || fail "identity not listed"
grep -q "^degraded: nothing\$" "$WORK/out" || fail "degraded: $(tail -1 "$WORK/out")"
# --allow-read makes one more path visible.
run_litmus score shapes.py --tests test_hostile.py --db "$WORK/y.db" --explain-sandbox --allow-read "$secret"
grep -q "^read $secret\$" "$WORK/out" || fail "--allow-read not in the view"
# Without the view, the same suite leaks (so the assertions above can fail).
run_litmus score shapes.py --tests test_hostile.py --db "$WORK/n.db" --no-progress --no-fs-view -- -k "secret or nobody"
expect_eq "$RC" 2 "without the view the hostile tests fail"
grep -q "test_secret_outside_the_project_is_absent" "$WORK/err" || fail "no leak without the view?"
exit 0

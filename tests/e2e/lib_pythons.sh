# The CPython interpreters on this machine that litmus serves (3.9 to
# 3.13), and test venvs made from them.  Used by the multi-version tests
# (t0940) and bench/pyversions_bench.sh.  Source it; needs nothing else.

# lt_pythons: one line "X.Y PATH" a minor version, oldest first: the
# system's python3 for its own version, else pyenv's builds
# ($PYENV_ROOT, ~/.pyenv) and python3.X on PATH.  A candidate whose name
# gives its version (pyenv's versions/3.X.Y, python3.X) is not started
# when that version is outside 3.9-3.13 or already found, nor are the
# other python3.* commands (-config scripts, gdb helpers, 3.Xm): starting
# each of them (pyenv's shims run pyenv's scripts) cost 18 s of wall
# time and 5 s of CPU on a machine with nine pyenv builds.
lt_pythons() {
  local seen=" " py v named
  for py in /usr/bin/python3 /usr/bin/python3.[0-9]* \
            "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.*/bin/python3 \
            $(compgen -c python3. 2>/dev/null | sort -u); do
    named=""
    case $py in
      */versions/3.*/bin/python3)
        named=${py%/bin/python3}; named=${named##*/versions/}
        named=$(echo "$named" | sed -nE 's/^(3\.[0-9]+)\..*/\1/p') ;;
      */*) ;;
      *) case ${py#python} in 3.[0-9]|3.[0-9][0-9]) ;; *) continue ;; esac
         named=${py#python}
         py=$(command -v "$py") || continue ;;
    esac
    case $py in /usr/bin/python3.[0-9]*)
      case ${py#/usr/bin/python} in 3.[0-9]|3.[0-9][0-9]) named=${py#/usr/bin/python} ;; *) continue ;; esac ;;
    esac
    if [ -n "$named" ]; then
      case $named in 3.9|3.1[0-3]) ;; *) continue ;; esac
      case $seen in *" $named "*) continue ;; esac
    fi
    [ -x "$py" ] || continue
    v=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) || continue
    case $v in 3.9|3.1[0-3]) ;; *) continue ;; esac
    case $seen in *" $v "*) continue ;; esac
    seen="$seen$v "
    echo "$v $py"
  done | sort -t. -k2,2n
}

# lt_test_venv PYTHON DIR: a venv of PYTHON at DIR that can import pytest.
# The system's interpreter's takes the system's packages; another's gets
# Debian's pure-Python pytest (and what it needs) through a .pth file,
# since no package index is reachable here (a real venv installs its own).
lt_test_venv() {
  local py=$1 dir=$2 site
  if [ "$py" = /usr/bin/python3 ]; then
    "$py" -m venv --without-pip --system-site-packages "$dir" || return 1
    return 0
  fi
  "$py" -m venv --without-pip "$dir" || return 1
  "$dir/bin/python" -c 'import pytest' 2>/dev/null && return 0
  site=$("$dir/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') || return 1
  echo /usr/lib/python3/dist-packages >"$site/debian-pytest.pth"
  "$dir/bin/python" -c 'import pytest' || return 1
}

#!/usr/bin/env bash
# Installs the Debian packages litmus needs to build and test, and only
# those that are missing.  Needs root (or sudo) when something is missing.
set -euo pipefail

packages=(
  build-essential cmake pkg-config clang libclang-rt-14-dev
  libseccomp-dev libcap-dev libsqlite3-dev libpython3-dev libjansson-dev
  libcmocka-dev libtree-sitter-dev
  python3 python3-pytest sqlite3
  # The project-shape tests (t04xx): venvs with pip and setuptools for
  # editable installs, and the plugins a real suite brings.
  python3-venv python3-pip python3-setuptools python3-hypothesis
  python3-pytest-cov python3-pytest-xdist python3-exceptiongroup python3-tomli
  # Django's runner for repository candidates (t0216): Debian's Django,
  # whose test runner sets up a Django-style tree's suite.
  python3-django
  # Line coverage of our own C code (make test, make coverage).
  gcovr
  # The --telemetry programs (LT_WITH_BPF): libbpf, and bpftool for
  # vmlinux.h and the skeleton (clang is above).
  libbpf-dev bpftool
  # The report tests (t07xx): schema validation and the HTML report
  # rendered in a real browser (driven by npm's playwright-core).
  python3-jsonschema chromium
  # The Slurm test (t0900): a single-node cluster of Debian's daemons,
  # started by the test itself in a network namespace of its own.
  slurmctld slurmd slurm-client munge iproute2
  # Java in `litmus dataset` (--lang java): the JDK whose compiler and
  # JVM the Java workers embed, and JUnit 4 for the programs' tests.
  openjdk-17-jdk-headless junit4
)
# node and npm fetch and run the report tests' npm packages
# (scripts/fetch-npm.sh); a machine that has them from elsewhere (a
# nodesource build ships npm inside nodejs) keeps its own.
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "installing: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "error: missing packages (${missing[*]}) and not root; install them first" >&2
    exit 2
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

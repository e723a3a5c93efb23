#!/usr/bin/env bash
# Fetches the npm packages the report tests and `litmus report --html`
# need into build/npm/ (or $1): the Stryker report schema, the HTML report
# web component, playwright-core (drives Debian's Chromium) and the SARIF
# 2.1.0 schema.  Each is an `npm pack` tarball (checked against the
# registry's integrity hash by npm), unpacked under node_modules/; what is
# already there is kept.  Nothing of it is ever committed (.gitignore).
# Prints "fetch-npm: ok DIR" or, on failure, why; exit 0 or 1.
set -euo pipefail

dest=${1:-build/npm}
# Pinned so that every machine renders and validates against the same
# files (docs/reports.md).
packages=(
  mutation-testing-elements@3.9.0
  mutation-testing-report-schema@3.8.4
  playwright-core@1.65.1
  @microsoft/jest-sarif@1.0.0-beta.0
)

if ! command -v npm >/dev/null 2>&1; then
  echo "fetch-npm: npm is missing (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
mkdir -p "$dest/node_modules" "$dest/tarballs"
dest=$(cd "$dest" && pwd)
for spec in "${packages[@]}"; do
  name=${spec%@*}
  version=${spec##*@}
  dir=$dest/node_modules/$name
  if [ -f "$dir/package.json" ] &&
     grep -q "\"version\": *\"$version\"" "$dir/package.json"; then
    continue
  fi
  echo "fetch-npm: $spec" >&2
  tmp=$(mktemp -d "$dest/tarballs/.tmp-XXXXXX")
  if ! (cd "$tmp" && npm pack --silent "$spec" >/dev/null 2>"$tmp/err"); then
    echo "fetch-npm: npm pack $spec failed: $(tail -n 3 "$tmp/err")" >&2
    rm -rf "$tmp"
    exit 1
  fi
  tgz=$(ls "$tmp"/*.tgz)
  rm -rf "$dir"
  mkdir -p "$dir"
  tar -xzf "$tgz" -C "$dir" --strip-components=1
  mv "$tgz" "$dest/tarballs/"
  rm -rf "$tmp"
done
echo "fetch-npm: ok $dest"

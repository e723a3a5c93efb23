#!/usr/bin/env bash
# Fetches the npm packages the report tests and `litmus report --html`
# need into build/npm/ (or $1): the Stryker report schema, the HTML report
# web component, playwright-core (drives Debian's Chromium) and the SARIF
# 2.1.0 schema.  Each is an `npm pack` tarball (checked against the
# registry's integrity hash by npm), unpacked under node_modules/; what is
# already there is kept.  Nothing of it is ever committed (.gitignore).
# Prints "fetch-npm: ok DIR" or, on failure, why; exit 0 or 1.
#
# --build (make build, demo, all, install): silent when everything is
# there already; without npm or the registry, one warning line and exit
# 0, so that the build goes on (the HTML report then says how to fetch).
set -euo pipefail

build=0
if [ "${1:-}" = --build ]; then
  build=1
  shift
fi
dest=${1:-build/npm}
# Pinned so that every machine renders and validates against the same
# files (docs/reports.md).
packages=(
  mutation-testing-elements@3.9.0
  mutation-testing-report-schema@3.8.4
  playwright-core@1.65.1
  @microsoft/jest-sarif@1.0.0-beta.0
)

# With --build a failure is a warning: the build goes on without them.
give_up() { # why
  if [ "$build" = 1 ]; then
    echo "warning: fetch-npm: $1; the HTML report needs these npm files: fetch them later with scripts/fetch-npm.sh $dest" >&2
    exit 0
  fi
  echo "fetch-npm: $1" >&2
  exit 1
}
# In the build, an offline registry fails fast instead of retrying.
npm_opts=()
[ "$build" = 1 ] && npm_opts=(--fetch-retries=1 --fetch-timeout=60000)

if ! command -v npm >/dev/null 2>&1; then
  give_up "npm is missing (scripts/install-deps.sh installs it)"
fi
mkdir -p "$dest/node_modules" "$dest/tarballs"
dest=$(cd "$dest" && pwd)
fetched=0
for spec in "${packages[@]}"; do
  name=${spec%@*}
  version=${spec##*@}
  dir=$dest/node_modules/$name
  if [ -f "$dir/package.json" ] &&
     grep -q "\"version\": *\"$version\"" "$dir/package.json"; then
    continue
  fi
  [ "$build" = 1 ] || echo "fetch-npm: $spec" >&2
  tmp=$(mktemp -d "$dest/tarballs/.tmp-XXXXXX")
  if ! (cd "$tmp" && npm pack --loglevel=error "${npm_opts[@]}" "$spec" >/dev/null 2>"$tmp/err"); then
    # npm's own line of the cause (FetchError, 404), else its first.
    why=$(grep -m 1 -E 'FetchError|404' "$tmp/err" || head -n 1 "$tmp/err")
    why=${why#npm error }
    why=${why#npm ERR! }
    rm -rf "$tmp"
    give_up "npm pack $spec failed: ${why:-no reason given}"
  fi
  fetched=1
  tgz=$(ls "$tmp"/*.tgz)
  rm -rf "$dir"
  mkdir -p "$dir"
  tar -xzf "$tgz" -C "$dir" --strip-components=1
  mv "$tgz" "$dest/tarballs/"
  rm -rf "$tmp"
done
[ "$build" = 1 ] && [ "$fetched" = 0 ] && exit 0
echo "fetch-npm: ok $dest"

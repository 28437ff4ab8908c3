#!/usr/bin/env bash
# Generates a TypeScript client from an OpenAPI document with openapi-typescript and compiles it under tsc --strict
# together with job-monitor.ts (code a frontend writes against it: the job-monitor table, a submission, a problem).
# The versions are pinned by package-lock.json; packages come from the npm cache under <repo>/target/npm-cache
# (filled on the first run from the npm registry, offline afterwards).
#   usage: check-client.sh <openapi.json> [work dir, default <repo>/gateway/target/ts-client]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
doc=$(cd "$(dirname "${1:?usage: check-client.sh <openapi.json> [work dir]}")" && pwd)/$(basename "$1")
work=${2:-$repo/gateway/target/ts-client}
cache=$repo/target/npm-cache
command -v npm >/dev/null || { echo "npm is not on the PATH: this check needs Node.js (18+) with npm" >&2; exit 2; }
mkdir -p "$work" "$cache"
cp "$here/package.json" "$here/package-lock.json" "$here/job-monitor.ts" "$work/"
cd "$work"
if [ ! -x node_modules/.bin/tsc ] || ! cmp -s package-lock.json node_modules/.package-lock.json.copy; then
  npm ci --cache "$cache" --prefer-offline --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.package-lock.json.copy
fi
node_modules/.bin/openapi-typescript "$doc" -o schema.d.ts
node_modules/.bin/tsc --noEmit --strict --target es2022 --module es2022 --moduleResolution node job-monitor.ts
echo "a client generated from $doc compiles"

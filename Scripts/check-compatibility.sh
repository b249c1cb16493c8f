#!/usr/bin/env bash
# Builds the app written against the previous release (Tests/Compatibility/Gallery, written for 0.1.0 and never
# changed since) against a checkout of Imago, this one unless given, and runs it. Fails unless every diagnostic of
# the build is a deprecation warning (each names what to do instead) and every one of the app's set-ups still works.
# CI runs it after the API check: a debug build of the library modules in a scratch folder of its own (about 90 s of
# CPU here), the only check that code written for the previous release still builds and still works.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
checkout=$(cd "${1:-$root}" && pwd)
scratch=$root/.build/compatibility
mkdir -p "$scratch"
# The app names the package `imago`, which SwiftPM takes from the last component of its path.
ln -sfn "$checkout" "$scratch/imago"
log=$scratch/build.log
status=0
IMAGO_CHECKOUT=$scratch/imago swift build --package-path "$root/Tests/Compatibility/Gallery" \
    --scratch-path "$scratch/build" >"$log" 2>&1 || status=$?
diagnostics=$(grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' "$log" | sort -u || true)
others=$(grep -v -E ': warning: .*deprecated' <<<"$diagnostics" || true)
deprecations=$(grep -c -E ': warning: .*deprecated' <<<"$diagnostics" || true)
if [ "$status" -ne 0 ] || [ -n "$others" ]; then
    echo "check-compatibility: the 0.1.0 app does not build against $checkout with deprecation warnings only:"
    if [ -n "$others" ]; then echo "$others"; else tail -20 "$log"; fi
    exit 1
fi
echo "check-compatibility: the 0.1.0 app builds against $checkout with $deprecations deprecation warnings and nothing else"
"$scratch/build/debug/Gallery"
